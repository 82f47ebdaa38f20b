// What `validate` tells a pack author about a world scenario's sentence and series (src/core/world/sentence.ts,
// worldRules.ts), how a placeholder reads, and which scenario runs after a check (scenarioChoice.ts). Every
// input is built inside its test or in `beforeEach`, so mutation coverage (perTest) credits the test.
import * as assert from 'node:assert/strict';
import { chooseScenario, scenarioAfterCheck } from '../../src/core/world/scenarioChoice';
import { fillSentence, parsePlaceholder, sentenceProblems } from '../../src/core/world/sentence';
import { checkWorldScenario } from '../../src/core/world/worldRules';
import type { SeriesSpec, WorldScenario } from '../../src/core/world/worldScenarioSchema';

describe('world sentence: what validate says about a placeholder', () => {
  let series: SeriesSpec[];

  beforeEach(() => {
    series = [
      { measure: 'answered', per: 'lane', title: 'Answered', unit: 'per tick' },
      { measure: 'no', per: 'total', title: 'No', unit: 'per tick' },
    ];
  });

  it('{worst.<measure>} takes exactly one measure, drawn per lane', () => {
    assert.deepEqual(sentenceProblems('On {worst.answered}.', series, []), []);
    assert.deepEqual(sentenceProblems('On {worst}.', series, []), ['{worst}: write {worst.<measure>}']);
    assert.deepEqual(sentenceProblems('On {worst.answered.x}.', series, []), [
      '{worst.answered.x}: write {worst.<measure>}',
    ]);
    assert.deepEqual(sentenceProblems('On {worst.no}.', series, []), [
      '{worst.no}: "no" is not a measure this scenario draws per lane',
    ]);
  });

  it('a placeholder starts with yours, reference, baseline.<id> or worst', () => {
    assert.deepEqual(sentenceProblems('{mine.total.no}', series, ['mine']), [
      '{mine.total.no}: a placeholder starts with yours, reference, baseline.<id> or worst',
    ]);
  });

  it("a baseline must be one of the scenario's, and the message lists them (or says none)", () => {
    assert.deepEqual(sentenceProblems('{baseline}', series, []), [
      '{baseline}: "" is not one of this scenario\'s baselines (none)',
    ]);
    assert.deepEqual(sentenceProblems('{baseline.rr.total.no}', series, ['sticky', 'hash']), [
      '{baseline.rr.total.no}: "rr" is not one of this scenario\'s baselines (sticky, hash)',
    ]);
    assert.deepEqual(sentenceProblems('{baseline.rr.total.no}', series, ['sticky', 'rr']), []);
  });

  it('the stat is peak, final or total, and a measure follows it, with at most a lane after', () => {
    assert.deepEqual(sentenceProblems('{yours}', series, []), ['{yours}: "" is not peak, final or total']);
    assert.deepEqual(sentenceProblems('{yours.peak}', series, []), [
      '{yours.peak}: write {yours….peak.<measure>} or {….peak.<measure>.<lane>}',
    ]);
    assert.deepEqual(sentenceProblems('{reference.final.answered.x.y}', series, []), [
      '{reference.final.answered.x.y}: write {reference….final.<measure>} or {….final.<measure>.<lane>}',
    ]);
    assert.deepEqual(sentenceProblems('{reference.final.answered.x}', series, []), []);
  });

  it('a lane of a measure drawn only as a total is refused', () => {
    assert.deepEqual(sentenceProblems('{yours.peak.no.x}', series, []), [
      '{yours.peak.no.x}: "no" is not drawn per lane in this scenario\'s series, so the chart would not show this number',
    ]);
  });

  it('a brace left open is named', () => {
    assert.deepEqual(sentenceProblems('You said no {yours.total.no times.', series, []), [
      'a brace is not closed: placeholders are written {like.this}',
    ]);
    assert.deepEqual(sentenceProblems('You said no } times.', series, []), [
      'a brace is not closed: placeholders are written {like.this}',
    ]);
  });

  it('reads a placeholder as who, which stat, which measure and which lane', () => {
    assert.deepEqual(parsePlaceholder('yours.peak.answered.x', series, []), {
      kind: 'number',
      who: { kind: 'yours' },
      stat: 'peak',
      measure: 'answered',
      lane: 'x',
    });
    assert.deepEqual(parsePlaceholder('baseline.rr.total.no', series, ['rr']), {
      kind: 'number',
      who: { kind: 'baseline', id: 'rr' },
      stat: 'total',
      measure: 'no',
    });
    assert.deepEqual(parsePlaceholder('worst.answered', series, []), { kind: 'worst', measure: 'answered' });
  });

  it('filling keeps a placeholder it cannot read as written', () => {
    const filled = fillSentence('{nope} and {yours.total.no} and {worst.answered}', series, [], (p) =>
      p.kind === 'worst' ? 'lane x' : `${p.stat} of ${p.measure}`,
    );
    assert.equal(filled, '{nope} and total of no and lane x');
  });
});

