import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { trackProcess } from '../node/cleanup';
import { DescendantTracker } from '../node/descendants';
import { DEFAULT_INTERPRETERS, isLanguage, languageOf, prepareProgram } from '../node/languages';
import { EXIT, UsageError, type CliCommand } from './command';

/**
 * Runs a learner program by hand with the terminal attached: the way to try a TypeScript starter. It runs
 * as the learner's own program would (no sandbox: it is theirs, started by them), but what it starts does
 * not outlive it: descendants it left behind are killed when it ends, and everything when the CLI is stopped.
 */
export const runCommand: CliCommand = {
  name: 'run',
  usage: 'run <file> [--python <path>] [--node <path>]',
  summary: 'run a learner program interactively (type commands, Ctrl-D to end); TypeScript is transpiled first',
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { python: { type: 'string' }, node: { type: 'string' } } });
    if (positionals.length !== 1) throw new UsageError('run takes exactly one file');
    const file = path.resolve(io.cwd, positionals[0]!);
    const language = languageOf(file);
    if (!language || !isLanguage(language)) throw new UsageError('run needs a .py, .js or .ts file');
    const program = await prepareProgram(language, file, {
      python: values.python ?? DEFAULT_INTERPRETERS.python,
      node: values.node ?? DEFAULT_INTERPRETERS.node,
    });
    try {
      if (program.prepareError) {
        io.err(`${positionals[0]}${program.prepareError.line ? `:${program.prepareError.line}` : ''}: ${program.prepareError.message}\n`);
        return EXIT.failed;
      }
      return await new Promise<number>((resolve) => {
        // It stays in the terminal's process group (a program in another group could not read the
        // terminal); a marker in its environment finds what it starts, even in a new session.
        const marker = randomBytes(12).toString('hex');
        const child = spawn(program.command, [...program.args], { cwd: program.cwd, stdio: 'inherit', env: { ...process.env, LESSON_COMPANION_RUN: marker } });
        const tracker = child.pid !== undefined ? new DescendantTracker(child.pid, `LESSON_COMPANION_RUN=${marker}`) : undefined;
        const sweeper = tracker ? setInterval(() => tracker.poll(), 200) : undefined;
        const untrack = trackProcess(() => {
          child.kill('SIGKILL');
          tracker?.killAll();
        });
        const end = (code: number): void => {
          clearInterval(sweeper);
          tracker?.killAll();
          untrack();
          resolve(code);
        };
        child.on('error', (e) => {
          io.err(`cannot start ${program.command}: ${e.message}\n`);
          end(EXIT.failed);
        });
        child.on('close', (code) => end(code ?? EXIT.failed));
      });
    } finally {
      await program.dispose();
    }
  },
};
