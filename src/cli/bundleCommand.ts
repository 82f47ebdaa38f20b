import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { COURSE_FILE } from '../core/course/course';
import { bundleCourse } from '../node/course/courseBundle';
import { parseArgs } from 'node:util';
import { BundleError, bundlePack, type LeftOut } from '../node/authoring/bundlePack';
import { shippedTypesDir } from '../node/authoring/modelTypes';
import { loadPack, MANIFEST_FILE } from '../node/packs/packs';
import { EXIT, UsageError, type CliCommand, type CliIO } from './command';
import { packDirArgument } from './validateCommand';
import { formatValidation } from './validateFormat';

/** <id>-<version>.lessonpack; a pack that does not load gets its folder's name and fails validation anyway. */
async function defaultName(dir: string): Promise<string> {
  try {
    const { manifest } = await loadPack(dir);
    return `${manifest.id}-${manifest.version}.lessonpack`;
  } catch {
    return `${path.basename(dir)}.lessonpack`;
  }
}

/** What the folder held that the bundle does not: one line per reason. */
function leftOutLines(leftOut: readonly LeftOut[]): string {
  const byWhy = new Map<string, string[]>();
  for (const item of leftOut) byWhy.set(item.why, [...(byWhy.get(item.why) ?? []), item.path]);
  return [...byWhy].map(([why, paths]) => `Left out: ${paths.join(', ')} (${why})\n`).join('');
}

const isFile = (file: string): Promise<boolean> =>
  fs.stat(file).then(
    (s) => s.isFile(),
    () => false,
  );

/** A course folder: course.json, and no lesson.json. */
async function isCourseFolder(dir: string): Promise<boolean> {
  return (await isFile(path.join(dir, COURSE_FILE))) && !(await isFile(path.join(dir, MANIFEST_FILE)));
}

/** `bundle <course-folder>`: the course and its lessons in one archive (node/course/courseBundle.ts). */
async function bundleCourseFolder(
  io: CliIO,
  dir: string,
  output: string | undefined,
  interpreters: { python?: string; node?: string },
): Promise<number> {
  const file = output ? path.resolve(io.cwd, output) : path.join(io.cwd, `${path.basename(dir)}.lessonpack`);
  try {
    const result = await bundleCourse(dir, file, {
      validation: { interpreters, typesDir: shippedTypesDir(io.bundleDir), env: io.env },
    });
    const shown = path.relative(io.cwd, file) || file;
    io.out(
      `Bundled course ${result.id}: ${result.lessons.map((l) => `${l.id} ${l.version}`).join(', ')}, ${(result.bytes / 1024).toFixed(1)} KiB → ${shown}\n` +
        `Learners install the course and its lessons with: lesson-companion install ${shown}\n`,
    );
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    if (error.validation) io.err(formatValidation(error.validation, io.cwd, io.isTTY && !io.env.NO_COLOR));
    io.err(`lesson-companion bundle: ${error.message}\n`);
    return EXIT.failed;
  }
}

export const bundleCommand: CliCommand = {
  name: 'bundle',
  usage: 'bundle <pack-dir|course-dir> [-o <file>.lessonpack] [--python <path>] [--node <path>]',
  summary:
    'validate a lesson pack and pack it into one .lessonpack file to share (default name: <id>-<version>.lessonpack); a course folder: the course and every lesson it names, from the pack folders beside it, in one .lessonpack (<id>.lessonpack)',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { output: { type: 'string', short: 'o' }, python: { type: 'string' }, node: { type: 'string' } },
    });
    if (positionals.length > 1) throw new UsageError('bundle takes one pack folder');
    if (values.output !== undefined && !values.output.endsWith('.lessonpack'))
      throw new UsageError(`the output file must end in .lessonpack, not "${values.output}"`);
    const interpreters = {
      ...(values.python ? { python: values.python } : {}),
      ...(values.node ? { node: values.node } : {}),
    };
    const courseDir = positionals[0] === undefined ? undefined : path.resolve(io.cwd, positionals[0]);
    if (courseDir && (await isCourseFolder(courseDir)))
      return bundleCourseFolder(io, courseDir, values.output, interpreters);
    const dir = await packDirArgument(io, positionals[0], 'bundle');
    try {
      const file = values.output ? path.resolve(io.cwd, values.output) : path.join(io.cwd, await defaultName(dir));
      const result = await bundlePack(dir, file, {
        validation: { interpreters, typesDir: shippedTypesDir(io.bundleDir), env: io.env },
      });
      const warnings = result.validation.problems.length;
      io.out(
        `Bundled ${result.manifest.id} ${result.manifest.version}: ${result.manifest.files.length} files, ${(result.bytes / 1024).toFixed(1)} KiB → ${path.relative(io.cwd, file) || file}\n` +
          (warnings
            ? `(${warnings} validation warning${warnings === 1 ? '' : 's'}: run \`lesson-companion validate ${path.relative(io.cwd, dir) || '.'}\` to see them)\n`
            : '') +
          leftOutLines(result.leftOut) +
          `Learners install it with: lesson-companion install ${path.relative(io.cwd, file) || file}   (or, in VS Code: "Lesson Companion: Install Lesson Pack…")\n`,
      );
      return EXIT.ok;
    } catch (error) {
      if (!(error instanceof BundleError)) throw error;
      if (error.validation) io.err(formatValidation(error.validation, io.cwd, io.isTTY && !io.env.NO_COLOR));
      io.err(`lesson-companion bundle: ${error.message}\n`);
      return EXIT.failed;
    }
  },
};
