/**
 * The sticky-sessions baseline's hash (src/worlds/queues.ts, the queue world shipped for balancer packs; pure: a model has no
 * require) against node:crypto, and the seed's figure: the sessions named session-0 … session-29, pinned by
 * `int(md5(session_id).hexdigest(), 16) % 3` over a, b, c, 5 requests each, split 60 / 65 / 25.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { hexMod, md5Hex } from '../../src/worlds/queues';

describe("sticky sessions: the pack's own md5", () => {
  it('agrees with node:crypto, across block boundaries', () => {
    for (const text of [
      '',
      'a',
      'session-0',
      'session-29',
      'x'.repeat(55),
      'y'.repeat(56),
      'z'.repeat(64),
      'w'.repeat(119),
    ]) {
      assert.equal(md5Hex(text), createHash('md5').update(text).digest('hex'), JSON.stringify(text));
    }
  });

  it('pins session-0 … session-29 as the seed measured: a 60, b 65, c 25 of 150 (a spread of 40)', () => {
    const sent = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 30; i++) {
      const hex = createHash('md5').update(`session-${i}`).digest('hex');
      const k = (['a', 'b', 'c'] as const)[Number(BigInt(`0x${hex}`) % 3n)]!;
      assert.equal(hexMod(md5Hex(`session-${i}`), 3), ['a', 'b', 'c'].indexOf(k));
      sent[k] += 5;
    }
    assert.deepEqual(sent, { a: 60, b: 65, c: 25 });
  });
});
