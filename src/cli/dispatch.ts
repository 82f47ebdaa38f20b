/**
 * What both command-line bundles share: the dispatch of argv to a command (help, usage errors, pack errors, one
 * escape for every terminal surface), the process's start (signals, descriptors, synchronous pack reads) and its
 * exit code. dist/cli-main.js has every command (main.ts); dist/cli-lessons.js has `lessons` alone
 * (lessonsMain.ts), which the launcher starts for that command: a start pays to load the code it is given.
 */
import * as path from 'node:path';
import { terminalSafe } from '../core/text/text';
import { WordedError } from '../node/errors/errors';
import { readPackFoldersSynchronously } from '../node/packs/packFiles';
import { endEverythingOnSignals } from '../node/sandbox/cleanup';
import { EXIT, UsageError, type CliCommand, type CliIO } from './command';
import { descriptorWriter } from './stdio';

/** The commands a bundle has, each loaded when it runs. */
export type CommandTable = Readonly<Record<string, () => CliCommand>>;

function help(io: CliIO, commands: readonly CliCommand[]): void {
  io.out('Usage: lesson-companion <command> [options]\n\nCommands:\n');
  for (const c of commands) io.out(`  ${c.usage}\n      ${c.summary}\n`);
  io.out('\nEvery command takes --debug: on an unexpected error, show its stack trace.\n');
  io.out('\nExit codes: 0 pass/ok, 1 check failed or answer wrong, 2 usage or lesson pack error.\n');
}

/** `added`: commands a test adds at run time, found before the table's. */
export async function dispatch(
  argv: string[],
  rawIo: CliIO,
  table: CommandTable,
  added: readonly CliCommand[] = [],
): Promise<number> {
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
  const all = (): CliCommand[] => [...Object.values(table).map((load) => load()), ...added];
  const debug = argv.includes('--debug');
  const [name, ...rest] = argv.filter((a) => a !== '--debug');
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    help(io, all());
    return name ? EXIT.ok : EXIT.usage;
  }
  const command = added.find((c) => c.name === name) ?? table[name]?.();
  if (!command) {
    io.err(`lesson-companion: unknown command "${name}"\n`);
    help(io, all());
    return EXIT.usage;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`Usage: lesson-companion ${command.usage}\n\n${command.summary}\n`);
    return EXIT.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    return said(error, name, command, io, debug);
  }
}

/** A command's error as the user reads it, and the exit code. */
function said(error: unknown, name: string, command: CliCommand, io: CliIO, debug: boolean): number {
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

/** The process as a command line: `run` given argv and the process's descriptors, its answer the exit code. */
export function startCli(run: (argv: string[], io: CliIO) => Promise<number>): void {
  // Ctrl-C or an autograder's `timeout`: end the learner's program and remove temp folders before exiting.
  endEverythingOnSignals();
  readPackFoldersSynchronously();
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
  exitWhenSettled(run(process.argv.slice(2), io), io.err);
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
 * The build's code cache step (codeCache.ts) runs a bundle's warm-up before it takes V8's code: what `lessons`
 * runs is then compiled in the cache too, not only the bundle's top level (a start spent a fifth of its time
 * compiling it lazily). Reads the built-in lessons only, and writes nothing.
 */
export async function warmWithLessons(table: CommandTable): Promise<void> {
  const silent: CliIO = {
    out: () => undefined,
    err: () => undefined,
    isTTY: false,
    env: { LESSON_COMPANION_PACKS: path.join(__dirname, 'no-installed-packs') },
    cwd: __dirname,
    bundleDir: __dirname,
  };
  await dispatch(['lessons'], silent, table);
}
