/**
 * A class to grade, built from rows the way the grader makes them, and the parts of the class report's HTML
 * page read back as a teacher sees them (a table's rows and cells, a chart's shapes). Shared by
 * gradeSurvivors.test.ts and gradeHtmlSurvivors.test.ts.
 */
import type { LessonInfo } from '../../src/core/grade/classReport';
import type { CheckReport, TranscriptVerdict } from '../../src/core/report/report';
import {
  rowWithoutCheck,
  type GradeRow,
  type RowExample,
  type RowMistake,
  type RowStatus,
} from '../../src/core/grade/row';

export const CLASS_LESSON: LessonInfo = {
  id: 'lc',
  title: 'Least Connections',
  version: '1.0.0',
  steps: ['top', 'pick()'],
  questions: {},
};

/** A student's row: a checked program's by default (no reason when it passed); `extra` says what the check found. */
export function studentRow(student: string, status: RowStatus, extra: Partial<GradeRow> = {}): GradeRow {
  const unchecked = rowWithoutCheck(student, `${student}/b.py`, 'missing', `why ${student}`, 3, null);
  return { ...unchecked, status, reason: status === 'pass' ? null : unchecked.reason, ...extra };
}

/** A transcript that first differs at its last command unless told otherwise. */
export const transcript = (
  commands: string[],
  expected: string[] = ['a'],
  actual: string[] = ['b'],
  divergesAt = commands.length - 1,
): RowExample => ({ commands, divergesAt, expected, actual });

export const named = (id: string, example: RowExample | null = null, title = `Mistake ${id}`): RowMistake => ({
  id,
  title,
  example,
});

/** A shape of an SVG chart: its tag, its numeric and text attributes, and its text (a <text>'s, or a <rect>'s <title>). */
export interface Shape {
  readonly tag: 'rect' | 'text';
  readonly attrs: Readonly<Record<string, string>>;
  readonly text: string;
}

const attributes = (source: string): Record<string, string> =>
  Object.fromEntries([...source.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));

/** The chart with this aria-label: its own attributes, its shapes in order, and whatever else it holds (`stray`). */
export function chart(html: string, label: string): { attrs: Record<string, string>; shapes: Shape[]; stray: string } {
  const at = html.indexOf(`<svg role="img" aria-label="${label}"`);
  if (at < 0) throw new Error(`no chart "${label}"`);
  const open = html.indexOf('>', at);
  const inner = html.slice(open + 1, html.indexOf('</svg>', open));
  const pattern = /<rect ([^>]*?)\/>|<rect ([^>]*)><title>([^<]*)<\/title><\/rect>|<text ([^>]*)>([^<]*)<\/text>/g;
  const shapes = [...inner.matchAll(pattern)].map((m): Shape =>
    m[4] !== undefined
      ? { tag: 'text', attrs: attributes(m[4]), text: m[5]! }
      : { tag: 'rect', attrs: attributes(m[1] ?? m[2]!), text: m[3] ?? '' },
  );
  return { attrs: attributes(html.slice(at, open)), shapes, stray: inner.replace(pattern, '') };
}

/** A number attribute of a shape (throws when it is missing, so a test never compares NaN by accident). */
export function num(shape: { attrs: Readonly<Record<string, string>> } | undefined, name: string): number {
  const value = shape?.attrs[name];
  if (value === undefined) throw new Error(`no ${name} attribute`);
  return Number(value);
}

/**
 * The table whose first column heading is `first`: each body row's cells as text (tags dropped, spaces made
 * one, entities left as written), and whatever the body holds besides its rows (`stray`).
 */
export function table(html: string, first: string): { rows: string[][]; stray: string } {
  const at = html.indexOf(`<thead><tr><th>${first}</th>`);
  if (at < 0) throw new Error(`no table headed "${first}"`);
  const body = html.slice(html.indexOf('<tbody>', at) + '<tbody>'.length, html.indexOf('</tbody>', at));
  const rows = [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) =>
    [...r[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) =>
      c[1]!
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
  return { rows, stray: body.replace(/<tr>[\s\S]*?<\/tr>/g, '') };
}

/** A learner's check report with these transcript verdicts (counts derived from them), or as `extra` says. */
export function checkReportOf(
  status: CheckReport['status'],
  transcripts: TranscriptVerdict[],
  extra: Partial<CheckReport> = {},
): CheckReport {
  const passed = transcripts.filter((t) => t.passed).length;
  return {
    lesson: 'least-connections',
    language: 'python',
    file: 'balancer.py',
    status,
    checks: {
      total: transcripts.length,
      passed,
      failed: transcripts.length - passed,
      notRun: transcripts.filter((t) => t.notRun).length,
    },
    transcripts,
    mistakes: [],
    problems: [],
    counterexample: null,
    fuzz: { seed: 1, transcripts: 0, failed: 0, notRun: 0 },
    durationMs: 1,
    processRuns: 1,
    ...extra,
  };
}
