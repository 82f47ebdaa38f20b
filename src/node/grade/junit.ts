/**
 * The class report as JUnit XML, for any CI that shows test results: one test suite for the lesson, one
 * test case per student. A failed check is a <failure> naming the mistakes; a program that could not be
 * judged, a refused file or a failed check is an <error>; no file is a <failure> too (nothing was handed in).
 * Built with xmlbuilder, which escapes what it is given; characters XML cannot hold at all (a program's
 * control bytes) are replaced first.
 */
import { create } from 'xmlbuilder';
import type { ClassReport } from '../../core/grade/classReport';
import type { GradeRow } from '../../core/grade/row';

const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function xmlSafe(text: string): string {
  return text.replace(NOT_XML, '\uFFFD');
}

function details(row: GradeRow): string {
  // A row that did not pass never reads as full marks (stray output fails a program whose answers are right).
  const allRight = row.status !== 'pass' && row.checks.total > 0 && row.checks.passed >= row.checks.total;
  const lines = [
    allRight
      ? `checks: every answer right, but failed on ${row.problems.join(', ') || row.status}`
      : `checks passed: ${row.checks.passed}/${row.checks.total}`,
  ];
  for (const m of row.mistakes) {
    lines.push(
      `mistake: ${m.title} (${m.id})${m.step ? `, read-order step ${m.step}` : ''}${m.question ? `, failure question ${m.question}` : ''}`,
    );
    if (m.example)
      lines.push(
        ...m.example.commands.map((c, i) => `  ${i === m.example!.divergesAt ? '>' : ' '} ${c}`),
        `  expected: ${m.example.expected.join(' / ')}`,
        `  got: ${m.example.actual.join(' / ')}`,
      );
  }
  if (row.problems.length) lines.push(`problems: ${row.problems.join(', ')}`);
  if (row.quiz) lines.push(`quiz: ${row.quiz.right}/${row.quiz.total}`);
  return xmlSafe(lines.join('\n'));
}

export function classReportJunit(report: ClassReport): string {
  const failures = report.rows.filter((r) => r.status === 'fail' || r.status === 'missing').length;
  const errors = report.rows.filter(
    (r) => r.status === 'error' || r.status === 'refused' || r.status === 'check-failed',
  ).length;
  const seconds = (ms: number): string => (ms / 1000).toFixed(3);
  // The grade's wall time: its rows ran side by side, so their sum is not how long the grade took.
  const time = seconds(report.run.wallMs);
  const root = create('testsuites', { encoding: 'UTF-8' }).att({
    name: xmlSafe(report.lesson.id),
    tests: report.students,
    failures,
    errors,
    time,
  });
  const suite = root.ele('testsuite', {
    name: xmlSafe(report.lesson.id),
    tests: report.students,
    failures,
    errors,
    skipped: 0,
    time,
    timestamp: report.generatedAt,
  });
  suite
    .ele('properties')
    .ele('property', { name: 'passRate', value: report.passRate.toFixed(4) })
    .up()
    .ele('property', { name: 'lessonVersion', value: xmlSafe(report.lesson.version) });
  for (const row of report.rows) {
    const testcase = suite.ele('testcase', {
      classname: xmlSafe(report.lesson.id),
      name: xmlSafe(row.student),
      time: seconds(row.durationMs),
      ...(row.file ? { file: xmlSafe(row.file) } : {}),
    });
    const reason = xmlSafe(row.reason ?? '');
    if (row.status === 'fail' || row.status === 'missing')
      testcase.ele(
        'failure',
        {
          message: reason,
          type: row.status === 'missing' ? 'missing' : row.mistakes.map((m) => m.id).join(' ') || 'fail',
        },
        details(row),
      );
    else if (row.status !== 'pass') testcase.ele('error', { message: reason, type: row.status }, details(row));
    else testcase.ele('system-out', {}, details(row));
  }
  return root.end({ pretty: true }) + '\n';
}
