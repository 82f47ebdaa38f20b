/**
 * `author-answers`: writes the salted answer hashes of a pack's questions into its lesson.json, from a
 * plain-text answers file that is not part of the pack.
 *
 * Where the answers file lives: `<pack>/authoring/<lesson id>.answers.json` (the folder `new` makes, which
 * bundles leave out), else `authoring/<lesson id>.answers.json` in the current folder (where this
 * repository keeps the built-in lessons' answers, outside `lessons/`, so they are never copied to a
 * learner), or any path given with --answers. The command says which file it read.
 * (Hashing keeps the answers out of the learner's view, not out of reach of someone who tries: a choice or
 * a number can be guessed by hashing candidates. `short` answers are written as scrypt at
 * SHORT_ANSWER_SCRYPT's cost, so each guess costs tens of milliseconds; the other kinds as sha256. A public
 * repository can hold the plain answers.)
 *
 *   {
 *     "lesson": "conn-counts",
 *     "questions": {
 *       "<question id>": {
 *         "accept": ["s1"],                           every accepted answer (not for predict questions:
 *                                                     their answer is the reference model's output)
 *         "wrong": { "s3": "feedback for s3", … }     likely wrong answers and what to tell the learner
 *       }
 *     }
 *   }
 *
 * A question keeps its salt across runs, so regenerating only changes the hashes of answers that changed.
 * With --check nothing is written; the exit code says whether lesson.json is up to date (for CI).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { applyEdits, modify } from 'jsonc-parser';
import { parseLessonJson } from '../worlds/templates/lessonJson';
import { answerHash, expectedPrediction, normaliseAnswer, SHORT_ANSWER_SCRYPT } from '../core/quiz/quiz';
import type { LessonManifest, Question } from '../core/pack/schema';
import type { ReferenceModel } from '../core/model/model';
import { predictCommandProblems } from '../core/validation/questionChecks';
import { loadModel } from '../node/engine/modelLoader';
import { loadPack, MANIFEST_FILE, resolveInside } from '../node/packs/packs';
import { scryptHex, sha256Hex } from '../node/cache/hash';
import { EXIT, UsageError, type CliCommand, type CliIO } from './command';

const AnswersFileSchema = Type.Object(
  {
    $comment: Type.Optional(Type.String()),
    lesson: Type.String({ minLength: 1 }),
    questions: Type.Record(
      Type.String(),
      Type.Object(
        {
          accept: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
          wrong: Type.Optional(Type.Record(Type.String(), Type.String({ minLength: 1 }))),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
type AnswersFile = Static<typeof AnswersFileSchema>;
type Entry = AnswersFile['questions'][string];

interface Authored {
  readonly answer: NonNullable<Question['answer']>;
  readonly feedback: NonNullable<Question['feedback']>;
}

/** The hashes for one question, or why its answers cannot be authored as written. */
async function author(
  question: Question,
  entry: Entry | undefined,
  model: ReferenceModel | undefined,
): Promise<Authored | string> {
  const salt = question.answer?.salt ?? randomBytes(8).toString('hex');
  const normal = (text: string): string | { error: string } => {
    const n = normaliseAnswer(question, text);
    return n.ok ? n.text : { error: `"${text}": ${n.reason}` };
  };
  let accepted: string[];
  if (question.kind === 'predict') {
    if (entry?.accept) return 'a predict question takes no "accept": its answer is what the reference model prints';
    if (!model) return 'the model is unknown, so the prediction cannot be computed';
    // The same check validate makes: a command the model cannot answer would hash its ERROR as the answer.
    const [bad] = predictCommandProblems(model, question.commands ?? []);
    if (bad) return `not hashed: ${bad.problem} (commands[${bad.index}] in lesson.json); fix the question first`;
    accepted = [expectedPrediction(question, model)];
  } else {
    if (!entry?.accept) return 'no "accept" answers in the answers file';
    const normalised = entry.accept.map(normal);
    const bad = normalised.find((n) => typeof n !== 'string');
    if (bad) return (bad as { error: string }).error;
    accepted = [...new Set(normalised as string[])];
  }
  const wrongs: { normalised: string; text: string }[] = [];
  for (const [wrong, text] of Object.entries(entry?.wrong ?? {})) {
    const n = normal(wrong);
    if (typeof n !== 'string') return n.error;
    if (accepted.includes(n)) return `"${wrong}" is listed as wrong but is an accepted answer`;
    wrongs.push({ normalised: n, text });
  }
  // Free text is what a word list can guess, so it gets the slow hash; a choice or a number falls to
  // counting whatever the hash, and a prediction follows from the model.
  const slow = question.kind === 'short';
  const hash = (normalised: string): Promise<string> =>
    slow ? scryptHex(normalised, salt, SHORT_ANSWER_SCRYPT) : Promise.resolve(answerHash(sha256Hex, salt, normalised));
  const [acceptedHashes, wrongHashes] = await Promise.all([
    Promise.all(accepted.map(hash)),
    Promise.all(wrongs.map((w) => hash(w.normalised))),
  ]);
  const feedback: Authored['feedback'] = [];
  wrongs.forEach((wrong, i) => {
    const h = wrongHashes[i]!;
    if (!feedback.some((f) => (f.scrypt ?? f.sha256) === h))
      feedback.push(slow ? { scrypt: h, text: wrong.text } : { sha256: h, text: wrong.text });
  });
  const answer: Authored['answer'] = slow
    ? { salt, scrypt: { ...SHORT_ANSWER_SCRYPT, hashes: acceptedHashes } }
    : { salt, sha256: acceptedHashes };
  return { answer, feedback };
}

