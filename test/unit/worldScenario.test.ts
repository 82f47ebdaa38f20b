/**
 * core/world: the tick engine of world scenarios (one round trip per answer the world reads), the sentence
 * template's placeholders (every number drawn in the chart beside it), and the checks `validate` makes.
 */
import * as assert from 'node:assert/strict';
import type { ScenarioWorld } from '../../src/core/model/model';
import { ProgramStopped, type LineSession } from '../../src/core/world/lineSession';
import { checkWorldScenario } from '../../src/core/world/worldRules';
import { sentenceProblems } from '../../src/core/world/sentence';
import { runWorld, WorldError } from '../../src/core/world/worldRun';
import { worldSentence, worldTable, type WorldResult } from '../../src/core/world/worldReport';
import { SeriesSchema, type SeriesSpec, type WorldScenario } from '../../src/core/world/worldScenarioSchema';
import { Value } from '@sinclair/typebox/value';

/** Two lanes; each tick sends TICK and asks GO twice; "yes" counts for lane x, "no" for lane y; anything else is no answer. */
const world: ScenarioWorld<{ x: number; y: number; seen: number }, { ticks: number }> = {
  params(raw) {
    const ticks = (raw as { ticks?: unknown }).ticks;
    if (typeof ticks !== 'number') throw new Error('"ticks" must be a number');
    return { ticks };
  },
  ticks: (p) => p.ticks,
  lanes: () => ['x', 'y'],
  start: () => ({ state: { x: 0, y: 0, seen: 0 }, send: ['SETUP'] }),
  tick: (s) => ({ state: { ...s, x: 0, y: 0 }, send: ['TICK'], arrivals: 2 }),
  arrival: (s) => ({ state: s, ask: 'GO' }),
  answer: (s, line) =>
    line === 'yes'
      ? { state: { ...s, x: s.x + 1 } }
      : line === 'no'
        ? { state: { ...s, y: s.y + 1 }, send: ['NOTED'] }
        : { notAnswer: 'GO is answered yes or no' },
  endTick: (s) => ({ state: s, measures: { answered: [s.x, s.y], no: s.y } }),
};

function recording(answer: (command: string, n: number) => string): LineSession & { batches: string[][] } {
  const batches: string[][] = [];
  let n = 0;
  return {
    batches,
    exchange: async (commands) => {
      batches.push([...commands]);
      return commands.map((c) => answer(c, n++));
    },
  };
}

const SERIES: SeriesSpec[] = [
  { measure: 'answered', per: 'lane', title: 'Answered', unit: 'per tick' },
  { measure: 'no', per: 'total', title: 'No', unit: 'per tick' },
];

