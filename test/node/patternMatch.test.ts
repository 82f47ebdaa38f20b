// Read-order patterns matched in a worker thread with a time bound (src/node/packs/patternMatch.ts): the
// caller's event loop keeps turning while a slow match runs, and the match is stopped at its bound.
import * as assert from 'node:assert/strict';
import { checkPattern } from '../../src/core/pack/patternSafety';
import { searchPattern } from '../../src/node/packs/patternMatch';

describe('searchPattern (worker thread, time bound)', function () {
  this.timeout(20_000);

  it('finds the first match with the read-order flags (multi-line), and says when there is none', async () => {
    const text = '"""doc"""\nclass Balancer:\n    def pick(self):\n';
    assert.deepEqual(await searchPattern('^\\s*def\\s+pick', text), { found: true, index: text.indexOf('    def') });
    assert.deepEqual(await searchPattern('def\\s+done', text), { found: false, why: 'no-match' });
    assert.deepEqual(await searchPattern('(', text), { found: false, why: 'invalid' });
  });

  it('stops a match that backtracks exponentially, while the caller keeps running', async () => {
    // Overlapping alternatives: the analyser lets this through, V8 needs minutes on 40 a's and a "!".
    assert.equal(checkPattern('(a|aa)+$').ok, true);
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 10);
    const result = await searchPattern('(a|aa)+$', `# ${'a'.repeat(40)}!\n`, { timeLimitMs: 300 });
    clearInterval(ticking);
    assert.deepEqual(result, { found: false, why: 'timed-out' });
    assert.ok(ticks >= 5, `the event loop turned ${ticks} times during the match`);
  });

  it('searches only the first maxChars characters', async () => {
    const text = `${'x'.repeat(100)}needle`;
    assert.deepEqual(await searchPattern('needle', text, { maxChars: 50 }), { found: false, why: 'no-match' });
    assert.deepEqual(await searchPattern('needle', text, { maxChars: 200 }), { found: true, index: 100 });
  });
});
