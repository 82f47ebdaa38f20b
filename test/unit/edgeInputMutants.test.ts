/**
 * Defaults that only input the program never gives reaches: a quiz question with no "answer" block (the
 * learner's pack loader refuses it), a blank command under a grammar whose verb is "" (the model loader refuses
 * a verb that is not one word), choosing a scenario with no list of named mistakes (every caller passes one), and
 * a world sentence naming a baseline its scenario lacks (refused when lesson.json is read). Each function is
 * still called directly by code that may grow other callers, so its default should do what it says: these tests
 * feed it that input. Where a default could only show against one particular text, that text is the one mutation
 * testing writes in its place ("Stryker was here"), said so at the test. Every input is built inside its test.
 */
import * as assert from 'node:assert/strict';
import { grammarProblem } from '../../src/core/model/grammar';
import type { Question } from '../../src/core/pack/schema';
import { answerHash, checkAnswer, type QuizDeps } from '../../src/core/quiz/quiz';
import { chooseScenario } from '../../src/core/world/scenarioChoice';
import { worldSentence } from '../../src/core/world/worldReport';
import type { WorldRun } from '../../src/core/world/worldRun';
import type { WorldScenario } from '../../src/core/world/worldScenarioSchema';
import { scryptHex, sha256 } from './quizAuthoring';

describe('edge input: a quiz question with no "answer" block', () => {
  it('is never right, yet a feedback entry hashed with no salt still answers its wrong answer', async () => {
    const deps: QuizDeps = { sha256, scrypt: scryptHex };
    const q: Question = {
      id: 'q-unsalted',
      prompt: 'Which?',
      kind: 'short',
      hint: 'Re-read step 2.',
      feedback: [{ sha256: answerHash(sha256, '', 's2'), text: 'That is the server picked last.' }],
    };
    assert.deepEqual(await checkAnswer(q, 'S2', deps), { correct: false, feedback: 'That is the server picked last.' });
    assert.deepEqual(await checkAnswer(q, 's3', deps), { correct: false, feedback: 'Re-read step 2.' });
  });
});

describe('edge input: a blank command', () => {
  it('fits a grammar whose verb is the empty word with no arguments, and no grammar without it', () => {
    assert.equal(grammarProblem({ '': [] }, ''), undefined);
    assert.equal(grammarProblem({ '': [] }, '   '), undefined);
    assert.match(grammarProblem({ PICK: [] }, '')!, /^`` is not a command of the protocol \(its commands: PICK\)/);
  });
});

describe('edge input: choosing a scenario with no named mistakes', () => {
  it('is the first scenario, whatever the others show', () => {
    // "Stryker was here" stands for any mistake id a scenario shows: the list of named mistakes defaults to none.
    for (const shows of [['tiebreak'], ['Stryker was here']]) {
      const chosen = chooseScenario([{ id: 'steady' }, { id: 'burst', shows }]);
      assert.equal(chosen?.id, 'steady', shows[0]);
    }
  });
});

describe('edge input: a world sentence naming a baseline its scenario lacks', () => {
  let scenario: WorldScenario;
  let runs: Record<string, WorldRun>;

  beforeEach(() => {
    scenario = {
      id: 'load',
      title: 'Load',
      description: 'd',
      params: {},
      seed: 1,
      series: [{ measure: 'failed', per: 'total', title: 'Failed', unit: 'per tick' }],
      sentence: 'Yours failed at most {yours.peak.failed} a tick; {baseline.Stryker was here.peak.failed}.',
    };
    runs = {
      yours: { ticks: [{ measures: { failed: 1 } }, { measures: { failed: 4 } }, { measures: { failed: 2 } }] },
    };
  });

  it('keeps that placeholder as written (a scenario without baselines has none to read), and fills the others', () => {
    // "Stryker was here" stands for any baseline id: a scenario that lists no baselines has none.
    const peak = Math.max(...runs.yours!.ticks.map((t) => t.measures.failed as number));
    assert.equal(
      worldSentence(scenario, [], 3, runs),
      `Yours failed at most ${peak} a tick; {baseline.Stryker was here.peak.failed}.`,
    );
  });
});