describe('core/world: world scenarios', () => {
  it('drives ticks with one round trip per answer read, held commands riding with the next', async () => {
    const session = recording((c) => (c === 'GO' ? 'no' : 'OK'));
    const run = await runWorld(world, { ticks: 2 }, 1, session);
    assert.deepEqual(session.batches, [
      ['SETUP', 'TICK', 'GO'],
      ['NOTED', 'GO'],
      ['NOTED', 'TICK', 'GO'],
      ['NOTED', 'GO'],
      ['NOTED'],
    ]);
    assert.deepEqual(
      run.ticks.map((t) => t.measures),
      [
        { answered: [0, 2], no: 2 },
        { answered: [0, 2], no: 2 },
      ],
    );
    assert.equal(run.stopped, undefined);
  });

  it('an answer the world cannot read stops the run at that tick, worded; the program stopping too', async () => {
    const run = await runWorld(
      world,
      { ticks: 3 },
      1,
      recording((c, n) => (c === 'GO' ? (n > 4 ? 'maybe' : 'yes') : 'OK')),
    );
    assert.equal(run.ticks.length, 1);
    assert.deepEqual(run.stopped, {
      tick: 2,
      message: 'at tick 2 it answered "maybe" to GO: GO is answered yes or no',
    });
    const crashed = await runWorld(world, { ticks: 3 }, 1, {
      exchange: async () => Promise.reject(new ProgramStopped('it crashed', 'Traceback')),
    });
    assert.deepEqual(crashed.stopped, { tick: 1, message: 'it crashed', details: 'Traceback' });
  });

  it("a world that breaks its contract is the pack's fault, named", async () => {
    const bad: ScenarioWorld = {
      ...(world as ScenarioWorld),
      endTick: (s) => ({ state: s, measures: { answered: [1] } }),
    };
    await assert.rejects(
      runWorld(
        bad,
        { ticks: 1 },
        1,
        recording(() => 'yes'),
      ),
      (e: unknown) =>
        e instanceof WorldError &&
        /"answered" at tick 1 is neither a number nor one number per lane \(2\)/.test(e.message),
    );
    await assert.rejects(
      runWorld(
        world,
        {},
        1,
        recording(() => 'yes'),
      ),
      /"ticks" must be a number/,
    );
  });

  it('the sentence: placeholders fill from drawn series; a number written out, or one not drawn, is refused', () => {
    assert.deepEqual(
      sentenceProblems(
        'You answered no {yours.total.no} times, most on {worst.answered} ({yours.peak.answered.worst}); the reference {reference.total.answered.y}.',
        SERIES,
        [],
      ),
      [],
    );
    assert.deepEqual(sentenceProblems('Out of 30, {yours.total.no}.', SERIES, []), [
      '"30" is written out: every number in the sentence must be measured, so write it as a placeholder (e.g. {yours.peak.<measure>})',
    ]);
    assert.deepEqual(sentenceProblems('{yours.total.answered}', SERIES, []), [
      '{yours.total.answered}: "answered" is not drawn as a total in this scenario\'s series, so the chart would not show this number',
    ]);
    assert.deepEqual(sentenceProblems('{baseline.allow-all.total.no} {yours.mean.no}', SERIES, ['sticky']), [
      '{baseline.allow-all.total.no}: "allow-all" is not one of this scenario\'s baselines (sticky)',
      '{yours.mean.no}: "mean" is not peak, final or total',
    ]);
  });

  it('every number of the filled sentence is a figure of the table beside the chart', async () => {
    const scenario: WorldScenario = {
      id: 'w',
      title: 'W',
      description: 'd',
      params: { ticks: 3 },
      seed: 1,
      series: SERIES,
      baselines: ['always-yes'],
      sentence:
        'You said no {yours.total.no} times, peaking at {yours.peak.answered.worst} on {worst.answered}; always yes said yes {baseline.always-yes.total.answered.x} times.',
    };
    const yours = await runWorld(
      world,
      scenario.params,
      1,
      recording((c, n) => (c === 'GO' ? (n % 3 === 0 ? 'no' : 'yes') : 'OK')),
    );
    const always = await runWorld(
      world,
      scenario.params,
      1,
      recording(() => 'yes'),
    );
    const runs = { yours, reference: always, 'baseline.always-yes': always };
    const result: WorldResult = {
      lesson: 'l',
      scenario,
      lanes: ['x', 'y'],
      ticks: 3,
      contestants: [
        { key: 'yours', title: 'Yours' },
        { key: 'reference', title: 'Reference' },
        { key: 'baseline.always-yes', title: 'Always yes' },
      ],
      runs,
      sentence: '',
    };
    const sentence = worldSentence(scenario, result.lanes, 3, runs);
    assert.match(sentence, /^You said no \d+ times, peaking at \d+ on [xy]; always yes said yes 6 times\.$/);
    const figures = new Set(
      worldTable(result).rows.flatMap((row) => row.slice(1).flatMap((cell) => cell.split(' / '))),
    );
    for (const number of sentence.match(/\d+/g)!) assert.ok(figures.has(number), number);
  });

  it("validate: a world scenario's series, sentence and shows are checked against the lesson", () => {
    const problems: string[] = [];
    const scenario = {
      id: 'w',
      title: 'W',
      description: 'd',
      params: {},
      seed: 1,
      series: [...SERIES, SERIES[1]!],
      sentence: '{yours.total.nope} and 3',
      shows: ['ghost'],
    };
    checkWorldScenario(scenario as never, '/scenarios/0', new Set(['real']), (pointer, message) =>
      problems.push(`${pointer}: ${message}`),
    );
    assert.deepEqual(problems, [
      '/scenarios/0/series/2: "no" is drawn as a total twice; draw each once',
      '/scenarios/0/sentence: {yours.total.nope}: "nope" is not drawn as a total in this scenario\'s series, so the chart would not show this number',
      '/scenarios/0/sentence: "3" is written out: every number in the sentence must be measured, so write it as a placeholder (e.g. {yours.peak.<measure>})',
      '/scenarios/0/shows/0: "ghost" is not a mistake of this lesson (mistakes: real)',
    ]);
  });

  it('a series title or unit holding a control character is refused by the schema (a chart label is one line of plain text)', () => {
    const clean = { measure: 'answered', per: 'lane', title: 'Answered', unit: 'per tick' };
    assert.equal(Value.Check(SeriesSchema, clean), true);
    assert.equal(Value.Check(SeriesSchema, { ...clean, title: 'Answered\u001b]52;c;cHduZWQ=\u0007' }), false);
    assert.equal(Value.Check(SeriesSchema, { ...clean, unit: 'per tick\u202e' }), false);
  });
});
