/** The class report as CSV: one row per student, for a spreadsheet or a gradebook import. */
import type { ClassReport } from './classReport';

export const CSV_COLUMNS = [
  'student',
  'file',
  'status',
  'reason',
  'checks_passed',
  'checks_total',
  'mistakes',
  'problems',
  'quiz_right',
  'quiz_total',
  'duration_ms',
  'reported_by_workflow',
  'commit',
] as const;

/**
 * One cell, quoted as RFC 4180 says. Student folder names and program output are not ours: a cell that a
 * spreadsheet would take for a formula (=, +, -, @, tab, CR first) gets a leading apostrophe.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function classReportCsv(report: ClassReport): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of report.rows) {
    lines.push(
      [
        row.student,
        row.file,
        row.status,
        row.reason,
        row.checks.passed,
        row.checks.total,
        row.mistakes.map((m) => m.id).join(' '),
        row.problems.join(' '),
        row.quiz ? row.quiz.right : null,
        row.quiz ? row.quiz.total : null,
        Math.round(row.durationMs),
        // What the student's own workflow claimed (grade --collect): shown, never the verdict.
        row.reported ? `${row.reported.status} ${row.reported.passed}/${row.reported.total}` : null,
        row.commit ?? null,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
