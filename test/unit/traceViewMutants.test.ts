import * as assert from 'node:assert/strict';
import type { Counterexample, TraceRow } from '../../src/core/report/report';
import {
  answerCell,
  compareCounts,
  countsNote,
  hasObservedCounts,
  traceCells,
  traceLength,
  traceTextLines,
  type TraceCells,
  type TracePaint,
} from '../../src/core/report/traceView';

/** A four-command example: the counts go wrong at command 2, the answer at command 3. */
function example(overrides: Partial<Counterexample> = {}): Counterexample {
  return {
    transcript: 'generated-7',
    label: 'a random test (#7)',
    reproduced: true,
    commands: ['ADD a', 'ADD b', 'PICK', 'END'],
    expected: ['OK', 'OK', 'a'],
    actual: ['OK', 'OK', 'b'],
    divergesAt: 2,
    shrunkFrom: 4,
    observeCommand: 'STATUS',
    preamble: [{ command: 'RESET', expected: ['OK'], counts: { a: 0 } }],
    trace: [
      {
        command: 'ADD a',
        expected: ['OK'],
        actual: ['OK'],
        counts: { a: 1 },
        matches: true,
        observed: ['a:1'],
        shouldBe: ['a:1'],
      },
      {
        command: 'ADD b',
        expected: ['OK'],
        actual: ['OK'],
        counts: { a: 1, b: 1 },
        matches: true,
        observed: ['a:1 b:2'],
      },
      {
        command: 'PICK',
        expected: ['a'],
        actual: ['b'],
        counts: { a: 2, b: 1 },
        matches: false,
        observed: null,
        details: 'b (the whole answer)',
      },
      { command: 'END', expected: [], actual: null, counts: {}, matches: false, observed: [] },
    ],
    ...overrides,
  };
}

function withoutObserved(ex: Counterexample): Counterexample {
  return { ...ex, trace: ex.trace.map(({ observed: _o, shouldBe: _s, ...row }): TraceRow => row) };
}

