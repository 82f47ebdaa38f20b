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
 * Kills a run's process group and, if the run carries a word (a sandboxed run) and may still be in its sandbox's
 * setup, every process of ours carrying that word. The look through /proc is made only for a run stopped while
 * alive and before it printed anything (`heard`): one that ended by itself took its sandbox with it, and a
 * program that has printed runs under a sandbox already tied to its parent. So a normal end (each check's engine
 * worker, each run) costs no look.
 */
export function endRun(child: ChildProcess, runWord: string | undefined, heard: boolean): void {
  const alive = child.exitCode === null && child.signalCode === null;
  killGroup(child.pid);
  if (alive && !heard && runWord) endCarriers(runWord);
}
