/**
 * What the check traces for a named mistake from its counterexample (core `locateAttempts`, the table's
 * run): the run of exactly the shown commands after the reset, with the program's answers, the command whose
 * lines are wrong, and the other wrong ones, which are not compared with. The learner is told "these lines ran
 * at row N and not at the other commands of its kind, which were right", so the row, the answers and the list
 * of wrong ones must be exact. FAKE program: the toy model of locateToys.ts with the program's mistakes on.
 */
import * as assert from 'node:assert/strict';
import { hasComparison, locateAttempts } from '../../src/core/check/locateAttempts';
import { casesOf, exampleOf, findingOf, model, stepAt, streamOf } from './locateToys';

describe('tracing a mistake at its counterexample (fake program)', () => {
  it('traces the shown commands after the reset, at the first wrong row, with the later wrong rows set aside', () => {
    // INC counts two: GET is wrong at rows 3 and 5, right at row 1 (before any INC). No finding: no cause to look for.
    const example = exampleOf(['GET', 'INC', 'GET', 'INC', 'GET'], 'double');
    assert.equal(example.divergesAt, 2);
    assert.deepEqual(locateAttempts(model, example, undefined, [], []), [
      {
        commands: ['SET 0', 'GET', 'INC', 'GET', 'INC', 'GET'],
        answers: [['OK'], ['0'], ['OK'], ['2'], ['OK'], ['4']],
        failingIndex: 3,
        otherFailing: [5],
        origin: { table: true, row: 3 },
      },
    ]);
  });

  it('traces a bookkeeping mistake at the command where the counts first part, not where a GET shows it', () => {
    // The finding says INC counts two: the counts part at row 2 (INC); the GET at row 3 is set aside with row 5.
    const example = exampleOf(['GET', 'INC', 'GET', 'INC', 'GET'], 'double');
    assert.deepEqual(locateAttempts(model, example, findingOf('double', []), [], []), [
      {
        commands: ['SET 0', 'GET', 'INC', 'GET', 'INC', 'GET'],
        answers: [['OK'], ['0'], ['OK'], ['2'], ['OK'], ['4']],
        failingIndex: 2,
        otherFailing: [5, 3],
        origin: { table: true, row: 2 },
      },
    ]);
  });

  it('traces a mistake made at the reset itself at row 0, compared with a later SET that was right', () => {
    // The program starts at zero (row 1 is right), but its SET sets one too many: the GET of row 3 is wrong.
    const example = exampleOf(['GET', 'SET 5', 'GET'], 'set-off');
    assert.equal(example.divergesAt, 2);
    const [attempt] = locateAttempts(model, example, findingOf('set-off', []), [], []);
    assert.equal(attempt?.failingIndex, 0);
    // The reset's counts are where the finding's model first parts; the GET that showed it is set aside.
    assert.deepEqual(attempt?.otherFailing, [3]);
    assert.deepEqual(attempt?.origin, { table: true, row: 0 });
  });

  it('keeps the shown row when the mistake is made at that very command (its counts part there too)', () => {
    // INC from zero says OK! and counts two: row 1 is wrong and is where the counts part; row 2 (INC) is right.
    const example = exampleOf(['INC', 'INC'], 'zero-inc');
    assert.deepEqual(locateAttempts(model, example, findingOf('zero-inc', []), [], []), [
      {
        commands: ['SET 0', 'INC', 'INC'],
        answers: [['OK'], ['OK!'], ['OK']],
        failingIndex: 1,
        otherFailing: [],
        origin: { table: true, row: 1 },
      },
    ]);
  });

  it('does not move a random choice to an earlier command: its counts part by chance, not by a mistake', () => {
    const example = exampleOf(['GET', 'INC', 'GET', 'INC', 'GET'], 'double');
    const [attempt] = locateAttempts(model, example, findingOf('double', [], true), [], []);
    assert.equal(attempt?.failingIndex, 3);
    assert.deepEqual(attempt?.otherFailing, [5]);
  });

  it("traces at the first command the finding's model never reached, when that model stops (crashes) earlier", () => {
    // The program prints one x too many at LIST (row 4); the finding's model dies at the GET of row 2.
    const example = exampleOf(['INC', 'GET', 'INC', 'LIST'], 'list-extra');
    assert.equal(example.divergesAt, 3);
    assert.deepEqual(locateAttempts(model, example, findingOf('get-crash', []), [], []), [
      {
        commands: ['SET 0', 'INC', 'GET', 'INC', 'LIST'],
        answers: [['OK'], ['OK'], ['1'], ['OK'], ['x', 'x', 'x']],
        failingIndex: 3,
        otherFailing: [4],
        origin: { table: true, row: 3 },
      },
    ]);
  });

  it('gives only the answers the program printed before it crashed, and sets the unanswered rows aside', () => {
    // The program dies at the GET of row 3: rows 3 and 4 have no answer.
    const example = exampleOf(['GET', 'INC', 'GET', 'INC'], 'get-crash');
    assert.deepEqual(locateAttempts(model, example, undefined, [], []), [
      {
        commands: ['SET 0', 'GET', 'INC', 'GET', 'INC'],
        answers: [['OK'], ['0'], ['OK']],
        failingIndex: 3,
        otherFailing: [4],
        origin: { table: true, row: 3 },
      },
    ]);
  });

  it('traces nothing when the counterexample was not reproduced by a fresh run, or there is none', () => {
    const example = exampleOf(['GET', 'INC', 'GET'], 'double');
    assert.deepEqual(locateAttempts(model, { ...example, reproduced: false }, undefined, [], []), []);
    assert.deepEqual(locateAttempts(model, null, undefined, [], []), []);
  });

  it("traces the table last when no other command of the wrong one's kind was answered right, to compare with", () => {
    // Every GET after an INC is wrong, and here every GET comes after an INC: the table's run can still say
    // which lines ran at that GET (not which of them is wrong), so it is kept.
    const example = exampleOf(['INC', 'GET', 'INC', 'GET'], 'double');
    assert.deepEqual(
      locateAttempts(model, example, undefined, [], []).map((a) => [a.failingIndex, hasComparison(a), a.origin]),
      [[2, false, { table: true, row: 2 }]],
    );
    // The only INC of the table is where the counts part; a transcript with a right INC beside it is tried first.
    const lists = [['GET', 'INC', 'INC', 'GET']];
    const streams = [streamOf(lists, ['double'])];
    const finding = findingOf('double', [stepAt(streams, 0, 4)]);
    const attempts = locateAttempts(model, exampleOf(['INC', 'GET'], 'double'), finding, streams, casesOf(lists));
    assert.deepEqual(
      attempts.map((a) => [a.failingIndex, hasComparison(a), a.origin?.table]),
      [
        [2, true, false],
        [1, false, true],
      ],
    );
  });

  it('counts commands as of one kind by their first word, however they are spaced', () => {
    // The right SET is written with spaces around it: still a SET, to compare the reset with.
    const example = exampleOf(['GET', ' SET  5 ', 'GET'], 'set-off');
    assert.equal(locateAttempts(model, example, findingOf('set-off', []), [], [])[0]?.failingIndex, 0);
  });
});
