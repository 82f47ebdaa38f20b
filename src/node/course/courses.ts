/**
 * Courses on disk: a folder holding `course.json`, beside lesson pack folders (the built-in lessons, the
 * packs folder) or anywhere an author keeps one. Loading reads one small JSON file; a course runs no code.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { COURSE_FILE, parseCourse, type Course } from '../../core/course/course';

/** course.json is a list of ids; anything bigger is a mistake. */
const MAX_COURSE_BYTES = 64 * 1024;

export interface LoadedCourse {
  readonly course: Course;
  readonly dir: string;
  readonly origin: 'built-in' | 'installed' | 'folder';
}

export class CourseError extends Error {
  constructor(
    readonly dir: string,
    readonly problems: readonly string[],
  ) {
    super(`${path.join(dir, COURSE_FILE)} is not a course: ${problems.join('; ')}`);
    this.name = 'CourseError';
  }
}

export async function loadCourse(dir: string, origin: LoadedCourse['origin'] = 'folder'): Promise<LoadedCourse> {
  const file = path.join(dir, COURSE_FILE);
  const stat = await fs.lstat(file).catch(() => undefined);
  if (!stat?.isFile()) throw new CourseError(dir, [`there is no ${COURSE_FILE} (a plain file, not a link)`]);
  if (stat.size > MAX_COURSE_BYTES) throw new CourseError(dir, [`it is larger than ${MAX_COURSE_BYTES / 1024} KiB`]);
  const parsed = parseCourse(await fs.readFile(file, 'utf8'), COURSE_FILE);
  if (!parsed.ok) throw new CourseError(dir, parsed.problems);
  return { course: parsed.course, dir, origin };
}

/** Every course in the roots' sub-folders (later roots replace earlier ones with the same id), and the broken ones. */
export async function discoverCourses(
  roots: readonly { dir: string; origin: LoadedCourse['origin'] }[],
): Promise<{ courses: LoadedCourse[]; broken: { dir: string; error: string }[] }> {
  const byId = new Map<string, LoadedCourse>();
  const broken: { dir: string; error: string }[] = [];
  for (const root of roots) {
    const entries = await fs.readdir(root.dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const dir = path.join(root.dir, entry.name);
      if (!(await fs.stat(path.join(dir, COURSE_FILE)).catch(() => undefined))) continue;
      try {
        const loaded = await loadCourse(dir, root.origin);
        byId.set(loaded.course.id, loaded);
      } catch (error) {
        if (!(error instanceof CourseError)) throw error;
        broken.push({ dir, error: error.problems.join('\n') });
      }
    }
  }
  return { courses: [...byId.values()].sort((a, b) => (a.course.id < b.course.id ? -1 : 1)), broken };
}
