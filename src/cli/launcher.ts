/**
 * dist/cli.js: starts the command line (dist/cli-main.js) from V8's code cache when there is one. Compiling
 * the bundle is the largest part of the CLI's start, and the editor starts the CLI for every check; Node 20
 * has no compile cache of its own (module.enableCompileCache came in Node 22). The cache lives in the user's
 * cache folder (node/cacheDir.ts), keyed by the bundle's size and time and Node's version; without one the CLI
 * just compiles.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { cacheDir, writeCacheFile } from '../node/cacheDir';

type MainModule = { runCli(): void };
type NodeModule = NodeJS.Module & { filename: string; paths: string[]; loaded: boolean; require(id: string): unknown };
// This module's own constructor is node:module's Module, without loading node:module (and the ESM loader with it).
const ModuleClass = module.constructor as unknown as {
  new (id: string, parent?: unknown): NodeModule;
  wrap(source: string): string;
  _nodeModulePaths(dir: string): string[];
};

/**
 * A file name for the cache of one bundle build on one Node: FNV-1a, twice (64 bits as hex). Not a security
 * boundary (the folder is the user's own, and V8 rejects a cache that does not fit the source); node:crypto
 * would cost more to load than the whole key is worth.
 */
function cacheKey(text: string): string {
  let low = 0x811c9dc5;
  let high = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    low = Math.imul(low ^ c, 0x01000193) >>> 0;
    high = Math.imul(high ^ c ^ (low >>> 16), 0x01000193) >>> 0;
  }
  return low.toString(16).padStart(8, '0') + high.toString(16).padStart(8, '0');
}

function loadWithCache(file: string): MainModule {
  const source = fs.readFileSync(file, 'utf8');
  const stat = fs.statSync(file);
  const key = cacheKey(`${file}|${stat.size}|${stat.mtimeMs}|${process.version}|${process.arch}`);
  const dir = cacheDir('v8');
  const cacheFile = dir ? path.join(dir, `${key}.cache`) : undefined;
  let cachedData: Buffer | undefined;
  try {
    cachedData = cacheFile ? fs.readFileSync(cacheFile) : undefined;
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(ModuleClass.wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const mod = new ModuleClass(file, module);
  mod.filename = file;
  mod.paths = ModuleClass._nodeModulePaths(path.dirname(file));
  const wrapper = script.runInThisContext() as (exports: unknown, require: unknown, module: unknown, filename: string, dirname: string) => void;
  wrapper.call(mod.exports, mod.exports, (id: string) => mod.require(id), mod, file, path.dirname(file));
  mod.loaded = true;
  if (cacheFile && (!cachedData || script.cachedDataRejected)) {
    // After the command has run, the cache also holds the functions it compiled.
    process.once('beforeExit', () => writeCacheFile(cacheFile, script.createCachedData()));
  }
  return mod.exports as MainModule;
}

const main = path.join(__dirname, 'cli-main.js');
let cli: MainModule;
try {
  cli = loadWithCache(main);
} catch (error) {
  // A damaged cache or an unusual runtime: the plain way always works.
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the plain way, when the cache cannot be used
  cli = require(main) as MainModule;
}
cli.runCli();
