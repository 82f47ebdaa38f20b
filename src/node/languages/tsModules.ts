/**
 * A TypeScript program is rarely one file: a learner module imports its siblings, a walkthrough imports
 * the learner module (`../../src/lb/least_conn`). Transpiling only the entry file into a temporary folder
 * breaks those imports, so this transpiles the entry and every TypeScript file it reaches through
 * relative imports, and writes them into the folder with their layout kept. Relative JavaScript/JSON
 * files they import are copied as they are. Package imports (`node:…`, `lodash`) are left to Node.
 *
 * Nothing is written next to the learner's files, and no require hook is needed in the child process,
 * so this works from the bundled extension, where sucrase is inside the bundle and not in node_modules.
 */
import { realpathSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { fsReason } from '../errors/errors';

export type Transpile = (source: string, file: string) => { code: string } | { error: string; line: number | null };

export type TreeResult =
  | {
      readonly ok: true;
      readonly entry: string;
      readonly files: readonly string[];
      /** Each TypeScript file of the tree and the JavaScript written for it (same line numbers). */
      readonly compiled: readonly { readonly source: string; readonly out: string }[];
    }
  | { readonly ok: false; readonly file: string; readonly error: string; readonly line: number | null };

/** A runaway import graph is a mistake; a lesson has a handful of files. */
const MAX_FILES = 200;
const TS = /\.[cm]?ts$/;

function realpathOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

async function isFile(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** Where Node-with-TypeScript would find `specifier` imported from `dir`, preferring .ts like tsc does. */
async function resolveRelative(dir: string, specifier: string): Promise<string | undefined> {
  const base = path.resolve(dir, specifier);
  const candidates = TS.test(base)
    ? [base]
    : [
        ...(/\.[cm]?js$/.test(base) ? [base.replace(/js$/, 'ts')] : []),
        `${base}.ts`,
        `${base}.cts`,
        `${base}.mts`,
        path.join(base, 'index.ts'),
        base,
        `${base}.js`,
        `${base}.json`,
        path.join(base, 'index.js'),
      ];
  for (const candidate of candidates) if (await isFile(candidate)) return candidate;
  return undefined;
}

/** Relative specifiers of the CommonJS requires sucrase's imports transform writes. */
function relativeRequires(code: string): string[] {
  return [...code.matchAll(/\brequire\(\s*(['"])(\.{1,2}\/[^'"]*|\.{1,2})\1\s*\)/g)].map((m) => m[2]!);
}

function commonDir(files: readonly string[]): string {
  let dir = path.dirname(files[0]!);
  for (const file of files) {
    while (!(file === dir || file.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep))) dir = path.dirname(dir);
  }
  return dir;
}

/**
 * `own` (when given) is the learner's own files (learnerView.ts): an import of any other file is not
 * followed, so a classmate's module beside the learner's in a shared folder never reaches the program.
 */
export async function transpileTree(
  entry: string,
  outDir: string,
  transpile: Transpile,
  own?: ReadonlySet<string>,
): Promise<TreeResult> {
  const compiled = new Map<string, string | null>(); // null: copied as is
  const queue = [path.resolve(entry)];
  const followed = (file: string): boolean => !own || own.has(file) || own.has(realpathOr(file));
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (compiled.has(file)) continue;
    if (compiled.size >= MAX_FILES)
      return { ok: false, file, error: `more than ${MAX_FILES} files are imported`, line: null };
    if (!TS.test(file)) {
      compiled.set(file, null);
      continue;
    }
    let source: string;
    try {
      source = await fs.readFile(file, 'utf8');
    } catch (error) {
      return { ok: false, file, error: `cannot be read (${fsReason(error) ?? (error as Error).message})`, line: null };
    }
    const result = transpile(source, file);
    if ('error' in result) return { ok: false, file, error: result.error, line: result.line };
    compiled.set(file, result.code);
    for (const specifier of relativeRequires(result.code)) {
      const resolved = await resolveRelative(path.dirname(file), specifier);
      if (resolved && !compiled.has(resolved) && followed(resolved)) queue.push(resolved);
    }
  }
  const root = commonDir([...compiled.keys()]);
  const outOf = (file: string): string => path.join(outDir, path.relative(root, file).replace(TS, '.js'));
  for (const [file, code] of compiled) {
    const out = outOf(file);
    await fs.mkdir(path.dirname(out), { recursive: true });
    if (code === null) await fs.copyFile(file, out);
    else await fs.writeFile(out, code);
  }
  const written = [...compiled]
    .filter(([, code]) => code !== null)
    .map(([file]) => ({ source: file, out: outOf(file) }));
  return { ok: true, entry: outOf(path.resolve(entry)), files: [...compiled.keys()], compiled: written };
}
