// What a world scenario's run shows (src/core/world/worldReport.ts): the figures table beside the charts (peak,
// at the end, total of each drawn line), the lane where the learner's program did worst, and the sentence above
// the chart, filled from those same figures, or the stop message when the program stopped. The runs are built in
// `beforeEach` from per-lane values written out below, and the expected figures derived from those values; the
// queue world shipped with lesson-companion is the real subject of the last test.
import * as assert from 'node:assert/strict';
import type { Baseline, Measures, ScenarioWorld } from '../../src/core/model/model';
import type { LineSession } from '../../src/core/world/lineSession';
import {
  isWorldResult,
  worldSentence,
  worldTable,
  worstLane,
  type Contestant,
  type WorldResult,
} from '../../src/core/world/worldReport';
import { baselineSession, runWorld, type WorldRun } from '../../src/core/world/worldRun';
import type { SeriesSpec, WorldScenario } from '../../src/core/world/worldScenarioSchema';
import { queueBaselines, queueWorld } from '../../src/worlds/queues';

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
/** The table's cell for a line's values: peak (never below 0) / the last tick's / the sum over the ticks. */
const cell = (values: readonly number[]): string =>
  `${Math.max(0, ...values)} / ${values[values.length - 1] ?? 0} / ${sum(values)}`;
/** Per-tick measures from per-lane series: `queue[lane][tick]`, and `failed[tick]` (undefined: not reported that tick). */
function runOf(queue: readonly (readonly number[])[], failed: readonly (number | undefined)[]): WorldRun {
  return {
    ticks: failed.map((f, t) => {
      const measures: Record<string, number | number[]> = { queue: queue.map((lane) => lane[t]!) };
      if (f !== undefined) measures.failed = f;
      return { measures: measures as Measures };
    }),
  };
}

