/**
 * A mistake card's sentences point into its own table: "command N (X)" is row N, which holds X; a first
 * sighting or a traced run in another transcript (or in the whole of the transcript the table shortens)
 * names that transcript and gives no row number. The shapes are the ones the issue met: a Caddy port whose
 * first sighting was command 6 of a transcript its table shows shrunk to 4 rows, and a note about a run of
 * another transcript.
 */
import * as assert from 'node:assert/strict';
import { cardSentences, commandNumbersIn, commandRefsIn, mistakeCard } from '../../src/core/report/card';
import { squiggleBlock } from '../../src/core/report/findings';
import type { CheckReport, NamedMistake } from '../../src/core/report/report';
import { namedMistake, tableOf } from './namedMistake';

function report(mistakes: NamedMistake[]): CheckReport {
  return {
    lesson: 'least-connections',
    language: 'python',
    file: 'main.py',
    status: 'fail',
    checks: { total: 2, passed: 0, failed: 2, notRun: 0 },
    transcripts: [
      { name: 'new-pool', description: 'a new POOL starts every count from 0', passed: false },
      { name: 'idle-done', description: 'DONE on an idle backend keeps it at 0', passed: false },
    ],
    mistakes,
    problems: [],
    counterexample: null,
    fuzz: { seed: 1, transcripts: 0, failed: 0, notRun: 0 },
    durationMs: 1,
    processRuns: 1,
  };
}

/** Every "command N" of every sentence is a row of the card's table, naming the command that row holds. */
function assertRefsAreRows(m: NamedMistake): string[] {
  const card = mistakeCard(m, report([m]));
  const rows = card.table?.cells.rows ?? [];
  const sentences = cardSentences(card);
  for (const sentence of sentences) {
    const refs = commandRefsIn(sentence);
    assert.equal(refs.length, commandNumbersIn(sentence).length, sentence);
    for (const ref of refs) assert.equal(rows[ref.row - 1]?.command, ref.command, sentence);
  }
  return sentences;
}

describe('core/card: one numbering per card', () => {
  // The transcript had 6 commands, STATUS the 6th; the table is its shrunk copy, STATUS at row 4.
  const shrunk = tableOf(['POOL a b', 'PICK', 'DONE a', 'STATUS'], 'new-pool', 6);
  const first = { transcript: 'new-pool', label: 'a new POOL starts every count from 0', index: 5, command: 'STATUS' };

  it('names the transcript of a first sighting in a shrunk table, with no row number', () => {
    const m = namedMistake({ evidence: { steps: 3, transcripts: 1, first }, counterexample: shrunk });
    const sentences = assertRefsAreRows(m);
    assert.ok(
      sentences.includes(
        'Seen at 3 commands in 1 transcript, first at STATUS in “a new POOL starts every count from 0”.',
      ),
    );
  });

  it('points at the row when the first sighting is that row of the table', () => {
    const whole = tableOf(['POOL a b', 'PICK', 'DONE a', 'STATUS'], 'new-pool');
    const m = namedMistake({
      evidence: { steps: 3, transcripts: 1, first: { ...first, index: 3 } },
      counterexample: whole,
    });
    assert.ok(assertRefsAreRows(m).some((s) => s.endsWith('first at command 4 (STATUS) in the table below.')));
  });

  it('gives a traced run of its own table as a row, and one of another transcript by its name', () => {
    const location = { lines: [9], function: 'pick', reason: 'these lines ran when PICK answered y' };
    const own = namedMistake({ location: { ...location, at: { table: true, row: 4 } }, counterexample: shrunk });
    assert.ok(assertRefsAreRows(own)[0]!.startsWith('Line 9 of pick(): at command 4 (STATUS) in the table below, '));
    const other = namedMistake({
      location: {
        ...location,
        at: { table: false, transcript: 'idle-done', label: 'DONE on an idle backend keeps it at 0' },
      },
      counterexample: shrunk,
    });
    assert.equal(
      assertRefsAreRows(other)[0],
      'Line 9 of pick(): in “DONE on an idle backend keeps it at 0”, not the table below, these lines ran when PICK answered y',
    );
    const whole = namedMistake({
      location: {
        ...location,
        at: { table: false, transcript: 'new-pool', label: 'a new POOL starts every count from 0' },
      },
      counterexample: shrunk,
    });
    assert.match(
      assertRefsAreRows(whole)[0]!,
      /in the whole of “a new POOL starts every count from 0”, not the shortened table below, /,
    );
  });

  it('says no "command N" on a card without a table', () => {
    const m = namedMistake({
      evidence: { steps: 3, transcripts: 1, first },
      location: { lines: [9], function: 'pick', reason: 'ran', at: { table: true, row: 2 } },
    });
    for (const sentence of assertRefsAreRows(m)) assert.deepEqual(commandNumbersIn(sentence), [], sentence);
  });
});

