import * as assert from 'node:assert/strict';
import {
  buildCounterexample,
  splitObserved,
  withObserve,
  type CounterexampleSource,
} from '../../src/core/check/counterexample';
import { model } from '../../lessons/least-connections/model/model';
import { simulate } from '../../src/core/model/simulate';

const from = (transcript: string, shrunkFrom: number): CounterexampleSource => ({
  transcript,
  label: `the ${transcript} transcript`,
  shrunkFrom,
  reproduced: true,
});

describe('counterexample traces', () => {
  it('lines printed after the last answer are shown with the last command, which is then the first difference', () => {
    const commands = ['POOL a b', 'PICK', 'STATUS'];
    const right = simulate(model, commands).outcome;
    const example = buildCounterexample(model, from('tail', 3), commands, {
      lines: [...right.lines, '.', 'tick'],
      ending: 'finished',
    });
    const last = example.trace[commands.length - 1]!;
    assert.deepEqual([last.actual, last.matches], [[...last.expected, '.', 'tick'], false]);
    assert.equal(example.divergesAt, commands.length - 1);
    assert.ok(example.trace.slice(0, -1).every((row) => row.matches));
    const exact = buildCounterexample(model, from('tail', 3), commands, right);
    assert.deepEqual(
      exact.trace[commands.length - 1]!.actual,
      exact.trace[commands.length - 1]!.expected,
      'nothing added when nothing follows',
    );
  });

  it('lays the reference and the program side by side, with the counts after each command', () => {
    const commands = ['POOL zeta alpha', 'PICK', 'PICK', 'STATUS'];
    const learner = simulate(model, commands, new Set(['tiebreak-name'])).outcome;
    const example = buildCounterexample(model, from('ties', 9), commands, learner);
    assert.equal(example.transcript, 'ties');
    assert.equal(example.shrunkFrom, 9);
    assert.deepEqual(example.commands, commands);
    assert.deepEqual(example.expected, ['OK', 'zeta', 'alpha', 'alpha:1', 'zeta:1']);
    assert.deepEqual(example.actual, ['OK', 'alpha', 'zeta', 'alpha:1', 'zeta:1']);
    assert.deepEqual(
      example.trace.map((r) => [r.command, r.expected, r.actual, r.matches]),
      [
        ['POOL zeta alpha', ['OK'], ['OK'], true],
        ['PICK', ['zeta'], ['alpha'], false],
        ['PICK', ['alpha'], ['zeta'], false],
        ['STATUS', ['alpha:1', 'zeta:1'], ['alpha:1', 'zeta:1'], true],
      ],
    );
    assert.deepEqual(
      example.trace.map((r) => r.counts),
      [
        { zeta: 0, alpha: 0 },
        { zeta: 1, alpha: 0 },
        { zeta: 1, alpha: 1 },
        { zeta: 1, alpha: 1 },
      ],
    );
    assert.equal(example.divergesAt, 1);
    assert.equal(example.trace[example.divergesAt]!.matches, false);
  });

  it('marks commands after a crash as never answered (actual null)', () => {
    const commands = ['POOL a', 'DONE ghost', 'PICK'];
    const learner = simulate(model, commands, new Set(['unknown-crash'])).outcome;
    const example = buildCounterexample(model, from('t', 3), commands, learner);
    assert.deepEqual(
      example.trace.map((r) => r.actual),
      [['OK'], null, null],
    );
    assert.equal(example.divergesAt, 1);
  });

  it('points at a STATUS the program died on, even when the reference prints nothing for it', () => {
    // Before the fix the empty STATUS counted as answered "(nothing)", every row matched, and
    // divergesAt pointed at a matching row.
    const example = buildCounterexample(model, from('t', 2), ['POOL', 'STATUS'], { lines: ['OK'], ending: 'crashed' });
    assert.equal(example.divergesAt, 1);
    assert.equal(example.trace[1]!.actual, null);
    assert.equal(example.trace[example.divergesAt]!.matches, false);
  });

  it('shows a STATUS of a program that finished as answered, even when empty', () => {
    const example = buildCounterexample(model, from('t', 2), ['STATUS', 'PICK'], { lines: ['a'], ending: 'finished' });
    assert.deepEqual(
      example.trace.map((r) => [r.actual, r.matches]),
      [
        [[], true],
        [['a'], false],
      ],
    );
    assert.equal(example.divergesAt, 1);
  });

  it("carries the program's own counts beside the reference's when the run had the observe command after each step", () => {
    const commands = ['POOL mid web2', 'DONE web2', 'PICK'];
    const mutations = new Set(['negative-count']);
    const plain = simulate(model, commands, mutations).outcome;
    const observedRun = simulate(model, withObserve(model, commands), mutations).outcome;
    const observed = splitObserved(model, commands, plain, observedRun);
    assert.ok(observed, 'the observed run answers the plain commands as the plain run did');
    const example = buildCounterexample(model, from('done-at-zero', 6), commands, plain, observed);
    assert.equal(example.observeCommand, 'STATUS');
    assert.deepEqual(
      example.trace.map((r) => [r.observed, r.shouldBe]),
      [
        [
          ['mid:0', 'web2:0'],
          ['mid:0', 'web2:0'],
        ],
        [
          ['mid:0', 'web2:-1'],
          ['mid:0', 'web2:0'],
        ],
        [
          ['mid:0', 'web2:0'],
          ['mid:1', 'web2:0'],
        ],
      ],
    );
    assert.equal(example.divergesAt, 2);
  });

  it('drops the counts when the observed run did not answer like the shown run', () => {
    const commands = ['POOL a b', 'PICK'];
    const plain = simulate(model, commands).outcome;
    const otherRun = simulate(model, withObserve(model, commands), new Set(['tiebreak-last'])).outcome;
    assert.equal(splitObserved(model, commands, plain, otherRun), undefined);
  });

  it('drops the counts when the observed run stopped sooner than the shown run', () => {
    const commands = ['POOL a b', 'PICK', 'PICK'];
    const plain = simulate(model, commands).outcome;
    const observedRun = simulate(model, withObserve(model, commands)).outcome;
    assert.ok(splitObserved(model, commands, plain, observedRun), 'the same run gives counts');
    // The observed run crashed before the last PICK; the shown run answered it.
    const stoppedEarly = { lines: observedRun.lines.slice(0, 6), ending: 'crashed' as const };
    assert.equal(splitObserved(model, commands, plain, stoppedEarly), undefined);
  });

  it('keeps the counts up to where both runs crashed, and none after', () => {
    const commands = ['POOL a', 'DONE ghost', 'PICK'];
    const mutations = new Set(['unknown-crash']);
    const plain = simulate(model, commands, mutations).outcome;
    const observedRun = simulate(model, withObserve(model, commands), mutations).outcome;
    assert.equal(plain.ending, 'crashed');
    assert.deepEqual(splitObserved(model, commands, plain, observedRun), [['a:0'], null, null]);
  });

  it('cuts a long answer for display, saying its length, and keeps the full text in details', () => {
    const flood = 'x'.repeat(1000);
    const example = buildCounterexample(model, from('t', 2), ['POOL a', 'PICK'], {
      lines: ['OK', flood],
      ending: 'finished',
    });
    const row = example.trace[1]!;
    assert.equal(row.actual!.length, 1);
    assert.match(row.actual![0]!, /^x{79}… \(1,000 characters\)$/);
    assert.equal(row.details, flood);
    assert.equal(row.matches, false);
    assert.equal(example.trace[0]!.details, undefined, 'short answers are shown whole');
  });
});

