/**
 * V8's compiled code for dist/cli-main.js, made by the build beside the bundle (esbuild.mjs) and read by the
 * launcher (launcher.ts): compiling the 1.8 MB bundle is about a third of the CLI's start. Only the build
 * writes it, next to the code it was compiled from and as trusted as that code (whoever can write one can write
 * the other); nothing is written at run time, and nothing is read from the cache folder, where a program checked
 * without the sandbox could write. It is used only for the very bundle it was made from (its SHA-256 is in the
 * file's first line); any other, or one V8 refuses (another Node), is compiled from source as before.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';

/** The file beside the bundle. */
export const codeCacheFile = (bundle: string): string => `${bundle}.v8cache`;

/** The function Node wraps a CommonJS module in: the same text in both places, or V8 refuses the cache. */
const wrapped = (source: string): string =>
  `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;

const digest = (source: string): string => createHash('sha256').update(source).digest('hex');

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

/** The cache's compiled code, when it was made from exactly this source. */
function cacheFor(bundle: string, source: string): Buffer | undefined {
  let data: Buffer;
  try {
    data = fs.readFileSync(codeCacheFile(bundle));
  } catch {
    return undefined;
  }
  const newline = data.indexOf(0x0a);
  if (newline < 0 || data.subarray(0, newline).toString('latin1') !== digest(source)) return undefined;
  return data.subarray(newline + 1);
}

/** Loads the bundle, from the build's code cache where it holds. */
export function loadBundle(bundle: string): Loaded {
  const source = fs.readFileSync(bundle, 'utf8');
  return compileAndRun(bundle, source, cacheFor(bundle, source)).loaded;
}

/** The build's step: the bundle's top level compiled and run once, its code written beside it. */
export function writeCodeCache(bundle: string): void {
  const source = fs.readFileSync(bundle, 'utf8');
  const { script } = compileAndRun(bundle, source);
  // Whole or not at all: a CLI starting while the build writes (npm pack rebuilds dist/ in place) reads either.
  const temp = `${codeCacheFile(bundle)}.${process.pid}.tmp`;
  fs.writeFileSync(temp, Buffer.concat([Buffer.from(`${digest(source)}\n`, 'latin1'), script.createCachedData()]));
  fs.renameSync(temp, codeCacheFile(bundle));
}
