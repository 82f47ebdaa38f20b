/**
 * How a run's processes are ended: its process group, and for a sandboxed run whatever carries its word.
 */
import type { ChildProcess } from 'node:child_process';
import { endCarriers } from '../sandbox/ownerMark';

export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

/**
 * Kills a run's process group and, if the run was still alive and carries a word (a sandboxed run), every
 * process of ours carrying that word. A run that ended by itself left nothing to look for: its sandbox ends with
 * its first child, so the look through /proc is made only for runs stopped while alive.
 */
export function endRun(child: ChildProcess, runWord: string | undefined): void {
  const alive = child.exitCode === null && child.signalCode === null;
  killGroup(child.pid);
  if (alive && runWord) endCarriers(runWord);
}
