/**
 * What a check report means for the learner's screen, in one place: the summary line, the CodeLens
 * label above a function, the trace cells, which function a failure points at. The extension only lays
 * these out; the CLI and the editor say the same thing because they ask the same functions.
 */
import type { CheckReport, Counterexample, NamedMistake, ProblemKind } from './report';
import type { Language, ReadStep } from './schema';
import { safeText, showInvisibles } from './text';

/** "12 of 14 hidden transcripts pass", or why nothing could be checked. */
export function checkSummary(report: Pick<CheckReport, 'status' | 'checks'> & Partial<Pick<CheckReport, 'problems'>>): string {
  const { total, passed } = report.checks;
  // Reports stored by an older version have no notRun.
  const notRun = report.checks.notRun ?? 0;
  if (report.status === 'error') return 'Could not check: the program did not run';
  if (report.status === 'pass') return `All ${total} hidden transcripts pass`;
  if (passed === total) return `All ${total} hidden transcripts pass, but not everything is right`;
  const why = report.problems?.some((p) => p.kind === 'unimplemented') ? 'the code is not written yet' : 'the program stopped answering';
  return `${passed} of ${total} hidden transcripts pass${notRun ? ` (${notRun} not run: ${why})` : ''}`;
}

/** The generated transcripts' line, empty when they say nothing (none ran, or the program did not run). */
export function fuzzSummary(report: Pick<CheckReport, 'status' | 'fuzz'>): string {
  const { transcripts, failed, seed } = report.fuzz;
  const notRun = report.fuzz.notRun ?? 0;
  if (transcripts === 0 || report.status === 'error' || notRun >= transcripts) return '';
  const skipped = notRun > 0 ? `, ${notRun} not run` : '';
  return failed > 0
    ? `${failed} of ${transcripts} generated transcripts fail${skipped} (seed ${seed})`
    : `${transcripts - notRun} generated transcripts agree${skipped} (seed ${seed})`;
}

const PROBLEM_TITLES: Record<ProblemKind, string> = {
  timeout: 'Your program stopped answering',
  crash: 'Your program crashed',
  syntax: 'Your program does not start',
  'output-limit': 'Too much output',
  'stray-output': 'Lines that are not answers',
  'stale-state': 'State leaks between transcripts',
  unimplemented: 'Not written yet',
  'interpreter-missing': 'Interpreter not found',
  'unrecognised-difference': 'A difference this lesson has no name for',
  nondeterministic: 'Your program answers differently each run',
  'model-error': "The lesson's reference model failed",
};

export function problemTitle(kind: ProblemKind | string): string {
  return (PROBLEM_TITLES as Record<string, string>)[kind] ?? kind;
}

/** Named mistakes that live in `fn`, in report order. */
export function mistakesIn(report: Pick<CheckReport, 'mistakes'> | null | undefined, fn: string): NamedMistake[] {
  return report ? report.mistakes.filter((m) => m.function === fn) : [];
}

/**
 * The label above a function the lesson's mistakes can live in: the last result as it concerns this
 * function, so a learner sees "✗ <the mistake's title>" right where the fix goes.
 */
export function lensTitle(report: CheckReport | null | undefined, fn: string, running = false): string {
  if (running) return '$(sync~spin) Checking…';
  if (!report) return '$(beaker) Check';
  const here = mistakesIn(report, fn);
  if (here.length > 0) {
    const more = here.length > 1 ? ` (+${here.length - 1} more)` : '';
    return `✗ ${here[0]!.title}${more} · Check again`;
  }
  if (report.status === 'pass') return `✓ ${checkSummary(report)} · Check again`;
  if (report.status === 'error') return '✗ Could not run · Check again';
  return `${report.checks.passed}/${report.checks.total} pass · Check again`;
}

/** The function a failing report points the learner at: its first named mistake's, if any. */
export function failureFocus(report: CheckReport): { readonly function: string | null; readonly line: number | null } {
  const first = report.mistakes[0];
  if (first) return { function: first.function, line: first.line };
  const located = report.problems.find((p) => typeof p.line === 'number' && p.line > 0);
  return { function: null, line: located?.line ?? null };
}

export interface TraceRowCells {
  readonly command: string;
  readonly expected: string;
  readonly actual: string;
  readonly counts: string;
  readonly matches: boolean;
  readonly diverges: boolean;
  readonly after: boolean;
}

export interface TraceCells {
  readonly transcript: string;
  readonly commands: number;
  readonly shrunkFrom: number;
  readonly divergesAt: number;
  readonly rows: readonly TraceRowCells[];
}

/** One answer as a table cell; "a " and "a" must not look the same, nor "no answer" and "empty". */
export function answerCell(lines: readonly string[] | null): string {
  if (lines === null) return '(no answer)';
  if (lines.length === 0) return '(nothing)';
  return lines.map(showInvisibles).join(' / ');
}

export function countsCell(counts: Readonly<Record<string, number | string>>): string {
  const entries = Object.entries(counts);
  return entries.length === 0 ? '–' : safeText(entries.map(([k, v]) => `${k}:${v}`).join(' '));
}

export function traceCells(example: Counterexample): TraceCells {
  return {
    transcript: example.transcript,
    commands: example.commands.length,
    shrunkFrom: example.shrunkFrom,
    divergesAt: example.divergesAt,
    rows: example.trace.map((row, i) => ({
      command: showInvisibles(row.command),
      expected: answerCell(row.expected),
      actual: answerCell(row.actual),
      counts: countsCell(row.counts),
      matches: row.matches,
      diverges: i === example.divergesAt,
      after: i > example.divergesAt,
    })),
  };
}

/** The learner's "done when" list is met once every check passes; the statements are for the learner. */
export function doneWhenMet(report: Pick<CheckReport, 'status'> | null | undefined): boolean {
  return report?.status === 'pass';
}

/** A read-order step's terminal command for a language, if it has one. */
export function stepCommand(step: Pick<ReadStep, 'run'>, language: Language): string | undefined {
  if (!step.run) return undefined;
  return typeof step.run === 'string' ? step.run : step.run[language];
}
