/**
 * The read-order pattern check (src/core/pack/patternSafety.ts) where packBounds.test.ts does not reach: the first
 * check in a fresh process, which loads the analyser; a pattern JavaScript compiles but the analyser cannot read;
 * and the advice an instructor gets for an exponential pattern. A pattern the analyser cannot judge must be refused
 * in words that say what to do, never pass unchecked. Every pattern is checked inside its test, so mutation
 * coverage (perTest) credits that test.
 */
import * as assert from 'node:assert/strict';
import { checkPattern } from '../../src/core/pack/patternSafety';
import { freshModule } from './packAuthoring';

describe('read-order pattern check: edges', () => {
  it('loads the analyser on the first check of a fresh process, and judges with it', () => {
    const fresh = freshModule<typeof import('../../src/core/pack/patternSafety')>(
      require.resolve('../../src/core/pack/patternSafety'),
    );
    const plain = fresh.checkPattern('class\\s+Balancer');
    assert.ok(plain.ok && plain.polynomial === undefined, JSON.stringify(plain));
    const nested = fresh.checkPattern('(a+)+$');
    assert.ok(!nested.ok && nested.reason === 'exponential', JSON.stringify(nested));
  });

  it('refuses, as invalid with advice, a pattern JavaScript compiles but the analyser cannot read', () => {
    const depth = 10000;
    const pattern = `${'(?:'.repeat(depth)}a${')'.repeat(depth)}`;
    assert.ok(new RegExp(pattern, 'm').test('a'), 'JavaScript compiles and runs it');
    const verdict = checkPattern(pattern);
    assert.ok(!verdict.ok);
    assert.equal(verdict.reason, 'invalid');
    assert.match(
      verdict.message,
      /^"pattern" cannot be analysed for speed \(.+\); write it in plainer JavaScript regular-expression syntax$/,
    );
  });

  it('tells the instructor why an exponential pattern is refused and how to fix it', () => {
    const verdict = checkPattern('(a+)+$');
    assert.ok(!verdict.ok);
    assert.match(verdict.message, /on a line like "aaa"… that does not match/);
    assert.match(
      verdict.message,
      /which would freeze the learner's editor\. Remove the nesting \(e\.g\. "\(a\+\)\+" → "a\+"\) or name a "symbol" instead$/,
    );
  });
});