function same(question: Question, authored: Authored): boolean {
  const feedback = question.feedback ?? [];
  return (
    JSON.stringify(question.answer) === JSON.stringify(authored.answer) &&
    feedback.length === authored.feedback.length &&
    feedback.every((f, i) => JSON.stringify(f) === JSON.stringify(authored.feedback[i]))
  );
}

/** The places an answers file is looked for without --answers, in order: the pack's own, then this folder's. */
export function answersFileCandidates(packDir: string, id: string, cwd: string): string[] {
  const own = path.join(packDir, 'authoring', `${id}.answers.json`);
  const here = path.resolve(cwd, 'authoring', `${id}.answers.json`);
  return own === here ? [own] : [own, here];
}

async function defaultAnswersFile(packDir: string, id: string, cwd: string): Promise<string> {
  const candidates = answersFileCandidates(packDir, id, cwd);
  for (const candidate of candidates)
    if (
      await fs.stat(candidate).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      return candidate;
  return candidates[0]!;
}

function missingAnswersMessage(packDir: string, id: string, cwd: string, given: string | undefined): string {
  const shown = (p: string): string => path.relative(cwd, p) || p;
  if (given) return `no answers file at ${shown(given)}: check the path given with --answers`;
  const looked = answersFileCandidates(packDir, id, cwd).map(shown);
  return (
    `no answers file for "${id}": looked for ${looked.join(' and ')}. ` +
    `Write ${looked[0]} ({"lesson": "${id}", "questions": {"<question id>": {"accept": ["…"], "wrong": {"…": "feedback"}}}}; see docs/authoring.md), ` +
    `or name another file with --answers <file>`
  );
}

/** The answers file, checked against its schema and the pack's id; says which file it read. */
async function readAnswers(
  io: CliIO,
  dir: string,
  id: string,
  given: string | undefined,
): Promise<{ answers: AnswersFile; shown: string }> {
  const answersPath = given !== undefined ? path.resolve(io.cwd, given) : await defaultAnswersFile(dir, id, io.cwd);
  let answers: AnswersFile;
  try {
    const data: unknown = JSON.parse(await fs.readFile(answersPath, 'utf8'));
    if (!Value.Check(AnswersFileSchema, data)) {
      const first = [...Value.Errors(AnswersFileSchema, data)][0];
      throw new Error(`${first?.path || '/'}: ${first?.message ?? 'not an answers file'}`);
    }
    answers = data;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new UsageError(missingAnswersMessage(dir, id, io.cwd, given !== undefined ? answersPath : undefined));
    throw new UsageError(`cannot use the answers file ${answersPath}: ${(error as Error).message}`);
  }
  const shown = path.relative(io.cwd, answersPath) || answersPath;
  io.out(`reading answers from ${shown}\n`);
  if (answers.lesson !== id) throw new UsageError(`${answersPath} is for lesson "${answers.lesson}", not "${id}"`);
  return { answers, shown };
}

/** lesson.json's text with every question's hashes written in; the questions that changed; what could not be. */
async function authorAll(
  text: string,
  manifest: LessonManifest,
  answers: AnswersFile,
  model: ReferenceModel | undefined,
): Promise<{ updated: string; stale: string[]; errors: string[] }> {
  const sections = [
    ['failureQuestions', manifest.failureQuestions],
    ['quiz', manifest.quiz ?? []],
  ] as const;
  const known = new Set(sections.flatMap(([, qs]) => qs.map((q) => q.id)));
  const errors = Object.keys(answers.questions)
    .filter((id) => !known.has(id))
    .map((id) => `answers for "${id}", which is not a question of this pack`);
  let updated = text;
  const stale: string[] = [];
  const options = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };
  for (const [section, questions] of sections) {
    for (const [index, question] of questions.entries()) {
      const authored = await author(question, answers.questions[question.id], model);
      if (typeof authored === 'string') {
        errors.push(`question "${question.id}": ${authored}`);
        continue;
      }
      if (same(question, authored)) continue;
      stale.push(question.id);
      const feedback = authored.feedback.length ? authored.feedback : undefined;
      updated = applyEdits(updated, modify(updated, [section, index, 'answer'], authored.answer, options));
      updated = applyEdits(updated, modify(updated, [section, index, 'feedback'], feedback, options));
    }
  }
  return { updated, stale, errors };
}