describe("core/card: the pack's hints.maxRung", () => {
  const location = { lines: [9], function: 'pick', reason: 'ran', at: { table: true, row: 2 } as const };
  const first = { transcript: 'new-pool', label: 'a new POOL', index: 1, command: 'PICK' };
  const full = () =>
    namedMistake({
      evidence: { steps: 3, transcripts: 1, first },
      location,
      counterexample: tableOf(['POOL a b', 'PICK', 'STATUS'], 'new-pool'),
    });

  it('shows every rung without a cap, and at caps 3 and 4', () => {
    for (const cap of [undefined, 3, 4]) {
      const card = mistakeCard(full(), report([full()]), cap);
      assert.ok(card.table, `cap ${cap}`);
      assert.deepEqual(card.where.lines, [9]);
      assert.ok(card.where.reason);
      assert.notEqual(card.evidence, '');
    }
  });

  it('at cap 2 keeps the lines but not the smallest transcript, nor the sentences that point into it', () => {
    const card = mistakeCard(full(), report([full()]), 2);
    assert.equal(card.table, null);
    assert.equal(card.evidence, '');
    assert.deepEqual(card.where, { function: 'pick', lines: [9], text: 'Line 9 of pick()' });
    assert.deepEqual(cardSentences(card), ['Line 9 of pick()']);
  });

  it('at cap 1 keeps only the function to read', () => {
    const card = mistakeCard(full(), report([full()]), 1);
    assert.equal(card.table, null);
    assert.deepEqual(card.where, { function: 'pick', lines: [], text: 'In pick()' });
    assert.deepEqual(cardSentences(card), ['In pick()']);
  });
});

describe('core/findings: what one squiggle covers', () => {
  const source = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n');
  const at = (lines: number[], telling?: false) =>
    squiggleBlock(
      namedMistake({ location: { lines, function: 'done', reason: 'r', ...(telling === false ? { telling } : {}) } }),
      source,
      'python',
      undefined,
    );
  it('covers the lines that tell the commands apart over short gaps, not code further off', () => {
    // go_port_fallback.py: "Lines 28, 30 and 33 of choose_backend()", the `if` tests that led to the fallback's
    // `return self.backends[0].addr` on 33 (29 and 31 are the returns not taken, 32 a comment): one squiggle.
    assert.deepEqual(at([28, 30, 33]), { first: 28, last: 33 });
    assert.deepEqual(at([21, 20, 24]), { first: 20, last: 24 });
    assert.deepEqual(at([20, 21, 25]), { first: 20, last: 21 });
  });
  it('covers a function body that tells nothing apart over short gaps, not the command loop far below', () => {
    // The class: done() is lines 21–22 with a comment at 20; the command loop's DONE branch is at 38.
    assert.deepEqual(at([18, 19, 22, 38, 39], false), { first: 18, last: 22 });
    assert.deepEqual(at([22, 25, 28], false), { first: 22, last: 28 });
    assert.deepEqual(at([22, 27], false), { first: 22, last: 22 });
    assert.equal(at([]), null);
  });
});
