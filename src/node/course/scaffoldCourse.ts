/** `lesson-companion new <id> --course`: a course.json naming lessons in order, that loads as it is. */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { COURSE_FILE, parseCourse } from '../../core/course/course';
import { fsError } from '../errors/errors';
import { ScaffoldError } from '../authoring/scaffold';

/**
 * Writes `<parent>/<id>/course.json` with `lessons` in order, each needing the one before it (an author
 * removes a `needs` for a lesson that stands alone). Refuses a folder that already has files.
 */
export async function createCourse(parent: string, id: string, lessons: readonly string[]): Promise<string> {
  const dir = path.resolve(parent, id);
  const existing = await fs.readdir(dir).catch(() => undefined);
  if (existing && existing.length > 0)
    throw new ScaffoldError(`${dir} already exists and is not empty; choose another id or --dir`);
  const course = {
    id,
    title: `TODO: the title of ${id}`,
    summary: 'TODO: one sentence on what the course teaches, lesson by lesson.',
    lessons: lessons.map((lesson, i) => (i === 0 ? { lesson } : { lesson, needs: [lessons[i - 1]!] })),
  };
  const text = JSON.stringify(course, null, 2) + '\n';
  const parsed = parseCourse(text);
  if (!parsed.ok) throw new ScaffoldError(parsed.problems.join('; '));
  const target = path.join(dir, COURSE_FILE);
  try {
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(target, text, { flag: 'wx' });
  } catch (error) {
    throw fsError(error, 'write', target, 'Make the course somewhere you can write to, e.g. --dir ~/lessons');
  }
  return target;
}

/** The lesson pack folders beside where the course goes (their lesson.json ids), in name order. */
export async function packsBeside(parent: string): Promise<string[]> {
  const entries = await fs.readdir(parent, { withFileTypes: true }).catch(() => []);
  const ids: string[] = [];
  for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const text = await fs.readFile(path.join(parent, entry.name, 'lesson.json'), 'utf8').catch(() => undefined);
    const id = text === undefined ? undefined : (JSON.parse(text) as { id?: unknown }).id;
    if (typeof id === 'string') ids.push(id);
  }
  return ids;
}
