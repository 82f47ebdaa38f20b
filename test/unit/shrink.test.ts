import * as assert from 'node:assert/strict';
import { seededRandom } from '../../src/core/model/random';
import { shrinkCommands, type BatchPredicate } from '../../src/core/check/shrink';

/** A batch predicate from a plain one, recording every call so tests can see how candidates are grouped. */
function batched(holds: (commands: readonly string[]) => boolean): BatchPredicate & { calls: (readonly string[])[][] } {
  const calls: (readonly string[])[][] = [];
  const predicate = async (candidates: readonly (readonly string[])[]): Promise<boolean[]> => {
    calls.push([...candidates]);
    return candidates.map(holds);
  };
  return Object.assign(predicate, { calls });
}

/** True when `sub` is `all` with some items left out, order kept. */
function isSubsequence(sub: readonly string[], all: readonly string[]): boolean {
  let at = 0;
  for (const item of all) if (at < sub.length && sub[at] === item) at += 1;
  return at === sub.length;
}

/** 1-minimal: leaving out any single command breaks the predicate. */
function assertOneMinimal(result: readonly string[], holds: (c: readonly string[]) => boolean): void {
  result.forEach((_, i) =>
    assert.equal(holds(result.filter((__, k) => k !== i)), false, `dropping ${result[i]} still fails`),
  );
}

describe('shrinking (ddmin over commands, then arguments)', () => {
  it('finds the two commands that matter among twenty', async () => {
    const commands = Array.from({ length: 20 }, (_, i) => `C${i}`);
    // Fails only when C3 comes before C17 (like a DONE that matters only after a PICK).
    const holds = (c: readonly string[]): boolean => c.indexOf('C3') >= 0 && c.indexOf('C17') > c.indexOf('C3');
    const result = await shrinkCommands(commands, batched(holds));
    assert.deepEqual(result, ['C3', 'C17']);
  });

  it('finds a 1-minimal subsequence for a predicate with many solutions', async () => {
    const random = seededRandom(11);
    const commands = Array.from({ length: 40 }, (_, i) => `N${i} ${random.int(10)}`);
    // Fails when the numbers add up to at least 25: many subsets do, ddmin must find one it cannot cut.
    const sum = (c: readonly string[]): number => c.reduce((s, x) => s + Number(x.split(' ')[1]), 0);
    const holds = (c: readonly string[]): boolean => sum(c) >= 25;
    assert.ok(holds(commands));
    const result = await shrinkCommands(commands, batched(holds));
    assert.ok(holds(result));
    assert.ok(isSubsequence(result, commands));
    assert.ok(result.length < commands.length / 4, `${result.length} commands left`);
    assertOneMinimal(result, holds);
  });

  it('tests every candidate of a round in one call, so the caller can run them in one process', async () => {
    const commands = Array.from({ length: 16 }, (_, i) => `C${i}`);
    const predicate = batched((c) => c.includes('C9') && c.includes('C2'));
    await shrinkCommands(commands, predicate);
    assert.ok(
      predicate.calls.some((call) => call.length > 2),
      'some round tests more than two candidates at once',
    );
    // Far fewer calls than candidates: one call per round, not one per candidate.
    const candidates = predicate.calls.reduce((n, call) => n + call.length, 0);
    assert.ok(predicate.calls.length < candidates / 2, `${predicate.calls.length} calls for ${candidates} candidates`);
  });

  it('then drops arguments that do not matter, keeping at least one', async () => {
    // The failure needs b and c in the pool (a tie between them) and a PICK.
    const holds = (c: readonly string[]): boolean => {
      const pool =
        c
          .find((x) => x.startsWith('POOL'))
          ?.split(' ')
          .slice(1) ?? [];
      return pool.includes('b') && pool.includes('c') && c.includes('PICK');
    };
    const result = await shrinkCommands(['POOL a b c d e', 'STATUS', 'PICK', 'DONE a'], batched(holds));
    assert.deepEqual(result, ['POOL b c', 'PICK']);
    const always = await shrinkCommands(
      ['POOL a b c'],
      batched(() => true),
    );
    assert.deepEqual(always, ['POOL c']);
  });

  it('returns a single command unchanged when it is all there is', async () => {
    const predicate = batched(() => true);
    assert.deepEqual(await shrinkCommands(['PICK'], predicate), ['PICK']);
  });

  it('stops after maxRounds calls, even for a predicate that always holds', async () => {
    const commands = Array.from({ length: 500 }, (_, i) => `POOL x${i} y${i}`);
    const predicate = batched(() => true);
    const result = await shrinkCommands(commands, predicate, 5);
    // Each call may cost a process run: the budget is exact, over commands and arguments alike.
    assert.equal(predicate.calls.length, 5);
    assert.ok(result.length < commands.length);
  });
});