describe('world report: the table, the worst lane and the sentence', () => {
  const LANES = ['a', 'b', 'c'];
  // Yours: lanes b and c both peak at 5 (b first in lane order); c has the largest total and final value.
  const YOURS_QUEUE = [
    [1, 1, 1],
    [0, 5, 0],
    [5, 4, 4],
  ];
  const YOURS_FAILED = [0, 2, 1];
  // The reference did not report "failed" at tick 1: that tick counts 0.
  const REFERENCE_QUEUE = [
    [1, 2, 0],
    [1, 1, 0],
    [1, 0, 0],
  ];
  const REFERENCE_FAILED = [undefined, 1, 0];

  let series: SeriesSpec[];
  let scenario: WorldScenario;
  let contestants: Contestant[];
  let runs: Record<string, WorldRun>;

  beforeEach(() => {
    series = [
      { measure: 'queue', per: 'lane', title: 'Queue', unit: 'requests' },
      { measure: 'queue', per: 'total', title: 'All queued', unit: 'requests' },
      { measure: 'failed', per: 'total', title: 'Failed', unit: 'per tick' },
    ];
    scenario = {
      id: 'load',
      title: 'Load',
      description: 'd',
      params: {},
      seed: 1,
      series,
      baselines: ['rr'],
      sentence: 'placeholder',
    };
    contestants = [
      { key: 'yours', title: 'Your program' },
      { key: 'reference', title: 'Reference' },
      { key: 'baseline.rr', title: 'Round robin' },
    ];
    runs = { yours: runOf(YOURS_QUEUE, YOURS_FAILED), reference: runOf(REFERENCE_QUEUE, REFERENCE_FAILED) };
  });

  it('the table: one row per lane of a per-lane measure, one for a total (summed over lanes), a contestant with no run all zero', () => {
    const table = worldTable({ scenario, lanes: LANES, contestants, runs });
    const totals = (queue: number[][]): number[] => queue[0]!.map((_, t) => sum(queue.map((lane) => lane[t]!)));
    const none = cell([]);
    assert.equal(none, '0 / 0 / 0');
    assert.deepEqual(table, {
      caption: 'Each chart: peak / at the end / total over the ticks',
      head: ['', 'Your program', 'Reference', 'Round robin'],
      rows: [
        ['Queue: a (requests)', cell(YOURS_QUEUE[0]!), cell(REFERENCE_QUEUE[0]!), none],
        ['Queue: b (requests)', cell(YOURS_QUEUE[1]!), cell(REFERENCE_QUEUE[1]!), none],
        ['Queue: c (requests)', cell(YOURS_QUEUE[2]!), cell(REFERENCE_QUEUE[2]!), none],
        ['All queued (requests)', cell(totals(YOURS_QUEUE)), cell(totals(REFERENCE_QUEUE)), none],
        ['Failed (per tick)', cell(YOURS_FAILED), cell(REFERENCE_FAILED.map((f) => f ?? 0)), none],
      ],
    });
    // Written out, so a wrong derivation above cannot hide a wrong table.
    assert.deepEqual(table.rows[2], ['Queue: c (requests)', '5 / 4 / 13', '1 / 0 / 1', '0 / 0 / 0']);
    assert.deepEqual(table.rows[3], ['All queued (requests)', '10 / 5 / 21', '3 / 0 / 6', '0 / 0 / 0']);
  });

  it('the table writes control characters of a title out visibly', () => {
    const table = worldTable({
      scenario: {
        ...scenario,
        series: [{ measure: 'failed', per: 'total', title: 'Fail\u0007ed', unit: 'per\u202etick' }],
      },
      lanes: LANES,
      contestants: [{ key: 'yours', title: 'You\u001b' }],
      runs,
    });
    assert.deepEqual(table.head, ['', 'You\\u001b']);
    assert.deepEqual(table.rows, [['Fail\\u0007ed (per\\u202etick)', cell(YOURS_FAILED)]]);
    assert.doesNotMatch(table.rows[0]![0]!, /[\u0007\u202e]/);
  });

  it('the worst lane is the one where your program peaked highest, the first of a tie in lane order', () => {
    // a peaks at 1, b and c at 5: b (c has the larger total and the later place).
    assert.equal(worstLane(runs.yours!, 'queue', LANES), 1);
    // The reference: a peaks at 2, the others at 1.
    assert.equal(worstLane(runs.reference!, 'queue', LANES), 0);
    // Only c peaks: 0, 0, 3.
    assert.equal(worstLane(runOf([[0], [0], [3]], [0]), 'queue', LANES), 2);
  });

  it('the sentence is filled from the table\'s figures: a lane by name or the worst, a total, a baseline with no run as "?"', () => {
    scenario.sentence =
      'Your queues peaked at {yours.peak.queue.worst} on {worst.queue}; {yours.total.failed} failed, the reference {reference.total.failed}; c ended at {yours.final.queue.c} and all at {yours.final.queue}; round robin {baseline.rr.total.failed}; lane z {yours.peak.queue.z}.';
    const sentence = worldSentence(scenario, LANES, 3, runs);
    const yoursFinalTotal = sum(YOURS_QUEUE.map((lane) => lane[2]!));
    assert.equal(
      sentence,
      `Your queues peaked at ${Math.max(...YOURS_QUEUE[1]!)} on b; ${sum(YOURS_FAILED)} failed, the reference ${sum(REFERENCE_FAILED.map((f) => f ?? 0))}; c ended at ${YOURS_QUEUE[2]![2]} and all at ${yoursFinalTotal}; round robin ?; lane z ?.`,
    );
    assert.equal(
      sentence,
      'Your queues peaked at 5 on b; 3 failed, the reference 1; c ended at 4 and all at 5; round robin ?; lane z ?.',
    );
  });

  it('a named lane reads that lane, not the worst one nor the total', () => {
    scenario.sentence =
      'a {yours.total.queue.a}, c {yours.total.queue.c}, worst {yours.total.queue.worst}, all {yours.total.queue}';
    assert.equal(
      worldSentence(scenario, LANES, 3, runs),
      `a ${sum(YOURS_QUEUE[0]!)}, c ${sum(YOURS_QUEUE[2]!)}, worst ${sum(YOURS_QUEUE[1]!)}, all 21`,
    );
  });

  it('a mistake the check found leads the sentence', () => {
    scenario.sentence = 'At worst {yours.peak.queue.worst} on {worst.queue}.';
    assert.equal(
      worldSentence(scenario, LANES, 3, runs, { title: 'Picks a server that is down' }),
      'Your check found “Picks a server that is down”. Under load: At worst 5 on b.',
    );
  });

  it('a program that stopped gets the stop message instead of the sentence', () => {
    scenario.sentence = '{yours.total.failed} failed.';
    runs.yours = {
      ticks: runs.yours!.ticks.slice(0, 1),
      stopped: {
        tick: 2,
        message: 'at tick 2 it answered "maybe" to PICK: PICK is answered with a server of the pool (a, b, c)',
      },
    };
    assert.equal(
      worldSentence(scenario, LANES, 3, runs),
      'Your program stopped at tick 2 of 3, so its part of the chart ends there: at tick 2 it answered "maybe" to PICK: PICK is answered with a server of the pool (a, b, c).',
    );
  });

  it('without a run of yours (the reference alone), the sentence still fills from the others', () => {
    delete runs.yours;
    scenario.sentence = 'The reference queued at most {reference.peak.queue} at once.';
    assert.equal(worldSentence(scenario, LANES, 3, runs), 'The reference queued at most 3 at once.');
  });

  it('a scenario without baselines fills its sentence; a world with no lanes names no worst lane', () => {
    const { baselines: _, ...plain } = scenario;
    assert.equal(
      worldSentence({ ...plain, sentence: 'Failed: {yours.final.failed}.' }, LANES, 3, runs),
      `Failed: ${YOURS_FAILED[2]}.`,
    );
    const noLanes = { ticks: [{ measures: { queue: [] } }] };
    assert.equal(
      worldSentence({ ...plain, sentence: 'Worst: [{worst.queue}].' }, [], 1, { yours: noLanes }),
      'Worst: [].',
    );
  });

  it("tells a world scenario's result from a template scenario's", () => {
    const result: WorldResult = { lesson: 'l', scenario, lanes: LANES, ticks: 3, contestants, runs, sentence: '' };
    assert.equal(isWorldResult(result), true);
    assert.equal(isWorldResult({ lesson: 'l', scenario: { id: 't' }, sentence: '' }), false);
  });
});

