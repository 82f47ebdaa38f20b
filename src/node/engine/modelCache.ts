/**
 * The pack model's files, transpiled by the host before the engine worker starts: the worker then needs no
 * transpiler (half a megabyte to load, and a tenth of a second for a first transform). The result is kept in
 * this process's memory by content, so the check service transpiles an unchanged model once; never on disk,
 * where a rewritten file would change what the model answers. Transpiling reads pack code; it does not run it.
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

function transpiled(file: string, source: string): string | undefined {
  const key = createHash('sha256')
    .update(`${sucraseVersion}\0${path.extname(file)}\0${source}`)
    .digest('hex');
  const known = kept.get(key);
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
