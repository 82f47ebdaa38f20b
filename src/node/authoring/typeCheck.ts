/**
 * `validate` type-checks a TypeScript model with the TypeScript compiler the instructor has: installed in or
 * above the pack's folder, or globally. It is never bundled with lesson-companion (it is large, and a pack
 * runs without it: the engine only erases types). Without it, `validate` says so in one line.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { ValidationProblem } from '../../core/validation/problem';
import { modelCompilerOptions } from './modelTypes';

type TypeScript = typeof import('typescript');

export type TypeCheck =
  | { readonly status: 'checked'; readonly version: string; readonly from: string; readonly errors: number }
  | { readonly status: 'not-installed' };

/** At most this many type errors are listed; the count says how many there were. */
const SHOWN_ERRORS = 20;

/** The global module folders npm installs into (`npm install -g`), without asking npm (slow to start). */
function globalModuleDirs(env: NodeJS.ProcessEnv): string[] {
  const prefixDir = path.dirname(process.execPath);
  const dirs = [
    ...(env.NODE_PATH ?? '').split(path.delimiter).filter(Boolean),
    ...(env.npm_config_prefix ? [path.join(env.npm_config_prefix, 'lib', 'node_modules')] : []),
    path.join(prefixDir, '..', 'lib', 'node_modules'),
    path.join(prefixDir, 'node_modules'),
  ];
  return [...new Set(dirs.map((d) => path.resolve(d)))];
}

/** Where `typescript` resolves from: the pack's folder (and the folders above it), then the global ones. */
export function findTypeScript(packDir: string, env: NodeJS.ProcessEnv): string | undefined {
  try {
    return createRequire(path.join(packDir, 'lesson.json')).resolve('typescript');
  } catch {
    // not installed for the pack; try the global folders
  }
  for (const dir of globalModuleDirs(env)) {
    if (!existsSync(path.join(dir, 'typescript', 'package.json'))) continue;
    try {
      return createRequire(path.join(dir, 'noop.js')).resolve('typescript');
    } catch {
      // a damaged install; try the next folder
    }
  }
  return undefined;
}

/** One compiler diagnostic as a validate problem at the model's own file and line. */
function problemOf(ts: TypeScript, packDir: string, diagnostic: import('typescript').Diagnostic): ValidationProblem {
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  const where =
    diagnostic.file && diagnostic.start !== undefined
      ? {
          file: path.relative(packDir, diagnostic.file.fileName).split(path.sep).join('/'),
          ...(({ line, character }) => ({ line: line + 1, column: character + 1 }))(
            diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start),
          ),
        }
      : {};
  return {
    severity: 'error',
    area: 'model',
    ...where,
    message: `type error (TS${diagnostic.code}): ${text}`,
    advice:
      'The engine erases types and would run the model anyway, but a type error is usually a bug: fix it (`tsc -p authoring` after `lesson-companion types` shows the same).',
  };
}

/** Type-checks the model at `modelFile` (absolute) and the files it imports; problems point at their lines. */
export function typeCheckModel(
  packDir: string,
  modelFile: string,
  typesDir: string,
  env: NodeJS.ProcessEnv,
): { check: TypeCheck; problems: ValidationProblem[] } {
  const from = findTypeScript(packDir, env);
  if (!from) return { check: { status: 'not-installed' }, problems: [] };
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the instructor's own compiler, found at run time
  const ts = require(from) as TypeScript;
  const { options, errors } = ts.convertCompilerOptionsFromJson(modelCompilerOptions(typesDir), packDir);
  const program = ts.createProgram({ rootNames: [modelFile], options });
  const diagnostics = [...errors, ...ts.getPreEmitDiagnostics(program)];
  const problems = diagnostics.slice(0, SHOWN_ERRORS).map((d) => problemOf(ts, packDir, d));
  if (diagnostics.length > SHOWN_ERRORS)
    problems.push({
      severity: 'error',
      area: 'model',
      message: `${diagnostics.length - SHOWN_ERRORS} more type errors (${diagnostics.length} in all)`,
    });
  return { check: { status: 'checked', version: ts.version, from, errors: diagnostics.length }, problems };
}
