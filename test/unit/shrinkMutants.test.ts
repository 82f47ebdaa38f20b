/**
 * What shrinking costs (core `shrinkCommands`), beyond shrink.test.ts: every call of the predicate may be a
 * process run of the learner's program, so a round sends only candidates that can change the result. Splitting
 * in two sends the two halves only (the complement of one half is the other), and a list with no command of
 * two or more arguments sends no argument round at all (no empty batch, which would still cost a call).
 */
import * as assert from 'node:assert/strict';
import { shrinkCommands, type BatchPredicate } from '../../src/core/check/shrink';

/** A batch predicate from a plain one, recording every call's candidates. */
function recorded(
  holds: (commands: readonly string[]) => boolean,
): BatchPredicate & { calls: (readonly string[])[][] } {
  const calls: (readonly string[])[][] = [];
  const predicate = async (candidates: readonly (readonly string[])[]): Promise<boolean[]> => {
    calls.push([...candidates]);
    return candidates.map(holds);
  };
  return Object.assign(predicate, { calls });
}

describe('shrinking: what each call of the predicate is asked', () => {
  it('asks for the two halves only when it splits in two, then for quarters and their complements', async () => {
    // Fails only with C0 and C3 both there: neither half fails, so it splits in four.
    const predicate = recorded((c) => c.includes('C0') && c.includes('C3'));
    const result = await shrinkCommands(['C0', 'C1', 'C2', 'C3'], predicate);
    assert.deepEqual(result, ['C0', 'C3']);
    assert.deepEqual(predicate.calls[0], [
      ['C0', 'C1'],
      ['C2', 'C3'],
    ]);
    assert.deepEqual(predicate.calls[1], [
      ['C0'],
      ['C1'],
      ['C2'],
      ['C3'],
      ['C1', 'C2', 'C3'],
      ['C0', 'C2', 'C3'],
      ['C0', 'C1', 'C3'],
      ['C0', 'C1', 'C2'],
    ]);
  });

  it('never asks about an empty batch: commands without two arguments get no argument round', async () => {
    const predicate = recorded((c) => c.includes('PICK'));
    assert.deepEqual(await shrinkCommands(['POOL a', 'STATUS', 'PICK'], predicate), ['PICK']);
    assert.ok(
      predicate.calls.every((call) => call.length > 0),
      JSON.stringify(predicate.calls),
    );
    // ddmin: halves [POOL a, STATUS] | [PICK] -> [PICK]; nothing left to shrink, and no argument to drop.
    assert.deepEqual(predicate.calls, [[['POOL a', 'STATUS'], ['PICK']]]);
  });
});

