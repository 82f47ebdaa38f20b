/**
 * How each language's learner file becomes a runnable process. TypeScript is transpiled with sucrase
 * (pure JavaScript, so the VSIX stays free of native binaries); sucrase keeps line numbers, so
 * tracebacks point at the learner's own lines.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Language } from '../../core/pack/schema';
import { LANGUAGES } from '../../core/pack/schema';
import { trackTempDir } from '../sandbox/cleanup';
import { learnerView, type StarterLayout } from '../sandbox/learnerView';
import { makeTempDir } from '../sandbox/tempDir';
import type { Runtime } from './interpreter';
import { transformModule } from './transpile';
import { transpileTree } from './tsModules';

export interface Interpreters {
  readonly python: string;
  readonly node: string;
}

export const DEFAULT_INTERPRETERS: Interpreters = {
  python: 'python3',
  node: process.execPath.endsWith('node') ? process.execPath : 'node',
};

export interface PreparedProgram {
  /** Which interpreter `command` is. */
  readonly runtime: Runtime;
  readonly command: string;
  readonly args: readonly string[];
  /** The learner's folder: where the program runs by hand (`run`). */
  readonly cwd: string;
  /**
   * What a sandbox shows of the learner's work: the learner's own sources, each file alone (learnerView.ts),
   * or the folder TypeScript was transpiled into (which holds only those).
   */
  readonly readable: readonly string[];
  /** Files of the lesson pack in `args` (a driver used as it is): a sandbox shows these files alone. */
  readonly packFiles: readonly string[];
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
export const NODE_BLOCKING_STDIO = [
  '--import',
  'data:text/javascript,for(const s of[process.stdout,process.stderr])s._handle%3F.setBlocking%3F.(true)',
];

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

const transpile = (source: string, file: string): ReturnType<typeof transformModule> =>
  transformModule(source, file.replace(/\.[cm]?js$/, '.ts'));

/**
 * Prepares `learnerFile` to run; with a `driver` (a pack program that imports the learner module),
 * runs the driver with the learner file as its argument. `layout` (the lesson's starter) says which files
 * besides the learner file are the learner's own: a sandbox shows those alone.
 */
export async function prepareProgram(
  language: Language,
  learnerFile: string,
  interpreters: Interpreters,
  driver?: string,
  layout?: StarterLayout,
): Promise<PreparedProgram> {
  const cwd = path.dirname(learnerFile);
  const none = async (): Promise<void> => undefined;
  const packFiles = driver ? [driver] : [];
  if (language === 'python' || language === 'javascript') {
    const files = driver ? [driver, learnerFile] : [learnerFile];
    const [runtime, command] =
      language === 'python' ? (['python', interpreters.python] as const) : (['node', interpreters.node] as const);
    const args = runtime === 'node' ? [...NODE_BLOCKING_STDIO, ...files] : files;
    const learnerFiles = [{ run: learnerFile, source: learnerFile }];
    return {
      runtime,
      command,
      args,
      cwd,
      readable: learnerView(learnerFile, language, layout),
      packFiles,
      fileName: path.basename(learnerFile),
      learnerFiles,
      dispose: none,
    };
  }
  const tmp = await makeTempDir('lesson-companion-ts-');
  // Removed by dispose, or by cleanup.ts when the CLI is stopped before that.
  const untrack = trackTempDir(tmp);
  const dispose = async (): Promise<void> => {
    await fs.rm(tmp, { recursive: true, force: true });
    untrack();
  };
  const outName = path.basename(learnerFile).replace(/\.[cm]?ts$/, '.js');
  const fail = (message: string, line: number | null): PreparedProgram => ({
    runtime: 'node',
    command: interpreters.node,
    args: [],
    cwd,
    readable: [tmp],
    packFiles: [],
    fileName: outName,
    prepareError: { message, line },
    dispose,
  });
  try {
    return await transpileInto(
      tmp,
      learnerFile,
      driver,
      layout ? new Set(learnerView(learnerFile, language, layout)) : undefined,
      fail,
      (args, packFiles, learnerFiles) => ({
        runtime: 'node',
        command: interpreters.node,
        args: [...NODE_BLOCKING_STDIO, ...args],
        cwd,
        readable: [tmp],
        packFiles,
        fileName: outName,
        learnerFiles,
        dispose,
      }),
    );
  } catch (error) {
    await dispose();
    throw error;
  }
}

async function transpileInto(
  tmp: string,
  learnerFile: string,
  driver: string | undefined,
  // The learner's own files (a check, with the starter's layout); undefined for `run`, which is not contained.
  own: ReadonlySet<string> | undefined,
  fail: (message: string, line: number | null) => PreparedProgram,
  program: (args: string[], packFiles: string[], learnerFiles: { run: string; source: string }[]) => PreparedProgram,
): Promise<PreparedProgram> {
  // CommonJS output must not be taken for ESM by a "type": "module" package.json near the learner.
  await fs.writeFile(path.join(tmp, 'package.json'), '{"type":"commonjs"}');
  // The learner file and the TypeScript files it imports relatively, laid out as in the workspace.
  const tree = await transpileTree(learnerFile, tmp, transpile, own);
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
  const learnerFiles = tree.compiled.map(({ source, out }) => ({ run: out, source }));
  return program(
    driverJs ? [driverJs, learnerJs] : [learnerJs],
    driver && driverJs === driver ? [driver] : [],
    learnerFiles,
  );
}
