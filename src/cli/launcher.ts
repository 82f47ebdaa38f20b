/**
 * dist/cli.js: starts the command line (dist/cli-main.js) from V8's code cache when there is one. Compiling
 * the bundle is the largest part of the CLI's start, and the editor starts the CLI for every check; Node 20
 * has no compile cache of its own (module.enableCompileCache came in Node 22). The cache lives in the user's
 * cache folder (node/cacheDir.ts), keyed by the bundle's size and time, Node's version and the command;
 * without one the CLI just compiles.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { cacheDir, writeCacheFile } from '../node/cache/cacheDir';
import { startPrelaunch } from '../node/check/prelaunch';
import { shortHash } from '../node/cache/shortHash';

type MainModule = { runCli(): void };
type NodeModule = NodeJS.Module & { filename: string; paths: string[]; loaded: boolean; require(id: string): unknown };
// This module's own constructor is node:module's Module, without loading node:module (and the ESM loader with it).
const ModuleClass = module.constructor as unknown as {
  new (id: string, parent?: unknown): NodeModule;
  wrap(source: string): string;
  _nodeModulePaths(dir: string): string[];
};

/**
 * One cache per command (`check`, `lessons`, …): a cache holds the functions the run that made it compiled,
 * and a check compiles other functions than a listing. The name starts with the bundle and the command, so a
 * new build's cache replaces the old build's.
 */
function cacheFileFor(file: string, command: string): { cacheFile: string; stale: (name: string) => boolean } | undefined {
  const dir = cacheDir('v8');
  if (!dir) return undefined;
  const stat = fs.statSync(file);
  const prefix = `${shortHash(file)}.${/^[a-z]{1,16}$/.test(command) ? command : 'other'}.`;
  const name = `${prefix}${shortHash(`${stat.size}|${stat.mtimeMs}|${process.version}|${process.arch}`)}.cache`;
  return { cacheFile: path.join(dir, name), stale: (other) => other.startsWith(prefix) && other !== name };
}

function removeStale(dir: string, stale: (name: string) => boolean): void {
  try {
    for (const name of fs.readdirSync(dir)) if (stale(name)) fs.rmSync(path.join(dir, name), { force: true });
  } catch {
    // An old cache left behind costs only disk space.
  }
}

function loadWithCache(file: string, command: string): MainModule {
  const source = fs.readFileSync(file, 'utf8');
  const { cacheFile, stale } = cacheFileFor(file, command) ?? {};
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
    process.once('beforeExit', () => {
      writeCacheFile(cacheFile, script.createCachedData());
      removeStale(path.dirname(cacheFile), stale!);
    });
  }
  return mod.exports as MainModule;
}

// A check's first run starts now, beside loading the bundle, when the same check ran before (node/prelaunch.ts).
if (process.argv[2] === 'check') startPrelaunch(process.cwd(), process.argv.slice(2));

const main = path.join(__dirname, 'cli-main.js');
let cli: MainModule;
try {
  cli = loadWithCache(main, process.argv[2] ?? '');
} catch (error) {
  // A damaged cache or an unusual runtime: the plain way always works.
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the plain way, when the cache cannot be used
  cli = require(main) as MainModule;
}
cli.runCli();
