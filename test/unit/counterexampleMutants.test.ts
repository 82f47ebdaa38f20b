/**
 * Counterexample traces (core `buildCounterexample`, `splitObserved`): the edges counterexample.test.ts leaves
 * open. When the program's own counts can be shown beside a row (and when they would describe another run
 * than the one shown), which row the learner is pointed at, what the reset row says, and what the rows expect
 * once the reference itself has stopped. Outcomes are written out by hand; two lessons are FAKE variants of
 * least-connections (a reset that sets up a backend, a QUIT that ends the reference).
 */
import * as assert from 'node:assert/strict';
import { buildCounterexample, splitObserved, type CounterexampleSource } from '../../src/core/check/counterexample';
import { model } from '../../lessons/least-connections/model/model';
import type { ReferenceModel } from '../../src/core/model/model';
import { simulate, type Outcome } from '../../src/core/model/simulate';

/** The lesson's model seen through the engine's interface, whose state is opaque: FAKE lessons wrap its step. */
const reference: ReferenceModel = model;

const from: CounterexampleSource = { transcript: 't', label: 'the t transcript', shrunkFrom: 4, reproduced: true };
const plainModel: ReferenceModel = { ...model, observeCommand: undefined };

describe('counterexample traces: when the counts of the observed run describe the shown run', () => {
  it('a lesson without an observe command has no counts to split, even for a single command', () => {
    const run: Outcome = { lines: ['OK'], ending: 'finished' };
    assert.equal(splitObserved(plainModel, ['POOL a'], run, run), undefined);
  });

  it('an observed twin that died before answering an empty STATUS stopped sooner than the shown run: no counts', () => {
    // The shown run finished: its empty STATUS was answered (nothing). The twin died: its empty STATUS was not.
    const commands = ['POOL', 'STATUS'];
    const shown: Outcome = { lines: ['OK'], ending: 'finished' };
    assert.equal(splitObserved(model, commands, shown, { lines: ['OK'], ending: 'crashed' }), undefined);
    assert.deepEqual(
      splitObserved(model, commands, shown, { lines: ['OK'], ending: 'finished' }),
      [[], []],
      'a twin that finished too has counts',
    );
  });

  it('a shown run that died at an empty STATUS its observed twin answered: no counts either', () => {
    const commands = ['POOL', 'STATUS'];
    assert.equal(
      splitObserved(model, commands, { lines: ['OK'], ending: 'crashed' }, { lines: ['OK'], ending: 'finished' }),
      undefined,
    );
  });

  it('an observed twin that printed only the first line of a STATUS the shown run answered in full: no counts', () => {
    // The twin's STATUS answer ("a:0") is the start of the shown run's ("a:0", "b:0"): still another answer.
    const commands = ['POOL a b', 'STATUS'];
    const shown = simulate(model, commands).outcome;
    assert.deepEqual(shown.lines, ['OK', 'a:0', 'b:0']);
    const cutShort: Outcome = { lines: ['OK', 'a:0', 'b:0', 'a:0'], ending: 'crashed' };
    assert.equal(splitObserved(model, commands, shown, cutShort), undefined);
  });
});

describe('counterexample traces: counts beside the rows', () => {
  const commands = ['POOL a b', 'PICK'];
  const run = simulate(model, ['POOL a b', 'PICK'], new Set(['tiebreak-last'])).outcome;

  it('counts given for a lesson without an observe command are not shown: nothing says what they should be', () => {
    const example = buildCounterexample(plainModel, from, commands, run, [
      ['a:0', 'b:0'],
      ['a:0', 'b:1'],
    ]);
    assert.ok(
      example.trace.every((row) => !('observed' in row) && !('shouldBe' in row)),
      JSON.stringify(example.trace),
    );
    assert.equal('observeCommand' in example, false);
    assert.deepEqual(
      example.trace.map((row) => row.actual),
      [['OK'], ['b']],
    );
  });

  it('a run without counts says no observe command, rather than naming one with no counts under it', () => {
    const example = buildCounterexample(model, from, commands, run);
    assert.equal('observeCommand' in example, false);
    assert.ok(example.trace.every((row) => !('observed' in row)));
    const observed = buildCounterexample(model, from, commands, run, [
      ['a:0', 'b:0'],
      ['a:0', 'b:1'],
    ]);
    assert.equal(observed.observeCommand, 'STATUS');
    assert.deepEqual(
      observed.trace.map((row) => [row.observed, row.shouldBe]),
      [
        [
          ['a:0', 'b:0'],
          ['a:0', 'b:0'],
        ],
        [
          ['a:0', 'b:1'],
          ['a:1', 'b:0'],
        ],
      ],
    );
  });
});

