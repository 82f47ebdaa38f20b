import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { shippedTypesDir, writeModelTypes } from '../node/authoring/modelTypes';
import { loadPack } from '../node/packs/packs';
import { EXIT, UsageError, type CliCommand } from './command';
import { packDirArgument } from './validateCommand';

export const typesCommand: CliCommand = {
  name: 'types',
  usage: 'types <pack-dir>',
  summary:
    "write the model's types (lesson-companion/model, lesson-companion/worlds/queues) and a tsconfig.json into the pack's authoring/ folder, to type-check the model with `tsc -p <pack>/authoring`; nothing is installed, and authoring/ is never bundled",
  async run(args, io) {
    const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
    if (positionals.length > 1) throw new UsageError('types takes one pack folder');
    const dir = await packDirArgument(io, positionals[0], 'types');
    const { manifest } = await loadPack(dir);
    const written = await writeModelTypes(dir, manifest.model, shippedTypesDir(io.bundleDir));
    const shown = path.relative(io.cwd, dir) || '.';
    io.out(
      `Wrote ${written.map((f) => `${shown}/${f}`).join(', ')}\n` +
        `Type-check the model with: tsc -p ${shown}/authoring   (TypeScript installed globally or in a folder above; lesson-companion validate does the same when it finds it)\n`,
    );
    return EXIT.ok;
  },
};
