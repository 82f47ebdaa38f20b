/**
 * Issue 22's proof: a pack that is not a balancer (test/fixtures/packs/token-bucket, a token-bucket rate
 * limiter made with `new --blank`, `validate` and `bundle` only) declares its own world and baseline in its
 * model, and `simulate` draws its own series through the built CLI: the world, the reference and the baseline
 * run in the engine worker; the learner's program runs contained, its lines exchanged through the host.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { worldOf } from '../../src/node/engine/modelLoader';
import { loadPack } from '../../src/node/packs/packs';
import { validatePack } from '../../src/node/authoring/validatePack';
import { worldTable, type WorldResult } from '../../src/core/world/worldReport';
import { parseToWebview, type PanelState } from '../../src/shared/messages';
import { worldChartView } from '../../src/shared/worldChart';

const ROOT = path.join(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const PACK = path.join(ROOT, 'test', 'fixtures', 'packs', 'token-bucket');
const PROGRAMS = path.join(ROOT, 'test', 'fixtures', 'packs', 'token-bucket-programs');

function cli(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
      },
    );
  });
}

async function simulate(
  program: string,
): Promise<WorldResult & { stats: { exchanges: number }; table: ReturnType<typeof worldTable> }> {
  const run = await cli(['simulate', path.join(PROGRAMS, program), '--lesson', PACK, '--json']);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as WorldResult & { stats: { exchanges: number }; table: ReturnType<typeof worldTable> };
}

const total = (result: WorldResult, key: string, measure: string, lane?: number): number =>
  result.runs[key]!.ticks.reduce((sum, t) => {
    const v = t.measures[measure]!;
    return sum + (typeof v === 'number' ? v : lane === undefined ? v.reduce((a, b) => a + b, 0) : v[lane]!);
  }, 0);

describe('a pack that is not a balancer: a token-bucket rate limiter with its own world', function () {
  this.timeout(180_000);

  it('validates clean, its scenario included (every mistake it claims to show, shown)', async () => {
    const validation = await validatePack(PACK, { runStarters: false });
    assert.deepEqual(
      validation.problems.filter((p) => p.area === 'scenarios'),
      [],
    );
    assert.equal(validation.valid, true, validation.problems.map((p) => p.message).join('\n'));
  });

  it('validate --programs: every sample program gets the verdict its header expects', async () => {
    const run = await cli(['validate', PACK, '--programs', PROGRAMS]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /Programs: 6 of 6 matched their expected verdict/);
  });

  it('simulate --json: a correct program gives the reference run; the sentence states only figures of the table beside it', async () => {
    const result = await simulate('correct.py');
    assert.equal(result.scenario.id, 'idle-then-burst');
    assert.deepEqual(result.lanes, ['alice', 'bob']);
    assert.deepEqual(
      result.contestants.map((c) => c.title),
      ['Your program', 'Reference', 'Allow all'],
    );
    assert.deepEqual(result.runs.yours, result.runs.reference);
    // One round trip per request: 29 of alice's and 20 of bob's.
    assert.equal(result.stats.exchanges, 49);
    assert.equal(total(result, 'yours', 'allowed', 0), 15);
    assert.equal(total(result, 'baseline.allow-all', 'allowed', 0), 29);
    assert.equal(
      result.sentence,
      "Your limiter allowed 15 of alice's requests and 20 of bob's, and denied 14; the reference allowed 15 and 20, and denied 14; with no limit at all alice gets 29 through.",
    );
    const drawn = new Set(result.table.rows.flatMap((row) => row.slice(1).flatMap((cell) => cell.split(' / '))));
    for (const number of result.sentence.match(/\d+/g) ?? [])
      assert.ok(drawn.has(number), `${number} is not in the table`);
  });

  it('the panel draws it: a chart per series line, a column per program, accepted across the webview boundary', async () => {
    const result = await simulate('shared.py');
    const view = worldChartView(result);
    assert.deepEqual(
      view.columns.map((c) => [c.balancer, c.label]),
      [
        ['yours', 'Your program'],
        ['reference', 'Reference'],
        ['baseline1', 'Allow all'],
      ],
    );
    assert.deepEqual(
      view.rows.map((r) => [r.title, r.kind, r.scale]),
      [
        ['Allowed: alice', 'lane', 10],
        ['Allowed: bob', 'lane', 10],
        ['Denied', 'total', 7],
      ],
    );
    const base: PanelState = { lesson: null, trusted: true, checking: false, check: null };
    const underLoad = {
      scenarios: [{ id: 'idle-then-burst', title: 'An idle client bursts', description: 'd' }],
      selected: 'idle-then-burst',
      running: false,
      result: { ...view, at: '2026-01-01T00:00:00Z' },
    };
    assert.equal(parseToWebview({ type: 'simulationResult', state: { ...base, underLoad } })?.type, 'simulationResult');
    // The sentence beside the chart states only figures of its table.
    const drawn = new Set(view.summary.rows.flatMap((row) => row.slice(1).flatMap((cell) => cell.split(' / '))));
    for (const number of view.sentence.match(/\d+/g) ?? [])
      assert.ok(drawn.has(number), `${number} is not in the table`);
  });

  it('simulate: a bucket that fills past its capacity lets the idle client burst 10 (the reference 5)', async () => {
    const result = await simulate('overflow.js');
    const peak = (key: string): number =>
      Math.max(...result.runs[key]!.ticks.map((t) => (t.measures.allowed as number[])[0]!));
    assert.equal(peak('yours'), 10);
    assert.equal(peak('reference'), 5);
    assert.equal(total(result, 'yours', 'allowed', 0), 24);
    assert.match(result.sentence, /^Your limiter allowed 24 of alice's requests/);
  });
});

describe('validate: a world scenario that claims a mistake it cannot show', function () {
  this.timeout(120_000);

  it('is an error naming the scenario and the mistake', async () => {
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-world-'));
    try {
      const dir = path.join(tmp, 'token-bucket');
      await fs.cp(PACK, dir, { recursive: true });
      const file = path.join(dir, 'lesson.json');
      const manifest = JSON.parse(await fs.readFile(file, 'utf8')) as {
        scenarios: { params: { at?: unknown; perTick: Record<string, number> } }[];
      };
      // Only bob, at exactly the refill rate: no bucket is ever idle or empty, and alice takes nothing.
      delete manifest.scenarios[0]!.params.at;
      await fs.writeFile(file, JSON.stringify(manifest, null, 2));
      const validation = await validatePack(dir, { runStarters: false });
      const errors = validation.problems.filter((p) => p.severity === 'error').map((p) => p.message);
      // Nothing but bob at the refill rate: none of the three mistakes changes a single answer.
      assert.deepEqual(
        errors,
        ['refill-overflow', 'take-when-empty', 'shared-bucket'].map(
          (id) =>
            `scenario "idle-then-burst" says it shows mistake "${id}", but the model with ${id}'s mutant (${id}) gives the same run as the reference (the same measures at every tick): a learner with this mistake would look perfect under load`,
        ),
      );
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  });
});

describe('the queue world shipped with lesson-companion', function () {
  this.timeout(60_000);

  it('is the one import from outside its pack a model may make; any other package stays refused', async () => {
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-shipped-'));
    try {
      const dir = path.join(tmp, 'token-bucket');
      await fs.cp(PACK, dir, { recursive: true });
      const model = path.join(dir, 'model', 'model.ts');
      const source = await fs.readFile(model, 'utf8');
      await fs.writeFile(
        model,
        source.replace(
          "export { baselines, world } from './world';",
          "export { queueWorld as world, queueBaselines as baselines } from 'lesson-companion/worlds/queues';",
        ),
      );
      const pack = await loadPack(dir, 'folder', { model: true });
      assert.deepEqual(Object.keys(worldOf(pack.model!).baselines), ['round-robin', 'sticky']);
      await fs.writeFile(
        model,
        source.replace(
          "export { baselines, world } from './world';",
          "export { world } from 'lesson-companion/worlds/other';\nexport { baselines } from './world';",
        ),
      );
      await assert.rejects(
        loadPack(dir, 'folder', { model: true }),
        /cannot import "lesson-companion\/worlds\/other": models are self-contained/,
      );
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  });
});
