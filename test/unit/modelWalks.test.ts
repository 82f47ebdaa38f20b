/**
 * The check walks the model no further than a verdict needs (a pack's model runs in the engine's sandbox, a step
 * at a time: a check of a program that does not follow its mutant took 171,000 steps, 128,000 after these). Each
 * test counts the steps of a model wrapped to count them; the answers are the lesson's own (fakeLesson.ts).
 */
import * as assert from 'node:assert/strict';
import { allStartClean, runBatch, startsClean } from '../../src/core/check/batch';
import { candidatesHolding, type ConfirmContext } from '../../src/core/check/confirmRuns';
import { answersExactly } from '../../src/core/diagnosis/candidates';
import { simulate, sameOutcome, type Outcome } from '../../src/core/model/simulate';
import { confirmContextOf, model as lessonModel, mutantProgram } from './fakeLesson';

/** The lesson's model, counting its steps. */
function counted(): typeof lessonModel & { steps: number } {
  const wrapped = {
    ...lessonModel,
    steps: 0,
    step(...args: Parameters<typeof lessonModel.step>) {
      wrapped.steps += 1;
      return lessonModel.step(...args);
    },
  };
  return wrapped;
}

const ctxOf = (model: ConfirmContext['model']): ConfirmContext =>
  confirmContextOf(mutantProgram('tiebreak-last'), { model });

describe('the model walked no further than the verdict needs', () => {
  it('a round of shrinking judges its candidates only up to the first that holds, the one the shrinker takes', async () => {
    const model = counted();
    const differs = (list: readonly string[], run: Outcome): boolean =>
      !sameOutcome(run, simulate(model, list).outcome);
    const tie = ['POOL a b', 'PICK'];
    const after = Array.from({ length: 50 }, (_, k) => [
      'POOL a b c',
      'PICK',
      'DONE a',
      'PICK',
      `DONE ${'abc'[k % 3]}`,
    ]);
    const verdicts = await candidatesHolding(ctxOf(model), [['POOL a', 'PICK'], tie, ...after], differs);
    assert.deepEqual(verdicts.indexOf(true), 1);
    assert.equal(verdicts.filter(Boolean).length, 1);
    // Two lists judged (each walked twice, by the reference and by the judgement), not fifty-two.
    assert.ok(model.steps < 50, `${model.steps} steps`);
  });

  it('whether every list of a batch starts clean stops at the first that does not', () => {
    const model = counted();
    const lists = [['CAP 2'], ...Array.from({ length: 40 }, () => ['POOL a b', 'PICK', 'PICK', 'STATUS'])];
    // The least-connections model keeps nothing across the reset: a list of its own that leaves a pool behind
    // is followed by one that starts clean; a pretend reset that keeps everything does not.
    const keeps = { ...model, resetCommand: 'STATUS' };
    assert.equal(allStartClean(keeps, [['POOL a b', 'PICK'], ...lists]), false);
    const early = model.steps;
    startsClean(keeps, [['POOL a b', 'PICK'], ...lists]);
    assert.ok(early * 10 < model.steps - early, `${early} steps to say no, ${model.steps - early} for every list`);
    assert.equal(allStartClean(model, lists.slice(1)), true);
  });

  it("a stream answered exactly or not is known again without a walk: the diagnosis after the probe asks about the check's own", async () => {
    const model = counted();
    const { streams } = await runBatch(model, mutantProgram('tiebreak-last'), [
      ['POOL a b', 'PICK', 'PICK', 'DONE b', 'PICK'],
      ['POOL a b c', 'PICK', 'STATUS'],
    ]);
    assert.equal(answersExactly(model, streams, ['tiebreak-last']), true);
    assert.equal(answersExactly(model, streams, []), false);
    const walked = model.steps;
    assert.equal(answersExactly(model, streams, ['tiebreak-last']), true);
    assert.equal(answersExactly(model, streams, []), false);
    assert.equal(model.steps, walked, 'no step the second time');
    // Another stream is walked.
    const more = await runBatch(model, mutantProgram('tiebreak-last'), [['POOL b a', 'PICK']]);
    assert.equal(answersExactly(model, [...streams, ...more.streams], ['tiebreak-last']), true);
    assert.ok(model.steps > walked);
  });
});
