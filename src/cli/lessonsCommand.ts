import { parseArgs } from 'node:util';
import { safeText } from '../core/text/text';
import { EXIT, type CliCommand } from './command';
import { allPacks } from './packSelection';
import { courseOutline } from '../core/course/course';
import { discoverCourses } from '../node/course/courses';
import { cliPacksDir, packRoots } from '../node/packs/locations';
import type { CliIO } from './command';

/** `lessons --course`: each course, its lessons in order, what each needs, and which are not installed. */
async function listCourses(io: CliIO, json: boolean): Promise<number> {
  const { packs } = await allPacks(io);
  const titles = new Map(packs.map((p) => [p.manifest.id, p.manifest.title]));
  const { courses, broken } = await discoverCourses(packRoots(io.bundleDir, cliPacksDir(io.env)));
  const outlines = courses.map((c) => ({ ...c, outline: courseOutline(c.course, new Set(), titles) }));
  if (json) {
    const list = outlines.map(({ course, dir, origin, outline }) => ({
      id: course.id,
      title: course.title,
      origin,
      dir,
      lessons: outline.lessons.map((l, i) => ({
        lesson: l.lesson,
        title: l.title,
        installed: l.status !== 'missing',
        needs: course.lessons[i]!.needs ?? [],
      })),
    }));
    io.out(JSON.stringify({ courses: list, broken }, null, 2) + '\n');
    return EXIT.ok;
  }
  for (const { course, dir, origin, outline } of outlines) {
    io.out(`${course.id}  ${safeText(course.title)}\n    ${origin} · ${dir}\n`);
    outline.lessons.forEach((l, i) => {
      const needs = course.lessons[i]!.needs ?? [];
      const notes = [
        ...(needs.length ? [`needs ${needs.join(', ')}`] : []),
        ...(l.status === 'missing' ? ['not installed'] : []),
      ];
      io.out(`  ${i + 1}. ${l.lesson}  ${safeText(l.title)}${notes.length ? `  (${notes.join('; ')})` : ''}\n`);
    });
  }
  for (const b of broken) io.err(`not loaded: ${safeText(b.dir)}\n${safeText(b.error, { multiline: true })}\n`);
  if (courses.length === 0) io.out('No courses found.\n');
  return EXIT.ok;
}

export const lessonsCommand: CliCommand = {
  name: 'lessons',
  usage: 'lessons [--course] [--json]',
  summary: 'list the lesson packs: built in, and installed; --course: the courses, each with its lessons in order',
  async run(args, io) {
    const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, course: { type: 'boolean' } } });
    if (values.course) return listCourses(io, values.json ?? false);
    const { packs, broken } = await allPacks(io);
    if (values.json) {
      const list = packs.map((p) => ({
        id: p.manifest.id,
        version: p.manifest.version,
        title: p.manifest.title,
        languages: Object.keys(p.manifest.starters),
        origin: p.origin,
        dir: p.dir,
        transcripts: p.transcripts.length,
      }));
      io.out(JSON.stringify({ lessons: list, broken }, null, 2) + '\n');
      return EXIT.ok;
    }
    for (const p of packs) {
      io.out(
        `${p.manifest.id}  ${p.manifest.version}  ${safeText(p.manifest.title)}\n    ${Object.keys(p.manifest.starters).join(', ')} · ${p.transcripts.length} hidden transcripts · ${p.origin} · ${p.dir}\n`,
      );
    }
    for (const b of broken) io.err(`not loaded: ${safeText(b.dir)}\n${safeText(b.error, { multiline: true })}\n`);
    if (packs.length === 0) io.out('No lessons found.\n');
    return EXIT.ok;
  },
};
