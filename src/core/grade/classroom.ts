/**
 * GitHub Classroom: what the check step of the workflow an assignment's template repository runs
 * (classroomWorkflow.ts) hands to Classroom. Pure: text in, text out; src/cli/classroomCommand.ts writes the files.
 *
 * Classroom's grading reporter (classroom-resources/autograding-grading-reporter) reads, for each runner id
 * in its `runners` input, the environment variable `<ID>_RESULTS`: base64 of the JSON the autograding
 * graders put in their `result` output, `{ version: 1, status, max_score, tests: [{ name, status, score,
 * message, test_code, filename, line_no, execution_time }] }`. It adds up the tests' `score` against the
 * sum of `max_score` and reports "Points x/y" to Classroom; one test per hidden transcript is what gives
 * partial credit. The workflow must be named "Autograding Tests" with the one job `run-autograding-tests`,
 * or Classroom records no points.
 */
import type { CheckReport } from '../report/report';
import { percent } from './classReport';

/** The runner id of the check step: the step's id, and `LESSONCOMPANION_RESULTS` for the reporter. */
export const RUNNER_ID = 'lessoncompanion';
export const REPORT_FILE = 'lesson-companion-report.json';
export const ARTIFACT_NAME = 'lesson-companion-report';
export const CLASSROOM_RESULT_FORMAT = 1;

export interface ClassroomTest {
  readonly name: string;
  readonly status: 'pass' | 'fail' | 'error';
  readonly score: number;
  readonly message: string | null;
  readonly test_code: string;
  readonly filename: string;
  readonly line_no: number;
  readonly execution_time: string;
}

export interface ClassroomResult {
  readonly version: 1;
  readonly status: 'pass' | 'fail' | 'error';
  readonly max_score: number;
  readonly tests: readonly ClassroomTest[];
}

/**
 * The grader result for the reporter: one test per hidden transcript, `points` each when it passed. A
 * report whose program could not run (syntax error, no sandbox) errors every test; none is passed.
 */
export function classroomResult(
  report: CheckReport | null,
  transcripts: readonly { name: string; description: string }[],
  points: number,
  why?: string,
): ClassroomResult {
  const firstProblem = report?.problems[0]?.message.split('\n')[0] ?? null;
  const tests = transcripts.map((t): ClassroomTest => {
    const verdict = report?.transcripts.find((v) => v.name === t.name);
    const passed = Boolean(verdict?.passed) && report?.status !== 'error';
    const status = !report || report.status === 'error' ? 'error' : passed ? 'pass' : 'fail';
    const message = passed
      ? null
      : !report
        ? (why ?? 'the check did not run')
        : verdict?.notRun
          ? 'not run: an earlier transcript stopped the program'
          : verdict?.divergesAt !== undefined
            ? `first differs at command ${verdict.divergesAt + 1}: expected ${(verdict.expected ?? []).join(' / ') || '(nothing)'}, got ${(verdict.actual ?? []).join(' / ') || '(nothing)'}`
            : firstProblem;
    return {
      name: t.description || t.name,
      status,
      score: passed ? points : 0,
      message,
      test_code: `hidden transcript ${t.name}`,
      filename: '',
      line_no: 0,
      execution_time: '',
    };
  });
  const status =
    !report || report.status === 'error' ? 'error' : tests.every((t) => t.status === 'pass') ? 'pass' : 'fail';
  return { version: 1, status, max_score: points * transcripts.length, tests };
}

/** Line breaks (and the characters a reader may take for one) become spaces: one line of text stays one. */
const oneLine = (text: string): string => text.replace(/[\r\n\u0085\u2028\u2029]+/g, ' ');

/**
 * Text as Markdown that shows it as written: every ASCII punctuation mark is backslash-escaped (CommonMark lets
 * any be), so no `#`, `!`, `[`, `<`, `&`, `*`, backtick or `|` starts a heading, an image, a link, HTML, an
 * entity, emphasis, code or a table cell; GitHub's tables read `\|` as a pipe in the cell. For the pack's text.
 */
export function markdownText(text: string): string {
  return oneLine(text).replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/**
 * Text as a Markdown code span: fenced by one backtick more than its longest run of them, with a space inside
 * when it starts or ends with one (CommonMark), so a file name holding a backtick cannot end the span early.
 * Inside a code span nothing is read: no HTML, image, link, autolink or emphasis. For what a student wrote.
 */
export function codeSpan(text: string): string {
  const line = oneLine(text);
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') || /^ .* $/.test(line) ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/**
 * The Markdown the check step appends to $GITHUB_STEP_SUMMARY: points, then each mistake and transcript.
 * What the student's program or repository wrote (the file's name, problems, the reason a check did not run)
 * is shown in code spans; the pack's own text is escaped: neither can add a heading, an image or a table row.
 */
export function classroomSummary(
  report: CheckReport | null,
  result: ClassroomResult,
  lessonTitle: string,
  why?: string,
): string {
  const points = result.tests.reduce((n, t) => n + t.score, 0);
  const lines = [`## ${markdownText(lessonTitle)}: ${points}/${result.max_score} points`, ''];
  if (!report) {
    lines.push(`The check did not run: ${why === undefined ? 'unknown reason' : codeSpan(why)}.`, '');
    return lines.join('\n') + '\n';
  }
  lines.push(
    `${codeSpan(report.file)} · ${report.checks.passed} of ${report.checks.total} hidden transcripts pass (${percent(report.checks.total ? report.checks.passed / report.checks.total : 0)})`,
    '',
  );
  if (report.mistakes.length) {
    lines.push('### Mistakes', '');
    for (const m of report.mistakes)
      lines.push(
        `- **${markdownText(m.title)}**${m.step ? ` (read-order step ${m.step})` : ''}: ${markdownText(m.hint)}`,
      );
    lines.push('');
  }
  if (report.problems.length) {
    lines.push('### Problems', '');
    for (const p of report.problems) lines.push(`- ${markdownText(p.kind)}: ${codeSpan(p.message.split('\n')[0]!)}`);
    lines.push('');
  }
  lines.push('| Transcript | Result | Points |', '|---|---|---|');
  for (const t of result.tests)
    lines.push(
      `| ${markdownText(t.name)} | ${t.status === 'pass' ? '✅ pass' : t.status === 'error' ? '⚠️ error' : '❌ fail'} | ${t.score} |`,
    );
  return lines.join('\n') + '\n';
}

/** What the check step uploads as its artifact, and what `grade --collect` reads back. */
export interface ClassroomReportFile {
  readonly format: typeof CLASSROOM_RESULT_FORMAT;
  /** `owner/assignment-student`, from GITHUB_REPOSITORY; the student's name for the class report. */
  readonly repository: string | null;
  readonly commit: string | null;
  /**
   * The file that was checked, path and text: what `grade --collect` checks again itself (the report beside
   * it is the student's workflow's word, never counted). Null when no file could be checked.
   */
  readonly source: { readonly file: string; readonly text: string } | null;
  readonly report: CheckReport | null;
  /** Why there is no report (no file, no sandbox). */
  readonly reason: string | null;
  readonly points: number;
}
