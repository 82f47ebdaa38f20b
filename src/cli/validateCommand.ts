import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { checkPrograms, formatPrograms, type ProgramResult } from '../node/authoring/programSuite';
import { loadPack, MANIFEST_FILE } from '../node/packs/packs';
import { validatePack, type PackValidation } from '../node/authoring/validatePack';
import { EXIT, UsageError, type CliCommand, type CliIO } from './command';
import { formatValidation } from './validateFormat';
import { COURSE_FILE } from '../core/course/course';
import { validateCourse } from './courseValidate';
import { shippedTypesDir } from '../node/authoring/modelTypes';

/** The pack folder named on the command line, refusing early (exit 2) when it is not one. */
export async function packDirArgument(io: CliIO, given: string | undefined, command: string): Promise<string> {
  if (!given) throw new UsageError(`${command} needs a pack folder (the folder with ${MANIFEST_FILE})`);
  const dir = path.resolve(io.cwd, given);
  const stat = await fs.stat(dir).catch(() => undefined);
  if (!stat?.isDirectory()) throw new UsageError(`${given} is not a folder`);
  if (
    !(await fs.stat(path.join(dir, MANIFEST_FILE)).then(
      () => true,
      () => false,
    ))
  ) {
    throw new UsageError(
      `${given} has no ${MANIFEST_FILE}; is it a lesson pack folder? (lesson-companion new <id> makes one)`,
    );
  }
  return dir;
}

const isFile = (file: string): Promise<boolean> =>
  fs.stat(file).then(
    (s) => s.isFile(),
    () => false,
  );

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
  usage:
    'validate <pack-dir | course-dir> [--json] [--python <path>] [--node <path>] [--seed <n>] [--programs <folder>]',
  summary:
    'check a lesson pack before you publish it: schema, transcripts, starters, mistakes, read order, questions, scenarios; --programs: sample learner programs, each with its expected verdict in an "expect-mistakes:" header line, reported as matched or not',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        python: { type: 'string' },
        node: { type: 'string' },
        seed: { type: 'string' },
        programs: { type: 'string' },
      },
    });
    if (positionals.length > 1) throw new UsageError('validate takes one pack folder');
    if (values.seed !== undefined && !/^\d+$/.test(values.seed))
      throw new UsageError(`--seed takes a whole number, not "${values.seed}"`);
    // A course folder (course.json, no lesson.json) is validated as a course.
    const given = positionals[0] === undefined ? undefined : path.resolve(io.cwd, positionals[0]);
    if (given && (await isFile(path.join(given, COURSE_FILE))) && !(await isFile(path.join(given, MANIFEST_FILE))))
      return validateCourse(io, given, values.json ?? false);
    const dir = await packDirArgument(io, positionals[0], 'validate');
    const programsDir = values.programs !== undefined ? path.resolve(io.cwd, values.programs) : undefined;
    if (
      programsDir &&
      !(await fs.stat(programsDir).then(
        (s) => s.isDirectory(),
        () => false,
      ))
    )
      throw new UsageError(`--programs: ${values.programs} is not a folder`);
    const interpreters = {
      ...(values.python ? { python: values.python } : {}),
      ...(values.node ? { node: values.node } : {}),
    };
    const result = await validatePack(dir, {
      interpreters,
      ...(values.seed !== undefined ? { seed: Number(values.seed) } : {}),
      typesDir: shippedTypesDir(io.bundleDir),
      env: io.env,
    });
    // The sample programs are checked only against a valid pack: an invalid one's verdicts say nothing.
    const programs: ProgramResult[] | undefined =
      programsDir && result.valid
        ? await checkPrograms(await loadPack(dir, 'folder', { model: true, allowMissingAnswers: true }), programsDir, {
            interpreters,
          })
        : undefined;
    if (values.json)
      io.out(
        JSON.stringify({ ...(validationJson(result) as object), ...(programs ? { programs } : {}) }, null, 2) + '\n',
      );
    else
      io.out(
        formatValidation(result, io.cwd, io.isTTY && !io.env.NO_COLOR) + (programs ? formatPrograms(programs) : ''),
      );
    return result.valid && (programs ?? []).every((p) => p.matched) ? EXIT.ok : EXIT.failed;
  },
};
