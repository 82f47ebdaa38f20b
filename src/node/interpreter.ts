/**
 * The real interpreter behind a configured command, asked once per process. `python3` on PATH may be a
 * version manager's shell shim (pyenv) that costs a shell start on each run and that the sandbox cannot
 * follow; the interpreter itself knows where it is (`sys.executable`) and what it needs to see (its
 * prefixes: the standard library, site-packages, a virtual environment's base).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export type Runtime = 'python' | 'node';

export interface ResolvedInterpreter {
  /** What to run: the interpreter's own path (a venv's python stays the venv's, so it finds its packages). */
  readonly executable: string;
  /** Folders and files the interpreter reads at start: bound read-only in the sandbox. */
  readonly needs: readonly string[];
}

export type Resolution = { readonly ok: true; readonly interpreter: ResolvedInterpreter } | { readonly ok: false; readonly code: string };

const PYTHON_PROBE = 'import json, sys; print(json.dumps([sys.executable, sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]))';

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
    const executable = command === process.execPath ? process.execPath : await probe(command, ['-p', 'process.execPath']).then((r) => ('code' in r ? r : r.stdout.trim()));
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
  return { ok: true, interpreter: { executable, needs: [...prefixes.map(realpath), path.dirname(real), path.dirname(executable)] } };
}

/**
 * Resolves `command` (a name on PATH or a path) for `runtime`, once per process. A command that cannot be
 * started gives its error code (ENOENT for a missing interpreter), as starting it for a check would.
 */
export function resolveInterpreter(command: string, runtime: Runtime): Promise<Resolution> {
  const key = `${runtime}\0${command}`;
  let found = cache.get(key);
  if (!found) {
    found = resolveNow(command, runtime);
    cache.set(key, found);
    // An interpreter installed after a failed try must be found by the next check.
    void found.then((r) => {
      if (!r.ok) cache.delete(key);
    });
  }
  return found;
}
