// The "Under load" chart as data (src/worlds/templates/simulationView) and across the webview boundary (shared/messages):
// one scale for every server chart, extra rows only when requests failed or waited, the numbers as tables,
// learner text made safe, and a state whose chart numbers are not whole, non-negative numbers refused.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { model as healthChecks } from '../../lessons/health-checks/model/model';
import { model as leastConnections } from '../../lessons/least-connections/model/model';
import { parseLessonJson as parseManifest } from '../../src/worlds/templates/lessonJson';
import type { ReferenceModel } from '../../src/core/model/model';
import {
  modelSession,
  protocolBalancer,
  roundRobin,
  runScenario,
  type BalancerRun,
} from '../../src/worlds/templates/simulation';
import { simulationResult } from '../../src/worlds/templates/simulationReport';
import { scenarioAfterCheck } from '../../src/core/world/scenarioChoice';
import { parseSimulationResult, simulationView } from '../../src/worlds/templates/simulationView';
import { templateScenarios } from '../../src/worlds/templates/scenarioSchema';
import { parseFromWebview, parseToWebview, type PanelState, type UnderLoadView } from '../../src/shared/messages';

const ROOT = path.join(__dirname, '..', '..');
const scenarios = (lesson: string) => {
  const file = path.join(ROOT, 'lessons', lesson, 'lesson.json');
  const parsed = parseManifest(fs.readFileSync(file, 'utf8'), file);
  assert.ok(parsed.ok);
  return templateScenarios(parsed.manifest.scenarios);
};

async function result(lesson: string, id: string, model: ReferenceModel, yours?: BalancerRun) {
  const s = scenarios(lesson).find((x) => x.id === id)!;
  const reference = await runScenario(s, protocolBalancer(s.commands, modelSession(model)));
  return simulationResult(lesson, s, {
    yours: yours ?? reference,
    roundRobin: await runScenario(s, roundRobin()),
    reference,
  });
}

/** Every number the sentence beside the chart cites is in the table under it (its caption, head or cells). */
function assertSentenceShown(view: ReturnType<typeof simulationView>): void {
  const table = [view.summary.caption, ...view.summary.head, ...view.summary.rows.flat()].join(' ');
  const shown = new Set([...table.matchAll(/\d+/g)].map((m) => m[0]));
  for (const n of view.sentence.match(/\d+/g) ?? [])
    assert.ok(shown.has(n), `${n} of "${view.sentence}" is not in the table beside it`);
}

