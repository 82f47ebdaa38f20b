/**
 * How each language's learner file becomes a runnable process. TypeScript is transpiled with sucrase
 * (pure JavaScript, so the VSIX stays free of native binaries); sucrase keeps line numbers, so
 * tracebacks point at the learner's own lines.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Language } from '../core/schema';
import { LANGUAGES } from '../core/schema';
import { makeTempDir } from './tempDir';
import { transformModule } from './transpile';
import { transpileTree } from './tsModules';

export interface Interpreters {
  readonly python: string;
  readonly node: string;
}

export const DEFAULT_INTERPRETERS: Interpreters = { python: 'python3', node: process.execPath.endsWith('node') ? process.execPath : 'node' };

export interface PreparedProgram {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** Base name of the file tracebacks will mention for the learner's code. */
  readonly fileName: string;
  /** Set when the program cannot even be prepared (a TypeScript syntax error). */
  readonly prepareError?: { message: string; line: number | null };
  /**
   * The learner's own files as the process runs them, each with its source: for TypeScript the
   * transpiled copies (same line numbers). Line tracing counts only these.
   */
  readonly learnerFiles?: readonly { readonly run: string; readonly source: string }[];
  dispose(): Promise<void>;
}

/**
 * Node writes to a pipe set up by a Node parent (a socket pair) asynchronously, so a program that dies of an
 * uncaught exception loses answers it had already printed; the crash then seems to come earlier than it did.
 * Blocking writes keep every answer. Passed inline, so nothing has to be readable by a sandboxed program.
 */
export const NODE_BLOCKING_STDIO = ['--import', 'data:text/javascript,for(const s of[process.stdout,process.stderr])s._handle%3F.setBlocking%3F.(true)'];

export function languageOf(file: string): Language | undefined {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.py') return 'python';
  if (ext === '.js' || ext === '.cjs' || ext === '.mjs') return 'javascript';
  if (ext === '.ts' || ext === '.cts' || ext === '.mts') return 'typescript';
  return undefined;
}

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

const transpile = (source: string, file: string): ReturnType<typeof transformModule> => transformModule(source, file.replace(/\.[cm]?js$/, '.ts'));

/**
 * Prepares `learnerFile` to run; with a `driver` (a pack program that imports the learner module),
 * runs the driver with the learner file as its argument.
 */
export async function prepareProgram(language: Language, learnerFile: string, interpreters: Interpreters, driver?: string): Promise<PreparedProgram> {
  const cwd = path.dirname(learnerFile);
  const none = async (): Promise<void> => undefined;
  if (language === 'python') {
    const args = driver ? [driver, learnerFile] : [learnerFile];
    return { command: interpreters.python, args, cwd, fileName: path.basename(learnerFile), learnerFiles: [{ run: learnerFile, source: learnerFile }], dispose: none };
  }
  if (language === 'javascript') {
    const args = [...NODE_BLOCKING_STDIO, ...(driver ? [driver, learnerFile] : [learnerFile])];
    return { command: interpreters.node, args, cwd, fileName: path.basename(learnerFile), learnerFiles: [{ run: learnerFile, source: learnerFile }], dispose: none };
  }
  const tmp = await makeTempDir('lesson-companion-ts-');
  const dispose = (): Promise<void> => fs.rm(tmp, { recursive: true, force: true });
  const outName = path.basename(learnerFile).replace(/\.[cm]?ts$/, '.js');
  const fail = (message: string, line: number | null): PreparedProgram => ({
    command: interpreters.node,
    args: [],
    cwd,
    fileName: outName,
    prepareError: { message, line },
    dispose,
  });
  // CommonJS output must not be taken for ESM by a "type": "module" package.json near the learner.
  await fs.writeFile(path.join(tmp, 'package.json'), '{"type":"commonjs"}');
  // The learner file and the TypeScript files it imports relatively, laid out as in the workspace.
  const tree = await transpileTree(learnerFile, tmp, transpile);
  if (!tree.ok) {
    const elsewhere = path.resolve(tree.file) !== path.resolve(learnerFile);
    return fail(elsewhere ? `${path.basename(tree.file)}: ${tree.error}` : tree.error, elsewhere ? null : tree.line);
  }
  const learnerJs = tree.entry;
  let driverJs: string | undefined;
  if (driver) {
    if (/\.[cm]?ts$/.test(driver)) {
      const compiled = transpile(await fs.readFile(driver, 'utf8'), driver);
      if ('error' in compiled) return fail(`lesson driver: ${compiled.error}`, null);
      driverJs = path.join(tmp, `__driver_${path.basename(driver).replace(/\.[cm]?ts$/, '.js')}`);
      await fs.writeFile(driverJs, compiled.code);
    } else {
      driverJs = driver;
    }
  }
  const args = [...NODE_BLOCKING_STDIO, ...(driverJs ? [driverJs, learnerJs] : [learnerJs])];
  const learnerFiles = tree.compiled.map(({ source, out }) => ({ run: out, source }));
  return { command: interpreters.node, args, cwd, fileName: outName, learnerFiles, dispose };
}
