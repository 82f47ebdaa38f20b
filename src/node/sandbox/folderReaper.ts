/**
 * Temporary folders that outlive a CLI killed with SIGKILL. cleanup.ts removes them on Ctrl-C, SIGTERM and
 * every normal end, but SIGKILL runs nothing of ours (an autograder's hard timeout sends it), and a run's
 * private working folder (contain.ts) or transpiled TypeScript (languages.ts) would stay in the temp folder.
 *
 * So the first folder registered starts a reaper: a small `sh` in its own session, reading the folders'
 * paths, one per line, from a pipe only this process holds. The kernel closes that pipe when this process
 * dies, however it dies; the reaper then sees the end of its input and removes every folder it was told
 * about (those already removed are nothing to it) and ends. While this process lives it only waits on
 * `read`, using no time. Only paths this process made with mkdtemp are ever sent; a path holding a
 * newline (a TMPDIR with one) is not, as it would be read as two.
 *
 * Not on Windows (no `sh`; a killed CLI's folders there stay, as before).
 */
import type { ChildProcess } from 'node:child_process';

// No globbing; collect the paths, then at the end of input remove each (unlocking the folders a program
// made unwritable, if the first removal fails). Only absolute paths are accepted.
const SCRIPT =
  'set -f; ' +
  'while IFS= read -r d; do set -- "$@" "$d"; done; ' +
  'for d in "$@"; do case "$d" in /*) rm -rf -- "$d" 2>/dev/null || { chmod -R u+rwx -- "$d" 2>/dev/null; rm -rf -- "$d" 2>/dev/null; } ;; esac; done';

let reaper: ChildProcess | null | undefined;

function started(): ChildProcess | null {
  if (reaper !== undefined) return reaper;
  if (process.platform === 'win32') return (reaper = null);
  try {
    // Loaded here, not with this module: every CLI command loads this module (cleanup.ts), and child_process
    // (with net, dgram and streams behind it) is a tenth of a `lessons` start that starts no process.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { spawn } = require('node:child_process') as typeof import('node:child_process');
    const child = spawn('/bin/sh', ['-c', SCRIPT], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { PATH: '/usr/bin:/bin' },
    });
    child.on('error', () => {
      reaper = null;
    });
    child.stdin!.on('error', () => undefined);
    // Neither the reaper nor its pipe keeps this process alive: it exits when it would have.
    child.unref();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    reaper = child;
  } catch {
    reaper = null;
  }
  return reaper;
}

/** Asks the reaper to remove `dir` once this process is gone, if it still exists then. */
export function removeAfterDeath(dir: string): void {
  if (!dir.startsWith('/') || /[\n\r\0]/.test(dir)) return;
  const child = started();
  if (child?.stdin?.writable) child.stdin.write(`${dir}\n`);
}
