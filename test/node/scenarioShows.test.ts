/**
 * A scenario's `shows` is a claim: under that scenario, a learner with the mistake looks different from the
 * reference. `validate` checks it with the model's mutants (issue 20): the model with the mistake's mutants
 * must give another run (queues, requests sent, failed, waiting) than the reference.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkTemplateScenarios } from '../../src/worlds/templates/templateChecks';
import { modelSession, protocolBalancer, roundRobin, runScenario } from '../../src/worlds/templates/simulation';
import { simulationResult } from '../../src/worlds/templates/simulationReport';
import { validatePack } from '../../src/node/authoring/validatePack';
import { loadPack } from '../../src/node/packs/packs';
import { templateScenarios } from '../../src/worlds/templates/scenarioSchema';

const root = path.resolve(__dirname, '..', '..');
const LESSONS = ['least-connections', 'conn-counts', 'health-checks'];

describe('validate: a scenario that says it shows a mistake must show it', function () {
  this.timeout(120_000);
  let tmp: string;
  beforeEach(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-shows-'));
  });
  afterEach(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  for (const lesson of LESSONS) {
    it(`every "shows" claim of ${lesson} holds, for every form of the mistake`, async () => {
      const pack = await loadPack(path.join(root, 'lessons', lesson), 'built-in', { model: true });
      const claims = (pack.manifest.scenarios ?? []).flatMap((s) => s.shows ?? []);
      assert.ok(claims.length > 0, `${lesson} names no mistake any scenario shows`);
      assert.deepEqual(await checkTemplateScenarios(pack.manifest, pack.model!), []);
    });
  }

  it('a pack whose scenario claims a mistake it cannot show fails validate, naming both', async () => {
    const dir = path.join(tmp, 'health-checks');
    await fs.cp(path.join(root, 'lessons', 'health-checks'), dir, { recursive: true });
    const file = path.join(dir, 'lesson.json');
    const manifest = JSON.parse(await fs.readFile(file, 'utf8')) as { scenarios: { id: string; shows?: string[] }[] };
    // The real case of issue 20: falling back to the first backend when none is healthy looks perfect
    // while only one server is down.
    manifest.scenarios.find((s) => s.id === 'server-down')!.shows!.push('fallback-first');
    await fs.writeFile(file, JSON.stringify(manifest, null, 2) + '\n');
    const validation = await validatePack(dir, { runStarters: false });
    assert.equal(validation.valid, false);
    const errors = validation.problems.filter((p) => p.severity === 'error');
    assert.equal(errors.length, 1, errors.map((e) => e.message).join('\n'));
    assert.equal(errors[0]!.area, 'scenarios');
    assert.match(
      errors[0]!.message,
      /scenario "server-down" says it shows mistake "fallback-first", but the model with fallback-first's mutants \(fallback-first, fallback-first-uncounted, fallback-first-full\) gives the same run as the reference/,
    );
    assert.match(errors[0]!.message, /a learner with this mistake would look perfect under load/);
  });

  it('"Every server goes down" shows the fallback to the first backend: 9 of 36 requests fail, none with the reference', async () => {
    const pack = await loadPack(path.join(root, 'lessons', 'health-checks'), 'built-in', { model: true });
    const scenario = templateScenarios(pack.manifest.scenarios).find((s) => s.id === 'all-down')!;
    assert.ok(scenario.shows?.includes('fallback-first'));
    const mistake = pack.manifest.mistakes.find((m) => m.id === 'fallback-first')!;
    const reference = await runScenario(scenario, protocolBalancer(scenario.commands, modelSession(pack.model!)));
    const failed = (run: typeof reference): number => run.ticks.reduce((n, t) => n + t.failed, 0);
    for (const mutant of mistake.mutants) {
      const yours = await runScenario(
        scenario,
        protocolBalancer(scenario.commands, modelSession(pack.model!, new Set([mutant]))),
      );
      assert.equal(failed(yours), 9, mutant);
      const result = simulationResult(
        'health-checks',
        scenario,
        { yours, roundRobin: await runScenario(scenario, roundRobin()), reference },
        { id: mistake.id, title: mistake.title },
      );
      assert.equal(
        result.sentence,
        `Your check found “${mistake.title}”. Under load that means 9 of 36 requests failed; with the reference 0.`,
      );
    }
    assert.equal(failed(reference), 0);
    assert.equal(Math.max(...reference.ticks.map((t) => t.waiting)), 9);
    // The explanation beside the chart states these same figures.
    assert.match(scenario.explanation!, /the 9 requests of ticks 4 to 6 wait/);
    assert.match(scenario.explanation!, /none of the 36 fails/);
  });
});
