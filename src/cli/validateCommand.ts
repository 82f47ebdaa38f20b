import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { MANIFEST_FILE } from '../node/packs/packs';
import { validatePack, type PackValidation } from '../node/authoring/validatePack';
import { EXIT, UsageError, type CliCommand, type CliIO } from './command';
import { formatValidation } from './validateFormat';

/** The pack folder named on the command line, refusing early (exit 2) when it is not one. */
export async function packDirArgument(io: CliIO, given: string | undefined, command: string): Promise<string> {
  if (!given) throw new UsageError(`${command} needs a pack folder (the folder with ${MANIFEST_FILE})`);
  const dir = path.resolve(io.cwd, given);
  const stat = await fs.stat(dir).catch(() => undefined);
  if (!stat?.isDirectory()) throw new UsageError(`${given} is not a folder`);
  if (!(await fs.stat(path.join(dir, MANIFEST_FILE)).then(() => true, () => false))) {
    throw new UsageError(`${given} has no ${MANIFEST_FILE}; is it a lesson pack folder? (lesson-companion new <id> makes one)`);
  }
  return dir;
}

export function validationJson(result: PackValidation): unknown {
  const { adequacy, ...rest } = result;
  if (!adequacy) return rest;
  return {
    ...rest,
    adequacy: {
      transcripts: adequacy.transcripts,
      mistakes: adequacy.mistakes,
      pairs: { mistakes: adequacy.mistakes.map((m) => m.mistake), matrix: adequacy.matrix, verdicts: adequacy.pairs },
    },
  };
}

export const validateCommand: CliCommand = {
  name: 'validate',
  usage: 'validate <pack-dir> [--json] [--python <path>] [--node <path>] [--seed <n>]',
  summary: 'check a lesson pack before you publish it: schema, transcripts, starters, mistakes, read order, questions, scenarios',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, python: { type: 'string' }, node: { type: 'string' }, seed: { type: 'string' } },
    });
    if (positionals.length > 1) throw new UsageError('validate takes one pack folder');
    if (values.seed !== undefined && !/^\d+$/.test(values.seed)) throw new UsageError(`--seed takes a whole number, not "${values.seed}"`);
    const dir = await packDirArgument(io, positionals[0], 'validate');
    const result = await validatePack(dir, {
      interpreters: { ...(values.python ? { python: values.python } : {}), ...(values.node ? { node: values.node } : {}) },
      ...(values.seed !== undefined ? { seed: Number(values.seed) } : {}),
    });
    if (values.json) io.out(JSON.stringify(validationJson(result), null, 2) + '\n');
    else io.out(formatValidation(result, io.cwd, io.isTTY && !io.env.NO_COLOR));
    return result.valid ? EXIT.ok : EXIT.failed;
  },
};
