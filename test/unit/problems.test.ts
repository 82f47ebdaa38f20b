import * as assert from 'node:assert/strict';
import type { ProcessResult } from '../../src/core/check/process';
import { crashLine, errorSummary, runProblems, type ProblemContext } from '../../src/core/report/problems';

const PY: ProblemContext = {
  language: 'python',
  fileName: 'balancer.py',
  interpreter: 'python3',
  timeLimitMs: 5000,
  outputLimitBytes: 1024 * 1024,
};
const JS: ProblemContext = { ...PY, language: 'javascript', fileName: 'balancer.js', interpreter: 'node' };

function run(partial: Partial<ProcessResult>): ProcessResult {
  return {
    stdout: '',
    stderr: '',
    exitCode: 0,
    signal: null,
    timedOut: false,
    outputLimited: false,
    durationMs: 1,
    ...partial,
  };
}

// Real shapes of Python 3.11 and Node 20 error output, trimmed.
const PY_TRACEBACK = `Traceback (most recent call last):
  File "/home/me/lesson/balancer.py", line 74, in <module>
    main()
  File "/home/me/lesson/balancer.py", line 60, in main
    balancer.done(args[0])
  File "/home/me/lesson/balancer.py", line 45, in done
    counts = json.loads(backend)
  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads
    return _default_decoder.decode(s)
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)
`;

const PY_STUB = `Traceback (most recent call last):
  File "/w/balancer.py", line 69, in <module>
    main()
  File "/w/balancer.py", line 53, in main
    chosen = balancer.pick()
             ^^^^^^^^^^^^^^^
  File "/w/balancer.py", line 31, in pick
    raise NotImplementedError("pick() is not written yet")
NotImplementedError: pick() is not written yet
`;

const PY_SYNTAX = `  File "/w/balancer.py", line 34
    for name in self.pool
                         ^
SyntaxError: expected ':'
`;

const PY_INDENT = `  File "/w/balancer.py", line 36
    return best
IndentationError: unexpected indent
`;

const NODE_CRASH = `/w/balancer.js:48
    if (count.valueOf() > 0) this.inFlight.set(backend, count - 1);
              ^

TypeError: Cannot read properties of undefined (reading 'valueOf')
    at Balancer.done (/w/balancer.js:48:15)
    at Interface.<anonymous> (/w/balancer.js:66:36)
    at Interface.emit (node:events:519:28)

Node.js v20.20.2
`;

const NODE_INTERNAL_FIRST = `node:internal/util:1
Error: boom
    at Array.reduce (<anonymous>)
    at Balancer.pick (/w/balancer.js:34:28)
    at Interface.<anonymous> (/w/balancer.js:62:32)
`;

const NODE_SYNTAX = `/w/balancer.js:35
    for (const name of this.pool {
                                 ^

SyntaxError: Unexpected token '{'
    at wrapSafe (node:internal/modules/cjs/loader:1464:18)
`;

const NODE_STUB = `/w/balancer.js:33
    throw new Error('TODO: write pick()');
    ^

Error: TODO: write pick()
    at Balancer.pick (/w/balancer.js:33:11)
`;

