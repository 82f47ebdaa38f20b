/**
 * A course as one `.lessonpack`: the archive format of a lesson pack (a zip with `manifest.lessonpack.json`
 * listing every file with its SHA-256 and size, core/pack/archive.ts), holding `course.json` and, for each
 * lesson of the course, `lessons/<id>.lessonpack`, that lesson's own bundle, unchanged. Install reads the
 * outer archive under every rule a pack's has and then each inner one as a pack is read, so a course
 * bundle can hold nothing a lesson pack could not.
 */
import { createWriteStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { COURSE_FILE, parseCourse, type Course } from '../../core/course/course';
import {
  ARCHIVE_EXTENSION,
  ARCHIVE_FORMAT,
  ARCHIVE_MANIFEST,
  integrityInput,
  type ArchiveFile,
  type ArchiveManifest,
} from '../../core/pack/archive';
import { sha256 } from '../cache/hash';
import { InstallError } from '../packs/archiveRead';

/** Where a lesson's bundle sits in a course archive. */
export const COURSE_LESSONS_DIR = 'lessons';
export const lessonEntry = (id: string): string => `${COURSE_LESSONS_DIR}/${id}${ARCHIVE_EXTENSION}`;
/** A course has no version of its own; its archive's manifest carries this one (installing replaces the course). */
export const COURSE_ARCHIVE_VERSION = '1.0.0';

const FIXED_MTIME = new Date(1980, 0, 1, 0, 0, 0);
const FILE_MODE = 0o100644;

/** Whether a verified archive's files are a course's: course.json at the top and no lesson.json. */
export function isCourseArchive(contents: ReadonlyMap<string, Buffer>): boolean {
  return contents.has(COURSE_FILE) && !contents.has('lesson.json');
}

/** Writes the course archive (deterministic: fixed times and modes, sorted entries) to `out`, via a partial file. */
export async function writeCourseArchive(
  out: string,
  courseId: string,
  contents: ReadonlyMap<string, Buffer>,
): Promise<ArchiveManifest> {
  const files: ArchiveFile[] = [...contents]
    .map(([file, data]) => ({ path: file, sha256: sha256(data), size: data.length }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const manifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    id: courseId,
    version: COURSE_ARCHIVE_VERSION,
    files,
    integrity: sha256(integrityInput(files)),
  };
  const zip = new ZipFile();
  const entry = { mtime: FIXED_MTIME, mode: FILE_MODE, forceDosTimestamp: true };
  zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2) + '\n'), ARCHIVE_MANIFEST, {
    ...entry,
    compress: true,
  });
  // A lesson's bundle is compressed already: stored as it is.
  for (const f of files) zip.addBuffer(contents.get(f.path)!, f.path, { ...entry, compress: f.path === COURSE_FILE });
  zip.end();
  const partial = `${out}.partial-${process.pid}`;
  try {
    await fs.mkdir(path.dirname(out), { recursive: true });
    await pipeline(zip.outputStream, createWriteStream(partial));
    await fs.rename(partial, out);
  } finally {
    await fs.rm(partial, { force: true });
  }
  return manifest;
}

/**
 * The course a verified course archive holds, with each lesson's bundle by id; refuses (InstallError) a
 * course.json that is not a course, one that names a lesson the archive does not hold, and any other file.
 */
export function readCourseContents(
  shown: string,
  manifest: ArchiveManifest,
  contents: ReadonlyMap<string, Buffer>,
): { course: Course; lessons: Map<string, Buffer> } {
  const parsed = parseCourse(contents.get(COURSE_FILE)!.toString('utf8'));
  if (!parsed.ok)
    throw new InstallError(
      'invalid',
      `refused ${shown}: its ${COURSE_FILE} is not a course: ${parsed.problems.join('; ')}`,
    );
  const { course } = parsed;
  if (course.id !== manifest.id)
    throw new InstallError(
      'damaged',
      `refused ${shown}: ${ARCHIVE_MANIFEST} says ${manifest.id} but ${COURSE_FILE} says ${course.id}`,
    );
  if (course.lessons.some((l) => l.lesson === course.id))
    throw new InstallError(
      'invalid',
      `refused ${shown}: course ${course.id} has the id of one of its own lessons, and both would be installed in the same folder`,
    );
  const wanted = new Map(course.lessons.map((l) => [lessonEntry(l.lesson), l.lesson]));
  const lessons = new Map<string, Buffer>();
  for (const [name, data] of contents) {
    if (name === COURSE_FILE || name === ARCHIVE_MANIFEST) continue;
    const id = wanted.get(name);
    if (id === undefined)
      throw new InstallError(
        'unsafe',
        `refused ${shown}: "${name}" is not a lesson of course ${course.id} (a course archive holds ${COURSE_FILE} and ${lessonEntry('<lesson id>')} for each lesson it names, nothing else). A course made by \`lesson-companion bundle\` never looks like this: do not install this file.`,
      );
    lessons.set(id, data);
  }
  const absent = course.lessons.find((l) => !lessons.has(l.lesson));
  if (absent)
    throw new InstallError(
      'damaged',
      `refused ${shown}: its ${COURSE_FILE} names lesson "${absent.lesson}", which the archive does not hold (${lessonEntry(absent.lesson)}); nothing was installed`,
    );
  return { course, lessons };
}
