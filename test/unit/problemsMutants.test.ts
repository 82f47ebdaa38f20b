import * as assert from 'node:assert/strict';
import type { ProcessResult } from '../../src/core/check/process';
import { errorSummary, runProblems, trimDetails, type ProblemContext } from '../../src/core/report/problems';

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

describe('problems: the sentences a learner reads', () => {
  let py: ProblemContext;
  let js: ProblemContext;
  beforeEach(() => {
    py = {
      language: 'python',
      fileName: 'shop.py',
      interpreter: 'python3',
      timeLimitMs: 5000,
      outputLimitBytes: 64 * 1024,
    };
    js = {
      language: 'javascript',
      fileName: 'shop.js',
      interpreter: 'node',
      timeLimitMs: 4000,
      outputLimitBytes: 32 * 1024,
    };
  });

  describe('a run that could not start', () => {
    it('names the command and code, with Python advice', () => {
      const [p] = runProblems(run({ startError: { command: 'python3', code: 'ENOENT' } }), py);
      assert.equal(p!.kind, 'interpreter-missing');
      assert.equal(p!.message, 'Could not start `python3` (ENOENT).');
      assert.equal(
        p!.advice,
        'Install Python 3, or point the Python path setting (--python on the command line) at your interpreter.',
      );
    });
    it('gives Node advice for a JavaScript lesson', () => {
      const [p] = runProblems(run({ startError: { command: 'node', code: 'EACCES' } }), js);
      assert.equal(p!.message, 'Could not start `node` (EACCES).');
      assert.equal(
        p!.advice,
        'Install Node.js 18 or newer, or point the Node path setting (--node on the command line) at it.',
      );
    });
  });

  describe('a file that does not compile', () => {
    const advice = 'Fix the syntax error at that line; a half-written function still needs to be valid code.';
    it('turns a trailing (line:column) into words', () => {
      const [p] = runProblems(run({ prepareError: { message: 'Unexpected token (12:34)', line: 12 } }), js);
      assert.equal(p!.kind, 'syntax');
      assert.equal(p!.message, 'Your file does not compile: Unexpected token (line 12, column 34)');
      assert.equal(p!.line, 12);
      assert.equal(p!.advice, advice);
    });
    it('reads the position without a space before it and with trailing blanks', () => {
      const [a] = runProblems(run({ prepareError: { message: 'Missing semicolon(3:5)', line: 3 } }), js);
      assert.equal(a!.message, 'Your file does not compile: Missing semicolon (line 3, column 5)');
      const [b] = runProblems(run({ prepareError: { message: 'Bad  (7:1)  ', line: 7 } }), js);
      assert.equal(b!.message, 'Your file does not compile: Bad (line 7, column 1)');
    });
    it('leaves a position in the middle of the message alone', () => {
      const [p] = runProblems(run({ prepareError: { message: 'Expected ) at (2:9) near x', line: 2 } }), js);
      assert.equal(p!.message, 'Your file does not compile: Expected ) at (2:9) near x');
    });
    it('leaves a message without a position alone', () => {
      const [p] = runProblems(run({ prepareError: { message: 'Unterminated string', line: null } }), js);
      assert.equal(p!.message, 'Your file does not compile: Unterminated string');
      assert.equal(p!.line, null);
    });
  });

  describe('a program that does not parse', () => {
    it('quotes the error and the line, and keeps the traceback', () => {
      const stderr = '  File "/w/shop.py", line 8\n    def f(\n         ^\nSyntaxError: \'(\' was never closed\n';
      const [p] = runProblems(run({ stderr, exitCode: 1 }), py);
      assert.equal(p!.kind, 'syntax');
      assert.equal(p!.message, "Your program does not start: SyntaxError: '(' was never closed (line 8)");
      assert.equal(p!.line, 8);
      assert.equal(
        p!.advice,
        'Fix the syntax error at that line; a half-written function still needs to be valid code.',
      );
      assert.equal(p!.details, stderr.trimEnd());
    });
    it('is a crash, not a syntax problem, once the program has printed', () => {
      const stderr = 'SyntaxError: bad input in eval\n';
      const [p] = runProblems(run({ stdout: 'ok\n', stderr, exitCode: 1 }), py);
      assert.equal(p!.kind, 'crash');
      assert.equal(p!.message, 'Your program crashed: SyntaxError: bad input in eval');
    });
    it('leaves the line out when the error names none of the learner’s lines', () => {
      const [p] = runProblems(run({ stderr: 'SyntaxError: Unexpected end of input\n', exitCode: 1 }), js);
      assert.equal(p!.kind, 'syntax');
      assert.equal(p!.message, 'Your program does not start: SyntaxError: Unexpected end of input');
      assert.equal(p!.line, null);
    });
    it('takes only SyntaxError as a syntax problem in JavaScript', () => {
      const [p] = runProblems(run({ stderr: 'IndentationError: custom error class\n', exitCode: 1 }), js);
      assert.equal(p!.kind, 'crash');
      assert.equal(p!.message, 'Your program crashed: IndentationError: custom error class');
    });
    it('is no problem when the program exits normally', () => {
      assert.deepEqual(
        runProblems(run({ stderr: 'SyntaxError: only a warning\nTODO: write tests\n', exitCode: 0 }), py),
        [],
      );
    });
  });

  describe('a program that hangs, floods or runs out of memory', () => {
    const loopAdvice = 'Look for a loop that never ends, or code that waits for more input than one line per command.';
    it('says where a stalled run stopped answering', () => {
      const [p] = runProblems(run({ stalled: true, timedOut: true, silentMs: 1000 }), {
        ...py,
        stalledAt: 'command 3 (`PAY`)',
      });
      assert.equal(p!.kind, 'timeout');
      assert.equal(
        p!.message,
        'Your program stopped answering at command 3 (`PAY`): it had been given all the commands but printed nothing for 1 s, so it was stopped.',
      );
      assert.equal(p!.advice, loopAdvice);
    });
    it('leaves the place out when it is not known', () => {
      const [p] = runProblems(run({ stalled: true, timedOut: true, silentMs: 1000 }), py);
      assert.equal(
        p!.message,
        'Your program stopped answering: it had been given all the commands but printed nothing for 1 s, so it was stopped.',
      );
    });
    it('states the time limit of the run, else of the check', () => {
      const [a] = runProblems(run({ timedOut: true, timeLimitMs: 2500 }), py);
      assert.equal(a!.message, 'Your program stopped answering: no result within 2.5 s, so it was stopped.');
      assert.equal(a!.advice, loopAdvice);
      const [b] = runProblems(run({ timedOut: true }), py);
      assert.equal(
        b!.message,
        `Your program stopped answering: no result within ${(py.timeLimitMs / 1000).toFixed(1)} s, so it was stopped.`,
      );
    });
    it('states the output limit in KiB', () => {
      const [p] = runProblems(run({ outputLimited: true }), py);
      assert.equal(p!.kind, 'output-limit');
      assert.equal(p!.message, `Your program printed more than ${py.outputLimitBytes / 1024} KiB, so it was stopped.`);
      assert.equal(p!.advice, 'Look for a print inside a loop that never ends.');
    });
    it('states the memory limit when known', () => {
      const stderr = 'Traceback (most recent call last):\n  File "/w/shop.py", line 4, in <module>\nMemoryError\n';
      const [a] = runProblems(run({ memoryExceeded: true, memoryLimitMiB: 256, exitCode: 1, stderr }), py);
      assert.equal(a!.kind, 'crash');
      assert.equal(a!.message, 'Your program ran out of memory (limit 256 MiB), so it was stopped.');
      assert.equal(a!.line, 4);
      assert.equal(a!.advice, 'Look for a list, dict or string that grows on every pass of a loop that never ends.');
      assert.equal(a!.details, stderr.trimEnd());
      const [b] = runProblems(run({ memoryExceeded: true, exitCode: 1 }), py);
      assert.equal(b!.message, 'Your program ran out of memory, so it was stopped.');
    });
  });

  describe('a program that stops at a placeholder or crashes', () => {
    it('names the placeholder', () => {
      const stderr =
        'Traceback (most recent call last):\n  File "/w/shop.py", line 21, in pay\nNotImplementedError: pay\n';
      const [p] = runProblems(run({ stderr, exitCode: 1 }), py);
      assert.equal(p!.kind, 'unimplemented');
      assert.equal(p!.message, 'Your program stopped at a placeholder: NotImplementedError: pay');
      assert.equal(p!.line, 21);
      assert.equal(p!.advice, 'Replace the placeholder with your own code, then check again.');
    });
    it('gives the line and the Python reading advice', () => {
      const stderr =
        'Traceback (most recent call last):\n  File "/w/shop.py", line 30, in <module>\nKeyError: \'apple\'\n';
      const [p] = runProblems(run({ stderr, exitCode: 1 }), py);
      assert.equal(p!.message, "Your program crashed at line 30: KeyError: 'apple'");
      assert.equal(p!.line, 30);
      assert.equal(
        p!.advice,
        'Read the traceback below from the bottom up: the last line is the error, the lines above it say where.',
      );
      assert.equal(p!.details, stderr.trimEnd());
    });
    it('gives the JavaScript reading advice', () => {
      const stderr = '/w/shop.js:9\nTypeError: x is not a function\n    at pay (/w/shop.js:9:3)\n';
      const [p] = runProblems(run({ stderr, exitCode: 1 }), js);
      assert.equal(p!.message, 'Your program crashed at line 9: TypeError: x is not a function');
      assert.equal(
        p!.advice,
        'Read the error below from the top: the first lines show the line of your file and the error, then the calls that led there.',
      );
    });
    it('falls back to the exit code, or the signal', () => {
      const [a] = runProblems(run({ exitCode: 3 }), py);
      assert.equal(a!.message, 'Your program crashed: exit code 3');
      const [b] = runProblems(run({ exitCode: null, signal: 'SIGKILL' }), py);
      assert.equal(b!.message, 'Your program crashed: exit code SIGKILL');
    });
  });

  describe('errorSummary', () => {
    it('keeps the last exception line of a Python traceback, without trailing blanks', () => {
      assert.equal(
        errorSummary(
          'KeyError: a\nDuring handling of the above exception, another exception occurred\nValueError: b   \n',
          'python',
        ),
        'ValueError: b',
      );
    });
    it('prefers the exception over notes printed after it', () => {
      assert.equal(errorSummary('KeyboardInterrupt\n(from SomeError: see notes)\n', 'python'), 'KeyboardInterrupt');
      assert.equal(
        errorSummary('shop.Refused: no stock\n(from SomeError: see notes)\n', 'python'),
        'shop.Refused: no stock',
      );
      assert.equal(errorSummary('ValueError: bad\nsome trailing note\n', 'python'), 'ValueError: bad');
    });
    it('falls back to the last non-blank line, or nothing', () => {
      assert.equal(errorSummary('Killed\n\n\n', 'python'), 'Killed');
      assert.equal(errorSummary('', 'python'), '');
      assert.equal(errorSummary('', 'javascript'), '');
    });
    it('keeps the first error line of a Node stack, trimmed', () => {
      const stderr =
        "/w/shop.js:5\n  throw new RangeError('x');\n  ^\n\nRangeError: x\n    at Object.<anonymous> (/w/shop.js:5:9)\nError: later\n";
      assert.equal(errorSummary(stderr, 'javascript'), 'RangeError: x');
      assert.equal(errorSummary('note\n    TypeError: indented\n', 'javascript'), 'TypeError: indented');
      assert.equal(errorSummary('Segmentation fault\nmore\n', 'javascript'), 'Segmentation fault');
    });
  });

  describe('trimDetails', () => {
    it("drops Node's own frames and banner, keeps the learner's", () => {
      const stderr = [
        'TypeError: bad',
        '    at pay (/w/shop.js:3:7)',
        '    at Module._compile (node:internal/modules/cjs/loader:1105:14)',
        '    at node:internal/main/run_main_module:23:47',
        'hint: runs at (node:internal/x) too',
        'foo  at node:internal/y',
        'Requires Node.js v18',
        'Node.js v20.11.0',
      ].join('\n');
      assert.equal(
        trimDetails(stderr),
        [
          'TypeError: bad',
          '    at pay (/w/shop.js:3:7)',
          'hint: runs at (node:internal/x) too',
          'foo  at node:internal/y',
          'Requires Node.js v18',
        ].join('\n'),
      );
    });
    it('drops blank lines and blanks at the end, keeps them at the start', () => {
      assert.equal(trimDetails('a\n   \n    at node:internal/x'), 'a');
      assert.equal(trimDetails('a\n\n    at node:internal/x'), 'a');
      assert.equal(trimDetails('\n\nA   '), '\n\nA');
      assert.equal(trimDetails(''), '');
    });
    it('keeps exactly maxLines lines whole and cuts longer ones from the top', () => {
      assert.equal(trimDetails('a\nb\nc', 3), 'a\nb\nc');
      assert.equal(trimDetails('a\nb\nc\nd', 3), '…\nb\nc\nd');
      const lines = Array.from({ length: 35 }, (_, i) => `line ${i + 1}`);
      assert.equal(trimDetails(lines.join('\n')), ['…', ...lines.slice(-30)].join('\n'));
    });
  });
});
