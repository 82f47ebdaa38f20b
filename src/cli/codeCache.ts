/**
 * V8's compiled code for dist/cli-main.js, made by the build beside the bundle (esbuild.mjs) and read by the
 * launcher (launcher.ts): compiling the 1.8 MB bundle is about a third of the CLI's start. Only the build
 * writes it, next to the code it was compiled from and as trusted as that code (whoever can write one can write
 * the other); nothing is written at run time, and nothing is read from the cache folder, where a program checked
 * without the sandbox could write. It is used only for the very bundle it was made from: the file holds a copy of
 * that bundle, compared byte for byte (a memcmp; a SHA-256 would load the crypto module, 4 ms of a start, and
 * hash 1.8 MB); any other, or one V8 refuses (another Node), is compiled from source as before. V8 itself checks
 * only the source's length.
 */
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';

/** The file beside the bundle. */
export const codeCacheFile = (bundle: string): string => `${bundle}.v8cache`;

/** The function Node wraps a CommonJS module in: the same text in both places, or V8 refuses the cache. */
const wrapped = (source: string): string =>
  `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;

/** The file: this line with the bundle's length in bytes, the bundle, then V8's data. */
const HEADER = 'lesson-companion code cache 2';

interface Loaded {
  readonly exports: unknown;
  /** True when V8 took the cache (for the test and the bench; nothing else depends on it). */
  readonly fromCache: boolean;
}

/** The bundle's top level compiled and run, as `require` would. */
function compileAndRun(bundle: string, source: string, cachedData?: Buffer): { loaded: Loaded; script: vm.Script } {
  const script = new vm.Script(wrapped(source), { filename: bundle, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle));
  return {
    loaded: { exports: module.exports, fromCache: cachedData !== undefined && !script.cachedDataRejected },
    script,
  };
}

/** The cache's compiled code, when it was made from exactly these bytes. */
function cacheFor(bundle: string, bytes: Buffer): Buffer | undefined {
  let data: Buffer;
  try {
    data = fs.readFileSync(codeCacheFile(bundle));
  } catch {
    return undefined;
  }
  const header = `${HEADER} ${bytes.length}\n`;
  const start = header.length;
  if (data.length <= start + bytes.length || data.toString('latin1', 0, start) !== header) return undefined;
  if (!data.subarray(start, start + bytes.length).equals(bytes)) return undefined;
  return data.subarray(start + bytes.length);
}

/** Loads the bundle, from the build's code cache where it holds. */
export function loadBundle(bundle: string): Loaded {
  const bytes = fs.readFileSync(bundle);
  return compileAndRun(bundle, bytes.toString('utf8'), cacheFor(bundle, bytes)).loaded;
}

/**
 * The build's step: the bundle's top level compiled and run once, and its warm-up (`warmForCodeCache`, main.ts),
 * so that the functions a start runs are in the code too; then its code is written beside it.
 */
export async function writeCodeCache(bundle: string): Promise<void> {
  const bytes = fs.readFileSync(bundle);
  const { script, loaded } = compileAndRun(bundle, bytes.toString('utf8'));
  await (loaded.exports as { warmForCodeCache?: () => Promise<void> }).warmForCodeCache?.();
  // Whole or not at all: a CLI starting while the build writes (npm pack rebuilds dist/ in place) reads either.
  const temp = `${codeCacheFile(bundle)}.${process.pid}.tmp`;
  const header = Buffer.from(`${HEADER} ${bytes.length}\n`, 'latin1');
  fs.writeFileSync(temp, Buffer.concat([header, bytes, script.createCachedData()]));
  fs.renameSync(temp, codeCacheFile(bundle));
}
