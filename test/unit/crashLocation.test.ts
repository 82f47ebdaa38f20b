/**
 * Where a crashing mistake is (core `crashLocation`): the line of the learner's file that the traceback of the
 * run where the program died names, taken only for a mistake whose model dies at that very command. FAKE
 * program: the toy model of locateToys.ts (`get-crash`: GET dies once the count is above zero), its stderr a
 * Python traceback or a Node stack written here as the interpreters write them.
 */
import * as assert from 'node:assert/strict';
import type { ProcessResult } from '../../src/core/check/process';
import { crashLocation, type CrashEvidence } from '../../src/core/check/crashLocation';
import { casesOf, findingOf, model, stepAt, streamOf } from './locateToys';

const PY_SOURCE = [
  'import sys',
  '',
  'def get(count):',
  '    return helper(count)',
  '',
  'def helper(count):',
  '    raise ValueError("no")',
].join('\n');
const PY_TRACEBACK = [
  'Traceback (most recent call last):',
  '  File "/work/lesson/balancer.py", line 9, in <module>',
  '  File "/work/lesson/balancer.py", line 4, in get',
  '  File "/work/lesson/balancer.py", line 7, in helper',
  '  File "/usr/lib/python3.11/random.py", line 3, in choice',
  'ValueError: no',
].join('\n');
const JS_STACK = [
  '/tmp/x/balancer.js:7',
  '  throw new Error("no");',
  '  ^',
  '',
  'Error: no',
  '    at helper (/tmp/x/balancer.js:7:9)',
  '    at get (/tmp/x/balancer.js:4:10)',
].join('\n');

const runWith = (stderr: string): ProcessResult => ({
  stdout: '',
  stderr,
  exitCode: 1,
  signal: null,
  timedOut: false,
  outputLimited: false,
  durationMs: 1,
});

function evidence(
  stderr: string,
  language: CrashEvidence['language'],
  fileName: string,
  lists: string[][],
  on: string[],
) {
  const streams = [streamOf(lists, on)];
  const e: CrashEvidence = {
    model,
    streams,
    runs: [runWith(stderr)],
    cases: casesOf(lists),
    language,
    fileName,
    source: PY_SOURCE,
  };
  return { e, streams };
}

describe('where a crashing mistake is: the line its traceback names', () => {
  it("takes the innermost frame of the learner's own file from a Python traceback, at the command it died at", () => {
    const { e, streams } = evidence(PY_TRACEBACK, 'python', 'balancer.py', [['INC', 'GET']], ['get-crash']);
    assert.equal(streams[0]!.ending, 'crashed');
    const location = crashLocation(e, findingOf('get-crash', [stepAt(streams, 0, 2)]));
    assert.deepEqual(location?.lines, [7]);
    assert.equal(location?.function, 'helper');
    assert.equal(location?.reason, 'your program crashed on this line at GET (ValueError: no)');
    assert.deepEqual(location?.at, { table: false, transcript: 'generated-1', label: 'a random test (#1)' });
  });

  it('takes the first frame of a Node stack (the innermost), by the name the stack shows', () => {
    const { e, streams } = evidence(JS_STACK, 'javascript', 'balancer.js', [['INC', 'GET']], ['get-crash']);
    assert.deepEqual(crashLocation(e, findingOf('get-crash', [stepAt(streams, 0, 2)]))?.lines, [7]);
  });

  it("gives nothing for a mistake whose model does not die there, or when no frame is the learner's", () => {
    const { e, streams } = evidence(PY_TRACEBACK, 'python', 'balancer.py', [['INC', 'GET']], ['get-crash']);
    // The program died at GET, but a mistake that only prints a wrong count does not crash: not its line.
    assert.equal(crashLocation(e, findingOf('get-off', [stepAt(streams, 0, 2)])), undefined);
    assert.equal(
      crashLocation({ ...e, fileName: 'other.py' }, findingOf('get-crash', [stepAt(streams, 0, 2)])),
      undefined,
    );
    assert.equal(crashLocation(e, undefined), undefined);
  });

  it('gives nothing for a step the program answered (it died later, or not at all)', () => {
    const { e, streams } = evidence(PY_TRACEBACK, 'python', 'balancer.py', [['INC', 'GET']], ['get-crash']);
    // The INC was answered: the crash is not there.
    assert.equal(crashLocation(e, findingOf('get-crash', [stepAt(streams, 0, 1)])), undefined);
    // The program answered this GET and died later (at BAD), where the mistake's model would have died at the GET.
    const later = evidence(PY_TRACEBACK, 'python', 'balancer.py', [['INC', 'GET', 'BAD']], ['get-off']);
    assert.equal(later.streams[0]!.ending, 'crashed');
    assert.equal(crashLocation(later.e, findingOf('get-crash', [stepAt(later.streams, 0, 2)])), undefined);
    const finished = evidence(PY_TRACEBACK, 'python', 'balancer.py', [['GET']], ['get-off']);
    assert.equal(crashLocation(finished.e, findingOf('get-crash', [stepAt(finished.streams, 0, 1)])), undefined);
  });
});