describe('worlds/templates/simulationView: the chart as data', () => {
  it('puts every server chart on one scale, with a row per server and a column per balancer', async () => {
    const view = simulationView(await result('least-connections', 'slow-server', leastConnections));
    assert.equal(view.scaleMax, 40);
    assert.deepEqual(
      view.columns.map((c) => c.label),
      ['Your balancer', 'Round robin', 'Reference'],
    );
    assert.deepEqual(
      view.rows.map((r) => [r.title, r.subtitle, r.cells.length]),
      [
        ['a', '2 per tick', 3],
        ['b', '5 per tick', 3],
        ['c', '5 per tick', 3],
      ],
    );
    assert.deepEqual(
      view.rows[0]!.cells.map((c) => c.label),
      ['peaked at 3', 'reached 40, growing', 'peaked at 3'],
    );
    const sent = view.summary.rows[1]!.slice(1).map((cell) => cell.replace(/ sent · .*/, ''));
    assert.deepEqual(
      view.summary.rows[1]!.map((cell) => cell.replace(/^\d+ sent · /, '')),
      ['Round robin', '40 / 40 ↑', '0 / 0', '0 / 0'],
    );
    // Every number the sentence beside the chart cites is in the table under it, which is on screen.
    assertSentenceShown(view);
    assert.equal(sent.reduce((a, b) => a + Number(b), 0) > 0, true);
    assert.equal(view.perTick.rows.length, 20);
    assert.equal(view.perTick.head.length, 1 + 9);
  });

  it("cites, after a check, only numbers of the table beside the chart (a mistake's consequence)", async () => {
    const s = scenarios('least-connections').find((x) => x.id === 'duplicate-done')!;
    const reference = await runScenario(s, protocolBalancer(s.commands, modelSession(leastConnections)));
    const rr = await runScenario(s, roundRobin());
    const view = simulationView(
      simulationResult(
        'least-connections',
        s,
        { yours: rr, roundRobin: rr, reference },
        {
          id: 'negative-count',
          title: 'A count goes below zero',
        },
      ),
    );
    assert.match(view.sentence, /^Your check found “A count goes below zero”\./);
    assertSentenceShown(view);
  });

  it('adds rows for failed and waiting requests only when there are some, and marks when a server was down', async () => {
    const down = simulationView(await result('health-checks', 'server-down', healthChecks));
    assert.deepEqual(
      down.rows.map((r) => r.key),
      ['a', 'b', 'c', 'failed'],
    );
    assert.deepEqual(down.rows[1]!.down, [[4, 10]]);
    assert.deepEqual(
      down.rows[3]!.cells.map((c) => c.label),
      ['0 failed', '7 failed', '0 failed'],
    );
    const back = simulationView(await result('health-checks', 'comes-back', healthChecks));
    assert.deepEqual(
      back.rows.map((r) => r.key),
      ['a', 'b', 'c', 'failed', 'waiting'],
    );
    assert.deepEqual(back.rows[2]!.down, [[3, 10]]);
    const waiting = back.rows[4]!.cells.map((c) => c.label);
    assert.ok(
      waiting.every((l) => /^(none waiting|up to [1-9]\d* waiting)$/.test(l)),
      `no "up to 0": ${waiting.join(', ')}`,
    );
  });

  it("says where the learner's program stopped, its text made safe, and leaves the rest of its cells empty", async () => {
    const stopped: BalancerRun = {
      ticks: [],
      stopped: { tick: 1, message: 'it answered "\u202eevil" to request 1', details: 'Traceback\n\u001b[2J' },
    };
    const view = simulationView(await result('least-connections', 'slow-server', leastConnections, stopped));
    assert.equal(view.columns[0]!.note, 'stopped at tick 1');
    // Its cells say so too, not "never queued" (seen beside a batch-reading program that never answered in time).
    assert.deepEqual(
      view.rows.filter((r) => r.kind === 'server').map((r) => r.cells[0]!.label),
      ['stopped at tick 1', 'stopped at tick 1', 'stopped at tick 1'],
    );
    assert.equal(view.stopped?.message, 'it answered "\\u202eevil" to request 1');
    assert.equal(view.stopped?.details, 'Traceback\n\\u001b[2J');
    assert.equal(view.perTick.rows[0]![1], '–');
  });

  it('reads back only a result of the right shape', async () => {
    const good = await result('least-connections', 'burst', leastConnections);
    assert.ok(parseSimulationResult(JSON.parse(JSON.stringify(good))));
    const bad = JSON.parse(JSON.stringify(good));
    bad.runs.yours.ticks[0].queues = [1, 2];
    assert.equal(parseSimulationResult(bad), undefined);
    assert.equal(parseSimulationResult({ ...good, runs: { yours: good.runs.yours } }), undefined);
  });

  it('after a check: the scenario that shows its mistake, the first for a pass, nothing for an error', () => {
    const all = scenarios('least-connections');
    assert.deepEqual(scenarioAfterCheck(all, 'fail', ['tiebreak', 'negative-count']), {
      scenario: all[1],
      mistake: 'negative-count',
    });
    assert.deepEqual(scenarioAfterCheck(all, 'pass', []), { scenario: all[0] });
    assert.equal(scenarioAfterCheck(all, 'fail', ['tiebreak']), undefined);
    assert.equal(scenarioAfterCheck(all, 'error', ['negative-count']), undefined);
  });
});

describe('shared/messages: the chart across the webview boundary', () => {
  const base: PanelState = { lesson: null, trusted: true, checking: false, check: null };
  async function underLoad(): Promise<UnderLoadView> {
    const view = simulationView(await result('least-connections', 'slow-server', leastConnections));
    return {
      scenarios: [{ id: 'slow-server', title: 'A slow server', description: 'd' }],
      selected: 'slow-server',
      running: false,
      result: { ...view, at: '2025-01-01T00:00:00Z' },
    };
  }

  it('accepts a state with a chart, and the request to run a scenario', async () => {
    assert.equal(
      parseToWebview({ type: 'simulationResult', state: { ...base, underLoad: await underLoad() } })?.type,
      'simulationResult',
    );
    assert.deepEqual(parseToWebview({ type: 'simulationStarted' }), { type: 'simulationStarted' });
    assert.deepEqual(parseFromWebview({ type: 'runSimulation', scenario: 'slow-server' }), {
      type: 'runSimulation',
      scenario: 'slow-server',
    });
    assert.equal(parseFromWebview({ type: 'runSimulation', scenario: '../x' }), undefined);
    assert.equal(parseFromWebview({ type: 'runSimulation' }), undefined);
  });

  it('refuses a chart whose numbers the drawing cannot trust', async () => {
    for (const spoil of [
      (u: any) => (u.result.rows[0].cells[0].values[0] = -1),
      (u: any) => (u.result.rows[0].cells[0].values[0] = 1.5),
      (u: any) => (u.result.scaleMax = 0),
      (u: any) => (u.result.rows[0].down = [[0, 3]]),
      (u: any) => (u.running = 'no'),
      (u: any) => (u.selected = 'a b'),
    ]) {
      const u = JSON.parse(JSON.stringify(await underLoad()));
      spoil(u);
      assert.equal(parseToWebview({ type: 'state', state: { ...base, underLoad: u } }), undefined, String(spoil));
    }
  });
});
