/**
 * `lesson-companion simulate` through the built CLI (dist/cli.js, built by `npm test` before this step), as
 * the editor runs it: the reference's series comes from the engine worker (dist/engine.js), the learner's
 * program runs contained. Exit 0 when the program ran the whole scenario, 1 when it stopped, 2 for usage.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SimulationResult } from '../../src/worlds/templates/simulationReport';
import { createPack } from '../../src/node/authoring/scaffold';

const ROOT = path.join(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const PY = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function cli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
      },
    );
  });
}

describe('lesson-companion simulate (built CLI, engine worker, real processes)', function () {
  this.timeout(90_000);

  it('--json: the series of all three balancers; a correct program matches the reference the worker computed', async () => {
    const run = await cli(['simulate', path.join(PY, 'correct.py'), '--json']);
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as SimulationResult & { stats: { exchanges: number } };
    assert.equal(result.lesson, 'least-connections');
    assert.equal(result.scenario.id, 'slow-server');
    assert.deepEqual(result.runs.yours, result.runs.reference);
    assert.equal(result.runs.roundRobin.ticks[19]!.queues[0], 40);
    assert.equal(Math.max(...result.runs.reference.ticks.map((t) => t.queues[0]!)), 3);
    assert.equal(result.stats.exchanges, 241);
  });

  it('text: the sentence, the table of peaks and a sparkline per server on one scale', async () => {
    const run = await cli(['simulate', path.join(PY, 'correct.py')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^least-connections · A slow server \(slow-server: 3 servers, 20 ticks, 240 requests\)$/m);
    assert.match(
      run.stdout,
      /^With your balancer the queue on a \(2 per tick, the slowest\) peaked at 3; round robin's reached 40 and was still growing; the reference's peaked at 3\.$/m,
    );
    assert.match(run.stdout, /^round robin {4}40 \/ 40↑ {2}0 \/ 0 {5}0 \/ 0$/m);
    assert.match(run.stdout, /one scale for all \(▁ 0 … █ 40\)/);
    assert.match(run.stdout, /^ {2}round robin {4}▁▂▂▂▃▃▃▄▄▅▅▅▆▆▆▇▇▇██$/m);
  });

  it('--mistake picks the scenario that shows it, and the sentence says what it does', async () => {
    const run = await cli(['simulate', path.join(PY, 'negative-count.py'), '--mistake', 'negative-count', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as SimulationResult;
    assert.equal(result.scenario.id, 'duplicate-done');
    assert.deepEqual(result.mistake, { id: 'negative-count', title: 'A count goes below zero' });
    assert.match(
      result.sentence,
      /^Your check found “A count goes below zero”\. Under load that means b got \d+ of 240 requests/,
    );
  });

  it('exit 1 and the message when the program stops answering; the partial series in --json', async () => {
    const run = await cli(['simulate', path.join(PY, 'waits-for-room.py'), '--json']);
    assert.equal(run.code, 1, run.stderr);
    const result = JSON.parse(run.stdout) as SimulationResult;
    assert.equal(result.runs.yours.ticks.length, 1);
    assert.equal(result.runs.yours.stopped?.tick, 2);
    assert.match(result.runs.yours.stopped!.message, /^it stopped answering/);
    assert.equal(result.runs.reference.ticks.length, 20);
  });

  it("health-checks through its driverless protocol with DOWN and UP: the seed's 7 failed requests under round robin", async () => {
    const file = path.join(ROOT, 'test', 'fixtures', 'real-style', 'health-checks', 'python', 'min_over_candidates.py');
    const run = await cli(['simulate', file, '--lesson', 'health-checks', '--scenario', 'server-down']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^With your balancer 0 of 30 requests failed; with round robin 7 \(sent to b while it was down\); with the reference 0\.$/m,
    );
  });

  it('usage errors in words: an unknown scenario or mistake names the ones there are', async () => {
    const scenario = await cli(['simulate', path.join(PY, 'correct.py'), '--scenario', 'nope']);
    assert.equal(scenario.code, 2);
    assert.match(
      scenario.stderr,
      /^lesson-companion simulate: lesson "least-connections" has no scenario "nope"; it has slow-server, duplicate-done, burst, two-slow-servers, sticky-sessions\n$/,
    );
    const mistake = await cli(['simulate', path.join(PY, 'correct.py'), '--mistake', 'nope']);
    assert.equal(mistake.code, 2);
    assert.match(mistake.stderr, /has no mistake "nope"; it has tiebreak, negative-count/);
  });

  it('a TypeScript file that does not compile: exit 1, the line, and no run', async () => {
    const run = await cli([
      'simulate',
      path.join(ROOT, 'test', 'fixtures', 'least-connections', 'typescript', 'syntax-error.ts'),
    ]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stdout,
      /^Your program stopped at tick 1 of 20, so its part of the chart ends there: your file does not compile \(line \d+\)/m,
    );
  });

  it("a pack whose model loops in a scenario: exit 2, the pack's fault in words", async () => {
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-sim-pack-'));
    try {
      const { dir } = await createPack(path.join(tmp, 'demo'), 'demo');
      const manifestFile = path.join(dir, 'lesson.json');
      const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8'));
      manifest.scenarios = [
        {
          id: 'steady',
          title: 'Steady',
          description: 'Two servers, 4 requests a tick.',
          servers: [
            { name: 'a', capacity: 2 },
            { name: 'b', capacity: 2 },
          ],
          ticks: 5,
          arrivals: { perTick: 4 },
          seed: 1,
          commands: { start: ['POOL {servers}'], pick: 'PICK', done: 'DONE {server}' },
        },
      ];
      await fs.writeFile(manifestFile, JSON.stringify(manifest, null, 2));
      const learner = path.join(ROOT, 'test', 'fixtures', 'packs', 'solutions', 'balancer.py');
      const plain = await cli(['simulate', learner, '--lesson', dir]);
      assert.equal(plain.code, 0, plain.stderr);
      const model = path.join(dir, 'model', 'model.js');
      const text = await fs.readFile(model, 'utf8');
      const pickLine = "    if (verb === 'PICK') return pick(state, on, observed);";
      assert.ok(text.includes(pickLine));
      await fs.writeFile(model, text.replace(pickLine, "    if (verb === 'PICK') { for (;;) {} }"));
      const looped = await cli(['simulate', learner, '--lesson', dir], { LESSON_COMPANION_ENGINE_QUIET_MS: '3000' });
      assert.equal(looped.code, 2, looped.stdout);
      assert.match(
        looped.stderr,
        /^lesson-companion simulate: the lesson's reference could not run scenario "steady": the lesson's engine computed for more than 3 s without a result: its reference model may loop for ever\. This is a fault of the lesson pack "demo", not of your program\.\n$/,
      );
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  });
});
