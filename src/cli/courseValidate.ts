/**
 * `validate <course-folder>`: course.json against its schema and rules, and every lesson it names found, as
 * the editor and `lessons --course` find them: built in, installed, or a pack folder beside the course.
 */
import * as path from 'node:path';
import { safeText } from '../core/text/text';
import { CourseError, loadCourse } from '../node/course/courses';
import { discoverPacks } from '../node/packs/packs';
import { cliPacksDir, packRoots } from '../node/packs/locations';
import { EXIT, type CliIO } from './command';

export async function validateCourse(io: CliIO, dir: string, json: boolean): Promise<number> {
  const shown = path.relative(io.cwd, dir) || '.';
  let problems: string[] = [];
  let lessons: { lesson: string; found: string | null }[] = [];
  try {
    const { course } = await loadCourse(dir);
    const { packs } = await discoverPacks([
      ...packRoots(io.bundleDir, cliPacksDir(io.env)),
      { dir: path.dirname(dir), origin: 'installed' },
    ]);
    lessons = course.lessons.map(({ lesson }) => ({
      lesson,
      found: packs.find((p) => p.manifest.id === lesson)?.dir ?? null,
    }));
    problems = lessons
      .filter((l) => l.found === null)
      .map(
        (l) =>
          `lesson "${l.lesson}" is not found: no lesson pack with that id is built in, installed, or in a folder beside the course (${path.dirname(dir)})`,
      );
  } catch (error) {
    if (!(error instanceof CourseError)) throw error;
    problems = [...error.problems];
  }
  if (json) io.out(JSON.stringify({ dir, valid: problems.length === 0, lessons, problems }, null, 2) + '\n');
  else {
    io.out(`Validating course ${shown}\n\n`);
    for (const l of lessons) io.out(`  ${l.found ? '✓' : '✗'} ${l.lesson}${l.found ? `  ${safeText(l.found)}` : ''}\n`);
    for (const p of problems) io.out(`  ✗ ${safeText(p)}\n`);
    io.out(problems.length === 0 ? `\nValid: ${lessons.length} lessons, each found.\n` : `\nInvalid: fix the above.\n`);
  }
  return problems.length === 0 ? EXIT.ok : EXIT.failed;
}
