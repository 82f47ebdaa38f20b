/**
 * The tick engine on the built-in lessons' own scenarios, with their reference models and mutants: the seed's
 * figures (round robin's slow queue 40 and still growing, least connections at most 3; 7 failed requests of
 * 30 under round robin, 0 with health checks), the claims the lesson texts make about the setup, and what the
 * mistakes each scenario `shows` do to the queues.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { model as connCounts } from '../../lessons/conn-counts/model/model';
import { model as healthChecks } from '../../lessons/health-checks/model/model';
import { model as leastConnections } from '../../lessons/least-connections/model/model';
import { parseLessonJson as parseManifest } from '../../src/worlds/templates/lessonJson';
import type { ReferenceModel } from '../../src/core/model/model';
import { templateScenarios, type Scenario } from '../../src/worlds/templates/scenarioSchema';
import {
  BalancerStopped,
  modelSession,
  protocolBalancer,
  roundRobin,
  runScenario,
  type BalancerRun,
  type LineSession,
} from '../../src/worlds/templates/simulation';
import { headline, simulationResult, summarize } from '../../src/worlds/templates/simulationReport';
import { arrivalsAt } from '../../src/worlds/templates/scenarioRules';

const ROOT = path.join(__dirname, '..', '..');

function scenario(lesson: string, id: string): Scenario {
  const file = path.join(ROOT, 'lessons', lesson, 'lesson.json');
  const parsed = parseManifest(fs.readFileSync(file, 'utf8'), file);
  assert.ok(parsed.ok, `${lesson}/lesson.json parses`);
  const found = templateScenarios(parsed.manifest.scenarios).find((s) => s.id === id);
  assert.ok(found, `${lesson} declares scenario ${id}`);
  return found;
}

const withModel = (s: Scenario, model: ReferenceModel, mutations: string[] = []): Promise<BalancerRun> =>
  runScenario(s, protocolBalancer(s.commands, modelSession(model, new Set(mutations))));
const queueOf = (s: Scenario, run: BalancerRun, server: string): number[] =>
  run.ticks.map((t) => t.queues[s.servers.findIndex((x) => x.name === server)]!);
const sentTo = (s: Scenario, run: BalancerRun, server: string): number =>
  summarize(s, run).servers.find((x) => x.name === server)!.sent;
const failed = (run: BalancerRun): number => run.ticks.reduce((sum, t) => sum + t.failed, 0);

describe("load simulation: the seed's figures from the lessons' own scenarios", () => {
  for (const [lesson, model] of [
    ['least-connections', leastConnections],
    ['conn-counts', connCounts],
  ] as const) {
    describe(`${lesson}: slow-server`, () => {
      const s = scenario(lesson, 'slow-server');

      it("round robin's slow queue is 40 at tick 20, and still growing", async () => {
        const slow = queueOf(s, await runScenario(s, roundRobin()), 'a');
        assert.equal(slow.length, 20);
        assert.equal(slow[19], 40);
        assert.ok(slow[19]! > slow[18]!, `still growing: ${slow.join(' ')}`);
      });

      it('the reference (least connections) never lets it go above 3', async () => {
        const run = await withModel(s, model);
        assert.equal(run.stopped, undefined);
        const slow = queueOf(s, run, 'a');
        assert.equal(Math.max(...slow), 3, slow.join(' '));
        // Every request went somewhere: 240 in all.
        assert.equal(
          summarize(s, run).servers.reduce((n, x) => n + x.sent, 0),
          240,
        );
      });

      it('the setup the lesson text states: the slow server placed last peaks at 2; before the work the queues read 42 and 5', async () => {
        const last: Scenario = {
          ...s,
          servers: [s.servers[1]!, s.servers[2]!, s.servers[0]!].map((x, i) => ({ ...x, name: ['b', 'c', 'z'][i]! })),
        };
        assert.equal(Math.max(...queueOf(last, await withModel(last, model), 'z')), 2);
        // Before the work a busy server holds what it keeps plus what it finishes that tick (its capacity).
        assert.equal(queueOf(s, await runScenario(s, roundRobin()), 'a')[19]! + 2, 42);
        assert.equal(Math.max(...queueOf(s, await withModel(s, model), 'a')) + 2, 5);
      });

      it('says so in one sentence', async () => {
        const runs = {
          yours: await withModel(s, model),
          roundRobin: await runScenario(s, roundRobin()),
          reference: await withModel(s, model),
        };
        // The figures are the ones the tests above establish: the slowest server, each run's peak, round robin's last tick.
        const slowest = s.servers.reduce((a, b) => (b.capacity < a.capacity ? b : a));
        const peak = (run: BalancerRun): number => Math.max(...queueOf(s, run, slowest.name));
        const roundRobinQueue = queueOf(s, runs.roundRobin, slowest.name);
        assert.ok(roundRobinQueue.at(-1)! > roundRobinQueue.at(-2)!, 'still growing');
        assert.equal(
          headline(s, runs),
          `With your balancer the queue on ${slowest.name} (${slowest.capacity} per tick, the slowest) peaked at ${peak(runs.yours)}; ` +
            `round robin's reached ${roundRobinQueue.at(-1)} and was still growing; the reference's peaked at ${peak(runs.reference)}.`,
        );
      });
    });

    it(`${lesson}: duplicate-done piles requests onto the server whose count went below zero`, async () => {
      const s = scenario(lesson, 'duplicate-done');
      const reference = await withModel(s, model);
      const negative = await withModel(s, model, ['negative-count']);
      assert.equal(Math.max(...queueOf(s, reference, 'b')), 0, 'a count that stops at 0 shrugs the duplicates off');
      assert.ok(
        Math.max(...queueOf(s, negative, 'b')) >= 30,
        `b's queue with a negative count: ${queueOf(s, negative, 'b').join(' ')}`,
      );
      assert.ok(sentTo(s, negative, 'b') > sentTo(s, reference, 'b') + 30);
      const result = simulationResult(
        lesson,
        s,
        { yours: negative, roundRobin: await runScenario(s, roundRobin()), reference },
        { id: 'negative-count', title: 'A count goes below zero' },
      );
      const requests = reference.ticks.reduce((n, _, t) => n + arrivalsAt(s, t + 1), 0);
      assert.equal(
        result.sentence,
        `Your check found “A count goes below zero”. Under load that means b got ${sentTo(s, negative, 'b')} of ${requests} requests and its queue reached ${Math.max(...queueOf(s, negative, 'b'))} and was still growing; ` +
          `with the reference b got ${sentTo(s, reference, 'b')} and its queue stayed empty.`,
      );
    });
  }

  it('least-connections: in a burst, a pick that counts too late sends all 30 requests to the first server', async () => {
    const s = scenario('least-connections', 'burst');
    const late = await withModel(s, leastConnections, ['no-increment']);
    const reference = await withModel(s, leastConnections);
    assert.equal(sentTo(s, late, 'a'), 30);
    assert.deepEqual(
      ['a', 'b', 'c'].map((n) => sentTo(s, reference, n)),
      [10, 10, 10],
    );
    assert.equal(Math.max(...queueOf(s, late, 'a')), 28);
  });

  describe('health-checks', () => {
    it("server-down: 7 of 30 requests fail under round robin, none with health checks (the seed's figures)", async () => {
      const s = scenario('health-checks', 'server-down');
      assert.equal(failed(await runScenario(s, roundRobin())), 7);
      assert.equal(failed(await withModel(s, healthChecks)), 0);
      assert.equal(failed(await withModel(s, healthChecks, ['pick-ignores-health'])), 7);
      const runs = {
        yours: await withModel(s, healthChecks),
        roundRobin: await runScenario(s, roundRobin()),
        reference: await withModel(s, healthChecks),
      };
      const requests = runs.reference.ticks.reduce((n, _, t) => n + arrivalsAt(s, t + 1), 0);
      const wentDown = s.events!.find((e) => e.health === 'down')!.server;
      assert.equal(
        headline(s, runs),
        `With your balancer ${failed(runs.yours)} of ${requests} requests failed; with round robin ${failed(runs.roundRobin)} (sent to ${wentDown} while it was down); with the reference ${failed(runs.reference)}.`,
      );
    });

    it('comes-back: the cap holds the herd off the server that comes back cold; ignoring it piles requests onto it', async () => {
      const s = scenario('health-checks', 'comes-back');
      const reference = await withModel(s, healthChecks);
      const uncapped = await withModel(s, healthChecks, ['cap-ignored']);
      const back = s.events!.find((e) => e.health === 'up' && e.server === 'c')!.tick;
      const cAfter = (run: BalancerRun): number[] => queueOf(s, run, 'c').slice(back - 1);
      // At most 6 in flight (the cap), minus the one request it finishes while cold.
      assert.ok(Math.max(...cAfter(reference)) <= 5, cAfter(reference).join(' '));
      assert.ok(Math.max(...cAfter(uncapped)) >= 10, cAfter(uncapped).join(' '));
      assert.ok(
        reference.ticks.some((t) => t.waiting > 0),
        'with the cap, requests wait at the balancer',
      );
      assert.equal(failed(reference), 0);
      assert.ok(failed(await runScenario(s, roundRobin())) > 0, 'round robin sends requests to c while it is down');
      // 11 arrivals a tick over 3 servers: the order shows in each tick's split (4, 4, 3 on the first).
      let next = 0;
      const inPoolOrder = (await runScenario(s, roundRobin())).ticks.map((_, t) => {
        const sent = s.servers.map(() => 0);
        for (let k = 0; k < arrivalsAt(s, t + 1); k++) sent[next++ % s.servers.length]! += 1;
        return sent;
      });
      assert.deepEqual(
        (await runScenario(s, roundRobin())).ticks.map((t) => t.sent),
        inPoolOrder,
        'round robin goes through the pool in its order, across ticks',
      );
      const runs = { yours: uncapped, roundRobin: await runScenario(s, roundRobin()), reference };
      const result = simulationResult('health-checks', s, runs, { id: 'ignores-cap', title: 'PICK ignores the cap' });
      // Each figure from the runs: what c was sent in the tick it came back, and its queue's peak from then on.
      const c = s.servers.findIndex((x) => x.name === 'c');
      const sentBack = (run: BalancerRun): number => run.ticks[back - 1]!.sent[c]!;
      const peakAfter = (run: BalancerRun): number => Math.max(...cAfter(run));
      assert.equal(sentBack(uncapped), arrivalsAt(s, back), 'without the cap every request of that tick goes to c');
      assert.equal(
        result.sentence,
        `Your check found “PICK ignores the cap”. Under load: when c came back at tick ${back}, your balancer sent it ${sentBack(uncapped)} requests in that tick and its queue reached ${peakAfter(uncapped)}; ` +
          `round robin sent it ${sentBack(runs.roundRobin)} (queue up to ${peakAfter(runs.roundRobin)}); the reference ${sentBack(reference)} (queue up to ${peakAfter(reference)}).`,
      );
    });
  });
});

describe('load simulation: the engine', () => {
  const s = scenario('least-connections', 'slow-server');

  it('is deterministic: the same balancer gives the same series', async () => {
    const dup = scenario('least-connections', 'duplicate-done');
    assert.deepEqual(
      await withModel(dup, leastConnections, ['negative-count']),
      await withModel(dup, leastConnections, ['negative-count']),
    );
  });

  it('holds back what needs no answer, and writes it with the next pick: one round trip per request', async () => {
    const batches: string[][] = [];
    const inner = modelSession(leastConnections);
    const session: LineSession = {
      exchange: async (commands) => (batches.push([...commands]), inner.exchange(commands)),
    };
    await runScenario(s, protocolBalancer(s.commands, session));
    assert.equal(batches.length, 240 + 1, 'one exchange per pick, and one for what is left at the end');
    assert.deepEqual(batches[0], ['POOL a b c', 'PICK']);
    assert.ok(batches.every((b) => b.filter((c) => c === 'PICK').length <= 1));
    assert.ok(batches[batches.length - 1]!.every((c) => c.startsWith('DONE ')));
  });

  it('ends the run with the part it reached when an answer is not a server', async () => {
    let picks = 0;
    const session: LineSession = {
      exchange: async (commands) =>
        commands.map((c) => (c === 'PICK' ? (++picks === 30 ? '\u001b[2Jboom' : 'b') : 'OK')),
    };
    const run = await runScenario(s, protocolBalancer(s.commands, session));
    assert.equal(run.ticks.length, 2, 'ticks 1 and 2 were complete');
    assert.equal(run.stopped?.tick, 3);
    assert.match(
      run.stopped!.message,
      /^it answered "\\u001b\[2Jboom" to request 30 \(PICK\), which is not a server of the pool \(a, b, c\)\. If it prints anything else on stdout/,
    );
  });

  it('passes a stop from the session through, and only that kind of error', async () => {
    const stops: LineSession = {
      exchange: async () => Promise.reject(new BalancerStopped('it crashed', 'Traceback …')),
    };
    assert.deepEqual((await runScenario(s, protocolBalancer(s.commands, stops))).stopped, {
      tick: 1,
      message: 'it crashed',
      details: 'Traceback …',
    });
    const bug: LineSession = { exchange: async () => Promise.reject(new TypeError('a bug')) };
    await assert.rejects(runScenario(s, protocolBalancer(s.commands, bug)), TypeError);
  });

  it("treats the scenario's wait and refuse words as no server", async () => {
    const words: Scenario = {
      ...s,
      ticks: 2,
      arrivals: { perTick: 2 },
      commands: { ...s.commands, wait: ['BUSY'], refuse: ['EMPTY'] },
    };
    let n = 0;
    const session: LineSession = {
      exchange: async (commands) => commands.map((c) => (c === 'PICK' ? ['BUSY', 'EMPTY', 'a', 'c', 'a'][n++]! : 'OK')),
    };
    const run = await runScenario(words, protocolBalancer(words.commands, session));
    // Tick 1: one waits, one fails. Tick 2: the waiting one and two new ones.
    assert.deepEqual(
      run.ticks.map((t) => [t.sent, t.failed, t.waiting]),
      [
        [[0, 0, 0], 1, 1],
        [[2, 0, 1], 0, 0],
      ],
    );
  });
});

describe("load simulation: the sentence talks about the learner's own worst server", () => {
  it("names the server the learner's chart row shows growing, not the longest queue of any balancer", () => {
    const s = scenario('least-connections', 'slow-server');
    const width = s.servers.length;
    const b = s.servers.findIndex((x) => x.name === 'b');
    const a = s.servers.findIndex((x) => x.name === 'a');
    const run = (queueAt: (server: number, tick: number) => number): BalancerRun => ({
      ticks: Array.from({ length: s.ticks }, (_, t) => ({
        queues: Array.from({ length: width }, (_, i) => queueAt(i, t + 1)),
        sent: Array(width).fill(0),
        failed: 0,
        waiting: 0,
      })),
    });
    // Yours lets b grow to the end; round robin lets a (the slowest) grow further; the reference stays short.
    const runs = {
      yours: run((i, t) => (i === b ? t * 2 : i === a ? Math.min(t, 2) : 1)),
      roundRobin: run((i, t) => (i === a ? t * 3 : 1)),
      reference: run(() => 1),
    };
    const sentence = headline(s, runs);
    assert.match(sentence, /^With your balancer the queue on b \(/, sentence);
    assert.match(sentence, new RegExp(`reached ${s.ticks * 2} and was still growing; round robin's`), sentence);
  });
});
