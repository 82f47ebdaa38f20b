/**
 * What a check report means for the learner's screen, in one place: the count, the verdict's lead
 * sentence and its quieter details, the CodeLens label above a function, which function a failure points
 * at, the progress line. The extension only lays these out; the CLI and the editor say the same thing
 * because they ask the same functions (mistakes in words: findings.ts; traces: traceView.ts).
 */
import { isLikely, mistakeFunction, mistakeHeadline, mistakeTitle, shorten } from './findings';
import type { CheckReport, NamedMistake, ProblemKind } from './report';
import type { Language, ReadStep } from '../pack/schema';

/** "12 of 14 hidden transcripts pass", or why nothing could be checked. */
export function checkSummary(
  report: Pick<CheckReport, 'status' | 'checks'> & Partial<Pick<CheckReport, 'problems' | 'fuzz'>>,
): string {
  const { total, passed } = report.checks;
  // Reports stored by an older version have no notRun.
  const notRun = report.checks.notRun ?? 0;
  if (report.status === 'error') return 'Could not check: the program did not run';
  if (report.status === 'pass') return `All ${total} hidden transcripts pass`;
  // A failing check never leads with everything passing: the failure first, what passed after.
  if (passed === total) {
    // Of those run: the line under it says how many were not (checkDetails), in the same numbers.
    const notRunRandom = report.fuzz?.notRun ?? 0;
    const random = report.fuzz?.failed
      ? `: ${report.fuzz.failed} of ${report.fuzz.transcripts - notRunRandom} random tests fail${notRunRandom ? ` (${notRunRandom} not run)` : ''}`
      : '';
    return `Not everything is right, though the ${total} hidden transcripts pass${random}`;
  }
  return `${passed} of ${total} hidden transcripts pass${notRun ? ` (${notRun} not run: ${notRunReason(report)})` : ''}`;
}

/** Why a check left hidden transcripts not run, in the words the header and the Testing view both use. */
export function notRunReason(report: Partial<Pick<CheckReport, 'problems'>>): string {
  if (report.problems?.some((p) => p.kind === 'unimplemented')) return 'the code is not written yet';
  if (report.problems?.some((p) => p.kind === 'no-answers')) return 'the program answers nothing';
  // Each crash costs a process: the check stops restarting the program before the end of the list.
  const crashed =
    report.problems?.some((p) => p.kind === 'crash') &&
    !report.problems.some((p) => p.kind === 'timeout' || p.kind === 'output-limit');
  return crashed ? 'the program crashed too many times' : 'the program stopped answering';
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
  'no-answers': 'Your program printed no answers',
  'line-endings': 'Line endings: a byte after every answer',
  nondeterministic: 'Your program answers differently each run',
  'model-error': "The lesson's reference model failed",
};

export function problemTitle(kind: ProblemKind | string): string {
  return (PROBLEM_TITLES as Record<string, string>)[kind] ?? kind;
}

/** Named mistakes whose code is in `fn`: the helper the program was traced into, else the catalogue's function. */
export function mistakesIn(report: Pick<CheckReport, 'mistakes'> | null | undefined, fn: string): NamedMistake[] {
  return report ? report.mistakes.filter((m) => mistakeFunction(m) === fn) : [];
}

/** The functions a report points into, beyond the lesson's own (a helper such as `select()`). */
export function pointedFunctions(report: Pick<CheckReport, 'mistakes'> | null | undefined): string[] {
  return report ? [...new Set(report.mistakes.map(mistakeFunction))] : [];
}

/**
 * The label above a function the lesson's mistakes can live in: the last result as it concerns this
 * function, so a learner sees "✗ <the mistake's title>" right where the fix goes.
 */
/**
 * A CodeLens title's room: the lens sits above an indented line of an 80-column editor with the minimap on,
 * so the mistake's headline is shortened to fit and the whole of it is in the tooltip (lensTooltip).
 */
export const LENS_TITLE_MAX = 48;

export function lensTitle(report: CheckReport | null | undefined, fn: string, running = false): string {
  if (running) return '$(sync~spin) Checking…';
  if (!report) return '$(beaker) Check';
  const here = mistakesIn(report, fn);
  if (here.length > 0) {
    const more = here.length > 1 ? ` +${here.length - 1}` : '';
    const tail = `${more} · Check again`;
    const icon = isLikely(here[0]!) ? '⚠' : '✗';
    return `${shorten(`${icon} ${mistakeHeadline(here[0]!)}`, LENS_TITLE_MAX - tail.length)}${tail}`;
  }
  if (report.status === 'pass') return `✓ ${checkSummary(report)} · Check again`;
  if (report.status === 'error') return '✗ Could not run · Check again';
  return `${report.checks.passed} of ${report.checks.total} pass · Check again`;
}

