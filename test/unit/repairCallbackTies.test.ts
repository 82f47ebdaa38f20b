/**
 * The tie inside a callback (src/core/repair/callbackOperators.ts) and a random tie (expressionOperators.ts
 * randomTie), over trees from the real parser: a comparator given to a sort, a pick that keeps the better of two,
 * a random pick among the tied, written as learners write them. Each mistake's fix is among the first round of the
 * search's edits (16) for a `tiebreak` at the located line, and every such edit parses. Without the operators none
 * of these fixes is proposed at all.
 */
import * as assert from 'node:assert/strict';
import type { Language } from '../../src/core/pack/schema';
import { singleEdits } from '../../src/core/repair/plan';
import { applyEdits } from '../../src/core/repair/tree';
import { parsesCleanly, parseSource } from '../../src/node/repair/parser';

/** The search's first round of single edits for a tie mistake at `line`, applied. */
async function firstRound(language: Language, source: string, line: number): Promise<string[]> {
  const parsed = await parseSource(language, source);
  assert.ok(parsed, 'the source parses');
  return singleEdits(parsed, [{ mistake: 'tiebreak', lines: [line] }])
    .slice(0, 16)
    .map((c) => applyEdits(source, c.edits)!);
}

async function assertProposed(language: Language, source: string, line: number, from: string, to: string) {
  assert.ok(source.includes(from), `the snippet holds ${from}`);
  const fixes = await firstRound(language, source, line);
  const fixed = source.replace(from, to);
  assert.ok(fixes.includes(fixed), `expected among the first 16:\n${fixed}\ngot:\n${fixes.join('\n----\n')}`);
  assert.ok(await parsesCleanly(language, fixed));
}

describe('repair: the tie inside a comparator or a reduce', function () {
  this.timeout(20_000);

  it('a reduce with the count alone gets the name as its tie key (TypeScript, conn-counts)', async () => {
    const ts = [
      'export function pick(counts: ConnCounts, backends: readonly string[]): string {',
      '  const load = (b: string): number => counts.active.get(b) ?? 0;',
      '  return backends.reduce((best, b) => (load(b) < load(best) ? b : best));',
      '}',
      '',
    ].join('\n');
    await assertProposed(
      'typescript',
      ts,
      3,
      '(load(b) < load(best) ? b : best)',
      '((load(b) < load(best) || (load(b) === load(best) && b < best)) ? b : best)',
    );
  });

  it('a reduce over objects compares their names (JavaScript)', async () => {
    const js = [
      'function pick(pool) {',
      '  const open = pool.filter((b) => b.up);',
      '  return open.reduce((chosen, b) => (b.inFlight < chosen.inFlight ? b : chosen)).name;',
      '}',
      '',
    ].join('\n');
    await assertProposed(
      'javascript',
      js,
      3,
      'b.inFlight < chosen.inFlight ? b',
      '(b.inFlight < chosen.inFlight || (b.inFlight === chosen.inFlight && b.name < chosen.name)) ? b',
    );
  });

  it("a comparator's name key by localeCompare is made code-point order, reversed, or pool order (JavaScript)", async () => {
    const js = [
      'class Balancer {',
      '  pick() {',
      '    const [best] = [...this.pool].sort((a, b) => this.counts[a] - this.counts[b] || a.localeCompare(b));',
      '    this.counts[best] += 1;',
      '    return best;',
      '  }',
      '}',
      '',
    ].join('\n');
    const from = 'a.localeCompare(b)';
    await assertProposed('javascript', js, 3, from, '(a < b ? -1 : a > b ? 1 : 0)');
    await assertProposed('javascript', js, 3, from, 'b.localeCompare(a)');
    await assertProposed('javascript', js, 3, from, 'this.pool.indexOf(a) - this.pool.indexOf(b)');
  });

  it('a busiest-first sort read from its end gets a name key that leaves the first name last (JavaScript)', async () => {
    const js = [
      'function pick(counts, backends) {',
      '  const load = (b) => counts.active.get(b) ?? 0;',
      '  const busiestFirst = [...backends].sort((a, b) => load(b) - load(a));',
      '  return busiestFirst.at(-1);',
      '}',
      '',
    ].join('\n');
    await assertProposed('javascript', js, 3, 'load(b) - load(a)', 'load(b) - load(a) || (b < a ? -1 : b > a ? 1 : 0)');
  });

  it('Python: cmp_to_key gets the name as its tie key, functools.reduce breaks its tie by the name', async () => {
    const sortPy = [
      'from functools import cmp_to_key',
      '',
      'def pick(counts, backends):',
      '    ranked = sorted(backends, key=cmp_to_key(lambda a, b: counts.active[a] - counts.active[b]))',
      '    return ranked[0]',
      '',
    ].join('\n');
    await assertProposed(
      'python',
      sortPy,
      4,
      'counts.active[a] - counts.active[b])',
      'counts.active[a] - counts.active[b] or ((a > b) - (a < b)))',
    );
    const reducePy = [
      'import functools',
      '',
      'def pick(self):',
      '    return functools.reduce(lambda best, b: b if self.n[b] <= self.n[best] else best, self.pool)',
      '',
    ].join('\n');
    await assertProposed(
      'python',
      reducePy,
      4,
      'self.n[b] <= self.n[best]',
      'self.n[b] < self.n[best] or (self.n[b] == self.n[best] and b < best)',
    );
  });

  it('Python: a reversed secondary key in a comparator is turned back', async () => {
    const py = [
      'import functools',
      '',
      'def pick(pool, n):',
      '    return sorted(pool, key=functools.cmp_to_key(lambda x, y: n[x] - n[y] or (y > x) - (y < x)))[0]',
      '',
    ].join('\n');
    await assertProposed('python', py, 4, '(y > x) - (y < x)', '(x > y) - (x < y)');
  });

  it('proposes nothing for a callback it cannot read (one parameter, a comparator of no tie)', async () => {
    const js = 'const names = pool.map((b) => b.name).sort();\nconst x = pool.reduce((sum, b) => sum + b.n, 0);\n';
    const parsed = await parseSource('javascript', js);
    const edits = singleEdits(parsed!, [{ mistake: 'tiebreak', lines: [1, 2] }]);
    assert.ok(edits.every((c) => !c.operators.includes('tie-callback')));
  });

  it('a random pick among the tied is made the first tied (Python choice, randrange; Math.random)', async () => {
    const py = [
      'import random',
      '',
      'class Balancer:',
      '    def pick(self):',
      '        low = min(self.in_flight[n] for n in self.pool)',
      '        chosen = random.choice([n for n in self.pool if self.in_flight[n] == low])',
      '        return chosen',
      '',
    ].join('\n');
    await assertProposed(
      'python',
      py,
      6,
      'random.choice([n for n in self.pool if self.in_flight[n] == low])',
      '[n for n in self.pool if self.in_flight[n] == low][0]',
    );
    const reservoir = '    if count == 1 or random.randrange(count) == 0:\n        best = b\n';
    const loop = `def pick(pool, n):\n  count = 0\n  for b in pool:\n${reservoir}`;
    await assertProposed('python', loop, 4, 'random.randrange(count)', '(count) - 1');
    const ts = [
      'function pick(candidates: string[]): string {',
      '  const chosen = candidates[Math.floor(Math.random() * candidates.length)]!;',
      '  return chosen;',
      '}',
      '',
    ].join('\n');
    await assertProposed('typescript', ts, 2, 'Math.random()', '0');
  });
});
