/**
 * Trailing bytes on answer lines (core `lineEndings`): taken off before anything is compared, tallied over a
 * check's runs, and said once, with the byte written out and advice for where it comes from.
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

describe('line endings', () => {
  it('takes trailing carriage returns, spaces and tabs off every line, and keeps the rest of the run', () => {
    const filter = new LineEndingFilter();
    const dirty = { ...run('OK\r\nb \nEMPTY\t \r\nlast\r'), stderr: 'kept' };
    const cleaned = filter.clean(dirty);
    assert.deepEqual(cleaned, { ...dirty, stdout: 'OK\nb\nEMPTY\nlast' });
  });

  it('gives a clean run back as it was, and sees nothing', () => {
    const filter = new LineEndingFilter();
    const clean = run('OK\n a\n');
    assert.equal(filter.clean(clean), clean, 'the same object: nothing to copy');
    assert.equal(filter.clean(run('')).stdout, '');
    assert.equal(filter.seen(), undefined);
  });

  it('tallies over runs: lines with trailing bytes, all answer lines (not the empty one after the last newline), the first example, each byte once', () => {
    const filter = new LineEndingFilter();
    filter.clean(run('OK\na\n'));
    filter.clean(run('OK\r\nb \n'));
    filter.clean(run('c\r\n'));
    assert.deepEqual(filter.seen(), { endedOdd: 3, lines: 5, example: 'OK\r', bytes: ['\\r', ' '] });
  });

  it('says every answer ends in a carriage return, with the line shown escaped and Windows advice', () => {
    const problem = lineEndingsProblem({ endedOdd: 4, lines: 4, example: 'EMPTY\r', bytes: ['\\r'] }, true);
    assert.equal(problem.kind, 'line-endings');
    assert.equal(
      problem.message,
      'Every answer of your program ends in `\\r` (0x0D, a carriage return) before the newline, e.g. `EMPTY\\r\\n`. Answers are compared byte for byte, so those lines differ from the reference. Without that byte, every answer is right.',
    );
    assert.match(problem.advice!, /plain "\\n" line ending/);
  });

  it('says how many of the lines end in a space or tab, shows the space as ␠, and advises on print()', () => {
    const problem = lineEndingsProblem({ endedOdd: 2, lines: 9, example: 'a \t', bytes: [' ', '\\t'] }, false);
    assert.equal(
      problem.message,
      "2 of your program's 9 answer lines end in `␠` (0x20, a space) and `\\t` (0x09, a tab) before the newline, e.g. `a \\t\\n`. Answers are compared byte for byte, so those lines differ from the reference. The check below compares the answers without it.",
    );
    assert.match(problem.advice!, /no trailing space or tab/);
  });
});
