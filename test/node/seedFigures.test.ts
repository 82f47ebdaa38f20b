/**
 * The rest of seed 004 under load, read out of `lesson-companion simulate --json` (the built CLI, dist/cli.js:
 * run `npm run build` first), with a correct learner program: sticky sessions beside least connections and
 * round robin, and the chapter's Exercises 1 and 2. The lesson text (each scenario's explanation) states
 * these same figures, so it is checked here too.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import type { SimulationResult } from '../../src/worlds/templates/simulationReport';
import type { WorldResult } from '../../src/core/world/worldReport';

const ROOT = path.join(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const LC = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python', 'correct.py');
const HC = path.join(ROOT, 'test', 'fixtures', 'real-style', 'health-checks', 'python', 'min_over_candidates.py');

function simulate<T>(file: string, lesson: string, scenario: string): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, 'simulate', file, '--lesson', lesson, '--scenario', scenario, '--json'],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as T);
      },
    );
  });
}

const sentBy = (result: WorldResult, key: string): number[] =>
  result.runs[key]!.ticks.reduce(
    (sum, t) => sum.map((s, i) => s + (t.measures.sent as number[])[i]!),
    result.lanes.map(() => 0),
  );

describe('seed 004 under load, from simulate --json', function () {
  this.timeout(120_000);

  it('sticky sessions: md5(session_id) % 3 splits 150 requests 60 / 65 / 25; least connections and round robin 50 / 50 / 50', async () => {
    const result = await simulate<WorldResult>(LC, 'least-connections', 'sticky-sessions');
    assert.deepEqual(result.lanes, ['a', 'b', 'c']);
    assert.deepEqual(sentBy(result, 'baseline.sticky'), [60, 65, 25]);
    assert.deepEqual(sentBy(result, 'yours'), [50, 50, 50]);
    assert.deepEqual(sentBy(result, 'reference'), [50, 50, 50]);
    assert.deepEqual(sentBy(result, 'baseline.round-robin'), [50, 50, 50]);
    const spread = (v: number[]): number => Math.max(...v) - Math.min(...v);
    assert.equal(spread(sentBy(result, 'baseline.sticky')), 40);
    assert.deepEqual(
      result.contestants.map((c) => c.title),
      ['Your program', 'Reference', 'Sticky sessions', 'Round robin'],
    );
    assert.equal(
      result.sentence,
      'Your balancer sent 50 requests to a, 50 to b and 50 to c; sticky sessions sent 60, 65 and 25; round robin 50, 50 and 50.',
    );
    const held = (key: string): number[] => result.runs[key]!.ticks.at(-1)!.measures.queue as number[];
    assert.deepEqual(held('baseline.sticky'), [10, 15, 0]);
    assert.deepEqual(held('yours'), [0, 0, 0]);
    for (const figure of [
      'a gets 60, b 65 and c 25',
      'a spread of 40',
      'split 50, 50, 50',
      'it holds 15 after tick 5 and a holds 10',
    ])
      assert.ok(result.scenario.explanation!.includes(figure), figure);
  });

  it('Exercise 1: with two slow servers no balancer keeps up; least connections peaks at 22 where round robin reaches 40', async () => {
    const result = await simulate<SimulationResult>(LC, 'least-connections', 'two-slow-servers');
    const last = (key: 'yours' | 'roundRobin' | 'reference'): readonly number[] =>
      result.runs[key].ticks.at(-1)!.queues;
    assert.deepEqual(last('yours'), [22, 21, 18]);
    assert.deepEqual(last('reference'), [22, 21, 18]);
    assert.deepEqual(last('roundRobin'), [40, 40, 0]);
    const sentToC = (key: 'yours' | 'roundRobin'): number => result.runs[key].ticks.reduce((n, t) => n + t.sent[2]!, 0);
    assert.equal(sentToC('yours'), 117);
    assert.equal(sentToC('roundRobin'), 80);
    assert.equal(
      result.sentence,
      "With your balancer the queue on a (2 per tick, the slowest) reached 22 and was still growing; round robin's reached 40 and was still growing; the reference's reached 22 and was still growing.",
    );
    for (const figure of [
      'reach 40 at tick 20',
      'a holds 22, b 21 and c 18',
      'c gets 117 of the 240 requests, where round robin gives it 80',
    ])
      assert.ok(result.scenario.explanation!.includes(figure), figure);
  });

  it('Exercise 2: b down at request 10, c at request 20: health checks fail none, and a takes 19 of the 30', async () => {
    const result = await simulate<SimulationResult>(HC, 'health-checks', 'two-servers-down');
    const failed = (key: 'yours' | 'roundRobin'): number => result.runs[key].ticks.reduce((n, t) => n + t.failed, 0);
    const sent = (key: 'yours' | 'roundRobin'): number[] =>
      result.runs[key].ticks.reduce((s, t) => s.map((v, i) => v + t.sent[i]!), [0, 0, 0]);
    assert.equal(failed('yours'), 0);
    assert.equal(failed('roundRobin'), 11);
    assert.deepEqual(sent('yours'), [19, 3, 8]);
    assert.equal(Math.max(...result.runs.yours.ticks.map((t) => t.queues[0]!)), 13);
    // Requests 20-30 (tick 3) all go to a.
    assert.deepEqual(result.runs.yours.ticks[2]!.sent, [11, 0, 0]);
    assert.equal(
      result.sentence,
      'With your balancer 0 of 30 requests failed; with round robin 11 (sent to servers that were down); with the reference 0.',
    );
    for (const figure of ['gets 19 of the 30 in all and holds up to 13 at once', '11 of the 30 fail'])
      assert.ok(result.scenario.explanation!.includes(figure), figure);
  });
});
