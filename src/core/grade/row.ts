/**
 * One student's row in a class report, taken from their check report (or from why there is none). Pure:
 * the grader (src/node/grade) reads the files and runs the checks; this only says what a row holds.
 */
import type { CheckReport, Counterexample } from '../report/report';
import { cardRung, type Rung } from '../repair/ladder';

/**
 * `pass`/`fail`: the check ran and said so. `error`: the check ran but the program could not be judged
 * (syntax error, crash on every input, missing interpreter). `missing`: no file to check. `refused`: a file
 * that is not checked (binary, too large, a link out of the student's folder). `check-failed`: the check
 * itself failed (a bug or a broken pack); the reason says how.
 */
export type RowStatus = 'pass' | 'fail' | 'error' | 'missing' | 'refused' | 'check-failed';

/** The smallest transcript shown for a mistake or a difference, as compared text. */
export interface RowExample {
  readonly commands: readonly string[];
  readonly divergesAt: number;
  readonly expected: readonly string[];
  readonly actual: readonly string[];
}

export interface RowMistake {
  readonly id: string;
  readonly title: string;
  readonly step?: number;
  readonly question?: string;
  readonly variant?: string;
  readonly behaviour?: 'random' | 'rotating';
  readonly example: RowExample | null;
  /**
   * The highest rung of the hint ladder the student's card shows for it (src/core/repair/ladder.ts): 1 the
   * question and the step, 2 the lines, 3 the smallest transcript. Never 4: grading never searches for a fix.
   * Absent in rows kept before it was counted (read as 1).
   */
  readonly rung?: Exclude<Rung, 4>;
}

export interface QuizScore {
  readonly right: number;
  readonly total: number;
  /** Question ids answered wrong (or not readable as an answer). */
  readonly wrong: readonly string[];
  /** Every question graded, in the lesson's order. */
  readonly questions?: readonly string[];
  /** Question id → the wrong answer given, in its normal form (for the class's most common wrong answer). */
  readonly wrongAnswers?: Readonly<Record<string, string>>;
  /** Question ids the student left unanswered. */
  readonly unanswered: readonly string[];
}

/** The verdict a student's own workflow wrote into its artifact: shown beside the grade, never counted. */
export interface ReportedVerdict {
  readonly status: string;
  readonly passed: number;
  readonly total: number;
}

export interface GradeRow {
  /** The student: their folder's (or file's) name. */
  readonly student: string;
  /** The checked file, relative to the folder graded; null when there was none. */
  readonly file: string | null;
  readonly status: RowStatus;
  /** Why, in words, for every status but `pass`. */
  readonly reason: string | null;
  readonly mistakes: readonly RowMistake[];
  readonly checks: { readonly passed: number; readonly total: number };
  /** Problem kinds of the report (timeout, crash, syntax, nondeterministic, unrecognised-difference, ...). */
  readonly problems: readonly string[];
  /** The first difference no mistake explains, when the report has an unrecognised difference. */
  readonly unrecognised: RowExample | null;
  /** The program answered differently on two runs of the same commands. */
  readonly random: boolean;
  /** The program stopped answering (a hang, a time limit). */
  readonly stoppedAnswering: boolean;
  readonly quiz: QuizScore | null;
  readonly durationMs: number;
  /** `grade --collect`: what the student's workflow reported (not counted), and the commit it names. */
  readonly reported?: ReportedVerdict | null;
  readonly commit?: string | null;
}

export function exampleOf(counterexample: Counterexample | null | undefined): RowExample | null {
  if (!counterexample) return null;
  return {
    commands: counterexample.commands,
    divergesAt: counterexample.divergesAt,
    expected: counterexample.expected,
    actual: counterexample.actual,
  };
}

/** The reason a checked program did not pass, in one line: its first problem, else its mistakes. */
function reasonOf(report: CheckReport): string | null {
  if (report.status === 'pass') return null;
  const problem = report.problems[0];
  if (problem && (report.status === 'error' || report.mistakes.length === 0)) {
    // The check's own sentence points at the checks below it; a row has none below.
    const sentence = problem.message.split('\n')[0]!.replace(/\s*They were ignored for the checks below\.?/, '');
    const allRight = report.checks.total > 0 && report.checks.failed === 0;
    return `${problem.kind}: ${sentence}${allRight ? ' (every answer was right, but the check fails on this)' : ''}`;
  }
  if (report.mistakes.length > 0) return report.mistakes.map((m) => m.title).join('; ');
  return `${report.checks.failed} of ${report.checks.total} checks failed`;
}

export function rowFromReport(student: string, file: string, report: CheckReport, quiz: QuizScore | null): GradeRow {
  const kinds = [...new Set(report.problems.map((p) => p.kind))];
  return {
    student,
    file,
    status: report.status,
    reason: reasonOf(report),
    mistakes: report.mistakes.map((m) => ({
      id: m.id,
      title: m.title,
      ...(m.step !== undefined ? { step: m.step } : {}),
      ...(m.question !== undefined ? { question: m.question } : {}),
      ...(m.variant ? { variant: m.variant.mutant } : {}),
      ...(m.behaviour ? { behaviour: m.behaviour } : {}),
      example: exampleOf(m.counterexample),
      rung: cardRung(m) as Exclude<Rung, 4>,
    })),
    checks: { passed: report.checks.passed, total: report.checks.total },
    problems: kinds,
    unrecognised: kinds.includes('unrecognised-difference') ? exampleOf(report.counterexample) : null,
    random: kinds.includes('nondeterministic') || report.mistakes.some((m) => m.behaviour === 'random'),
    stoppedAnswering: kinds.includes('timeout'),
    quiz,
    durationMs: report.durationMs,
  };
}

/** A row for a submission that was not checked, or whose check failed: the reason says why. */
export function rowWithoutCheck(
  student: string,
  file: string | null,
  status: Exclude<RowStatus, 'pass' | 'fail' | 'error'>,
  reason: string,
  totalChecks: number,
  quiz: QuizScore | null,
): GradeRow {
  return {
    student,
    file,
    status,
    reason,
    mistakes: [],
    checks: { passed: 0, total: totalChecks },
    problems: [],
    unrecognised: null,
    random: false,
    stoppedAnswering: false,
    quiz,
    durationMs: 0,
  };
}