describe('counterexample traces: how a run ended, and lessons without an observe command', () => {
  it('an empty STATUS last of a run that finished is answered (nothing); of a run that died, it is not', () => {
    const commands = ['POOL', 'STATUS'];
    const finished = buildCounterexample(model, from('t', 2), commands, { lines: ['OK'], ending: 'finished' });
    assert.deepEqual(
      finished.trace.map((r) => [r.actual, r.matches]),
      [
        [['OK'], true],
        [[], true],
      ],
    );
    const died = buildCounterexample(model, from('t', 2), commands, { lines: ['OK'], ending: 'crashed' });
    assert.deepEqual(
      died.trace.map((r) => [r.actual, r.matches]),
      [
        [['OK'], true],
        [null, false],
      ],
    );
  });

  it('splits the counts of a finished run down to an empty STATUS at its very end', () => {
    const commands = ['POOL', 'STATUS'];
    const run = { lines: ['OK'], ending: 'finished' as const };
    assert.deepEqual(splitObserved(model, commands, run, run), [[], []]);
  });

  it('gives no counts when one line of a many-line answer differs between the runs', () => {
    const commands = ['POOL a b', 'PICK', 'STATUS'];
    const plain = simulate(model, commands).outcome;
    const observedRun = simulate(model, withObserve(model, commands)).outcome;
    const changed = {
      ...observedRun,
      lines: observedRun.lines.map((l, i) => (i === observedRun.lines.length - 3 ? 'b:7' : l)),
    };
    assert.deepEqual(
      observedRun.lines.slice(-4),
      ['a:1', 'b:0', 'a:1', 'b:0'],
      'the STATUS answer, then its observed twin',
    );
    assert.equal(splitObserved(model, commands, plain, changed), undefined);
  });

  it('a lesson with no observe command: the commands as they are, and no counts to split', () => {
    const plainModel = { ...model, observeCommand: undefined };
    const commands = ['POOL a', 'PICK'];
    assert.deepEqual(withObserve(plainModel, commands), commands);
    const run = simulate(model, commands).outcome;
    assert.equal(splitObserved(plainModel, commands, run, run), undefined);
    const example = buildCounterexample(plainModel, from('t', 2), commands, run);
    assert.equal(example.observeCommand, undefined);
    assert.ok(example.trace.every((row) => !('observed' in row)));
  });
});