describe('traceView: the table a learner reads', () => {
  let paint: TracePaint;
  beforeEach(() => {
    paint = { head: (t) => `H[${t}]`, diverge: (t) => `D[${t}]`, differ: (t) => `X[${t}]`, dim: (t) => `d[${t}]` };
  });

  it('shows answers as cells: no answer, nothing, and lines joined with a slash', () => {
    assert.equal(answerCell(null), '(no answer)');
    assert.equal(answerCell([]), '(nothing)');
    assert.equal(answerCell(['a ', 'b']), 'a· / b');
  });

  it('compares counts token by token, ignoring blanks and how the lines are laid out', () => {
    const compared = compareCounts([' a:1  b:2 ', ''], ['a:1', 'b:3']);
    assert.deepEqual(compared.yours, [
      { text: 'a:1', differs: false },
      { text: 'b:2', differs: true },
    ]);
    assert.deepEqual(compared.shouldBe, [
      { text: 'a:1', differs: false },
      { text: 'b:3', differs: true },
    ]);
  });

  it('marks every count that should be as differing when the program gave no counts', () => {
    assert.deepEqual(compareCounts(null, ['a:1 b:0']), {
      yours: null,
      shouldBe: [
        { text: 'a:1', differs: true },
        { text: 'b:0', differs: true },
      ],
    });
  });

  it('has observed counts only with an observe command and some observed row', () => {
    const ex = example();
    assert.equal(hasObservedCounts(ex), true);
    assert.equal(hasObservedCounts({ ...ex, observeCommand: undefined }), false);
    assert.equal(hasObservedCounts(withoutObserved(ex)), false);
    // One observed row is enough.
    assert.equal(hasObservedCounts({ ...ex, trace: [withoutObserved(ex).trace[0]!, ...ex.trace.slice(1)] }), true);
  });

  it('with an observe command: your counts beside what they should be, per row', () => {
    const ex = example();
    const cells = traceCells(ex);
    assert.equal(cells.columns, 'observed');
    assert.equal(cells.observeCommand, 'STATUS');
    assert.equal(cells.commands, ex.commands.length);
    assert.equal(cells.shrunkFrom, 4);
    assert.equal(cells.divergesAt, 2);
    assert.deepEqual(
      cells.rows.map((r) => r.diverges),
      [false, false, true, false],
    );
    assert.deepEqual(
      cells.rows.map((r) => r.after),
      [false, false, false, true],
    );
    assert.equal(cells.rows[2]!.details, 'b (the whole answer)');
    assert.equal('details' in cells.rows[1]!, false);
    // Row 2 has no reference answer to STATUS: the bookkeeping stands in for it.
    assert.deepEqual(cells.rows[1]!.shouldBe, [
      { text: 'a:1', differs: false },
      { text: 'b:1', differs: true },
    ]);
    assert.deepEqual(cells.rows[1]!.yours, [
      { text: 'a:1', differs: false },
      { text: 'b:2', differs: true },
    ]);
    assert.equal(cells.rows[2]!.yours, null);
    assert.deepEqual(
      cells.rows.map((r) => r.countsDiffer),
      [false, true, true, false],
    );
    assert.equal(cells.countsDivergeAt, 1);
  });

  it("uses the reference's answer to the observe command over its bookkeeping", () => {
    const ex = example();
    const trace = [{ ...ex.trace[0]!, counts: { a: 9 }, shouldBe: ['a:1'] }];
    const cells = traceCells({ ...ex, trace, commands: ['ADD a'], divergesAt: 0 });
    assert.deepEqual(cells.rows[0]!.shouldBe, [{ text: 'a:1', differs: false }]);
    assert.equal(cells.rows[0]!.countsDiffer, false);
    assert.equal(cells.countsDivergeAt, -1);
  });

  it('counts differ when only your side, or only the should-be side, has an extra count', () => {
    const ex = example();
    const base = ex.trace[0]!;
    const trace = [
      { ...base, observed: ['a:1 b:2'], shouldBe: ['a:1'] },
      { ...base, observed: ['a:1'], shouldBe: ['a:1 b:2'] },
    ];
    const cells = traceCells({ ...ex, trace, commands: ['ADD a', 'ADD a'] });
    assert.deepEqual(
      cells.rows.map((r) => r.countsDiffer),
      [true, true],
    );
  });

  it('shows row 0, the reset, without comparing it', () => {
    const observed = traceCells(example());
    assert.deepEqual(observed.preamble, [
      {
        command: 'RESET',
        expected: 'OK',
        actual: '–',
        matches: true,
        diverges: false,
        after: false,
        yours: [],
        shouldBe: [],
        countsDiffer: false,
      },
    ]);
    const reference = traceCells(withoutObserved(example()));
    assert.deepEqual(reference.preamble, [
      {
        command: 'RESET',
        expected: 'OK',
        actual: '–',
        matches: true,
        diverges: false,
        after: false,
        shouldBe: [{ text: 'a:0', differs: false }],
        countsDiffer: false,
      },
    ]);
  });

  it('without observed counts: one column of reference counts, never marked', () => {
    const cells = traceCells(withoutObserved(example()));
    assert.equal(cells.columns, 'reference');
    assert.equal('observeCommand' in cells, false);
    assert.deepEqual(cells.rows[1]!.shouldBe, [
      { text: 'a:1', differs: false },
      { text: 'b:1', differs: false },
    ]);
    assert.equal('yours' in cells.rows[1]!, false);
    assert.deepEqual(
      cells.rows.map((r) => r.countsDiffer),
      [false, false, false, false],
    );
    assert.equal(cells.countsDivergeAt, -1);
  });

  it('says how long the example is, and how long it was before shrinking', () => {
    assert.equal(traceLength({ commands: 3, shrunkFrom: 12 }), '3 of 12 commands');
    assert.equal(traceLength({ commands: 4, shrunkFrom: 4 }), '4 commands');
    assert.equal(traceLength({ commands: 1, shrunkFrom: 1 }), '1 command');
  });

  it('explains the count columns under the table', () => {
    const observed = traceCells(example());
    assert.equal(
      countsNote(observed),
      "Your counts are your program's answer to STATUS after each command. Your counts go wrong at command 2 (ADD b), before the first wrong answer. Row 0, `RESET`, is sent before every transcript, to start from scratch.",
    );
    const reference = traceCells(withoutObserved(example({ preamble: [] })));
    assert.equal(countsNote(reference), 'Reference counts: what a correct program has counted after each command.');
    const twoResets = traceCells(
      withoutObserved(
        example({
          preamble: [
            { command: 'RESET', expected: ['OK'], counts: {} },
            { command: 'SEED 1', expected: [], counts: {} },
          ],
        }),
      ),
    );
    assert.equal(
      countsNote(twoResets),
      'Reference counts: what a correct program has counted after each command. Row 0, `RESET`, then `SEED 1`, is sent before every transcript, to start from scratch.',
    );
  });

  it('says the counts went wrong first only when they did so before the first wrong answer', () => {
    const cells = traceCells(example({ preamble: [] }));
    const note = (countsDivergeAt: number, divergesAt: number, observeCommand?: string): string =>
      countsNote({ ...cells, countsDivergeAt, divergesAt, observeCommand } as TraceCells);
    assert.equal(
      note(0, 2, 'STATUS'),
      "Your counts are your program's answer to STATUS after each command. Your counts go wrong at command 1 (ADD a), before the first wrong answer.",
    );
    assert.equal(note(2, 2, 'STATUS'), "Your counts are your program's answer to STATUS after each command.");
    assert.equal(note(3, 2, 'STATUS'), "Your counts are your program's answer to STATUS after each command.");
    assert.equal(note(-1, 2, 'STATUS'), "Your counts are your program's answer to STATUS after each command.");
    assert.equal(note(-1, 2), "Your counts are your program's answer to the observe command after each command.");
  });

  it('a program that gave no answer to the observe command is not said to have wrong counts there', () => {
    // The twin run with STATUS after each command crashed at the first STATUS: the counts are unknown, not wrong.
    const crashed = example({ preamble: [] });
    const trace = crashed.trace.map((row) => ({ ...row, observed: null }));
    const cells = traceCells({ ...crashed, trace });
    assert.equal(cells.countsDivergeAt, 0);
    assert.equal(
      countsNote(cells),
      "Your counts are your program's answer to STATUS after each command. Asked STATUS after command 1 (ADD a), your program gave no answer, so its counts from there on are not known.",
    );
  });

  it('lays out the two-column trace as aligned text, painted', () => {
    assert.deepEqual(traceTextLines(traceCells(example()), paint), [
      'H[  #  command  expected   your answer  your counts  should be]',
      '  0  RESET    OK         –            –            –',
      '  1  ADD a    OK         OK           a:1          a:1',
      '  2  ADD b    OK         OK           a:1 X[*b:2*]    a:1 X[*b:1*]',
      'D[→ 3  PICK     a          b            X[(no answer)]  X[*a:2*] X[*b:1*]]D[  ← first difference]',
      'd[  4  END      (nothing)  (no answer)  –            –]',
    ]);
  });

  it('lays out the two-column trace as plain text, differences marked with stars', () => {
    assert.deepEqual(traceTextLines(traceCells(example())), [
      '  #  command  expected   your answer  your counts  should be',
      '  0  RESET    OK         –            –            –',
      '  1  ADD a    OK         OK           a:1          a:1',
      '  2  ADD b    OK         OK           a:1 *b:2*    a:1 *b:1*',
      '→ 3  PICK     a          b            (no answer)  *a:2* *b:1*  ← first difference',
      '  4  END      (nothing)  (no answer)  –            –',
    ]);
  });

  it('lays out the one-column trace with the reference counts', () => {
    assert.deepEqual(traceTextLines(traceCells(withoutObserved(example())), paint), [
      'H[  #  command  expected   your answer  reference counts]',
      '  0  RESET    OK         –            a:0',
      '  1  ADD a    OK         OK           a:1',
      '  2  ADD b    OK         OK           a:1 b:1',
      'D[→ 3  PICK     a          b            a:2 b:1]D[  ← first difference]',
      'd[  4  END      (nothing)  (no answer)  –]',
    ]);
  });
});
