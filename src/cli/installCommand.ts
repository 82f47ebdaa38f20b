import * as path from 'node:path';
import * as readline from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { installLessonArchive, type ArchiveInstallResult } from '../node/course/courseBundle';
import { InstallError } from '../node/packs/installPack';
import { builtInLessonsDir, cliPacksDir } from '../node/packs/locations';
import { EXIT, UsageError, type CliCommand, type CliIO } from './command';
import { terminalSafe } from '../core/text/text';

/** Asks on the terminal; without one (a script, CI) the answer is no, and the message says to pass --yes. */
async function askOnTerminal(io: CliIO, question: string): Promise<boolean> {
  if (!process.stdin.isTTY) {
    io.err(`${question} There is no terminal to answer on; re-run with --yes to say yes.\n`);
    return false;
  }
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${terminalSafe(question)} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

function installedLine(result: { id: string; version: string; replaced?: string; dir: string }): string {
  return `Installed ${result.id} ${result.version}${result.replaced ? ` (replacing ${result.replaced})` : ''} in ${result.dir}\n`;
}

function courseInstalled(result: ArchiveInstallResult, see: string): string {
  const unchanged = result.unchanged?.length
    ? `Already installed, left as they were: ${result.unchanged.join(', ')}\n`
    : '';
  return (
    (result.lessons ?? []).map(installedLine).join('') +
    unchanged +
    `Installed course ${result.id} in ${result.dir}\nSee it with: lesson-companion lessons --course${see}\n`
  );
}

export const installCommand: CliCommand = {
  name: 'install',
  usage: 'install <file.lessonpack> [--yes] [--force] [--packs-dir <dir>]',
  summary:
    'install a lesson pack (or a course with all its lessons) for the command line; it asks first, because a pack contains code that runs when you check (--yes: install, replace an older version or hide a built-in lesson of the same id without asking; --force: reinstall or downgrade)',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { yes: { type: 'boolean', short: 'y' }, force: { type: 'boolean' }, 'packs-dir': { type: 'string' } },
    });
    if (positionals.length !== 1) throw new UsageError('install takes exactly one .lessonpack file');
    const file = path.resolve(io.cwd, positionals[0]!);
    const packsRoot = values['packs-dir'] ? path.resolve(io.cwd, values['packs-dir']) : cliPacksDir(io.env);
    try {
      const result = await installLessonArchive(file, {
        packsRoot,
        force: values.force ?? false,
        // An upgrade brings new code: the question says so, as the first install's did.
        confirmReplace: async (existing, next) =>
          values.yes === true ||
          askOnTerminal(
            io,
            `Lesson ${path.basename(file)}: replace the installed version ${existing} with ${next}? ${next} contains code (its reference model) that runs on this computer when you check a program against it; replace it only if you trust where it comes from.`,
          ),
        builtInDir: builtInLessonsDir(io.bundleDir),
        confirmCode: async (id, version, model) =>
          values.yes === true ||
          askOnTerminal(
            io,
            `${id} ${version} contains code (its reference model, ${model}) that runs on this computer when you check a program against it. Install it only if you trust where it comes from. Install it?`,
          ),
        confirmShadow: async (builtIn, next) =>
          values.yes === true ||
          askOnTerminal(
            io,
            `${path.basename(file)} (version ${next}) has the id of a built-in lesson (version ${builtIn}); once installed, it is offered instead of the built-in one. Install it?`,
          ),
      });
      const see = values['packs-dir'] ? '   (with LESSON_COMPANION_PACKS set to that folder)' : '';
      io.out(
        result.kind === 'course'
          ? courseInstalled(result, see)
          : `${installedLine(result)}See it with: lesson-companion lessons${see}\n`,
      );
      return EXIT.ok;
    } catch (error) {
      if (!(error instanceof InstallError)) throw error;
      const where =
        error.reason === 'unwritable'
          ? ' Choose a folder you can write to with --packs-dir or LESSON_COMPANION_PACKS.'
          : '';
      io.err(`lesson-companion install: ${error.message}${where}\n`);
      return EXIT.failed;
    }
  },
};
