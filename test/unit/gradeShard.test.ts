/**
 * Sharding a roster (core grade/shard): i/N parsed or refused with a sentence; every student in exactly one
 * shard, by name alone, so a shard of a shard's roster is the same shard.
 */
import * as assert from 'node:assert/strict';
import { inShard, parseShard, shardOfStudent } from '../../src/core/grade/shard';

describe('grade --shard', () => {
  it('parses i/N and refuses anything else', () => {
    assert.deepEqual(parseShard('2/3'), { index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', '1/0', '1', 'a/b', '1/3/4', '-1/3'])
      assert.match(parseShard(bad) as string, /--shard takes i\/N/, bad);
  });

  it('puts every student in exactly one shard, by name alone, and uses every shard of a class', () => {
    const roster = Array.from({ length: 30 }, (_, i) => `lb-student-${i}`);
    const shards = [1, 2, 3].map((index) => roster.filter((s) => inShard(s, { index, count: 3 })));
    assert.deepEqual(shards.flat().sort(), [...roster].sort());
    assert.ok(shards.every((s) => s.length > 0));
    assert.deepEqual(
      shards[1]!.filter((s) => inShard(s, { index: 2, count: 3 })),
      shards[1],
      'a shard graded again with the same --shard keeps all of it',
    );
    assert.equal(shardOfStudent('amy', 1), 1);
    assert.ok(inShard('amy', null));
  });
});
