/**
 * Grades submissions: each one's file checked through checkFile, the same in-process path and containment
 * as `lesson-companion check`, `jobs` at a time. Every submission gets a row, whatever it holds: no file, a
 * file that is not a program's text, too large or a link out of the folder is a row with the reason, and a
 * check that throws is a `check-failed` row; nothing stops the run but a stop from outside.
 *
 * Each check's row is stored (resultStore.ts, the grader's private store) as soon as it is known, so a
 * stopped run resumes without checking anything twice; without a store (--sandbox=off) nothing is kept.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { CheckReport } from '../../core/report/report';
import type { Language } from '../../core/pack/schema';
import { rowFromReport, rowWithoutCheck, type GradeRow, type QuizScore } from '../../core/grade/row';
import { checkFile, type CheckFileOptions } from '../check/checker';
import { languageOf } from '../languages/languages';
import type { LoadedPack } from '../packs/packs';
import { guardFile, isProgramText, type Submission } from './submissions';
import { readStudentAnswers, scoreAnswers, type AnswerKey } from './quizGrade';
import { resultKey, type ResultStore } from './resultStore';

export interface GradeProgress {
  readonly done: number;
  readonly total: number;
  /** Checks started by this run (a resumed submission starts none). */
  readonly checked: number;
  readonly row: GradeRow;
}

export interface GradeOptions {
  readonly pack: LoadedPack;
  /** Checks at a time. */
  readonly jobs: number;
  /** Options of every check, as `check` passes them (sandbox, engine, limits). */
  readonly check: Omit<CheckFileOptions, 'onPhase' | 'signal'>;
  readonly store?: ResultStore;
  /** The key of the pack, engine and settings (resultStore runKey). */
  readonly runKey: string;
  readonly answerKey?: AnswerKey;
  /** Paths in rows are relative to this folder. */
  readonly baseDir: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: GradeProgress) => void;
  /** The check itself; checkFile unless a test or a service gives another. */
  readonly checkOne?: (
    pack: LoadedPack,
    file: string,
    language: Language,
    options: CheckFileOptions,
  ) => Promise<CheckReport>;
}

export interface GradeRun {
  readonly rows: readonly GradeRow[];
  /** Checks this run started. */
  readonly checked: number;
  /** Rows taken from the store of an earlier run. */
  readonly resumed: number;
  /** True when the run was stopped before every submission had a row. */
  readonly stopped: boolean;
}

async function quizOf(submission: Submission, key: AnswerKey | undefined): Promise<QuizScore | null> {
  if (!key || !submission.answers) return null;
  const answers = await readStudentAnswers(submission.answers);
  // An unreadable answers file scores nothing, but the row still says how many questions there were.
  return typeof answers === 'string'
    ? { right: 0, total: key.size, wrong: [], unanswered: [...key.keys()], questions: [...key.keys()] }
    : scoreAnswers(key, answers);
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

/** The file's language and bytes when it may be checked; why it may not, as a sentence. */
async function checkable(
  file: string,
  submission: Submission,
  pack: LoadedPack,
): Promise<{ language: Language; bytes: Buffer } | string> {
  const refused = await guardFile(submission).catch((error: unknown) => `the file cannot be read: ${message(error)}`);
  if (refused) return refused;
  const language = languageOf(file);
  if (!language || !pack.manifest.starters[language])
    return `lesson "${pack.manifest.id}" has no version for ${path.basename(file)} (it has ${Object.keys(pack.manifest.starters).join(', ')})`;
  const bytes = await fs.readFile(file);
  if (!isProgramText(bytes)) return 'the file is not text (binary bytes, or not UTF-8)';
  return { language, bytes };
}

// eslint-disable-next-line max-lines-per-function -- the three closures (checkProgram, gradeOne, worker) share the run's counters and in-run map across concurrent workers; splitting them means a typed run state, left to src/node's owner (issue 33)
export async function gradeSubmissions(submissions: readonly Submission[], options: GradeOptions): Promise<GradeRun> {
  const { pack } = options;
  const total = pack.transcripts.length;
  const checkOne = options.checkOne ?? checkFile;
  const rows: GradeRow[] = new Array<GradeRow>(submissions.length);
  let next = 0;
  let done = 0;
  let checked = 0;
  let resumed = 0;

  const inRun = new Map<string, Promise<GradeRow | undefined>>();
  /** The row of one check; a check that throws is a `check-failed` row, not kept (the next run tries again). */
  const checkProgram = async (file: string, language: Language): Promise<GradeRow> => {
    checked += 1;
    try {
      const report = await checkOne(pack, file, language, {
        ...options.check,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return rowFromReport('', '', report, null);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      return rowWithoutCheck('', '', 'check-failed', `the check failed: ${message(error)}`, total, null);
    }
  };

  const gradeOne = async (submission: Submission): Promise<GradeRow> => {
    const quiz = await quizOf(submission, options.answerKey);
    const { student } = submission;
    if (!submission.file)
      return rowWithoutCheck(student, null, 'missing', submission.missing ?? 'no file', total, quiz);
    const shown = path.relative(options.baseDir, submission.file) || submission.file;
    const readable = await checkable(submission.file, submission, pack);
    if (typeof readable === 'string') return rowWithoutCheck(student, shown, 'refused', readable, total, quiz);
    const { language, bytes } = readable;
    const key = resultKey(options.runKey, bytes);
    // A kept result verified (resultStore.ts: signed under the grader's private key, bound to these bytes,
    // the pack, the engine and the settings) is believed; one that does not verify is checked again.
    const stored = options.store?.read(key);
    if (stored) {
      resumed += 1;
      return { ...stored, student, file: shown, quiz };
    }
    // The same program handed in twice in this run (a shared starter, a copy) is checked once.
    const running = inRun.get(key);
    if (running) {
      const result = await running;
      if (result) return { ...result, student, file: shown, quiz };
    }
    const checking = checkProgram(submission.file, language);
    inRun.set(
      key,
      checking.then(
        (row) => (row.status === 'check-failed' ? undefined : row),
        () => undefined,
      ),
    );
    const row = await checking;
    if (row.status !== 'check-failed') options.store?.write(key, { ...row, student, file: shown, quiz });
    return { ...row, student, file: shown, quiz };
  };

  const worker = async (): Promise<void> => {
    while (next < submissions.length && !options.signal?.aborted) {
      const index = next++;
      let row: GradeRow;
      try {
        row = await gradeOne(submissions[index]!);
      } catch (error) {
        if (options.signal?.aborted) return;
        row = rowWithoutCheck(
          submissions[index]!.student,
          null,
          'check-failed',
          `the submission could not be graded: ${message(error)}`,
          total,
          null,
        );
      }
      rows[index] = row;
      done += 1;
      options.onProgress?.({ done, total: submissions.length, checked, row });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs, submissions.length)) }, worker));
  const present = rows.filter((r): r is GradeRow => r !== undefined);
  return { rows: present, checked, resumed, stopped: present.length < submissions.length };
}
