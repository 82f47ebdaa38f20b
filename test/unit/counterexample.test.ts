import * as assert from 'node:assert/strict';
import { buildCounterexample } from '../../src/core/counterexample';
import { model } from '../../lessons/least-connections/model/model';
import { simulate } from '../../src/core/simulate';

describe('counterexample traces', () => {
  it('lays the reference and the program side by side, with the counts after each command', () => {
    const commands = ['POOL zeta alpha', 'PICK', 'PICK', 'STATUS'];
    const learner = simulate(model, commands, new Set(['tiebreak-name'])).outcome;
    const example = buildCounterexample(model, 'ties', commands, learner, 9);
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
    assert.deepEqual(example.trace.map((r) => r.counts), [
      { zeta: 0, alpha: 0 },
      { zeta: 1, alpha: 0 },
      { zeta: 1, alpha: 1 },
      { zeta: 1, alpha: 1 },
    ]);
    assert.equal(example.divergesAt, 1);
    assert.equal(example.trace[example.divergesAt]!.matches, false);
  });

  it('marks commands after a crash as never answered (actual null)', () => {
    const commands = ['POOL a', 'DONE ghost', 'PICK'];
    const learner = simulate(model, commands, new Set(['unknown-crash'])).outcome;
    const example = buildCounterexample(model, 't', commands, learner, 3);
    assert.deepEqual(example.trace.map((r) => r.actual), [['OK'], null, null]);
    assert.equal(example.divergesAt, 1);
  });

  it('points at a STATUS the program died on, even when the reference prints nothing for it', () => {
    // Before the fix the empty STATUS counted as answered "(nothing)", every row matched, and
    // divergesAt pointed at a matching row.
    const example = buildCounterexample(model, 't', ['POOL', 'STATUS'], { lines: ['OK'], ending: 'crashed' }, 2);
    assert.equal(example.divergesAt, 1);
    assert.equal(example.trace[1]!.actual, null);
    assert.equal(example.trace[example.divergesAt]!.matches, false);
  });

  it('shows a STATUS of a program that finished as answered, even when empty', () => {
    const example = buildCounterexample(model, 't', ['STATUS', 'PICK'], { lines: ['a'], ending: 'finished' }, 2);
    assert.deepEqual(example.trace.map((r) => [r.actual, r.matches]), [
      [[], true],
      [['a'], false],
    ]);
    assert.equal(example.divergesAt, 1);
  });
});
