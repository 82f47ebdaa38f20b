import * as assert from 'node:assert/strict';
import { model } from '../../lessons/least-connections/model/model';
import { simulate } from '../../src/core/model/simulate';

const run = (commands: string[], mutations: string[] = []): string[] => [
  ...simulate(model, commands, new Set(mutations)).outcome.lines,
];

describe('least-connections reference model', () => {
  it("replays the seed's worked trace with the counts after each event", () => {
    const commands = ['POOL a b c', 'PICK', 'PICK', 'PICK', 'DONE b', 'PICK', 'PICK'];
    const sim = simulate(model, commands);
    assert.deepEqual(sim.outcome.lines, ['OK', 'a', 'b', 'c', 'OK', 'b', 'a']);
    assert.deepEqual(
      sim.steps.map((s) => s.snapshot),
      [
        { a: 0, b: 0, c: 0 },
        { a: 1, b: 0, c: 0 },
        { a: 1, b: 1, c: 0 },
        { a: 1, b: 1, c: 1 },
        { a: 1, b: 0, c: 1 },
        { a: 1, b: 1, c: 1 },
        { a: 2, b: 1, c: 1 },
      ],
    );
  });

  it('breaks ties by pool order but sorts STATUS by name', () => {
    assert.deepEqual(run(['POOL zeta alpha mid', 'PICK', 'STATUS']), ['OK', 'zeta', 'alpha:0', 'mid:0', 'zeta:1']);
  });

  it('answers EMPTY before any POOL and for an empty POOL', () => {
    assert.deepEqual(run(['PICK', 'STATUS', 'POOL', 'PICK']), ['EMPTY', 'OK', 'EMPTY']);
  });

  it('keeps a count at zero and ignores strangers', () => {
    assert.deepEqual(run(['POOL a b', 'DONE a', 'DONE ghost', 'STATUS']), ['OK', 'OK', 'OK', 'a:0', 'b:0']);
  });

  it('each mutation changes the answer where its mistake shows', () => {
    assert.deepEqual(run(['POOL zeta alpha', 'PICK'], ['tiebreak-name']), ['OK', 'alpha']);
    assert.deepEqual(run(['POOL a b c', 'PICK'], ['tiebreak-last']), ['OK', 'c']);
    assert.deepEqual(run(['POOL a b c', 'PICK', 'DONE a', 'PICK'], ['tiebreak-rotate']), ['OK', 'a', 'OK', 'b']);
    assert.deepEqual(run(['POOL a b', 'DONE b', 'STATUS'], ['negative-count']), ['OK', 'OK', 'a:0', 'b:-1']);
    // Below zero, shown as 0 by STATUS, still ranked below zero by PICK; a 0 the program prints over it keeps it.
    assert.deepEqual(run(['POOL a b', 'DONE b', 'STATUS', 'PICK', 'STATUS'], ['negative-hidden']), [
      'OK',
      'OK',
      'a:0',
      'b:0',
      'b',
      'a:0',
      'b:0',
    ]);
    const on = new Set(['negative-hidden']);
    let state = model.initial();
    for (const command of ['POOL a b', 'DONE b']) state = model.step(state, command, on).state;
    state = model.step(state, 'STATUS', on, ['a:0', 'b:0']).state;
    assert.deepEqual(model.step(state, 'PICK', on).answer, { kind: 'lines', lines: ['b'] });
    assert.deepEqual(run(['POOL a b c', 'PICK', 'PICK', 'PICK'], ['no-increment']), ['OK', 'a', 'a', 'a']);
    assert.deepEqual(run(['POOL a', 'DONE x', 'STATUS'], ['unknown-added']), ['OK', 'OK', 'a:0', 'x:0']);
    const crash = simulate(model, ['POOL a', 'DONE x', 'STATUS'], new Set(['unknown-crash'])).outcome;
    assert.deepEqual(crash, { lines: ['OK'], ending: 'crashed' });
    assert.equal(simulate(model, ['PICK'], new Set(['empty-crash'])).outcome.ending, 'crashed');
  });
});
