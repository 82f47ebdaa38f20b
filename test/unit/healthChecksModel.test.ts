import * as assert from 'node:assert/strict';
import { model } from '../../lessons/health-checks/model/model';
import { simulate } from '../../src/core/model/simulate';

const run = (commands: string[], mutations: string[] = []): string[] => [
  ...simulate(model, commands, new Set(mutations)).outcome.lines,
];

describe('health-checks reference model: the forms added in stop 42', () => {
  it('cap-before-health: EMPTY where only a down backend has room, BUSY where nothing is healthy and all are full', () => {
    const fullHealthy = ['CAP 1', 'POOL a b', 'DOWN b', 'PICK', 'PICK'];
    assert.deepEqual(run(fullHealthy), ['OK', 'OK', 'OK', 'a', 'BUSY']);
    assert.deepEqual(run(fullHealthy, ['cap-before-health']), ['OK', 'OK', 'OK', 'a', 'EMPTY']);
    const noneHealthyAllFull = ['CAP 1', 'POOL a', 'PICK', 'DOWN a', 'PICK'];
    assert.deepEqual(run(noneHealthyAllFull), ['OK', 'OK', 'a', 'OK', 'EMPTY']);
    assert.deepEqual(run(noneHealthyAllFull, ['cap-before-health']), ['OK', 'OK', 'a', 'OK', 'BUSY']);
    // Where health and room agree, the same answers as the reference.
    const plain = ['CAP 2', 'POOL a b c', 'DOWN a', 'PICK', 'PICK', 'PICK', 'UP a', 'PICK'];
    assert.deepEqual(run(plain, ['cap-before-health']), run(plain));
  });

  it('full-before-health: BUSY where nothing is healthy and every backend is full; elsewhere the rule', () => {
    const noneHealthyAllFull = ['CAP 1', 'POOL a', 'PICK', 'DOWN a', 'PICK'];
    assert.deepEqual(run(noneHealthyAllFull, ['full-before-health']), ['OK', 'OK', 'a', 'OK', 'BUSY']);
    // Unlike cap-before-health, a down backend with room changes nothing: the healthy ones are full, so BUSY.
    const fullHealthy = ['CAP 1', 'POOL a b', 'DOWN b', 'PICK', 'PICK'];
    assert.deepEqual(run(fullHealthy, ['full-before-health']), run(fullHealthy));
    // A cap lowered under the counts: full all the same, and still nothing healthy.
    const lowered = ['CAP 0', 'POOL a b', 'PICK', 'PICK', 'PICK', 'CAP 1', 'DOWN a', 'DOWN b', 'PICK', 'UP b', 'PICK'];
    assert.deepEqual(run(lowered), ['OK', 'OK', 'a', 'b', 'a', 'OK', 'OK', 'OK', 'EMPTY', 'OK', 'BUSY']);
    assert.deepEqual(run(lowered, ['full-before-health']), [
      'OK',
      'OK',
      'a',
      'b',
      'a',
      'OK',
      'OK',
      'OK',
      'BUSY',
      'OK',
      'BUSY',
    ]);
  });

  it('negative-hidden: below zero for PICK, 0 in STATUS', () => {
    const commands = ['POOL a b', 'DONE b', 'STATUS', 'PICK', 'STATUS'];
    assert.deepEqual(run(commands, ['negative-count']), ['OK', 'OK', 'a:0', 'b:-1', 'b', 'a:0', 'b:0']);
    assert.deepEqual(run(commands, ['negative-hidden']), ['OK', 'OK', 'a:0', 'b:0', 'b', 'a:0', 'b:0']);
    assert.deepEqual(run(commands), ['OK', 'OK', 'a:0', 'b:0', 'a', 'a:1', 'b:0']);
  });
});