describe('world report: the queue world, your program beside round robin', () => {
  let result: WorldResult;

  beforeEach(async () => {
    // Servers a (1 request a tick) and b (3 a tick), 4 sessions: 4 requests a tick.
    const params = {
      servers: [
        { name: 'a', capacity: 1 },
        { name: 'b', capacity: 3 },
      ],
      ticks: 3,
      sessions: 4,
    };
    const scenario: WorldScenario = {
      id: 'slow-a',
      title: 'A slow server',
      description: 'd',
      params,
      seed: 7,
      baselines: ['round-robin'],
      series: [
        { measure: 'queue', per: 'lane', title: 'Queue', unit: 'requests' },
        { measure: 'sent', per: 'total', title: 'Sent', unit: 'requests' },
      ],
      sentence:
        'Your balancer let {worst.queue} queue up to {yours.peak.queue.worst}; round robin let a queue up to {baseline.round-robin.peak.queue.a}.',
    };
    // A learner's balancer that sends everything to b: b finishes 3 of its 4 a tick.
    const allToB: LineSession = { exchange: async (commands) => commands.map((c) => (c === 'PICK' ? 'b' : 'OK')) };
    const runs = {
      yours: await runWorld(queueWorld as unknown as ScenarioWorld, params, scenario.seed, allToB),
      'baseline.round-robin': await runWorld(
        queueWorld as unknown as ScenarioWorld,
        params,
        scenario.seed,
        baselineSession(queueBaselines['round-robin'] as Baseline),
      ),
    };
    const contestants = [
      { key: 'yours', title: 'Yours' },
      { key: 'baseline.round-robin', title: queueBaselines['round-robin']!.title },
    ];
    result = {
      lesson: 'l',
      scenario,
      lanes: ['a', 'b'],
      ticks: 3,
      contestants,
      runs,
      sentence: worldSentence(scenario, ['a', 'b'], 3, runs),
    };
  });

  it("the sentence states the table's figures: b grows by one a tick under yours, a by one under round robin", () => {
    // Yours: b gets 4 and finishes 3 each tick (queue 1, 2, 3). Round robin: a, b, a, b: a gets 2, finishes 1 (1, 2, 3).
    assert.equal(result.sentence, 'Your balancer let b queue up to 3; round robin let a queue up to 3.');
    assert.deepEqual(worldTable(result), {
      caption: 'Each chart: peak / at the end / total over the ticks',
      head: ['', 'Yours', 'Round robin'],
      rows: [
        ['Queue: a (requests)', '0 / 0 / 0', '3 / 3 / 6'],
        ['Queue: b (requests)', '3 / 3 / 6', '0 / 0 / 0'],
        ['Sent (requests)', '4 / 4 / 12', '4 / 4 / 12'],
      ],
    });
  });
});