describe('problems of a run', () => {
  describe('crash lines from tracebacks and stacks', () => {
    it("Python: the innermost frame in the learner's file, not in the library below it", () => {
      assert.equal(crashLine(PY_TRACEBACK, 'python', 'balancer.py'), 45);
    });

    it("Node: the learner's innermost frame, even when the stack starts in Node's own code", () => {
      assert.equal(crashLine(NODE_CRASH, 'javascript', 'balancer.js'), 48);
      assert.equal(crashLine(NODE_INTERNAL_FIRST, 'javascript', 'balancer.js'), 34);
    });

    it("none when the learner's file is not in the trace", () => {
      assert.equal(crashLine(PY_TRACEBACK, 'python', 'other.py'), null);
      assert.equal(crashLine('Killed\n', 'javascript', 'balancer.js'), null);
    });
  });

  it('summarises an error by its exception line', () => {
    assert.equal(
      errorSummary(PY_TRACEBACK, 'python'),
      'json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)',
    );
    assert.equal(
      errorSummary(NODE_CRASH, 'javascript'),
      "TypeError: Cannot read properties of undefined (reading 'valueOf')",
    );
  });

  it('a crash names its line and keeps the traceback', () => {
    const [problem, ...rest] = runProblems(run({ stdout: 'OK\n', stderr: PY_TRACEBACK, exitCode: 1 }), PY);
    assert.equal(rest.length, 0);
    assert.equal(problem!.kind, 'crash');
    assert.equal(problem!.line, 45);
    assert.match(problem!.message, /line 45.*JSONDecodeError/);
    assert.match(problem!.details!, /json\.loads/);
    const [node] = runProblems(run({ stdout: 'OK\n', stderr: NODE_CRASH, exitCode: 1 }), JS);
    assert.deepEqual([node!.kind, node!.line], ['crash', 48]);
  });

  it('input() past the end of the input: the crash says how to end the loop', () => {
    // `while True: line = input()` with no EOFError handling (input_no_eof.py): every answer right, then this.
    const eof = `Traceback (most recent call last):
  File "/home/me/lesson/balancer.py", line 7, in <module>
    words = input().split()
            ^^^^^^^
EOFError: EOF when reading a line
`;
    const [problem] = runProblems(run({ stdout: 'OK\n', stderr: eof, exitCode: 1 }), PY);
    assert.deepEqual([problem!.kind, problem!.line], ['crash', 7]);
    assert.match(problem!.advice!, /input\(\) raises EOFError when the input has ended.*for line in sys\.stdin/);
    const [other] = runProblems(run({ stdout: 'OK\n', stderr: PY_TRACEBACK, exitCode: 1 }), PY);
    assert.match(other!.advice!, /^Read the traceback below/);
  });

  it('a module of the learner’s own that the check does not show is said to be out of its view, with what to do', () => {
    const python = `Traceback (most recent call last):
  File "/home/me/class/balancer.py", line 3, in <module>
    from helper import least
ModuleNotFoundError: No module named 'helper'
`;
    const node = `node:internal/modules/cjs/loader:1207
  throw err;
  ^

Error: Cannot find module './helper'
Require stack:
- /tmp/lesson-companion-ts-x/balancer.js
    at Module._resolveFilename (node:internal/modules/cjs/loader:1204:15)
`;
    const [py] = runProblems(run({ stderr: python, exitCode: 1 }), PY);
    assert.equal(py!.kind, 'crash');
    assert.match(
      py!.advice!,
      /^If `helper\.py` is a file of yours beside balancer\.py: a check shows your program only balancer\.py and the files the lesson's starter comes with/,
    );
    // TypeScript runs as the transpiled balancer.js; the learner knows their file as balancer.ts.
    const [ts] = runProblems(run({ stderr: node, exitCode: 1 }), {
      ...JS,
      language: 'typescript',
      shownName: 'balancer.ts',
    });
    assert.match(
      ts!.advice!,
      /^If `\.\/helper` is a file of yours beside balancer\.ts: .* Put that code into balancer\.ts, then check again\.$/,
    );
    // A package by name is not a file beside theirs: the usual advice.
    const [pkg] = runProblems(run({ stderr: "Error: Cannot find module 'lodash'\n", exitCode: 1 }), JS);
    assert.match(pkg!.advice!, /^Read the error below from the top/);
  });

  it('a syntax error (Python SyntaxError or IndentationError, Node SyntaxError) with its line', () => {
    for (const [stderr, ctx, line] of [
      [PY_SYNTAX, PY, 34],
      [PY_INDENT, PY, 36],
      [NODE_SYNTAX, JS, 35],
    ] as const) {
      const [problem] = runProblems(run({ stderr, exitCode: 1 }), ctx);
      assert.equal(problem!.kind, 'syntax', stderr);
      assert.equal(problem!.line, line);
    }
  });

  it('a SyntaxError raised while answering (after output) is a crash, not a file that does not parse', () => {
    const [problem] = runProblems(
      run({ stdout: 'OK\n', stderr: NODE_SYNTAX.replace('/w/balancer.js:35', 'JSON.parse'), exitCode: 1 }),
      JS,
    );
    assert.equal(problem!.kind, 'crash');
  });

  it('a stub (NotImplementedError, or a TODO error in JavaScript) is "unimplemented", at the placeholder', () => {
    const [py] = runProblems(run({ stdout: 'OK\n', stderr: PY_STUB, exitCode: 1 }), PY);
    assert.deepEqual([py!.kind, py!.line], ['unimplemented', 31]);
    const [js] = runProblems(run({ stdout: 'OK\n', stderr: NODE_STUB, exitCode: 1 }), JS);
    assert.deepEqual([js!.kind, js!.line], ['unimplemented', 33]);
  });

  it('a hang, a flood, a missing interpreter and a TypeScript file that does not compile', () => {
    assert.equal(runProblems(run({ timedOut: true, exitCode: null, signal: 'SIGKILL' }), PY)[0]!.kind, 'timeout');
    assert.match(
      runProblems(run({ timedOut: true, exitCode: null }), { ...PY, timeLimitMs: 1500 })[0]!.message,
      /1\.5 s/,
    );
    assert.equal(
      runProblems(run({ outputLimited: true, exitCode: null, signal: 'SIGKILL' }), PY)[0]!.kind,
      'output-limit',
    );
    const missing = runProblems(
      run({ exitCode: null, startError: { code: 'ENOENT', command: '/nope/python3' } }),
      PY,
    )[0]!;
    assert.equal(missing.kind, 'interpreter-missing');
    assert.match(missing.message, /\/nope\/python3.*ENOENT/);
    const ts = runProblems(run({ exitCode: null, prepareError: { message: 'Unexpected token (37:34)', line: 37 } }), {
      ...JS,
      language: 'typescript',
    })[0]!;
    assert.deepEqual([ts.kind, ts.line], ['syntax', 37]);
  });

  it('a stalled run says it stopped answering for 1 s (and where, when the caller knows), not the time limit', () => {
    const stalled = run({
      timedOut: true,
      stalled: true,
      silentMs: 1004,
      exitCode: null,
      signal: 'SIGKILL',
      timeLimitMs: 15000,
    });
    const [problem] = runProblems(stalled, PY);
    assert.equal(problem!.kind, 'timeout');
    assert.equal(
      problem!.message,
      'Your program stopped answering: it had been given all the commands but printed nothing for 1 s, so it was stopped.',
    );
    // The silence the runner measured, not a fixed second: a slow start is allowed three (check.ts retries it).
    assert.match(
      runProblems({ ...stalled, silentMs: 3460 }, PY)[0]!.message,
      /printed nothing for 3\.5 s, so it was stopped\.$/,
    );
    assert.match(runProblems({ ...stalled, silentMs: undefined }, PY)[0]!.message, /printed nothing for about 1 s,/);
    assert.match(
      runProblems(stalled, { ...PY, stalledAt: 'command 12 (`PICK`)' })[0]!.message,
      /^Your program stopped answering at command 12 \(`PICK`\): /,
    );
  });

  it('a time limit raised for a long batch is the one the message gives', () => {
    assert.match(
      runProblems(run({ timedOut: true, exitCode: null, timeLimitMs: 14500 }), PY)[0]!.message,
      /no result within 14\.5 s/,
    );
  });

  it('a program that ran out of memory says so, with the limit, and keeps its traceback', () => {
    const stderr =
      'Traceback (most recent call last):\n  File "/w/balancer.py", line 30, in pick\n    history.append(bytearray(1024 * 1024))\nMemoryError\n';
    const [problem] = runProblems(run({ exitCode: 1, stderr, memoryExceeded: true, memoryLimitMiB: 512 }), PY);
    assert.equal(problem!.message, 'Your program ran out of memory (limit 512 MiB), so it was stopped.');
    assert.equal(problem!.line, 30);
    assert.match(problem!.details!, /MemoryError/);
  });

  it('nothing for a run that ended normally, even with output on stderr', () => {
    assert.deepEqual(runProblems(run({ stdout: 'OK\n', stderr: 'debug: hello\n' }), PY), []);
  });
});