/** The lens's tooltip: every mistake of the function in full, then what a click does. */
export function lensTooltip(report: CheckReport | null | undefined, fn: string, file: string): string {
  const here = report ? mistakesIn(report, fn) : [];
  const run = `Click to run the lesson's hidden transcripts against ${file}`;
  return here.length > 0 ? `${here.map((m) => mistakeHeadline(m)).join('\n')}\n\n${run}` : run;
}

/** Where a failing report points the learner: its first named mistake's lines or function, else a problem's line. */
export function failureFocus(report: CheckReport): { readonly function: string | null; readonly line: number | null } {
  const first = report.mistakes[0];
  if (first) return mistakeFocus(first);
  const located = report.problems.find((p) => typeof p.line === 'number' && p.line > 0);
  return { function: null, line: located?.line ?? null };
}

/** One mistake's place: its most suspicious line when the program was traced, else its function. */
export function mistakeFocus(m: NamedMistake): { readonly function: string; readonly line: number | null } {
  return { function: mistakeFunction(m), line: m.location?.lines[0] ?? m.line };
}

/**
 * The verdict's lead sentence: what failed and what to do next. Counts and random tests go in the
 * quieter details line.
 */
export function verdictSentence(
  report: Pick<CheckReport, 'status' | 'mistakes' | 'problems' | 'checks' | 'fuzz'>,
): string {
  if (report.status === 'pass') return 'Every check passes. You are done: look at the “Done when” list.';
  const problem = report.problems[0];
  if (report.status === 'error') {
    return `${problem ? problemTitle(problem.kind) : 'Your program did not run'}. Fix that first (see below), then Check again.`;
  }
  const [first, ...rest] = report.mistakes;
  if (first) {
    const name = `“${mistakeTitle(first)}”${isLikely(first) ? ' (likely)' : ''}`;
    return rest.length === 0
      ? `One mistake found: ${name}. Read its card below, fix it, then Check again.`
      : `${rest.length + 1} mistakes found. Start with ${name}: read its card below, fix it, then Check again.`;
  }
  if (problem?.kind === 'unimplemented')
    return 'Your code is not written yet: write the functions the card below names, then Check again.';
  if (problem?.kind === 'model-error')
    return "The lesson's own reference failed: this is not your mistake. Tell the lesson's author (details below).";
  if (problem) return `${problemTitle(problem.kind)}. Read the card below, fix it, then Check again.`;
  return 'Some answers differ from the expected ones. Compare the transcript below with your code, then Check again.';
}

/** The quiet line under the verdict: the random tests, and the seed that replays them. */
export function checkDetails(report: Pick<CheckReport, 'status' | 'fuzz'>): string {
  const { transcripts, failed } = report.fuzz;
  const notRun = report.fuzz.notRun ?? 0;
  if (transcripts === 0 || report.status === 'error' || notRun >= transcripts) return '';
  const ran = transcripts - notRun;
  const outcome = failed > 0 ? `${failed} of ${ran} failed` : `all ${ran} passed`;
  return `Also ${transcripts} random tests: ${outcome}${notRun ? ` (${notRun} not run)` : ''} · seed ${report.fuzz.seed}`;
}

/**
 * What the editor's two counts are, side by side: the Testing view's badge counts failing hidden
 * transcripts, Problems counts the mistakes found. Empty when there is nothing to tell apart.
 */
