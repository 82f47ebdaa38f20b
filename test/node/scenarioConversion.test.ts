/**
 * Issue 22: a scenario written with command templates (`servers`/`commands`) converts to a world scenario in
 * the shipped queue world (src/worlds/queues.ts) that gives the same run: for every template scenario of the
 * built-in packs, the reference, each mistake's mutants and round robin answer with the same requests sent,
 * queues, failures and waits at every tick in both engines. The converted scenario validates against the
 * world scenario rules (its sentence fills from drawn series only), and `validate` tells an author of a
 * template scenario how to convert it: the model's line and the scenario's JSON.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { templateScenarios, type Scenario } from '../../src/worlds/templates/scenarioSchema';
import {
  modelSession,
  protocolBalancer,
  roundRobin,
  runScenario,
  type BalancerRun,
} from '../../src/worlds/templates/simulation';
import { baselineSession, referenceSession, runWorld, type WorldRun } from '../../src/core/world/worldRun';
import { checkWorldScenario } from '../../src/core/world/worldRules';
import type { ReferenceModel } from '../../src/core/model/model';
import { modelLinesFor, worldScenarioFromTemplate } from '../../src/node/authoring/scenarioConversion';
import { validatePack } from '../../src/node/authoring/validatePack';
import { loadPack, type LoadedPack } from '../../src/node/packs/packs';
import { queueBaselinesFor, queueWorld, DEFAULT_QUEUE_COMMANDS } from '../../src/worlds/queues';

const root = path.resolve(__dirname, '..', '..');
const LESSONS = ['least-connections', 'conn-counts', 'health-checks'];

/** The template engine's ticks in the world's measures. */
const asMeasures = (run: BalancerRun): unknown[] =>
  run.ticks.map((t) => ({ sent: t.sent, queue: t.queues, failed: t.failed, waiting: t.waiting }));
const measures = (run: WorldRun): unknown[] => run.ticks.map((t) => t.measures);

async function both(
  scenario: Scenario,
  model: ReferenceModel,
  mutations: ReadonlySet<string>,
): Promise<[BalancerRun, WorldRun]> {
  const converted = worldScenarioFromTemplate(scenario);
  return Promise.all([
    runScenario(scenario, protocolBalancer(scenario.commands, modelSession(model, mutations))),
    runWorld(queueWorld, converted.params, converted.seed, referenceSession(model, mutations)),
  ]);
}

