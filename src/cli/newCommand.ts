import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { createPack, PACK_ID, ScaffoldError } from '../node/authoring/scaffold';
import { createCourse, packsBeside } from '../node/course/scaffoldCourse';
import { shippedTypesDir, writeModelTypes } from '../node/authoring/modelTypes';
import { EXIT, UsageError, type CliCommand, type CliIO } from './command';

async function newCourse(
  io: CliIO,
  id: string,
  dirOption: string | undefined,
  lessonsOption: string | undefined,
  blank: boolean | undefined,
): Promise<number> {
  if (blank) throw new UsageError('--blank makes a lesson pack; a course has no model');
  if (!PACK_ID.test(id) || id.length > 64)
    throw new UsageError(`"${id}" cannot be a course id: use lower-case letters, digits and dashes (at most 64)`);
  const parent = path.resolve(io.cwd, dirOption ?? '.');
  const lessons =
    lessonsOption !== undefined ? lessonsOption.split(',').map((l) => l.trim()) : await packsBeside(parent);
  if (lessons.length === 0) lessons.push('my-first-lesson');
  try {
    const file = await createCourse(parent, id, lessons);
    const shown = path.relative(io.cwd, file) || file;
    io.out(
      `Created ${shown}: ${lessons.join(', ')}, in that order, each needing the one before it.\n` +
        `Next:\n` +
        `  edit its title, and the order and "needs" of its lessons\n` +
        `  keep the course folder beside its lesson packs (the packs folder, or the folder holding them): a course names packs by id\n` +
        `  lesson-companion lessons --course     lists the courses found, with their lessons\n`,
    );
    return EXIT.ok;
  } catch (error) {
    if (error instanceof ScaffoldError) throw new UsageError(error.message);
    throw error;
  }
}

export const newCommand: CliCommand = {
  name: 'new',
  usage: 'new <id> [--blank | --course [--lessons <id,id,…>]] [--dir <parent>]',
  summary:
    'start a lesson pack that validates, to change step by step: a small least-connections lesson, or with --blank one command, one mistake and a TypeScript model; with --course a course.json naming lessons in order (default: the packs beside it) (see docs/authoring.md)',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        dir: { type: 'string' },
        blank: { type: 'boolean' },
        course: { type: 'boolean' },
        lessons: { type: 'string' },
      },
    });
    if (positionals.length !== 1)
      throw new UsageError('new takes exactly one lesson id, e.g. `lesson-companion new my-balancer`');
    if (values.course) return newCourse(io, positionals[0]!, values.dir, values.lessons, values.blank);
    if (values.lessons !== undefined) throw new UsageError('--lessons goes with --course');
    try {
      const { dir, files } = await createPack(path.resolve(io.cwd, values.dir ?? '.'), positionals[0]!, {
        blank: values.blank ?? false,
      });
      // A TypeScript model gets its types beside it at once, so the editor and `tsc -p authoring` check it.
      if (values.blank) files.push(...(await writeModelTypes(dir, 'model/model.ts', shippedTypesDir(io.bundleDir))));
      const shown = path.relative(io.cwd, dir) || '.';
      io.out(
        `Created ${shown}:\n${files.map((f) => `  ${f}\n`).join('')}\n` +
          `Next:\n` +
          `  lesson-companion validate ${shown}     checks it (it is valid as it is)\n` +
          (values.blank
            ? `  tsc -p ${shown}/authoring     type-checks the model (needs TypeScript; validate does it too)\n`
            : '') +
          `  edit lesson.json, the starters and transcripts/, and validate after each change\n` +
          `  lesson-companion bundle ${shown}       makes the .lessonpack to share\n`,
      );
      return EXIT.ok;
    } catch (error) {
      if (error instanceof ScaffoldError) throw new UsageError(error.message);
      throw error;
    }
  },
};