export function countsLegend(report: Pick<CheckReport, 'status' | 'checks' | 'mistakes'>): string {
  if (report.status !== 'fail') return '';
  const failing = report.checks.total - report.checks.passed;
  // The same split as the verdict's "(15 not run: …)": a transcript never run is not said to fail.
  const notRun = Math.min(report.checks.notRun ?? 0, failing);
  const split = notRun > 0 ? ` (${failing - notRun} failed, ${notRun} not run)` : '';
  const mistakes = report.mistakes.length;
  const parts = [
    ...(failing > 0
      ? [`the Testing view marks the ${failing} hidden transcript${failing === 1 ? '' : 's'} that did not pass${split}`]
      : []),
    ...(mistakes > 0 ? [`Problems lists the ${mistakes === 1 ? 'mistake' : `${mistakes} mistakes`} found`] : []),
  ];
  if (parts.length === 0) return '';
  const text = parts.join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** The details line's tooltip: what random tests and the seed are, and how to replay them. */
export function checkDetailsTooltip(
  report: Pick<CheckReport, 'status' | 'fuzz' | 'file' | 'containment' | 'determinism'>,
): string {
  const lines: string[] = [];
  if (report.fuzz.transcripts > 0 && report.status !== 'error') {
    lines.push(
      `Besides the hidden transcripts, each check runs ${report.fuzz.transcripts} random transcripts made from seed ${report.fuzz.seed}. The same seed makes the same transcripts. To replay a failing one, use “Run in terminal” under its table.`,
    );
  }
  if (report.determinism?.fresh === 'different')
    lines.push('Two runs of the same commands gave different answers: something in your program is random.');
  else if (report.determinism?.afterReset === 'different')
    lines.push(
      'The same commands after a reset gave different answers: something carries over from one run to the next.',
    );
  if (report.containment === 'sandbox')
    lines.push("Your program ran in a sandbox: it could not see the lesson's files or other processes.");
  return lines.join('\n');
}

/** "2 of 6 read · 1 of 5 answered": the sticky bar's progress. */
export function progressLine(p: {
  readonly stepsRead: number;
  readonly steps: number;
  readonly answered: number;
  readonly questions: number;
}): string {
  const parts = [`${p.stepsRead} of ${p.steps} read`];
  if (p.questions > 0) parts.push(`${p.answered} of ${p.questions} answered`);
  return parts.join(' · ');
}

/** What a "done when" item can be ticked by: the evidence it names. */
export type DoneEvidence = 'transcripts' | 'steps' | 'questions';

export interface DoneFacts {
  readonly report: Pick<CheckReport, 'status' | 'checks'> | null | undefined;
  /** The lesson's hidden transcripts, for the count before any check. */
  readonly hiddenTranscripts: number;
  readonly stepsRead: number;
  readonly steps: number;
  /** Questions answered right, of all the lesson's questions. */
  readonly answered: number;
  readonly questions: number;
}

export interface DoneItem {
  /** The statement with its numbers filled in ("Every hidden transcript passes: 12 of 15."). */
  readonly text: string;
  readonly met: boolean;
  /** The evidence in numbers, beside the item: "12 of 15 pass", "1 of 18 questions answered". */
  readonly evidence: string;
}

/**
 * Which evidence a statement names: passing transcripts, read steps, or (for "You can say / explain …",
 * which only the lesson's questions test) answered questions.
 */
export function doneEvidence(statement: string): DoneEvidence {
  if (/transcript|check passes|checks pass/i.test(statement)) return 'transcripts';
  if (/\b(read|steps?)\b/i.test(statement) && !/\b(say|explain)\b/i.test(statement)) return 'steps';
  return 'questions';
}

/**
 * The "done when" list, each item ticked only by the evidence it names: every hidden transcript passing,
 * every step read, every question answered right. A template's "N of N" gets the real numbers.
 */
export function doneWhenItems(statements: readonly string[], facts: DoneFacts): DoneItem[] {
  const passed = facts.report?.checks.passed ?? 0;
  const total = facts.report?.checks.total ?? facts.hiddenTranscripts;
  return statements.map((statement) => {
    const kind = doneEvidence(statement);
    const text = statement.replace(/\bN of N\b/g, `${passed} of ${total}`);
    if (kind === 'transcripts') {
      return {
        text,
        met: facts.report?.status === 'pass',
        evidence: facts.report ? `${passed} of ${total} pass` : 'not checked yet',
      };
    }
    if (kind === 'steps' || facts.questions === 0) {
      return {
        text,
        met: facts.steps > 0 && facts.stepsRead >= facts.steps,
        evidence: `${facts.stepsRead} of ${facts.steps} steps read`,
      };
    }
    return {
      text,
      met: facts.answered >= facts.questions,
      evidence: `${facts.answered} of ${facts.questions} questions answered`,
    };
  });
}

/** A read-order step's terminal command for a language, if it has one. */
export function stepCommand(step: Pick<ReadStep, 'run'>, language: Language): string | undefined {
  if (!step.run) return undefined;
  return typeof step.run === 'string' ? step.run : step.run[language];
}
