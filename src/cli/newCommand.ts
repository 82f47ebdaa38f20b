import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { createPack, ScaffoldError } from '../node/authoring/scaffold';
import { shippedTypesDir, writeModelTypes } from '../node/authoring/modelTypes';
import { EXIT, UsageError, type CliCommand } from './command';

export const newCommand: CliCommand = {
  name: 'new',
  usage: 'new <id> [--blank] [--dir <parent>]',
  summary:
    'start a lesson pack that validates, to change step by step: a small least-connections lesson, or with --blank one command, one mistake and a TypeScript model (see docs/authoring.md)',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { dir: { type: 'string' }, blank: { type: 'boolean' } },
    });
    if (positionals.length !== 1)
      throw new UsageError('new takes exactly one lesson id, e.g. `lesson-companion new my-balancer`');
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
