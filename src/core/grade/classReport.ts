/**
 * The class report: what a class gets wrong, from every student's row. Pure: rows in, report out; its JSON
 * form is the `grade --format json` output (schema in docs/grading.md).
 */
import type { GradeRow, RowExample, RowStatus } from './row';
import { quizByQuestion, type QuestionTally } from './classQuiz';
import type { Shard } from './shard';
import type { LessonInfo } from './lessonInfo';
export type { LessonInfo } from './lessonInfo';

export const CLASS_REPORT_FORMAT = 1;

/**
 * One bar per mistake and variant: a mistake the lesson words apart by variant (an unsigned counter's
 * wrap-around, ...) gets a bar per variant its students made, titled in that variant's words, beside that
 * variant's own counterexample.
 */
export interface MistakeBar {
  readonly id: string;
  /** The variant (its mutant's name), when the lesson words this one apart. */
  readonly variant?: string;
  readonly title: string;
  /** Students whose check names this mistake (in this variant). */
  readonly count: number;
  /** count / students in the class (0..1). */
  readonly share: number;
  readonly step: { readonly number: number; readonly title: string } | null;
  readonly question: { readonly id: string; readonly prompt: string } | null;
  /** The smallest counterexample most students with this mistake got (ties: the shortest). */
  readonly commonExample: (RowExample & { readonly students: number }) | null;
  /**
   * How many of them reached each rung of the hint ladder (src/core/repair/ladder.ts): rung 1 every one, 2 those
   * whose card gave the lines, 3 the smallest transcript, within the pack's `hints.maxRung`; rung 4, a fix, is 0:
   * grading never shows one.
   */
  readonly rungs: RungCounts;
  readonly students: readonly string[];
}

export interface RungCounts {
  readonly 1: number;
  readonly 2: number;
  readonly 3: number;
  readonly 4: number;
}

export interface DifferenceGroup {
  /** The command at which the program first answers differently from the reference. */
  readonly command: string;
  readonly expected: readonly string[];
  readonly count: number;
  readonly students: readonly string[];
}

/** A row that took long, named in the grade's summary. */
export interface SlowRow {
  readonly student: string;
  readonly seconds: number;
  readonly why: string;
}

/** Which grade made the report: the run id the teacher's workflow passed, the grader's version, the shard. */
export interface ReportRun {
  readonly id: string | null;
  readonly grader: string;
  readonly shard: Shard | null;
  /** The grade's wall time, start to report (a merged report: its slowest shard's). */
  readonly wallMs: number;
}

export interface ClassReport {
  readonly format: typeof CLASS_REPORT_FORMAT;
  readonly lesson: LessonInfo;
  readonly generatedAt: string;
  readonly run: ReportRun;
  readonly students: number;
  readonly statuses: Readonly<Record<RowStatus, number>>;
  /** Students whose check passed / students (0..1; 0 for an empty class). */
  readonly passRate: number;
  readonly mistakes: readonly MistakeBar[];
  readonly unrecognised: readonly DifferenceGroup[];
  /** Programs that answer differently on two runs of the same commands. */
  readonly random: { readonly count: number; readonly students: readonly string[] };
  /** Programs that stopped answering (hung, or ran past the time limit). */
  readonly stoppedAnswering: { readonly count: number; readonly students: readonly string[] };
  readonly quiz: {
    readonly graded: number;
    readonly meanScore: number | null;
    readonly questions: readonly QuestionTally[];
  };
  /** The slowest rows (at most 3, of more than a second), slowest first. */
  readonly slowest: readonly SlowRow[];
  readonly rows: readonly GradeRow[];
}

const STATUSES: readonly RowStatus[] = ['pass', 'fail', 'error', 'missing', 'refused', 'check-failed'];

function exampleKey(example: RowExample): string {
  return JSON.stringify([example.commands, example.expected]);
}

/** The example most students share; ties go to the shorter, then to the first seen. */
function commonExample(examples: readonly RowExample[]): (RowExample & { students: number }) | null {
  const byKey = new Map<string, { example: RowExample; students: number }>();
  for (const example of examples) {
    const key = exampleKey(example);
    const seen = byKey.get(key);
    if (seen) seen.students += 1;
    else byKey.set(key, { example, students: 1 });
  }
  let best: { example: RowExample; students: number } | undefined;
  for (const entry of byKey.values()) {
    if (
      !best ||
      entry.students > best.students ||
      (entry.students === best.students && entry.example.commands.length < best.example.commands.length)
    )
      best = entry;
  }
  return best ? { ...best.example, students: best.students } : null;
}

function share(count: number, of: number): number {
  return of === 0 ? 0 : count / of;
}

interface MistakeEntry {
  id: string;
  variant?: string;
  title: string;
  step?: number;
  question?: string;
  students: string[];
  examples: RowExample[];
  rungs: number[];
}

/** Students reaching rung k: those whose card's highest rung, within the cap, is k or above. */
function rungCounts(rungs: readonly number[], maxRung: number | undefined): RungCounts {
  const reached = (k: number) => rungs.filter((r) => Math.min(r, maxRung ?? 4) >= k).length;
  return { 1: reached(1), 2: reached(2), 3: reached(3), 4: 0 };
}

