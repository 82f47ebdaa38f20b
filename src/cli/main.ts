/** `lesson-companion`: the command line, and what autograders call. */
import { endEverythingOnSignals } from '../node/cleanup';
import { WordedError } from '../node/errors';
import { PackError } from '../node/packs';
import { answerCommand } from './answerCommand';
import { authorCommand } from './authorCommand';
import { checkCommand } from './checkCommand';
import { EXIT, UsageError, type CliCommand, type CliIO } from './command';
import { lessonsCommand } from './lessonsCommand';
import { runCommand } from './runCommand';
import { simulateCommand } from './simulateCommand';
import { bundleCommand } from './bundleCommand';
import { installCommand } from './installCommand';
import { newCommand } from './newCommand';
import { validateCommand } from './validateCommand';

export const COMMANDS: CliCommand[] = [checkCommand, simulateCommand, lessonsCommand, runCommand, answerCommand, authorCommand, validateCommand, bundleCommand, installCommand, newCommand];

function help(io: CliIO): void {
  io.out('Usage: lesson-companion <command> [options]\n\nCommands:\n');
  for (const c of COMMANDS) io.out(`  ${c.usage}\n      ${c.summary}\n`);
  io.out('\nEvery command takes --debug: on an unexpected error, show its stack trace.\n');
  io.out('\nExit codes: 0 pass/ok, 1 check failed or answer wrong, 2 usage or lesson pack error.\n');
}

export async function main(argv: string[], io: CliIO): Promise<number> {
  const debug = argv.includes('--debug');
  const [name, ...rest] = argv.filter((a) => a !== '--debug');
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    help(io);
    return name ? EXIT.ok : EXIT.usage;
  }
  const command = COMMANDS.find((c) => c.name === name);
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
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      io.err(`lesson-companion ${name}: ${error.message}\nUsage: lesson-companion ${command.usage}\n`);
      return EXIT.usage;
    }
    if (error instanceof PackError || error instanceof WordedError) {
      io.err(`lesson-companion ${name}: ${error.message}\n`);
      return EXIT.usage;
    }
    // A bug, not a mistake of the user's: one line, and the stack only when asked for.
    const firstLine = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    io.err(debug ? `lesson-companion ${name}: ${(error as Error).stack ?? String(error)}\n` : `lesson-companion ${name}: unexpected error: ${firstLine} (run again with --debug to see where)\n`);
    return EXIT.usage;
  }
}

/** Entry point of bin/lesson-companion.js, and of `node dist/cli.js`. */
export function runCli(): void {
  // Ctrl-C or an autograder's `timeout`: end the learner's program and remove temp folders before exiting.
  endEverythingOnSignals();
  const io: CliIO = {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    isTTY: Boolean(process.stdout.isTTY),
    env: process.env,
    cwd: process.cwd(),
    bundleDir: __dirname,
  };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`lesson-companion: unexpected error: ${String(error).split('\n')[0]}\n`);
      process.exitCode = EXIT.usage;
    },
  );
}

if (require.main === module) runCli();
