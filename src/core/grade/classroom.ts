/**
 * GitHub Classroom: the workflow an assignment's template repository runs on every push, and what its check
 * step hands to Classroom. Pure: text in, text out; src/cli/classroomCommand.ts writes the files.
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

export interface WorkflowOptions {
  readonly lesson: string;
  /** Points for each hidden transcript passed. */
  readonly points: number;
  /** The shell command that installs the CLI on the runner. */
  readonly install: string;
  readonly nodeVersion: string;
}

/** A YAML double-quoted scalar (JSON's string syntax is YAML's). */
const quoted = (text: string): string => JSON.stringify(text);

export function classroomWorkflow(options: WorkflowOptions): string {
  return `# Written by \`lesson-companion classroom init --lesson ${options.lesson}\`.
# GitHub Classroom records points only for a workflow named "Autograding Tests" whose one job is
# run-autograding-tests. Each hidden transcript of the lesson is one test worth ${options.points} point(s).
name: Autograding Tests
'on':
  push:
  workflow_dispatch:
  # Classroom starts a run this way when it grades again.
  repository_dispatch:
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  run-autograding-tests:
    runs-on: ubuntu-latest
    if: github.actor != 'github-classroom[bot]'
    timeout-minutes: 15
    steps:
      - name: Checkout code
        uses: actions/checkout@v4
      - name: Set up Node
        uses: actions/setup-node@v4
        with:
          node-version: ${quoted(options.nodeVersion)}
      - name: Install the sandbox and Lesson Companion
        run: |
          sudo apt-get update -qq && sudo apt-get install -y -qq bubblewrap
          # Ubuntu 24.04 keeps unprivileged user namespaces (which the sandbox needs) behind AppArmor.
          sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 || true
          ${options.install}
      - name: Check against the hidden transcripts
        id: ${RUNNER_ID}
        run: |
          lesson-companion classroom run --lesson ${quoted(options.lesson)} --points ${options.points} --sandbox=require
      - name: Autograding Reporter
        if: always()
        uses: classroom-resources/autograding-grading-reporter@v1
        env:
          ${RUNNER_ID.toUpperCase()}_RESULTS: "\${{ steps.${RUNNER_ID}.outputs.result }}"
        with:
          runners: ${RUNNER_ID}
      - name: Upload the check report
        if: always()
        uses: actions/upload-artifact@v4
        with:
          name: ${ARTIFACT_NAME}
          path: ${REPORT_FILE}
          if-no-files-found: warn
`;
}

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

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');

/**
 * Text as a Markdown code span: fenced by one backtick more than its longest run of them, with a space inside
 * when it starts or ends with one (CommonMark), so a file name holding a backtick cannot end the span early.
 */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** The Markdown the check step appends to $GITHUB_STEP_SUMMARY: points, then each mistake and transcript. */
export function classroomSummary(
  report: CheckReport | null,
  result: ClassroomResult,
  lessonTitle: string,
  why?: string,
): string {
  const points = result.tests.reduce((n, t) => n + t.score, 0);
  const lines = [`## ${cell(lessonTitle)}: ${points}/${result.max_score} points`, ''];
  if (!report) {
    lines.push(`The check did not run: ${cell(why ?? 'unknown reason')}.`, '');
    return lines.join('\n') + '\n';
  }
  lines.push(
    `${codeSpan(cell(report.file))} · ${report.checks.passed} of ${report.checks.total} hidden transcripts pass (${percent(report.checks.total ? report.checks.passed / report.checks.total : 0)})`,
    '',
  );
  if (report.mistakes.length) {
    lines.push('### Mistakes', '');
    for (const m of report.mistakes)
      lines.push(`- **${cell(m.title)}**${m.step ? ` (read-order step ${m.step})` : ''}: ${cell(m.hint)}`);
    lines.push('');
  }
  if (report.problems.length) {
    lines.push('### Problems', '');
    for (const p of report.problems) lines.push(`- ${cell(p.kind)}: ${cell(p.message.split('\n')[0]!)}`);
    lines.push('');
  }
  lines.push('| Transcript | Result | Points |', '|---|---|---|');
  for (const t of result.tests)
    lines.push(
      `| ${cell(t.name)} | ${t.status === 'pass' ? '✅ pass' : t.status === 'error' ? '⚠️ error' : '❌ fail'} | ${t.score} |`,
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