describe('shrinking: passes, arguments and the budget', () => {
  it('splits a list of two to find the one command that matters', async () => {
    assert.deepEqual(
      await shrinkCommands(
        ['POOL a', 'PICK'],
        batched((c) => c.includes('PICK')),
      ),
      ['PICK'],
    );
  });

  it('drops arguments one after another, round after round, while the failure holds', async () => {
    const holds = (c: readonly string[]): boolean => c.some((command) => command.split(' ').includes('a'));
    assert.deepEqual(
      await shrinkCommands(['POOL a b c d e'], batched(holds)),
      ['POOL a'],
      'four arguments dropped: more than one per pass',
    );
  });

  it('runs another pass after one that changed only an argument: the shorter argument list can free a command', async () => {
    // 'POOL a b' needs X beside it; 'POOL a' fails alone. Pass 1 can only drop b; pass 2 then drops X.
    const holds = (c: readonly string[]): boolean =>
      c.includes('POOL a') || (c.includes('POOL a b') && c.includes('X'));
    assert.deepEqual(await shrinkCommands(['POOL a b', 'X'], batched(holds)), ['POOL a']);
  });

  it('once the budget is spent, keeps the last list that failed: it never takes an untested candidate', async () => {
    // The budget runs out in ddmin; the argument pass after it gets no real call and must drop nothing.
    const holds = (c: readonly string[]): boolean => c.includes('POOL a b');
    const commands = ['POOL a b', 'X', 'Y', 'Z'];
    for (const budget of [1, 2, 3]) {
      const result = await shrinkCommands(commands, batched(holds), budget);
      assert.ok(holds(result), `budget ${budget}: ${result.join(' | ')}`);
    }
  });

  it('stops after three passes, even where a fourth would shrink further: a bound on the runs it costs', async () => {
    // Exactly these lists fail: each argument dropped from A frees one command, each command dropped frees one
    // more argument, so every pass can only go one step further than the last.
    const failing = [
      ['A w x y z', 'B', 'C', 'D', 'E'],
      ['A w x y', 'B', 'C', 'D', 'E'],
      ['A w x y', 'B', 'C', 'D'],
      ['A w x', 'B', 'C', 'D'],
      ['A w x', 'B', 'C'],
      ['A w', 'B', 'C'],
      ['A w', 'B'],
    ].map((list) => list.join(' | '));
    const holds = (c: readonly string[]): boolean => failing.includes(c.join(' | '));
    const result = await shrinkCommands(['A w x y z', 'B', 'C', 'D', 'E'], batched(holds));
    assert.deepEqual(result, ['A w', 'B', 'C'], 'three passes: the fourth would drop C');
    assert.ok(holds(['A w', 'B']), 'a fourth pass would have found this');
  });
});

describe('shrinking a pool: the fewest backends that still fail', () => {
  const poolOf = (c: readonly string[]): string[] =>
    c
      .find((x) => x.startsWith('POOL'))
      ?.split(' ')
      .slice(1) ?? [];

  it('keeps five of eight backends for a program with four slots', async () => {
    // Fails once a fifth backend is in the pool and STATUS lists it; a DONE for a backend outside the pool would
    // fail another way (a stranger), so it must not be left behind.
    const holds = (c: readonly string[]): boolean =>
      poolOf(c).length >= 5 &&
      c.includes('STATUS') &&
      c.filter((x) => x.startsWith('DONE')).every((x) => poolOf(c).includes(x.split(' ')[1]!));
    const commands = ['POOL a b c d e f g h', 'PICK', 'DONE h', 'PICK', 'DONE g', 'STATUS', 'PICK'];
    const result = await shrinkCommands(commands, batched(holds));
    assert.equal(poolOf(result).length, 5, result.join(' | '));
    assert.ok(holds(result));
  });

  it('drops a backend from a POOL together with the later commands that name it, up to the next POOL', async () => {
    const predicate = batched(() => false);
    await shrinkCommands(['POOL a b c', 'DONE c', 'PICK', 'DONE c', 'POOL c d', 'DONE c'], predicate);
    const asked = predicate.calls.flat().map((c) => c.join(' | '));
    assert.ok(asked.includes('POOL a b | PICK | POOL c d | DONE c'), asked.join('\n'));
    assert.ok(asked.includes('POOL a b | DONE c | PICK | DONE c | POOL c d | DONE c'), 'and the name alone');
    assert.ok(
      asked.indexOf('POOL a b | PICK | POOL c d | DONE c') <
        asked.indexOf('POOL a b | DONE c | PICK | DONE c | POOL c d | DONE c'),
      'the shorter first: the shrinker takes the first list that holds',
    );
  });
});