describe('shrinking: every subset of a short list in one call', () => {
  // Fails with C1 and C4 together, or with C0, C2, C3 and C5 all there: ddmin's halves and quarters never hold,
  // and the singles' complements take it to the four-command answer, one granularity (one call) at a time.
  const holds = (c: readonly string[]): boolean =>
    (c.includes('C1') && c.includes('C4')) || ['C0', 'C2', 'C3', 'C5'].every((x) => c.includes(x));
  const commands = ['C0', 'C1', 'C2', 'C3', 'C4', 'C5'];

  it('a list of up to `everySubsetUpTo` commands sends all its subsets at once, smallest first, and keeps the first that holds', async () => {
    const predicate = recorded(holds);
    assert.deepEqual(await shrinkCommands(commands, predicate, 60, undefined, 8), ['C1', 'C4']);
    assert.equal(predicate.calls.length, 1, JSON.stringify(predicate.calls));
    assert.equal(predicate.calls[0]!.length, 2 ** 6 - 2);
    const sizes = predicate.calls[0]!.map((c) => c.length);
    assert.deepEqual(
      sizes,
      [...sizes].sort((a, b) => a - b),
    );
  });

  it('without it, ddmin takes a call per granularity', async () => {
    const predicate = recorded(holds);
    const result = await shrinkCommands(commands, predicate);
    assert.ok(holds(result));
    assert.ok(predicate.calls.length >= 3, JSON.stringify(predicate.calls.map((c) => c.length)));
  });

  it('a longer list is split by ddmin until it is short enough', async () => {
    const long = Array.from({ length: 20 }, (_, i) => `C${i}`);
    const predicate = recorded((c) => c.includes('C13') && c.includes('C17'));
    assert.deepEqual(await shrinkCommands(long, predicate, 60, undefined, 8), ['C13', 'C17']);
    // The first call reaches a short list (two chunks kept), the last asks its every subset: each command alone too.
    assert.ok(predicate.calls.length >= 2, JSON.stringify(predicate.calls.map((c) => c.length)));
    const last = predicate.calls.at(-1)!.map((c) => c.join(' '));
    assert.ok(last.includes('C13') && last.includes('C17'), 'the last call is every subset of a short list');
  });

  it("a longer list asks ddmin's every granularity in one call: three commands of twenty in four calls", async () => {
    // Halves, quarters, eighths and single commands with their complements at once, the shortest first: ddmin would
    // spend a call on each granularity that finds nothing.
    const long = Array.from({ length: 20 }, (_, i) => `C${i}`);
    const predicate = recorded((c) => ['C3', 'C9', 'C15'].every((x) => c.includes(x)));
    assert.deepEqual(await shrinkCommands(long, predicate, 60, undefined, 8), ['C3', 'C9', 'C15']);
    assert.ok(predicate.calls.length <= 4, JSON.stringify(predicate.calls.map((c) => c.length)));
    const first = predicate.calls[0]!.map((c) => c.length);
    assert.deepEqual(
      first,
      [...first].sort((a, b) => a - b),
      'the shortest first',
    );
    assert.ok(first.includes(1) && first.includes(19), 'single commands and their complements in the first call');
  });

  it('two chunks dropped at once: four commands far apart in thirty, in five calls', async () => {
    // A failure that needs commands spread over the list: no half, quarter or eighth holds alone, and dropping
    // one chunk at a time takes a call per chunk; dropping two at once takes several steps in one call (8 calls without).
    const long = Array.from({ length: 30 }, (_, i) => `C${i}`);
    const predicate = recorded((c) => ['C1', 'C8', 'C14', 'C19'].every((x) => c.includes(x)));
    assert.deepEqual(await shrinkCommands(long, predicate, 60, undefined, 8), ['C1', 'C8', 'C14', 'C19']);
    assert.ok(predicate.calls.length <= 5, JSON.stringify(predicate.calls.map((c) => c.length)));
  });

  it('two or three chunks kept alone: a pool, a backend out and back, and the pick, far apart in forty, in three calls', async () => {
    // down_leaves_rotation.js's shape: commands 8, 35, 38 and 39 of forty. Keeping two eighths reaches ten commands
    // in the first call, three fifths of those six in the second (four calls with halves, complements and drops).
    const long = Array.from({ length: 40 }, (_, i) => `C${i}`);
    const needed = ['C8', 'C35', 'C38', 'C39'];
    const predicate = recorded((c) => needed.every((x) => c.includes(x)));
    assert.deepEqual(await shrinkCommands(long, predicate, 60, undefined, 8), needed);
    assert.equal(predicate.calls.length, 3, JSON.stringify(predicate.calls.map((c) => c.length)));
    const kept = predicate.calls[0]!.map((c) => c.join(' '));
    assert.ok(kept.includes('C5 C6 C7 C8 C9 C35 C36 C37 C38 C39'), 'two chunks of eight kept');
  });

  it('seeds (shorter lists found otherwise) are asked in the first call; one that holds is taken as it is', async () => {
    const long = Array.from({ length: 20 }, (_, i) => `C${i}`);
    const holds = (c: readonly string[]): boolean => c.includes('C3') && c.includes('C9');
    const seed = ['C3', 'C5', 'C9'];
    const seeded = recorded(holds);
    assert.deepEqual(await shrinkCommands(long, seeded, 60, undefined, 8, [seed]), seed);
    assert.equal(seeded.calls.length, 1, 'the first call holds the seed beside every granularity');
    // A short list's seed goes with its every subset, in one call as well.
    const short = recorded(holds);
    assert.deepEqual(await shrinkCommands(long.slice(2, 10), short, 60, undefined, 8, [seed]), ['C3', 'C9']);
    assert.ok(short.calls[0]!.some((c) => c === seed || c.join() === seed.join()));
    // Without a seed that holds, shrinking goes on as without seeds, at no call more.
    const none = recorded(holds);
    const plain = recorded(holds);
    await shrinkCommands(long, none, 60, undefined, 8, [['C1', 'C2']]);
    await shrinkCommands(long, plain, 60, undefined, 8);
    assert.equal(none.calls.length, plain.calls.length);
  });

  it('once no argument can be dropped, no further pass asks again about the same commands', async () => {
    // POOL a b: `b` can go, `a` cannot. One call asks every subset with its every drop of names: [POOL a, PICK]
    // holds there, and all that is smaller than it was asked in the same call, so no call follows.
    const predicate = recorded((c) => c.includes('PICK') && c.some((x) => x.startsWith('POOL') && x.includes('a')));
    assert.deepEqual(await shrinkCommands(['POOL a b', 'STATUS', 'PICK'], predicate, 60, undefined, 8), [
      'POOL a',
      'PICK',
    ]);
    assert.equal(predicate.calls.length, 1, JSON.stringify(predicate.calls));
    // The same where no name can go.
    const settled = recorded((c) => c.includes('PICK') && c.includes('POOL a b'));
    assert.deepEqual(await shrinkCommands(['POOL a b', 'STATUS', 'PICK'], settled, 60, undefined, 8), [
      'POOL a b',
      'PICK',
    ]);
    assert.equal(settled.calls.length, 1, JSON.stringify(settled.calls));
  });
});

describe('shrinking where candidates share a process: several arguments at once', () => {
  it('drops several arguments of a command in one round, the most dropped first', async () => {
    const holds = (c: readonly string[]): boolean =>
      c.includes('PICK') && c.some((x) => /^POOL/.test(x) && x.includes(' a') && x.includes(' e'));
    const several = recorded(holds);
    const one = recorded(holds);
    assert.deepEqual(await shrinkCommands(['POOL a b c d e', 'PICK'], several, 60, undefined, 8), ['POOL a e', 'PICK']);
    assert.deepEqual(await shrinkCommands(['POOL a b c d e', 'PICK'], one), ['POOL a e', 'PICK']);
    // Subsets of the two commands and every drop of names in one call (b, c and d go together); what the next
    // call would ask ([POOL a, PICK], [POOL e, PICK], [POOL a e], [PICK]) was asked in that one: no second call.
    assert.equal(several.calls.length, 1, JSON.stringify(several.calls.map((c) => c.length)));
    assert.ok(one.calls.length > several.calls.length, JSON.stringify(one.calls.map((c) => c.length)));
  });
});
