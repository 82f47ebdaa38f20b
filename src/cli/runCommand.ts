import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_INTERPRETERS, isLanguage, languageOf, prepareProgram } from '../node/languages';
import { EXIT, UsageError, type CliCommand } from './command';

/** Runs a learner program by hand with the terminal attached: the way to try a TypeScript starter. */
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
        const child = spawn(program.command, [...program.args], { cwd: program.cwd, stdio: 'inherit' });
        child.on('error', (e) => {
          io.err(`cannot start ${program.command}: ${e.message}\n`);
          resolve(EXIT.failed);
        });
        child.on('close', (code) => resolve(code ?? EXIT.failed));
      });
    } finally {
      await program.dispose();
    }
  },
};