describe('world rules: validate on a world scenario', () => {
  let scenario: WorldScenario;
  let problems: string[];
  const report = (pointer: string, message: string): void => {
    problems.push(`${pointer}: ${message}`);
  };

  beforeEach(() => {
    problems = [];
    scenario = {
      id: 'w',
      title: 'W',
      description: 'd',
      params: {},
      seed: 1,
      series: [
        { measure: 'answered', per: 'lane', title: 'Answered', unit: 'per tick' },
        { measure: 'answered', per: 'total', title: 'All answered', unit: 'per tick' },
      ],
      sentence: 'Most on {worst.answered}.',
    };
  });

  it('a clean scenario, showing a mistake of the lesson, has no problems', () => {
    scenario.shows = ['real'];
    checkWorldScenario(scenario, '/scenarios/0', new Set(['real', 'other']), report);
    assert.deepEqual(problems, []);
  });

  it('a measure drawn per lane twice is named as such (the same measure as a total once is fine)', () => {
    scenario.series = [...scenario.series, { measure: 'answered', per: 'lane', title: 'Again', unit: 'per tick' }];
    checkWorldScenario(scenario, '/scenarios/1', new Set(), report);
    assert.deepEqual(problems, ['/scenarios/1/series/2: "answered" is drawn per lane twice; draw each once']);
  });

  it('a scenario without baselines: a baseline placeholder is refused, the message saying it has none', () => {
    scenario.sentence = 'Round robin: {baseline.rr.total.answered}.';
    checkWorldScenario(scenario, '/scenarios/0', new Set(), report);
    assert.deepEqual(problems, [
      '/scenarios/0/sentence: {baseline.rr.total.answered}: "rr" is not one of this scenario\'s baselines (none)',
    ]);
  });

  it("a mistake the lesson does not have is named, with the lesson's mistakes listed", () => {
    scenario.shows = ['real', 'ghost'];
    checkWorldScenario(scenario, '/scenarios/0', new Set(['real', 'other']), report);
    assert.deepEqual(problems, [
      '/scenarios/0/shows/1: "ghost" is not a mistake of this lesson (mistakes: real, other)',
    ]);
  });
});

describe('scenario choice: which scenario runs', () => {
  let scenarios: { id: string; shows?: string[] }[];

  beforeEach(() => {
    scenarios = [
      { id: 'steady' },
      { id: 'burst', shows: ['ignores-down'] },
      { id: 'sticky', shows: ['hot-spot', 'ignores-down'] },
    ];
  });

  it('the one asked for by id, or none when no scenario has that id', () => {
    assert.equal(chooseScenario(scenarios, 'sticky')?.id, 'sticky');
    assert.equal(chooseScenario(scenarios, 'sticky', ['ignores-down'])?.id, 'sticky');
    assert.equal(chooseScenario(scenarios, 'nope'), undefined);
  });

  it('else the first that shows a mistake, trying the mistakes in order; else the first scenario', () => {
    assert.equal(chooseScenario(scenarios, undefined, ['unshown', 'hot-spot'])?.id, 'sticky');
    assert.equal(chooseScenario(scenarios, undefined, ['ignores-down', 'hot-spot'])?.id, 'burst');
    assert.equal(chooseScenario(scenarios, undefined, ['unshown'])?.id, 'steady');
    assert.equal(chooseScenario(scenarios)?.id, 'steady');
  });

  it('after a check: the scenario of a mistake it found, the first for a pass, nothing when there are no scenarios', () => {
    assert.deepEqual(scenarioAfterCheck(scenarios, 'fail', ['unshown', 'hot-spot']), {
      scenario: scenarios[2],
      mistake: 'hot-spot',
    });
    assert.deepEqual(scenarioAfterCheck(scenarios, 'pass', []), { scenario: scenarios[0] });
    assert.equal(scenarioAfterCheck(scenarios, 'fail', ['unshown']), undefined);
    assert.equal(scenarioAfterCheck(scenarios, 'error', ['hot-spot']), undefined);
    assert.equal(scenarioAfterCheck([], 'pass', []), undefined);
  });
});
