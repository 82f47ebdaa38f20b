/**
 * The real interpreter behind a configured command, asked once per process. `python3` on PATH may be a
 * version manager's shell shim (pyenv) that costs a shell start on each run and that the sandbox cannot
 * follow; the interpreter itself knows where it is (`sys.executable`) and what it needs to see (its
 * prefixes: the standard library, site-packages, a virtual environment's base).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { cacheDir, writeCacheFile } from '../cache/cacheDir';

export type Runtime = 'python' | 'node';

export interface ResolvedInterpreter {
  /** What to run: the interpreter's own path (a venv's python stays the venv's, so it finds its packages). */
  readonly executable: string;
  /** Folders and files the interpreter reads at start: bound read-only in the sandbox. */
  readonly needs: readonly string[];
}

export type Resolution =
  { readonly ok: true; readonly interpreter: ResolvedInterpreter } | { readonly ok: false; readonly code: string };

const PYTHON_PROBE =
  'import json, sys; print(json.dumps([sys.executable, sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]))';

const cache = new Map<string, Promise<Resolution>>();

function realpath(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

function probe(command: string, args: readonly string[]): Promise<{ stdout: string } | { code: string }> {
  return new Promise((resolve) => {
    execFile(command, [...args], { timeout: 15_000, encoding: 'utf8', windowsHide: true }, (error, stdout) => {
      if (!error) resolve({ stdout });
      else resolve({ code: typeof error.code === 'string' ? error.code : 'ERROR' });
    });
  });
}

async function resolveNow(command: string, runtime: Runtime): Promise<Resolution> {
  if (runtime === 'node') {
    const executable =
      command === process.execPath
        ? process.execPath
        : await probe(command, ['-p', 'process.execPath']).then((r) => ('code' in r ? r : r.stdout.trim()));
    if (typeof executable !== 'string') return { ok: false, code: executable.code };
    // Node is one file; the libraries it links are in /usr.
    const real = realpath(executable);
    return { ok: true, interpreter: { executable: real, needs: [real] } };
  }
  const result = await probe(command, ['-c', PYTHON_PROBE]);
  if ('code' in result) return { ok: false, code: result.code };
  let paths: string[];
  try {
    paths = (JSON.parse(result.stdout) as unknown[]).filter((p): p is string => typeof p === 'string' && p !== '');
  } catch {
    return { ok: false, code: 'ERROR' };
  }
  const [executable, ...prefixes] = paths;
  if (!executable) return { ok: false, code: 'ERROR' };
  const real = realpath(executable);
  return {
    ok: true,
    interpreter: { executable, needs: [...prefixes.map(realpath), path.dirname(real), path.dirname(executable)] },
  };
}

/** The file that starting `command` runs first (a shim or the interpreter): found on PATH as the OS would. */
function onPath(command: string): string | undefined {
  const candidates =
    command.includes('/') || command.includes(path.sep)
      ? [path.resolve(command)]
      : (process.env.PATH ?? '')
          .split(path.delimiter)
          .filter(Boolean)
          .map((dir) => path.join(dir, command));
  for (const file of candidates) {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Files by which version managers (pyenv, asdf, nvm, fnm) choose what a shim starts, from here up. */
const VERSION_FILES: Record<Runtime, readonly string[]> = {
  python: ['.python-version', '.tool-versions'],
  node: ['.nvmrc', '.node-version', '.tool-versions'],
};
const SELECTING_ENV = [
  'PATH',
  'PYENV_VERSION',
  'PYENV_ROOT',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'PYTHONHOME',
  'ASDF_PYTHON_VERSION',
  'ASDF_NODEJS_VERSION',
  'NVM_BIN',
];

/**
 * Everything that decides what `command` resolves to, as a key; undefined when the command is not there
 * (then it is asked, and its error reported). The same key later means the same interpreter.
 */
function resolutionKey(command: string, runtime: Runtime): string | undefined {
  const file = onPath(command);
  if (!file) return undefined;
  const hash = createHash('sha256').update(`1\0${runtime}\0${command}\0${process.cwd()}\0`);
  for (const name of SELECTING_ENV) hash.update(`${name}=${process.env[name] ?? ''}\0`);
  const stamp = (f: string): string => {
    try {
      const stat = fs.statSync(f);
      return `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
    } catch {
      return '-';
    }
  };
  hash.update(`${file}\0${stamp(file)}\0`);
  const pyenvRoot = process.env.PYENV_ROOT ?? path.join(os.homedir(), '.pyenv');
  const selectors = [path.join(pyenvRoot, 'version')];
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    for (const name of VERSION_FILES[runtime]) selectors.push(path.join(dir, name));
    if (path.dirname(dir) === dir) break;
  }
  for (const selector of selectors) {
    let content = '';
    try {
      content = fs.readFileSync(selector, 'utf8');
    } catch {
      // none here
    }
    hash.update(`${selector}\0${content}\0`);
  }
  return hash.digest('hex');
}

/**
 * A resolution kept from an earlier CLI process: asking a shim costs a shell and an interpreter start
 * (a fifth of a second under pyenv) on every check otherwise. Used only while the files it names are there,
 * and only when it names what the command could have resolved to (plausibleRecord).
 */
function remembered(key: string, command: string): Resolution | undefined {
  const dir = cacheDir('interpreters');
  if (!dir) return undefined;
  try {
    const data = JSON.parse(fs.readFileSync(path.join(dir, `${key}.json`), 'utf8')) as {
      executable?: unknown;
      needs?: unknown;
    };
    if (
      typeof data.executable !== 'string' ||
      !Array.isArray(data.needs) ||
      !data.needs.every((n): n is string => typeof n === 'string')
    )
      return undefined;
    if (![data.executable, ...data.needs].every((f) => fs.existsSync(f))) return undefined;
    if (!plausibleRecord(command, data.executable, data.needs)) return undefined;
    return { ok: true, interpreter: { executable: data.executable, needs: data.needs } };
  } catch {
    return undefined;
  }
}

const inside = (child: string, parent: string): boolean =>
  child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);

/**
 * The record is the user's file, and a program checked with `--sandbox=off` runs as the user: it could
 * point the record at a fake interpreter that ignores the learner's file and prints right answers, and
 * list a folder of its choosing for the sandbox to show. So a record is used only when it names what the
 * command itself could resolve to: the file PATH finds (or a link beside it, a virtual environment's
 * `python`), or, for a version manager's shim (`…/shims/python3`), a file inside that manager's folder
 * (`~/.pyenv`, `~/.asdf`); and when every folder it asks the sandbox to show holds the interpreter (its
 * prefixes, its bin folder), never `/` or the home folder. Anything else is asked again. (What the record
 * could name, the user's own version files could select as well: the record adds no way in.)
 */
function plausibleRecord(command: string, executable: string, needs: readonly string[]): boolean {
  const started = onPath(command);
  if (!started) return false;
  const real = realpath(executable);
  const startedReal = realpath(started);
  // A shim's manager keeps its versions beside its shims folder (~/.pyenv/shims, ~/.pyenv/versions/…).
  const shimRoot = path.basename(path.dirname(started)) === 'shims' ? path.dirname(path.dirname(started)) : undefined;
  const underShimRoot = shimRoot !== undefined && (inside(executable, shimRoot) || inside(real, realpath(shimRoot)));
  const named = real === startedReal || path.dirname(executable) === path.dirname(started) || underShimRoot;
  if (!named) return false;
  const home = realpath(os.homedir());
  const holders = [path.dirname(real), path.dirname(executable)];
  return needs.every((need) => {
    const n = realpath(need);
    if (n === path.parse(n).root || inside(home, n)) return false;
    return n === real || n === executable || holders.some((h) => inside(h, n));
  });
}

function remember(key: string, resolution: Resolution): void {
  const dir = cacheDir('interpreters');
  if (dir && resolution.ok) writeCacheFile(path.join(dir, `${key}.json`), JSON.stringify(resolution.interpreter));
}

/** Exported for tests: one resolution, through the on-disk memory but not this process's. */
export async function resolveRemembered(command: string, runtime: Runtime): Promise<Resolution> {
  if (runtime === 'node' && command === process.execPath) return resolveNow(command, runtime);
  const key = resolutionKey(command, runtime);
  const known = key ? remembered(key, command) : undefined;
  if (known) return known;
  const resolution = await resolveNow(command, runtime);
  if (key) remember(key, resolution);
  return resolution;
}

/**
 * Resolves `command` (a name on PATH or a path) for `runtime`, once per process. A command that cannot be
 * started gives its error code (ENOENT for a missing interpreter), as starting it for a check would.
 */
export function resolveInterpreter(command: string, runtime: Runtime): Promise<Resolution> {
  const key = `${runtime}\0${command}`;
  let found = cache.get(key);
  if (!found) {
    found = resolveRemembered(command, runtime);
    cache.set(key, found);
    // An interpreter installed after a failed try must be found by the next check.
    void found.then((r) => {
      if (!r.ok) cache.delete(key);
    });
  }
  return found;
}
