/**
 * Trailing bytes on answer lines (core `lineEndings`), beyond lineEndings.test.ts: a tab is named as a tab (the
 * learner is told which byte to take off), and an empty answer line in the middle of the output is an answer
 * line like any other in the tally ("3 of your program's 5 answer lines"), only the empty tail after the last
 * newline is not.
 */
import * as assert from 'node:assert/strict';
import { LineEndingFilter, lineEndingsProblem } from '../../src/core/check/lineEndings';
import type { ProcessResult } from '../../src/core/check/process';

const run = (stdout: string): ProcessResult => ({
  stdout,
  stderr: '',
  exitCode: 0,
  signal: null,
  timedOut: false,
  outputLimited: false,
  durationMs: 1,
});

describe('line endings: which byte, and how many lines', () => {
  it('names a trailing tab as `\\t` (0x09, a tab), not as a space', () => {
    const filter = new LineEndingFilter();
    assert.equal(filter.clean(run('OK\t\nb\n')).stdout, 'OK\nb\n');
    const seen = filter.seen()!;
    assert.deepEqual(seen, { endedOdd: 1, lines: 2, example: 'OK\t', bytes: ['\\t'] });
    assert.equal(
      lineEndingsProblem(seen, true).message,
      "1 of your program's 2 answer lines end in `\\t` (0x09, a tab) before the newline, e.g. `OK\\t\\n`. Answers are compared byte for byte, so those lines differ from the reference. Without that byte, every answer is right.",
    );
  });

  it('counts an empty answer line in the middle of the output, but not the empty tail after the last newline', () => {
    const filter = new LineEndingFilter();
    // Three answer lines: "OK", an empty one (an empty list, say) and "b ".
    assert.equal(filter.clean(run('OK\n\nb \n')).stdout, 'OK\n\nb\n');
    assert.deepEqual(filter.seen(), { endedOdd: 1, lines: 3, example: 'b ', bytes: [' '] });
  });
});
