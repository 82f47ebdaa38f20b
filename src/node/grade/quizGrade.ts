/**
 * Grading a student's answers (answers.json in their folder) with the instructor's plain answers file
 * (authoring/<lesson id>.answers.json, the file `author-answers` hashes), never with the hashes in the pack:
 * those are what learners have, and what a guess can be hashed against.
 *
 *   answers.json   { "<question id>": "<answer as typed>", ... }   (or the same under "answers")
 *
 * An answer is right when its normal form (core/quiz normaliseAnswer, as the learner's own check uses) is
 * the normal form of an accepted answer; a predict question's accepted answer is what the reference model
 * prints, computed here once, as author-answers does.
 */
import * as fs from 'node:fs/promises';
import { expectedPrediction, normaliseAnswer } from '../../core/quiz/quiz';
import type { QuizScore } from '../../core/grade/row';
import type { Question } from '../../core/pack/schema';
import { loadModel } from '../engine/modelLoader';
import { resolveInside, type LoadedPack } from '../packs/packs';
import { WordedError } from '../errors/errors';

/** Question id → its accepted answers in normal form. */
export type AnswerKey = ReadonlyMap<string, { readonly question: Question; readonly accepted: ReadonlySet<string> }>;

function questionsOf(pack: LoadedPack): Question[] {
  return [...pack.manifest.failureQuestions, ...(pack.manifest.quiz ?? [])];
}

/** Reads the instructor's answers file into normal forms; a WordedError says what is wrong with it. */
export async function loadAnswerKey(pack: LoadedPack, file: string): Promise<AnswerKey> {
  let data: unknown;
  try {
    data = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (error) {
    throw new WordedError(`cannot use the answers file ${file}: ${(error as Error).message}`);
  }
  const plain = data as { lesson?: unknown; questions?: Record<string, { accept?: unknown }> };
  if (typeof plain !== 'object' || plain === null || typeof plain.questions !== 'object' || plain.questions === null) {
    throw new WordedError(
      `${file} is not an answers file: it needs "lesson" and "questions" (the authoring/<lesson id>.answers.json format)`,
    );
  }
  if (plain.lesson !== pack.manifest.id)
    throw new WordedError(`${file} is for lesson "${String(plain.lesson)}", not "${pack.manifest.id}"`);
  const questions = questionsOf(pack);
  const needsModel = questions.some((q) => q.kind === 'predict');
  const entry = needsModel ? await resolveInside(pack.dir, pack.manifest.model) : undefined;
  // The instructor's own pack, loaded as author-answers loads it: predictions are what its model prints.
  const model = needsModel && entry ? (pack.model ?? loadModel(pack.dir, entry)) : undefined;
  const key = new Map<string, { question: Question; accepted: Set<string> }>();
  for (const question of questions) {
    const accepted = new Set<string>();
    if (question.kind === 'predict') {
      if (model) accepted.add(expectedPrediction(question, model));
    } else {
      const accept = plain.questions[question.id]?.accept;
      for (const text of Array.isArray(accept) ? accept : []) {
        const normal = typeof text === 'string' ? normaliseAnswer(question, text) : undefined;
        if (normal?.ok) accepted.add(normal.text);
      }
    }
    if (accepted.size === 0) throw new WordedError(`${file}: no accepted answer for question "${question.id}"`);
    key.set(question.id, { question, accepted });
  }
  return key;
}

/** The student's answers file as question id → answer; why it cannot be read, as a string. */
export async function readStudentAnswers(file: string): Promise<Record<string, string> | string> {
  let data: unknown;
  try {
    const text = await fs.readFile(file, 'utf8');
    if (text.length > 256 * 1024) return 'answers.json is larger than 256 kB';
    data = JSON.parse(text);
  } catch (error) {
    return `answers.json cannot be read: ${(error as Error).message.split('\n')[0]}`;
  }
  const inner =
    typeof data === 'object' && data !== null && 'answers' in data ? (data as { answers: unknown }).answers : data;
  if (typeof inner !== 'object' || inner === null || Array.isArray(inner))
    return 'answers.json is not an object of question id → answer';
  const out: Record<string, string> = {};
  for (const [id, value] of Object.entries(inner))
    if (typeof value === 'string' || typeof value === 'number') out[id] = String(value);
  return out;
}

export function scoreAnswers(key: AnswerKey, answers: Readonly<Record<string, string>>): QuizScore {
  let right = 0;
  const wrong: string[] = [];
  const wrongAnswers: Record<string, string> = {};
  const unanswered: string[] = [];
  for (const [id, { question, accepted }] of key) {
    const given = Object.prototype.hasOwnProperty.call(answers, id) ? answers[id] : undefined;
    if (given === undefined || given.trim() === '') {
      unanswered.push(id);
      continue;
    }
    const normal = normaliseAnswer(question, given);
    if (normal.ok && accepted.has(normal.text)) right += 1;
    else {
      wrong.push(id);
      wrongAnswers[id] = (normal.ok ? normal.text : given.trim()).slice(0, 200);
    }
  }
  return { right, total: key.size, wrong, unanswered, questions: [...key.keys()], wrongAnswers };
}