describe('counterexample traces: which row the learner is pointed at', () => {
  it('a program whose very first answer differs is pointed at the first row', () => {
    const example = buildCounterexample(model, from, ['POOL a', 'PICK', 'PICK'], {
      lines: ['READY', 'a', 'a'],
      ending: 'finished',
    });
    assert.equal(example.divergesAt, 0);
    assert.deepEqual(
      example.trace.map((row) => row.matches),
      [false, true, true],
    );
  });

  it('a program that answered every command right and then died is pointed at the last row', () => {
    // Every row matches (the difference is how it ended): the last command is the nearest to say so.
    const commands = ['POOL a b', 'PICK', 'PICK'];
    const example = buildCounterexample(model, from, commands, {
      lines: simulate(model, commands).outcome.lines,
      ending: 'crashed',
    });
    assert.ok(example.trace.every((row) => row.matches));
    assert.equal(example.divergesAt, 2);
  });
});

describe('counterexample traces: the text of a long answer', () => {
  it('keeps the lines of a cut-down answer apart in its full text', () => {
    // A flood after the last answer belongs to the last row: shown cut, kept whole line by line in details.
    const flood = 'x'.repeat(200);
    const example = buildCounterexample(model, from, ['POOL a', 'PICK'], {
      lines: ['OK', 'a', flood, 'tick'],
      ending: 'finished',
    });
    const last = example.trace[1]!;
    assert.equal(last.actual!.length, 3);
    assert.equal(last.details, `a\n${flood}\ntick`);
  });
});

describe('counterexample traces: the reset row', () => {
  it("shows the reference's counts after the reset command, for a lesson whose reset sets something up", () => {
    // FAKE lesson: its reset pools a default backend, so the counts before the first command are not empty.
    const withDefault: ReferenceModel = { ...model, resetCommand: 'POOL main' };
    const example = buildCounterexample(withDefault, from, ['PICK'], { lines: ['other'], ending: 'finished' });
    assert.deepEqual(example.preamble, [{ command: 'POOL main', expected: ['OK'], counts: { main: 0 } }]);
  });

  it('shows no counts after a bare reset', () => {
    const example = buildCounterexample(model, from, ['POOL a', 'PICK'], { lines: ['OK', 'b'], ending: 'finished' });
    assert.deepEqual(example.preamble, [{ command: 'POOL', expected: ['OK'], counts: {} }]);
  });
});

describe('counterexample traces: a reference that stops', () => {
  // FAKE lesson: QUIT ends the program, in the reference too (simulate stops there, as at any crash).
  const quitting: ReferenceModel = {
    ...model,
    step: (state, command, on, observed) =>
      command === 'QUIT'
        ? { state, answer: { kind: 'crash', error: 'bye' } }
        : reference.step(state, command, on, observed),
  };
  const commands = ['POOL a', 'PICK', 'QUIT', 'PICK'];
  const learner: Outcome = { lines: ['OK', 'a', 'BYE', 'a'], ending: 'finished' };

  it('the rows from QUIT on expect no answer and no counts', () => {
    const example = buildCounterexample(quitting, from, commands, learner);
    assert.deepEqual(
      example.trace.map((row) => [row.command, row.expected, row.actual, row.counts, row.matches]),
      [
        ['POOL a', ['OK'], ['OK'], { a: 0 }, true],
        ['PICK', ['a'], ['a'], { a: 1 }, true],
        ['QUIT', [], ['BYE'], { a: 1 }, false],
        ['PICK', [], ['a'], {}, false],
      ],
    );
    assert.equal(example.divergesAt, 2);
  });

  it('and, with the counts of the program after each command, no counts they should be', () => {
    const example = buildCounterexample(quitting, from, commands, learner, [['a:0'], ['a:1'], ['a:1'], ['a:2']]);
    assert.deepEqual(
      example.trace.map((row) => [row.observed, row.shouldBe]),
      [
        [['a:0'], ['a:0']],
        [['a:1'], ['a:1']],
        [['a:1'], []],
        [['a:2'], []],
      ],
    );
  });
});
