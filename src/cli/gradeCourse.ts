/**
 * `grade <class> --course <id|dir>`: the course and its lesson packs, each student's file per lesson
 * (node/grade/courseSubmissions.ts), and the course report written beside the lessons' own reports.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Course } from '../core/course/course';
import type { ClassReport } from '../core/grade/classReport';
import { buildCourseReport, courseReportCsv } from '../core/grade/courseReport';
import { percent } from '../core/grade/classReport';
import { safeText } from '../core/text/text';
import { CourseError, discoverCourses, loadCourse } from '../node/course/courses';
import { findCourseSubmissions } from '../node/grade/courseSubmissions';
import { starterNames, type Submission } from '../node/grade/submissions';
import { cliPacksDir, packRoots } from '../node/packs/locations';
import { verifyInstalledPack } from '../node/packs/packIntegrity';
import { discoverPacks, type LoadedPack } from '../node/packs/packs';
import { UsageError, type CliIO } from './command';

export interface GradedCourse {
  readonly course: Course;
  readonly dir: string;
  /** The course's lesson packs, in its order. */
  readonly packs: readonly LoadedPack[];
}

/**
 * The course `--course` names (an id, or a folder holding course.json) and every lesson pack it names: built
 * in, installed, or a pack folder beside the course, as `lessons --course` finds them. A lesson not found is a
 * usage error: a course grade grades every lesson or none.
 */
export async function resolveCourse(io: CliIO, value: string): Promise<GradedCourse> {
  const roots = packRoots(io.bundleDir, cliPacksDir(io.env));
  let loaded;
  try {
    if (value.includes('/') || value.includes(path.sep)) loaded = await loadCourse(path.resolve(io.cwd, value));
    else {
      const { courses } = await discoverCourses(roots);
      loaded = courses.find((c) => c.course.id === value);
      if (!loaded)
        throw new UsageError(
          `no course "${value}". Courses: ${courses.map((c) => c.course.id).join(', ') || '(none)'} (see \`lesson-companion lessons --course\`)`,
        );
    }
  } catch (error) {
    if (error instanceof CourseError) throw new UsageError(error.message);
    throw error;
  }
  // Packs beside the course come last (an author's own folders win), unless beside is the built-in or installed folder.
  const beside = path.dirname(loaded.dir);
  const besideIsRoot = roots.some((r) => path.resolve(r.dir) === path.resolve(beside));
  const { packs } = await discoverPacks(besideIsRoot ? roots : [...roots, { dir: beside, origin: 'folder' }]);
  const inOrder: LoadedPack[] = [];
  for (const { lesson } of loaded.course.lessons) {
    const pack = packs.find((p) => p.manifest.id === lesson);
    if (!pack)
      throw new UsageError(
        `course "${loaded.course.id}" names lesson "${lesson}", which is not built in, installed, or beside the course; nothing was graded`,
      );
    // An installed pack must still be what was installed, as for `grade --lesson`.
    if (pack.origin === 'installed') await verifyInstalledPack(pack);
    inOrder.push(pack);
  }
  return { course: loaded.course, dir: loaded.dir, packs: inOrder };
}

/** Each lesson's submissions (by lesson id), every student with a row in every lesson. */
export async function findCourseWork(
  io: CliIO,
  positionals: readonly string[],
  packs: readonly LoadedPack[],
): Promise<{ byLesson: Map<string, Submission[]>; baseDir: string }> {
  const paths = positionals.map((p) => path.resolve(io.cwd, p));
  const lessons = packs.map((p) => ({ id: p.manifest.id, names: starterNames(p.manifest.starters) }));
  const byLesson = await findCourseSubmissions(paths, lessons).catch((error: unknown) => {
    throw new UsageError((error as Error).message);
  });
  return { byLesson, baseDir: paths.length === 1 ? paths[0]! : io.cwd };
}

/** Writes course-report.json and course-report.csv; returns the lines grade prints for the course. */
export async function writeCourseReport(
  io: CliIO,
  graded: GradedCourse,
  reports: readonly ClassReport[],
  outDir: string,
): Promise<string> {
  const report = buildCourseReport(graded.course, reports, new Date().toISOString());
  await fs.mkdir(outDir, { recursive: true });
  const json = path.join(outDir, 'course-report.json');
  const csv = path.join(outDir, 'course-report.csv');
  await fs.writeFile(json, JSON.stringify(report, null, 2) + '\n');
  await fs.writeFile(csv, courseReportCsv(report));
  const all = report.students.filter((s) => s.passed === report.lessons.length).length;
  const lines = report.lessons.map((l) => `  ${l.id}: ${percent(l.passRate)} pass (${l.statuses.pass}/${l.students})`);
  return (
    `${graded.course.id} (${safeText(graded.course.title)}): ${report.students.length} students, ${all} passed every lesson\n` +
    `${lines.join('\n')}\n` +
    [json, csv].map((f) => `  ${path.relative(io.cwd, f) || f}\n`).join('')
  );
}