describe('template scenarios in the queue world: the same run, tick for tick', function () {
  this.timeout(120_000);
  const packs = new Map<string, LoadedPack>();
  before(async () => {
    for (const lesson of LESSONS)
      packs.set(lesson, await loadPack(path.join(root, 'lessons', lesson), 'built-in', { model: true }));
  });

  it('reads the built-in template scenarios (the test would pass vacuously otherwise)', () => {
    const all = LESSONS.flatMap((l) => templateScenarios(packs.get(l)!.manifest.scenarios));
    assert.ok(all.length >= 10, `${all.length} template scenarios`);
    // Every feature of the template form is exercised by one of them.
    assert.ok(
      all.some((s) => s.duplicateDone) &&
        all.some((s) => s.arrivals.at?.length) &&
        all.some((s) => s.events?.some((e) => e.health === 'down')),
    );
    assert.ok(
      all.some((s) => s.commands.afterPick) &&
        all.some((s) => s.commands.wait?.length) &&
        all.some((s) => s.commands.refuse?.length),
    );
  });

  for (const lesson of LESSONS) {
    it(`${lesson}: the reference, every mutant and round robin`, async () => {
      const pack = packs.get(lesson)!;
      const model = pack.model!;
      let compared = 0;
      for (const scenario of templateScenarios(pack.manifest.scenarios)) {
        const converted = worldScenarioFromTemplate(scenario);
        for (const mutations of [
          new Set<string>(),
          ...model.mutations.filter((m) => !m.nondeterministic).map((m) => new Set([m.id])),
        ]) {
          const [template, world] = await both(scenario, model, mutations);
          const label = `${lesson}/${scenario.id} with ${[...mutations].join(',') || 'the reference'}`;
          assert.equal(
            world.stopped?.tick,
            template.stopped?.tick,
            `${label}: stopped at ${world.stopped?.tick} against ${template.stopped?.tick} (${world.stopped?.message})`,
          );
          assert.deepEqual(measures(world), asMeasures(template), label);
          compared += 1;
        }
        const rr = await runScenario(scenario, roundRobin());
        const baseline = queueBaselinesFor(scenario.commands)['round-robin']!;
        const rrWorld = await runWorld(queueWorld, converted.params, converted.seed, baselineSession(baseline));
        assert.deepEqual(measures(rrWorld), asMeasures(rr), `${lesson}/${scenario.id}: round robin`);
      }
      assert.ok(compared > 10, `${compared} runs compared`);
    });
  }

  it('a converted scenario keeps the world scenario rules: drawn series only, no number written out', () => {
    for (const lesson of LESSONS) {
      const pack = packs.get(lesson)!;
      const mistakes = new Set(pack.manifest.mistakes.map((m) => m.id));
      for (const scenario of templateScenarios(pack.manifest.scenarios)) {
        const problems: string[] = [];
        checkWorldScenario(worldScenarioFromTemplate(scenario), '/scenarios/0', mistakes, (pointer, message) =>
          problems.push(`${pointer} ${message}`),
        );
        assert.deepEqual(problems, [], `${lesson}/${scenario.id}`);
      }
    }
  });

  it("the model line names the shipped baselines for POOL/PICK/DONE, and baselines that speak the pack's words otherwise", () => {
    const plain = templateScenarios(packs.get('least-connections')!.manifest.scenarios)[0]!;
    assert.deepEqual(plain.commands, DEFAULT_QUEUE_COMMANDS);
    assert.match(
      modelLinesFor(plain),
      /^export \{ queueWorld as world, queueBaselines as baselines \} from 'lesson-companion\/worlds\/queues';$/,
    );
    const own = templateScenarios(packs.get('conn-counts')!.manifest.scenarios)[0]!;
    assert.match(modelLinesFor(own), /queueBaselinesFor\(\{"start":/);
    assert.ok('commands' in (worldScenarioFromTemplate(own).params as object));
  });
});

describe('validate: a template scenario is told how to become a world scenario', function () {
  this.timeout(120_000);
  it('one warning per template scenario, with the model line and the scenario as JSON; the converted pack validates with none', async () => {
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-convert-'));
    try {
      const dir = path.join(tmp, 'least-connections');
      await fs.cp(path.join(root, 'lessons', 'least-connections'), dir, { recursive: true });
      const result = await validatePack(dir, { runStarters: false });
      const notes = result.problems.filter((p) => /written with command templates/.test(p.message));
      const templates = templateScenarios(
        JSON.parse(await fs.readFile(path.join(dir, 'lesson.json'), 'utf8')).scenarios,
      );
      assert.equal(notes.length, templates.length, notes.map((n) => n.message).join('\n'));
      assert.ok(notes.every((n) => n.severity === 'warning'));
      // Follow the advice: the JSON it gives replaces each scenario, and the model already has the line.
      const manifest = JSON.parse(await fs.readFile(path.join(dir, 'lesson.json'), 'utf8'));
      manifest.scenarios = manifest.scenarios.map((s: Scenario & { params?: unknown }) => {
        if ('params' in s) return s;
        const note = notes.find((n) => n.message.includes(`"${s.id}"`))!;
        const json = /[Rr]eplace it with: (\{.*\})$/s.exec(note.advice ?? '')?.[1];
        assert.ok(json, note.advice);
        return JSON.parse(json);
      });
      await fs.writeFile(path.join(dir, 'lesson.json'), JSON.stringify(manifest, null, 2));
      const after = await validatePack(dir, { runStarters: false });
      assert.deepEqual(
        after.problems.filter((p) => p.area === 'scenarios').map((p) => p.message),
        [],
      );
      assert.ok(after.valid);
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  });
});
