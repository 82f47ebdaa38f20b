import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { trackProcess } from '../node/sandbox/cleanup';
import { DescendantTracker } from '../node/sandbox/descendants';
import { DEFAULT_INTERPRETERS, isLanguage, languageOf, prepareProgram } from '../node/languages/languages';
import { resolveInside } from '../node/packs/packs';
import { EXIT, UsageError, type CliCommand } from './command';
import { selectPack } from './packSelection';

/**
 * Runs a learner program by hand with the terminal attached: the way to try a TypeScript starter. It runs
 * as the learner's own program would (no sandbox: it is theirs, started by them), but what it starts does
 * not outlive it: descendants it left behind are killed when it ends, and everything when the CLI is stopped.
 */
export const runCommand: CliCommand = {
  name: 'run',
  usage: 'run <file> [--lesson <id|dir>] [--python <path>] [--node <path>]',
  summary:
    "run a learner program interactively (type commands, Ctrl-D to end), through the lesson's driver with --lesson; TypeScript is transpiled first",
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { lesson: { type: 'string' }, python: { type: 'string' }, node: { type: 'string' } },
    });
    if (positionals.length !== 1) throw new UsageError('run takes exactly one file');
    const file = path.resolve(io.cwd, positionals[0]!);
    const language = languageOf(file);
    if (!language || !isLanguage(language)) throw new UsageError('run needs a .py, .js or .ts file');
    // A lesson whose exercise is a module (conn-counts) runs through the pack's driver, as a check does.
    let driver: string | undefined;
    if (values.lesson) {
      const pack = await selectPack(io, values.lesson, file);
      const relative = pack.manifest.starters[language]?.driver;
      driver = relative ? await resolveInside(pack.dir, relative) : undefined;
      if (relative && !driver)
        throw new UsageError(`the ${language} driver of lesson "${pack.manifest.id}" points outside its pack`);
    }
    const program = await prepareProgram(
      language,
      file,
      { python: values.python ?? DEFAULT_INTERPRETERS.python, node: values.node ?? DEFAULT_INTERPRETERS.node },
      driver,
    );
    try {
      if (program.prepareError) {
        io.err(
          `${positionals[0]}${program.prepareError.line ? `:${program.prepareError.line}` : ''}: ${program.prepareError.message}\n`,
        );
        return EXIT.failed;
      }
      return await new Promise<number>((resolve) => {
        // It stays in the terminal's process group (a program in another group could not read the
        // terminal); a marker in its environment finds what it starts, even in a new session.
        const marker = randomBytes(12).toString('hex');
        const child = spawn(program.command, [...program.args], {
          cwd: program.cwd,
          stdio: 'inherit',
          env: { ...process.env, LESSON_COMPANION_RUN: marker },
        });
        const tracker =
          child.pid !== undefined ? new DescendantTracker(child.pid, `LESSON_COMPANION_RUN=${marker}`) : undefined;
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
