import * as assert from 'node:assert/strict';
import { defaultSeed } from '../../src/core/check/check';
import { model } from '../../lessons/least-connections/model/model';
import { seededRandom } from '../../src/core/model/random';
import { simulate } from '../../src/core/model/simulate';

const draw = (seed: number, n: number): number[] => {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => random.int(1000));
};

describe('seeded randomness', () => {
  it('gives the same sequence for the same seed, and another for another seed', () => {
    assert.deepEqual(draw(2026, 50), draw(2026, 50));
    assert.notDeepEqual(draw(2026, 50), draw(2027, 50));
  });

  it('treats seeds as unsigned 32-bit numbers, so a seed printed in a report reproduces', () => {
    assert.deepEqual(draw(2 ** 32 + 5, 20), draw(5, 20));
    assert.deepEqual(draw(-1, 20), draw(2 ** 32 - 1, 20));
  });

  it('keeps int(n) within [0, n) and reaches every value', () => {
    const random = seededRandom(7);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const v = random.int(10);
      assert.ok(Number.isInteger(v) && v >= 0 && v < 10, String(v));
      seen.add(v);
    }
    assert.equal(seen.size, 10);
  });

  it('generates the same fuzz transcripts for the same seed, each starting with POOL', () => {
    const batch = (seed: number): string[][] => {
      const random = seededRandom(seed);
      return Array.from({ length: 30 }, () => model.generate(random, 2 + random.int(15)));
    };
    const first = batch(977078989);
    assert.deepEqual(batch(977078989), first);
    assert.notDeepEqual(batch(1), first);
    for (const commands of first) {
      assert.match(commands[0]!, /^POOL( [A-Za-z0-9._-]+)*$/);
      // Every generated transcript is one the reference answers to the end.
      assert.equal(simulate(model, commands).outcome.ending, 'finished');
    }
  });

  it('derives the default seed from lesson id and version only', () => {
    assert.equal(
      defaultSeed({ id: 'least-connections', version: '1.0.0' }),
      defaultSeed({ id: 'least-connections', version: '1.0.0' }),
    );
    assert.notEqual(
      defaultSeed({ id: 'least-connections', version: '1.0.0' }),
      defaultSeed({ id: 'least-connections', version: '1.0.1' }),
    );
    assert.notEqual(
      defaultSeed({ id: 'least-connections', version: '1.0.0' }),
      defaultSeed({ id: 'conn-counts', version: '1.0.0' }),
    );
  });
});
