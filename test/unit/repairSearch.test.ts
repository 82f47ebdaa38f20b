/**
 * The search's waits (src/node/repair): the learner's own run goes beside the first candidates', and a fixed
 * copy's checks at the two seeds run at once, both required. Fake runs and checks, no process is started.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CheckReport } from '../../src/core/report/report';
import { verifiedAtSeeds } from '../../src/node/repair/repair';
import { DEFAULT_BOUNDS, searchFix } from '../../src/node/repair/search';
import type { CandidateRun } from '../../src/node/repair/candidateRunner';
import { parseSource } from '../../src/node/repair/parser';
import { singleEdits } from '../../src/core/repair/plan';

const passing = (total: number, generated: number) =>
  ({ checks: { total }, fuzz: { transcripts: generated } }) as unknown as CheckReport;

/** A promise and what settles it. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('repair search: waits', function () {
  this.timeout(20_000);

  it('checks the seeds at once, and verifies only when every seed passes', async () => {
    const started: number[] = [];
    const gates = new Map<number, ReturnType<typeof deferred<CheckReport | undefined>>>();
    const checkAt = (seed: number) => {
      started.push(seed);
      const gate = deferred<CheckReport | undefined>();
      gates.set(seed, gate);
      return gate.promise;
    };
    const result = verifiedAtSeeds([1, 2], checkAt);
    // Both seeds' checks are under way before either has answered.
    assert.deepEqual(started, [1, 2]);
    gates.get(2)!.resolve(passing(16, 40));
    gates.get(1)!.resolve(passing(16, 40));
    assert.deepEqual(await result, { hidden: 16, generated: 80, seeds: [1, 2] });

    const failing = verifiedAtSeeds([1, 2], async (seed) => (seed === 2 ? undefined : passing(16, 40)));
    assert.equal(await failing, undefined);
    assert.equal(await verifiedAtSeeds([], async () => passing(1, 1)), undefined);
  });

  it("runs candidates before the learner's own run has answered", async () => {
    const source = 'def pick(counts):\n    return max(counts, key=counts.get)\n';
    const parsed = await parseSource('python', source);
    assert.ok(parsed);
    const baseline = deferred<number>();
    let ran = 0;
    const runner = {
      run: async (edited: string): Promise<CandidateRun> => {
        ran += 1;
        // The first candidate's run is what lets the learner's own run answer.
        baseline.resolve(3);
        return { passes: edited.includes('min('), wrongLines: 1, durationMs: 1, file: 'x.py' };
      },
    };
    const searched = await searchFix(
      parsed,
      [{ mistake: 'tiebreak', lines: [2] }],
      runner,
      baseline.promise,
      async () => true,
      { ...DEFAULT_BOUNDS, concurrency: 1 },
    );
    assert.ok(ran > 0);
    assert.ok(searched.found?.source.includes('min('), searched.found?.source);
  });

  it('tries a compound fix on top of its closest half early, not after every single edit', async () => {
    const filler = Array.from({ length: 40 }, (_, i) => `LIMIT_${i} = ${i} < ${i + 1}`);
    const source = [
      'def pick(active, pool):',
      '    return min(sorted(pool), key=lambda n: active[n])',
      '',
      'def done(active, n):',
      '    active[n] -= 1',
      '',
      ...filler,
      '',
    ].join('\n');
    const parsed = await parseSource('python', source);
    assert.ok(parsed);
    const halves = ['min(pool,', 'max(0, active[n] - 1)'];
    const runner = {
      run: async (edited: string): Promise<CandidateRun> => {
        const wrong = halves.filter((half) => !edited.includes(half)).length;
        return { passes: wrong === 0, wrongLines: wrong, durationMs: 1, file: 'x.py' };
      },
    };
    const targets = [
      { mistake: 'tiebreak', lines: [2] },
      { mistake: 'negative-count', lines: [5] },
    ];
    assert.ok(singleEdits(parsed, targets).length > 60, 'more single edits than the first round');
    const searched = await searchFix(parsed, targets, runner, 2, async () => true, DEFAULT_BOUNDS);
    assert.ok(searched.found, 'the pair is found');
    for (const half of halves) assert.ok(searched.found.source.includes(half));
    assert.ok(searched.runs <= 40, `found after ${searched.runs} runs`);
  });

  it('stops when no candidate brings the answers closer, and keeps going once one has', async () => {
    const filler = Array.from({ length: 60 }, (_, i) => `LIMIT_${i} = ${i} < ${i + 1}`);
    const source = ['def pick(active, pool):', '    return min(pool, key=lambda n: active[n])', '', ...filler, ''].join(
      '\n',
    );
    const parsed = await parseSource('python', source);
    assert.ok(parsed);
    const targets = [{ mistake: 'tiebreak', lines: [2] }];
    assert.ok(singleEdits(parsed, targets).length > 100, 'more single edits than the stall bound');
    const wrong = (lines: number) => ({
      run: async (): Promise<CandidateRun> => ({ passes: false, wrongLines: lines, durationMs: 1, file: 'x.py' }),
    });
    const stalled = await searchFix(parsed, targets, wrong(5), 5, async () => false, DEFAULT_BOUNDS);
    assert.equal(stalled.stoppedBy, 'stalled');
    // Candidates run two at a time: the bound is seen between two runs.
    assert.ok(stalled.runs >= DEFAULT_BOUNDS.stall && stalled.runs < DEFAULT_BOUNDS.stall + 2, `${stalled.runs} runs`);
    // Every candidate one line closer than the learner's program: the search runs to its candidate bound.
    const kept = await searchFix(parsed, targets, wrong(4), 5, async () => false, DEFAULT_BOUNDS);
    assert.equal(kept.stoppedBy, 'candidates');
  });

  it('tries the edits that each came closer merged, three mistakes at once, right after the first round', async () => {
    const source = [
      'def pick(active, pool):',
      '    return min(sorted(pool), key=lambda n: active[n])',
      '',
      'def done(active, n):',
      '    active[n] -= 1',
      '',
      'def full(active, n, cap):',
      '    return active[n] > cap',
      '',
    ].join('\n');
    const parsed = await parseSource('python', source);
    assert.ok(parsed);
    const thirds = ['min(pool,', 'max(0, active[n] - 1)', 'active[n] >= cap'];
    const runner = {
      run: async (edited: string): Promise<CandidateRun> => {
        const wrong = thirds.filter((third) => !edited.includes(third)).length;
        return { passes: wrong === 0, wrongLines: wrong, durationMs: 1, file: 'x.py' };
      },
    };
    const targets = [
      { mistake: 'tiebreak', lines: [2] },
      { mistake: 'negative-count', lines: [5] },
      { mistake: 'cap-off-by-one', lines: [8] },
    ];
    const searched = await searchFix(parsed, targets, runner, 3, async () => true, DEFAULT_BOUNDS);
    assert.ok(searched.found, 'the three edits are found');
    for (const third of thirds) assert.ok(searched.found.source.includes(third));
    assert.ok(searched.runs <= 18, `found after ${searched.runs} runs`);
  });

  it("gives each named mistake's cheapest edits a turn in the first round (caddy_least_conn.ts: a tie, a reset, a floor)", async () => {
    const file = path.join(
      __dirname,
      '..',
      'fixtures',
      'real-style',
      'least-connections',
      'typescript',
      'caddy_least_conn.ts',
    );
    const source = fs.readFileSync(file, 'utf8');
    const parsed = await parseSource('typescript', source);
    assert.ok(parsed);
    // The lines and mistakes the check names for it.
    const targets = [
      { mistake: 'tiebreak', lines: [28] },
      { mistake: 'stale-counts', lines: [43, 44] },
      { mistake: 'negative-count', lines: [58, 59, 60, 61] },
    ];
    const first = singleEdits(parsed, targets)
      .slice(0, 16)
      .map((c) => c.description);
    assert.ok(
      first.some((d) => d.startsWith('`Math.floor(…)` taken away')),
      first.join('\n'),
    );
    assert.ok(
      first.some((d) => d.includes('`!hosts.has(dial)` made `true`')),
      first.join('\n'),
    );
    assert.ok(
      first.some((d) => d.startsWith('a floor at 0 for `upstream.numRequests--`')),
      first.join('\n'),
    );
  });
});
