// Wrong-answer feedback guides, it does not tell: for every built-in lesson, no feedback a learner can get
// for a wrong answer (the authored feedback for a likely wrong answer, and the question's hint for any
// other) contains an accepted answer. Checked through the real answer path: the hashed feedback in
// lesson.json, as the panel and `lesson-companion answer` show it. The accepted answers come from the
// authoring files, which are not part of the packs.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  checkAnswer,
  expectedPrediction,
  normaliseAnswer,
  normaliseText,
  revealAnswer,
} from '../../src/core/quiz/quiz';
import type { Question } from '../../src/core/pack/schema';
import { loadPack, type LoadedPack } from '../../src/node/packs/packs';
import { scryptHex, sha256Hex } from '../../src/node/packs/quiz';

const ROOT = path.resolve(__dirname, '..', '..');
const LESSONS = ['conn-counts', 'least-connections'];

interface AnswersFile {
  questions: Record<string, { accept?: string[]; wrong?: Record<string, string> }>;
}

/** Words and numbers of a text, as the quiz normalises it: "(count, name)" and "count name" share tokens. */
function tokens(text: string): string[] {
  return normaliseText(text)
    .split(/[\s,;()[\]{}=<>+*/|"`]+/)
    .map((t) => t.replace(/^[.:!?]+|[.:!?]+$/g, ''))
    .filter((t) => t !== '');
}

/** The answer's tokens appear one after another in the feedback's. */
function contains(feedback: string, answer: string): boolean {
  const f = tokens(feedback);
  const a = tokens(answer);
  if (a.length === 0) return false;
  return f.some((_, i) => a.every((t, k) => f[i + k] === t));
}

/** What counts as giving the answer away for a question: its accepted answers, or the right choices' texts. */
function givenAway(question: Question, pack: LoadedPack, accept: readonly string[]): string[] {
  if (question.kind === 'predict') return [expectedPrediction(question, pack.model!)];
  if (question.kind === 'single' || question.kind === 'multiple') {
    // Accepted as choice numbers: the text of each right choice must not be quoted back either.
    const right = accept
      .flatMap((a) => a.split(/[\s,]+/))
      .map((n) => question.choices![Number(n) - 1]!)
      .filter(Boolean);
    return right.map(normaliseText);
  }
  return accept.map((a) => {
    const n = normaliseAnswer(question, a);
    return n.ok ? n.text : a;
  });
}

describe('wrong-answer feedback does not give the answer away', () => {
  for (const id of LESSONS) {
    it(`${id}: no feedback on a wrong answer, authored or the hint, contains an accepted answer`, async () => {
      const pack = await loadPack(path.join(ROOT, 'lessons', id), 'built-in', { model: true });
      const answers = JSON.parse(
        fs.readFileSync(path.join(ROOT, 'authoring', `${id}.answers.json`), 'utf8'),
      ) as AnswersFile;
      const deps = { sha256: sha256Hex, scrypt: scryptHex, model: pack.model, mistakes: pack.manifest.mistakes };
      const leaks: string[] = [];
      let checked = 0;
      for (const question of [...pack.manifest.failureQuestions, ...(pack.manifest.quiz ?? [])]) {
        const entry = answers.questions[question.id] ?? {};
        const secrets = givenAway(question, pack, entry.accept ?? []);
        assert.ok(secrets.length > 0, `${question.id}: no accepted answer to compare with`);
        // Every authored wrong answer through the real path, and a wrong answer nobody foresaw (the hint).
        const unforeseen =
          question.kind === 'number'
            ? '987654'
            : question.kind === 'single' || question.kind === 'multiple'
              ? null
              : 'qqq unforeseen';
        const wrongs = [...Object.keys(entry.wrong ?? {}), ...(unforeseen ? [unforeseen] : [])];
        for (const wrong of wrongs) {
          const result = await checkAnswer(question, wrong, deps);
          assert.equal(result.correct, false, `${question.id}: "${wrong}" is listed as wrong`);
          assert.equal(result.explanation, undefined, `${question.id}: no explanation with a wrong answer`);
          checked += 1;
          for (const secret of secrets) {
            if (contains(result.feedback, secret))
              leaks.push(`${question.id}, answer "${wrong}": "${result.feedback}" contains "${secret}"`);
          }
        }
        if (question.hint)
          for (const secret of secrets)
            if (contains(question.hint, secret))
              leaks.push(`${question.id}, hint: "${question.hint}" contains "${secret}"`);
      }
      assert.ok(checked > 10, `only ${checked} wrong answers checked`);
      assert.deepEqual(leaks, []);
    });
  }

  it('no plural hangs off a code chip in the lessons\' text (`PICK`s shows as a chip and a loose "s")', () => {
    for (const id of LESSONS) {
      const text = fs.readFileSync(path.join(ROOT, 'lessons', id, 'lesson.json'), 'utf8');
      assert.deepEqual(text.match(/`[^`"\n]+`s\b/g) ?? [], [], id);
    }
  });

  it('the test can fail: feedback that names the answer is caught', async () => {
    assert.equal(contains('Ties go to pool order, and zeta is listed first.', 'zeta'), true);
    assert.equal(contains('A count at 0 stays at 0.', '0'), true);
    assert.equal(contains('After a and b have 1 each, c is the only backend at 0.', 'a b c'), false);
    assert.equal(contains('so the answer is a b c here', 'a b c'), true);
  });

  it('"Show answer" gives the worked answer, and for a prediction what the program prints', async () => {
    const pack = await loadPack(path.join(ROOT, 'lessons', 'least-connections'), 'built-in', { model: true });
    const predict = pack.manifest.failureQuestions.find((q) => q.kind === 'predict')!;
    const shown = revealAnswer(predict, { model: pack.model });
    assert.equal(shown.explanation, predict.explanation);
    assert.equal(tokens(shown.expectedOutput!.join(' ')).join(' '), expectedPrediction(predict, pack.model!));
    const short = pack.manifest.failureQuestions.find((q) => q.kind === 'short')!;
    assert.deepEqual(revealAnswer(short, { model: pack.model }), { explanation: short.explanation });
  });
});