function mistakeBars(lesson: LessonInfo, sorted: readonly GradeRow[]): MistakeBar[] {
  const byMistake = new Map<string, MistakeEntry>();
  for (const row of sorted) {
    for (const mistake of row.mistakes) {
      const key = JSON.stringify([mistake.id, mistake.variant ?? null]);
      let entry = byMistake.get(key);
      if (!entry) {
        entry = {
          id: mistake.id,
          ...(mistake.variant !== undefined ? { variant: mistake.variant } : {}),
          title: mistake.title,
          ...(mistake.step !== undefined ? { step: mistake.step } : {}),
          ...(mistake.question !== undefined ? { question: mistake.question } : {}),
          students: [],
          examples: [],
          rungs: [],
        };
        byMistake.set(key, entry);
      }
      entry.students.push(row.student);
      if (mistake.example) entry.examples.push(mistake.example);
      entry.rungs.push(mistake.rung ?? 1);
    }
  }
  return [...byMistake.values()]
    .map(({ examples, students, step, question, rungs, ...m }) => ({
      ...m,
      count: students.length,
      share: share(students.length, sorted.length),
      step: step !== undefined ? { number: step, title: lesson.steps[step - 1] ?? `step ${step}` } : null,
      question: question !== undefined ? { id: question, prompt: lesson.questions[question] ?? question } : null,
      commonExample: commonExample(examples),
      rungs: rungCounts(rungs, lesson.maxRung),
      students,
    }))
    .sort(
      (a, b) =>
        b.count - a.count || (a.id < b.id ? -1 : a.id > b.id ? 1 : (a.variant ?? '') < (b.variant ?? '') ? -1 : 1),
    );
}

/** Why a row took long, in a few words. */
function slowness(row: GradeRow): string {
  if (row.stoppedAnswering) return 'stopped answering (time limit)';
  if (row.random) return 'answers differ between runs (checked again)';
  if (row.problems.length) return row.problems.join(', ');
  return row.status === 'pass' ? 'passed' : (row.reason ?? row.status);
}

function slowestRows(rows: readonly GradeRow[]): SlowRow[] {
  return [...rows]
    .filter((r) => r.durationMs >= 1000)
    .sort((a, b) => b.durationMs - a.durationMs || (a.student < b.student ? -1 : 1))
    .slice(0, 3)
    .map((r) => ({ student: r.student, seconds: Math.round(r.durationMs / 100) / 10, why: slowness(r) }));
}

export const NO_RUN: ReportRun = { id: null, grader: '', shard: null, wallMs: 0 };

export function buildClassReport(
  lesson: LessonInfo,
  rows: readonly GradeRow[],
  generatedAt: string,
  run: ReportRun = NO_RUN,
): ClassReport {
  const sorted = [...rows].sort((a, b) => (a.student < b.student ? -1 : a.student > b.student ? 1 : 0));
  const statuses = Object.fromEntries(STATUSES.map((s) => [s, sorted.filter((r) => r.status === s).length])) as Record<
    RowStatus,
    number
  >;
  const mistakes = mistakeBars(lesson, sorted);
  const groups = new Map<string, { command: string; expected: readonly string[]; students: string[] }>();
  for (const row of sorted) {
    const example = row.unrecognised;
    if (!example) continue;
    const command = example.commands[example.divergesAt] ?? '(end of input)';
    const expected = example.expected.length ? example.expected : [];
    const key = JSON.stringify([command.split(/\s+/)[0], expected]);
    const group = groups.get(key) ?? { command, expected, students: [] };
    group.students.push(row.student);
    groups.set(key, group);
  }
  const unrecognised = [...groups.values()]
    .map((g) => ({ ...g, count: g.students.length }))
    .sort((a, b) => b.count - a.count || (a.command < b.command ? -1 : a.command > b.command ? 1 : 0));
  const random = sorted.filter((r) => r.random).map((r) => r.student);
  const stopped = sorted.filter((r) => r.stoppedAnswering).map((r) => r.student);
  const quizzes = sorted.flatMap((r) => (r.quiz && r.quiz.total > 0 ? [r.quiz.right / r.quiz.total] : []));
  return {
    format: CLASS_REPORT_FORMAT,
    lesson,
    generatedAt,
    run,
    students: sorted.length,
    statuses,
    passRate: share(statuses.pass, sorted.length),
    mistakes,
    unrecognised,
    random: { count: random.length, students: random },
    stoppedAnswering: { count: stopped.length, students: stopped },
    quiz: {
      graded: quizzes.length,
      meanScore: quizzes.length ? quizzes.reduce((a, b) => a + b, 0) / quizzes.length : null,
      questions: quizByQuestion(lesson, sorted),
    },
    slowest: slowestRows(sorted),
    rows: sorted,
  };
}

/** A share as a percentage for people: 0.4285 → "43%". */
export function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}
