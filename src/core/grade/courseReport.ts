/**
 * A course's grade in one table: for every lesson its class report's numbers (each lesson's own report is
 * written beside it, in `<lesson id>/`), and for every student the status of each lesson. Pure.
 */
import type { ClassReport } from './classReport';
import { csvCell } from './csv';
import type { RowStatus } from './row';

export const COURSE_REPORT_FORMAT = 1;

export interface CourseReport {
  readonly format: typeof COURSE_REPORT_FORMAT;
  readonly course: { readonly id: string; readonly title: string };
  readonly generatedAt: string;
  readonly lessons: readonly {
    readonly id: string;
    readonly title: string;
    /** The lesson's own class report, relative to the course report. */
    readonly report: string;
    readonly students: number;
    readonly passRate: number;
    readonly statuses: Readonly<Record<RowStatus, number>>;
  }[];
  /** By student: each lesson's status (by lesson id), and how many lessons passed. */
  readonly students: readonly {
    readonly student: string;
    readonly lessons: Readonly<Record<string, RowStatus>>;
    readonly passed: number;
  }[];
}

export function buildCourseReport(
  course: { id: string; title: string },
  reports: readonly ClassReport[],
  generatedAt: string,
): CourseReport {
  const byStudent = new Map<string, Record<string, RowStatus>>();
  for (const report of reports)
    for (const row of report.rows) {
      const lessons = byStudent.get(row.student) ?? {};
      lessons[report.lesson.id] = row.status;
      byStudent.set(row.student, lessons);
    }
  return {
    format: COURSE_REPORT_FORMAT,
    course: { id: course.id, title: course.title },
    generatedAt,
    lessons: reports.map((r) => ({
      id: r.lesson.id,
      title: r.lesson.title,
      report: `${r.lesson.id}/class-report.json`,
      students: r.students,
      passRate: r.passRate,
      statuses: r.statuses,
    })),
    students: [...byStudent]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([student, lessons]) => ({
        student,
        lessons,
        passed: Object.values(lessons).filter((s) => s === 'pass').length,
      })),
  };
}

/** One row per student: `student,<lesson id>…,passed`, each lesson's cell its status (RFC 4180, CRLF). */
export function courseReportCsv(report: CourseReport): string {
  const ids = report.lessons.map((l) => l.id);
  const lines = [['student', ...ids, 'passed'].map(csvCell).join(',')];
  for (const s of report.students)
    lines.push([s.student, ...ids.map((id) => s.lessons[id] ?? null), s.passed].map(csvCell).join(','));
  return lines.join('\r\n') + '\r\n';
}
