/** Scoring a student's answers.json against an answer key: what counts as right, wrong and unanswered. */
import * as assert from 'node:assert/strict';
import { normaliseAnswer } from '../../src/core/quiz/quiz';
import type { Question } from '../../src/core/pack/schema';
import { scoreAnswers, type AnswerKey } from '../../src/node/grade/quizGrade';

const question = (id: string, kind: Question['kind'], extra: Partial<Question> = {}): Question =>
  ({ id, kind, prompt: `question ${id}`, ...extra }) as Question;

/** A key accepting `answers` (as the instructor typed them) for each question. */
function keyOf(entries: readonly [Question, readonly string[]][]): AnswerKey {
  return new Map(
    entries.map(([q, answers]) => {
      const accepted = new Set(answers.map((a) => normaliseAnswer(q, a)).map((n) => (n.ok ? n.text : '')));
      return [q.id, { question: q, accepted }];
    }),
  );
}

describe('scoreAnswers (a student answers file against the key)', () => {
  const key = keyOf([
    [question('three-picks', 'short'), ['a b c']],
    [question('count-a', 'number'), ['2']],
    [question('tie', 'single', { choices: ['pool order', 'name order'] }), ['pool order']],
  ]);

  it('counts a blank or whitespace-only answer as unanswered, never as a wrong answer', () => {
    const score = scoreAnswers(key, { 'three-picks': '   ', 'count-a': '', tie: '\n\t' });
    assert.deepEqual([score.right, score.wrong, score.unanswered], [0, [], ['three-picks', 'count-a', 'tie']]);
    assert.deepEqual(score.wrongAnswers, {});
  });

  it('counts a missing answer as unanswered, a right one right and a wrong one wrong, with what was given', () => {
    const score = scoreAnswers(key, { 'three-picks': 'A  B C', tie: 'name order' });
    assert.deepEqual([score.right, score.wrong, score.unanswered, score.total], [1, ['tie'], ['count-a'], 3]);
    assert.equal(score.wrongAnswers?.tie, 'name order');
  });

  it('does not take an answer from the object prototype (a question id like "constructor")', () => {
    const odd = keyOf([[question('constructor', 'short'), ['x']]]);
    assert.deepEqual(scoreAnswers(odd, {}).unanswered, ['constructor']);
  });
});