export const authorCommand: CliCommand = {
  name: 'author-answers',
  usage: 'author-answers <pack-dir> [--answers <file>] [--check]',
  summary:
    "write the salted answer hashes into a pack's lesson.json from a plain answers file (default: <pack>/authoring/<lesson id>.answers.json, else ./authoring/…); --check only compares",
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { answers: { type: 'string' }, check: { type: 'boolean' } },
    });
    if (positionals.length !== 1) throw new UsageError('author-answers takes exactly one pack folder');
    const dir = path.resolve(io.cwd, positionals[0]!);
    const manifestPath = path.join(dir, MANIFEST_FILE);
    const text = await fs.readFile(manifestPath, 'utf8').catch(() => {
      throw new UsageError(`no ${MANIFEST_FILE} in ${positionals[0]}`);
    });
    const parsed = parseLessonJson(text, manifestPath);
    if (!parsed.ok)
      throw new UsageError(parsed.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`).join('\n'));
    const manifest = parsed.manifest;
    const { answers, shown } = await readAnswers(io, dir, manifest.id, values.answers);
    const modelPath = await resolveInside(dir, manifest.model);
    const model = modelPath ? loadModel(dir, modelPath) : undefined;
    const { updated, stale, errors } = await authorAll(text, manifest, answers, model);
    if (errors.length > 0) {
      io.err(errors.map((e) => `${shown}: ${e}\n`).join(''));
      return EXIT.usage;
    }
    if (values.check) {
      io.out(
        stale.length === 0
          ? `${manifest.id}: every answer hash is up to date\n`
          : `${manifest.id}: out of date: ${stale.join(', ')} (run author-answers)\n`,
      );
      return stale.length === 0 ? EXIT.ok : EXIT.failed;
    }
    if (stale.length > 0) await fs.writeFile(manifestPath, updated);
    await loadPack(dir); // the pack must still load: throws a PackError (exit 2) if not
    io.out(`${manifest.id}: ${stale.length === 0 ? 'nothing to change' : `wrote hashes for ${stale.join(', ')}`}\n`);
    return EXIT.ok;
  },
};
