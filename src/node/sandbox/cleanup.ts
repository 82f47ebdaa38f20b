/**
 * Nothing a check started may outlive it: every live learner process and every temporary folder is
 * registered here while it exists, so that a CLI stopped by Ctrl-C, or by an autograder's `timeout`
 * (SIGTERM), can end them all before it exits. A normal end unregisters them one by one.
 */
import * as fs from 'node:fs';
import { removeAfterDeath } from './folderReaper';

const stoppers = new Set<() => void>();
const tempDirs = new Set<string>();

/** Registers a way to end a live process (and what it started); call the returned function once it is gone. */
export function trackProcess(stop: () => void): () => void {
  stoppers.add(stop);
  return () => stoppers.delete(stop);
}

/**
 * Registers a temporary folder to remove if the CLI is stopped before it removes the folder itself; a CLI
 * killed with SIGKILL leaves it to the reaper (folderReaper.ts).
 */
export function trackTempDir(dir: string): () => void {
  tempDirs.add(dir);
  removeAfterDeath(dir);
  return () => tempDirs.delete(dir);
}

/** How many processes and folders are registered now: what a stop would have to clean up. */
export function liveCount(): { processes: number; tempDirs: number } {
  return { processes: stoppers.size, tempDirs: tempDirs.size };
}

/**
 * Ends every registered process and removes every registered folder, synchronously: it runs from a signal
 * handler and from `exit`, where nothing asynchronous happens any more.
 */
export function endEverything(): void {
  for (const stop of [...stoppers]) {
    try {
      stop();
    } catch {
      // Already gone; the others must still be ended.
    }
  }
  stoppers.clear();
  for (const dir of [...tempDirs]) removeTree(dir);
  tempDirs.clear();
}

/** Makes every folder under `dir` writable again: a program may have locked one to stay. */
function unlock(dir: string): void {
  try {
    fs.chmodSync(dir, 0o700);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }))
      if (entry.isDirectory()) unlock(`${dir}/${entry.name}`);
  } catch {
    // Not ours to change; the removal below says what it can.
  }
}

/** Removes a temporary folder, also one whose folders the program made unwritable; never throws. */
export function removeTree(dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  } catch {
    unlock(dir);
    try {
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      // Left behind; nothing more can be done without privileges.
    }
  }
}

const EXIT_ON: Record<'SIGINT' | 'SIGTERM' | 'SIGHUP', number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
let installed = false;

/**
 * For the CLI: on SIGINT, SIGTERM or SIGHUP, end everything it started and exit with 128 + the signal's
 * number, as a shell reports a command stopped by that signal. Also cleans up on any other exit.
 */
export function endEverythingOnSignals(err: (text: string) => void = (t) => process.stderr.write(t)): void {
  if (installed) return;
  installed = true;
  for (const [signal, code] of Object.entries(EXIT_ON)) {
    process.on(signal, () => {
      const { processes } = liveCount();
      endEverything();
      err(
        `lesson-companion: stopped by ${signal}${processes > 0 ? '; the learner program it was running was stopped too' : ''}.\n`,
      );
      process.exit(code);
    });
  }
  process.on('exit', endEverything);
}
