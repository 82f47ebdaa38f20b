/**
 * What a debugger needs to run a learner's program on one transcript: the program to launch, its
 * arguments with standard input redirected from a file, and (TypeScript) where the transpiled files and
 * their source maps are. Both VS Code's JavaScript debugger (js-debug) and the Python debugger (debugpy)
 * hand `args` given as one string to the integrated terminal's shell unescaped
 * (`argsCanBeInterpretedByShell`), so `< transcript.txt` feeds the commands to the program's real stdin:
 * the program reads them exactly as in a check, whatever way it reads stdin.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Language } from '../../core/pack/schema';
import type { Interpreters } from '../languages/languages';
import { transformModule } from '../languages/transpile';
import { transpileTree } from '../languages/tsModules';

export interface DebugPlan {
  readonly language: Language;
  /** The interpreter: node or python. */
  readonly runtime: string;
  /** The file the debugger launches: the learner's file, the lesson's driver, or their transpiled copy. */
  readonly program: string;
  /** One shell string: the driver's argument (the learner file), then `< <stdin file>`. */
  readonly args: string;
  readonly cwd: string;
  /** TypeScript: the transpiled files, each with an inline source map back to the learner's .ts. */
  readonly outFiles?: readonly string[];
  readonly stdinFile: string;
  dispose(): Promise<void>;
}

/** POSIX single quotes: nothing inside is special to the shell. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_\-./=:@%+,]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

export class DebugPrepareError extends Error {}

/**
 * Writes the transcript to a temporary file and, for TypeScript, transpiles the learner's files next to
 * it with source maps. `dispose()` removes them (after the debug session).
 */
export async function prepareDebug(
  language: Language,
  learnerFile: string,
  interpreters: Interpreters,
  stdin: string,
  driver?: string,
): Promise<DebugPlan> {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lesson-companion-debug-'));
  const dispose = (): Promise<void> => fs.rm(tmp, { recursive: true, force: true });
  try {
    const stdinFile = path.join(tmp, 'transcript.txt');
    await fs.writeFile(stdinFile, stdin);
    const cwd = path.dirname(learnerFile);
    const redirect = `< ${shellQuote(stdinFile)}`;
    const withArg = (arg: string | undefined): string => (arg ? `${shellQuote(arg)} ${redirect}` : redirect);
    if (language === 'python') {
      return {
        language,
        runtime: interpreters.python,
        program: driver ?? learnerFile,
        args: withArg(driver ? learnerFile : undefined),
        cwd,
        stdinFile,
        dispose,
      };
    }
    if (language === 'javascript') {
      return {
        language,
        runtime: interpreters.node,
        program: driver ?? learnerFile,
        args: withArg(driver ? learnerFile : undefined),
        cwd,
        stdinFile,
        dispose,
      };
    }
    const out = path.join(tmp, 'js');
    await fs.mkdir(out);
    await fs.writeFile(path.join(out, 'package.json'), '{"type":"commonjs"}');
    const tree = await transpileTree(learnerFile, out, (source, file) =>
      transformModule(source, file.replace(/\.[cm]?js$/, '.ts'), { sourceMap: true }),
    );
    if (!tree.ok)
      throw new DebugPrepareError(`${path.basename(tree.file)}${tree.line ? `:${tree.line}` : ''}: ${tree.error}`);
    let driverJs = driver;
    if (driver && /\.[cm]?ts$/.test(driver)) {
      const compiled = transformModule(await fs.readFile(driver, 'utf8'), driver, { sourceMap: true });
      if ('error' in compiled) throw new DebugPrepareError(`the lesson's driver: ${compiled.error}`);
      driverJs = path.join(out, `__driver_${path.basename(driver).replace(/\.[cm]?ts$/, '.js')}`);
      await fs.writeFile(driverJs, compiled.code);
    }
    return {
      language,
      runtime: interpreters.node,
      program: driverJs ?? tree.entry,
      args: withArg(driverJs ? tree.entry : undefined),
      cwd,
      outFiles: [path.join(out, '**', '*.js')],
      stdinFile,
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}
