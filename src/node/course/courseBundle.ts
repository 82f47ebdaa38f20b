/**
 * `bundle <course-folder>`: each lesson the course names, from the pack folder beside the course, bundled as
 * `bundle` bundles a pack (validated first), and the bundles with course.json in one archive (courseArchive.ts).
 *
 * `install` of such an archive: every lesson's bundle checked as a pack's archive is before anything is
 * written, then each installed as a pack (its own questions), then course.json beside them.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { COURSE_FILE } from '../../core/course/course';
import { ARCHIVE_LIMITS } from '../../core/pack/archive';
import { BundleError, bundlePack, type BundleOptions } from '../authoring/bundlePack';
import {
  InstallError,
  installPack,
  readVerifiedArchive,
  type InstallOptions,
  type InstallResult,
} from '../packs/installPack';
import { discoverPacks } from '../packs/packs';
import { isCourseArchive, lessonEntry, readCourseContents, writeCourseArchive } from './courseArchive';
import { CourseError, loadCourse } from './courses';

export interface CourseBundleResult {
  readonly file: string;
  readonly id: string;
  readonly lessons: readonly { id: string; version: string; files: number }[];
  readonly bytes: number;
}

/** Bundles the course in `dir` and the packs beside it that it names into `outFile`. */
export async function bundleCourse(
  dir: string,
  outFile: string,
  options: BundleOptions = {},
): Promise<CourseBundleResult> {
  const { course } = await loadCourse(dir).catch((error: unknown) => {
    throw error instanceof CourseError ? new BundleError(error.message) : error;
  });
  const { packs } = await discoverPacks([{ dir: path.dirname(dir), origin: 'folder' }]);
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'lesson-companion-course-'));
  try {
    const contents = new Map<string, Buffer>([[COURSE_FILE, await fs.readFile(path.join(dir, COURSE_FILE))]]);
    const lessons: { id: string; version: string; files: number }[] = [];
    for (const { lesson } of course.lessons) {
      const pack = packs.find((p) => p.manifest.id === lesson);
      if (!pack)
        throw new BundleError(
          `course ${course.id} names lesson "${lesson}", and no lesson pack folder beside the course (${path.dirname(dir)}) has that id; a course bundle holds its lessons, so keep their folders beside it`,
        );
      const inner = path.join(work, `${lesson}.lessonpack`);
      const bundled = await bundlePack(pack.dir, inner, options).catch((error: unknown) => {
        if (error instanceof BundleError) error.message = `lesson ${lesson}: ${error.message}`;
        throw error;
      });
      contents.set(lessonEntry(lesson), await fs.readFile(inner));
      lessons.push({ id: lesson, version: bundled.manifest.version, files: bundled.manifest.files.length });
    }
    const total = [...contents.values()].reduce((sum, b) => sum + b.length, 0);
    if (total > ARCHIVE_LIMITS.totalBytes)
      throw new BundleError(
        `the course's lessons add up to more than ${ARCHIVE_LIMITS.totalBytes / 1024 / 1024} MiB, the most one .lessonpack may hold; share its lessons one by one`,
      );
    const out = path.resolve(outFile);
    await writeCourseArchive(out, course.id, contents);
    // The same rules install applies, on the very bytes written.
    await verifyCourseArchive(out).catch((error: unknown) => {
      if (error instanceof InstallError) throw new BundleError(`install would refuse the bundle: ${error.message}`);
      throw error;
    });
    return { file: out, id: course.id, lessons, bytes: (await fs.stat(out)).size };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** Reads a course archive as install does, each lesson's bundle too, writing nothing but temporary copies. */
async function verifyCourseArchive(file: string, options: Pick<InstallOptions, 'limits'> = {}) {
  const limits = { ...ARCHIVE_LIMITS, ...options.limits };
  const shown = path.basename(file);
  const { manifest, contents } = await readVerifiedArchive(file, limits);
  const { course, lessons } = readCourseContents(shown, manifest, contents);
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'lesson-companion-course-'));
  const files = new Map<string, string>();
  try {
    for (const [id, data] of lessons) {
      const inner = path.join(work, `${id}.lessonpack`);
      await fs.writeFile(inner, data, { mode: 0o600 });
      const read = await readVerifiedArchive(inner, limits).catch((error: unknown) => {
        if (error instanceof InstallError) error.message = `${shown}, ${lessonEntry(id)}: ${error.message}`;
        throw error;
      });
      if (read.manifest.id !== id)
        throw new InstallError(
          'damaged',
          `refused ${shown}: ${lessonEntry(id)} holds lesson ${read.manifest.id}, not ${id}; nothing was installed`,
        );
      files.set(id, inner);
    }
  } catch (error) {
    await fs.rm(work, { recursive: true, force: true });
    throw error;
  }
  return { course, files, work, courseJson: contents.get(COURSE_FILE)! };
}

export interface ArchiveInstallResult extends InstallResult {
  readonly kind: 'pack' | 'course';
  /** A course's lessons, each as installed. */
  readonly lessons?: readonly InstallResult[];
  /** A course's lessons already installed at the same version (or a newer one), left as they were. */
  readonly unchanged?: readonly string[];
}

/** Installs a `.lessonpack`: a lesson pack as installPack does, or a course with all its lessons. */
export async function installLessonArchive(file: string, options: InstallOptions): Promise<ArchiveInstallResult> {
  const { contents } = await readVerifiedArchive(file, { ...ARCHIVE_LIMITS, ...options.limits });
  if (!isCourseArchive(contents)) return { kind: 'pack', ...(await installPack(file, options)) };
  const { course, files, work, courseJson } = await verifyCourseArchive(file, options);
  try {
    const target = path.join(options.packsRoot, course.id);
    const there = await fs.readdir(target).catch(() => undefined);
    if (there && !there.includes(COURSE_FILE) && there.length > 0)
      throw new InstallError(
        'unwritable',
        `refused ${path.basename(file)}: ${target} already holds something that is not a course (a lesson pack with the course's id?); nothing was installed`,
      );
    const lessons: InstallResult[] = [];
    const unchanged: string[] = [];
    for (const { lesson } of course.lessons) {
      const installed = await installPack(files.get(lesson)!, options).catch((error: unknown) => {
        if (error instanceof InstallError && error.reason === 'not-newer') return void unchanged.push(lesson);
        if (error instanceof InstallError && lessons.length > 0)
          error.message += ` (installed before it: ${lessons.map((l) => l.id).join(', ')}; the course itself was not installed)`;
        throw error;
      });
      if (installed) lessons.push(installed);
    }
    await writeCourseFolder(options.packsRoot, course.id, courseJson);
    return { kind: 'course', id: course.id, version: '', dir: target, lessons, unchanged };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** `<packsRoot>/<id>/course.json`, written beside and renamed in, so a course is never half there. */
async function writeCourseFolder(packsRoot: string, id: string, courseJson: Buffer): Promise<void> {
  const staging = path.join(packsRoot, `.installing-${randomBytes(6).toString('hex')}`);
  const target = path.join(packsRoot, id);
  try {
    await fs.mkdir(staging, { recursive: true });
    await fs.writeFile(path.join(staging, COURSE_FILE), courseJson, { flag: 'wx', mode: 0o644 });
    await fs.rm(target, { recursive: true, force: true });
    await fs.rename(staging, target);
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}
