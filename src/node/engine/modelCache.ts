/**
 * The pack model's files, transpiled by the host before the engine worker starts: the worker then needs no
 * transpiler (half a megabyte to load, and a tenth of a second for a first transform). The result is kept in
 * this process's memory by content, so the check service transpiles an unchanged model once; never on disk,
 * where a rewritten file would change what the model answers. Transpiling reads pack code; it does not run it.
 *
 * The built-in lessons' models come transpiled inside this bundle (esbuild.mjs, scripts/model-code.mjs), by the
 * same key: a command-line check of a built-in lesson loads no transpiler. A model file that is not exactly
 * what was built (an edited lesson, any other pack) has another key and is transpiled here.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { version as sucraseVersion } from 'sucrase/package.json';
import { transformModule } from '../languages/transpile';

const MODEL_FILE = /\.(?:[cm]?ts|[cm]?js)$/;
/** A model is a few files; a pack with more is not one to spend time on here (the worker reads the rest). */
const MAX_FILES = 50;
const MAX_BYTES = 512 * 1024;

/** Transpiled code by the hash of its source; bounded, the oldest go first. */
const kept = new Map<string, string>();
const MAX_KEPT = 200;

/** The key of a model file's transpiled code: what decides it (the transpiler's version, TypeScript or not, the text). */
export function modelCodeKey(file: string, source: string): string {
  return createHash('sha256')
    .update(`${sucraseVersion}\0${path.extname(file)}\0${source}`)
    .digest('hex');
}

/** Replaced by esbuild with the built-in models' code by key, as JSON text; not defined when running from source. */
declare const LESSON_COMPANION_BUILT_IN_MODEL_CODE: string;
let builtIn: Map<string, string> | undefined;

function builtInCode(key: string): string | undefined {
  if (!builtIn) {
    try {
      builtIn = new Map(Object.entries(JSON.parse(LESSON_COMPANION_BUILT_IN_MODEL_CODE) as Record<string, string>));
    } catch {
      builtIn = new Map(); // from source: nothing was built
    }
  }
  return builtIn.get(key);
}

function transpiled(file: string, source: string): string | undefined {
  const key = modelCodeKey(file, source);
  const known = kept.get(key) ?? builtInCode(key);
  if (known !== undefined) return known;
  const result = transformModule(source, file);
  if ('error' in result) return undefined; // the worker transpiles it again and reports where it fails
  kept.set(key, result.code);
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
  return result.code;
}

/** The model folder's JavaScript and TypeScript files, transpiled: real path → CommonJS code. */
export function transpiledModelFiles(entry: string): Record<string, string> {
  const out: Record<string, string> = {};
  const root = path.dirname(entry);
  let files = 0;
  const walk = (folder: string, depth: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (files >= MAX_FILES) return;
      const full = path.join(folder, e.name);
      if (e.isDirectory() && depth < 3 && !e.name.startsWith('.') && e.name !== 'node_modules') walk(full, depth + 1);
      if (!e.isFile() || !MODEL_FILE.test(e.name)) continue;
      try {
        if (fs.statSync(full).size > MAX_BYTES) continue;
        const code = transpiled(full, fs.readFileSync(full, 'utf8'));
        if (code !== undefined) out[fs.realpathSync(full)] = code;
        files += 1;
      } catch {
        // Unreadable: the worker says so when the model imports it.
      }
    }
  };
  walk(root, 0);
  return out;
}
