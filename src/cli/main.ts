/** `lesson-companion`: the command line, and what autograders call. */
import { endEverythingOnSignals } from '../node/sandbox/cleanup';
import { WordedError } from '../node/errors/errors';
import { EXIT, UsageError, type CliCommand, type CliIO } from './command';
import { terminalSafe } from '../core/text/text';
import * as path from 'node:path';
import { descriptorWriter } from './stdio';

/* eslint-disable @typescript-eslint/no-require-imports -- each command's module is loaded when that command
   runs, so `lessons` does not pay for what `check` or `install` load (child processes, zip, the engine) */
const LAZY: Record<string, () => CliCommand> = {
  check: () => (require('./checkCommand') as typeof import('./checkCommand')).checkCommand,
  simulate: () => (require('./simulateCommand') as typeof import('./simulateCommand')).simulateCommand,
  lessons: () => (require('./lessonsCommand') as typeof import('./lessonsCommand')).lessonsCommand,
  run: () => (require('./runCommand') as typeof import('./runCommand')).runCommand,
  answer: () => (require('./answerCommand') as typeof import('./answerCommand')).answerCommand,
  'author-answers': () => (require('./authorCommand') as typeof import('./authorCommand')).authorCommand,
  validate: () => (require('./validateCommand') as typeof import('./validateCommand')).validateCommand,
  bundle: () => (require('./bundleCommand') as typeof import('./bundleCommand')).bundleCommand,
  install: () => (require('./installCommand') as typeof import('./installCommand')).installCommand,
  new: () => (require('./newCommand') as typeof import('./newCommand')).newCommand,
  types: () => (require('./typesCommand') as typeof import('./typesCommand')).typesCommand,
  grade: () => (require('./gradeCommand') as typeof import('./gradeCommand')).gradeCommand,
  classroom: () => (require('./classroomCommand') as typeof import('./classroomCommand')).classroomCommand,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** Commands added at run time (tests); the built-in ones load from LAZY. */
export const COMMANDS: CliCommand[] = [];

const allCommands = (): CliCommand[] => [...Object.values(LAZY).map((load) => load()), ...COMMANDS];
const findCommand = (name: string): CliCommand | undefined => COMMANDS.find((c) => c.name === name) ?? LAZY[name]?.();

function help(io: CliIO): void {
  io.out('Usage: lesson-companion <command> [options]\n\nCommands:\n');
  for (const c of allCommands()) io.out(`  ${c.usage}\n      ${c.summary}\n`);
  io.out('\nEvery command takes --debug: on an unexpected error, show its stack trace.\n');
  io.out('\nExit codes: 0 pass/ok, 1 check failed or answer wrong, 2 usage or lesson pack error.\n');
}

export async function main(argv: string[], rawIo: CliIO): Promise<number> {
  // One escape for every terminal surface: a pack's strings and a program's text reach it through this only.
  const io: CliIO = {
    out: (text) => rawIo.out(terminalSafe(text)),
    err: (text) => rawIo.err(terminalSafe(text)),
    // Asked only by the commands that colour their output: Node's stdout stream costs a start to make.
    get isTTY() {
      return rawIo.isTTY;
    },
    env: rawIo.env,
    cwd: rawIo.cwd,
    bundleDir: rawIo.bundleDir,
  };
  const debug = argv.includes('--debug');
  const [name, ...rest] = argv.filter((a) => a !== '--debug');
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    help(io);
    return name ? EXIT.ok : EXIT.usage;
  }
  const command = findCommand(name);
  if (!command) {
    io.err(`lesson-companion: unknown command "${name}"\n`);
    help(io);
    return EXIT.usage;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`Usage: lesson-companion ${command.usage}\n\n${command.summary}\n`);
    return EXIT.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (
      error instanceof UsageError ||
      (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
    ) {
      io.err(`lesson-companion ${name}: ${error.message}\nUsage: lesson-companion ${command.usage}\n`);
      return EXIT.usage;
    }
    // By name: PackError's module (the whole pack loader) is not loaded unless a command used it.
    if ((error instanceof Error && error.name === 'PackError') || error instanceof WordedError) {
      io.err(`lesson-companion ${name}: ${error.message}\n`);
      return EXIT.usage;
    }
    // A bug, not a mistake of the user's: one line, and the stack only when asked for.
    const firstLine = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    io.err(
      debug
        ? `lesson-companion ${name}: ${(error as Error).stack ?? String(error)}\n`
        : `lesson-companion ${name}: unexpected error: ${firstLine} (run again with --debug to see where)\n`,
    );
    return EXIT.usage;
  }
}

/** Entry point of bin/lesson-companion.js, and of `node dist/cli.js`. */
export function runCli(): void {
  // Ctrl-C or an autograder's `timeout`: end the learner's program and remove temp folders before exiting.
  endEverythingOnSignals();
  const stdout = (): NodeJS.WriteStream => {
    // `lesson-companion lessons | head`: the reader went away; nothing more to say to it.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    });
    return process.stdout;
  };
  const io: CliIO = {
    out: descriptorWriter(1, stdout),
    err: descriptorWriter(2, () => process.stderr),
    get isTTY() {
      return Boolean(process.stdout.isTTY);
    },
    env: process.env,
    cwd: process.cwd(),
    bundleDir: __dirname,
  };
  exitWhenSettled(main(process.argv.slice(2), io), io.err);
}

/**
 * The process's exit code once the command has settled. Node ends a process whose event loop has nothing left to
 * wait for with 0, even while a promise is still pending: a command stuck that way would pass for a success that
 * printed nothing (a check of a broken pack ended so twice in the node suite, exit 0 and no output, and could not
 * be made to again). Said instead, with the code of an unexpected error.
 */
export function exitWhenSettled(command: Promise<number>, err: (text: string) => void): void {
  let settled = false;
  const endedUnsettled = (): void => {
    if (settled) return;
    err(
      'lesson-companion: internal error: the command stopped before it had an answer (nothing was left to wait for). Nothing was decided; run it again, and if it happens again, please report it with the command you ran.\n',
    );
    process.exitCode = EXIT.usage;
  };
  process.once('beforeExit', endedUnsettled);
  command.then(
    (code) => {
      settled = true;
      process.exitCode = code;
    },
    (error: unknown) => {
      settled = true;
      err(terminalSafe(`lesson-companion: unexpected error: ${String(error).split('\n')[0]}\n`));
      process.exitCode = EXIT.usage;
    },
  );
}

/**
 * The build's code cache step (codeCache.ts) runs this before it takes V8's code: what `lessons` runs, and the
 * modules `check` loads, are then compiled in the cache too, not only the bundle's top level (a start spent a
 * fifth of its time compiling them lazily). Reads the built-in lessons only, and writes nothing.
 */
export async function warmForCodeCache(): Promise<void> {
  const silent: CliIO = {
    out: () => undefined,
    err: () => undefined,
    isTTY: false,
    env: { LESSON_COMPANION_PACKS: path.join(__dirname, 'no-installed-packs') },
    cwd: __dirname,
    bundleDir: __dirname,
  };
  await main(['lessons'], silent);
  findCommand('check');
}

if (require.main === module) runCli();
