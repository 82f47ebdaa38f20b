/**
 * Runs that failed for the machine, not for the program: a process the system could not make (no process slot,
 * no memory, no file descriptor left: a fork bomb elsewhere, a busy CI runner), or a sandbox that failed to set
 * itself up before the program started (bubblewrap says so on stderr, in its own name, and the program printed
 * nothing). Such a run says nothing of the learner's code: taken as its outcome, it read as a program that
 * "stopped answering" on one of two runs, or as an interpreter to install. It is run again after a pause.
 */
import type { ProcessResult } from '../../core/check/process';

/** spawn's errors that a moment later may not happen: resources of the whole machine, not a missing command. */
const PASSING_START_ERRORS = new Set(['EAGAIN', 'ENOMEM', 'EMFILE', 'ENFILE']);
/** What the sandbox and the tools around the program print, in their own name, when they fail before it runs. */
const SETUP_FAILED = /^(bwrap|unshare|setpriv|prlimit): /;
/** Pauses before each further try: a machine out of processes needs a moment to free some. */
export const MACHINE_RETRY_PAUSES_MS: readonly number[] = [100, 400];

/** Whether `result` failed for the machine, not for the program (in a sandbox when `sandboxed`). */
export function failedForTheMachine(result: ProcessResult, sandboxed: boolean): boolean {
  if (result.startError) return PASSING_START_ERRORS.has(result.startError.code);
  return (
    sandboxed &&
    result.stdout === '' &&
    result.exitCode !== 0 &&
    result.exitCode !== null &&
    !result.timedOut &&
    SETUP_FAILED.test(result.stderr)
  );
}

/**
 * Runs `once` and, while its result failed for the machine, again after each pause; the last result stands (a
 * sandbox that never sets up is said as the run's own error). A cancelled run is not tried again.
 */
export async function runPastMachineFailures(
  once: () => Promise<ProcessResult>,
  sandboxed: boolean,
  signal?: AbortSignal,
  pausesMs: readonly number[] = MACHINE_RETRY_PAUSES_MS,
): Promise<ProcessResult> {
  let result = await once();
  for (const pause of pausesMs) {
    if (!failedForTheMachine(result, sandboxed) || signal?.aborted) break;
    await new Promise((resolve) => setTimeout(resolve, pause));
    if (signal?.aborted) break;
    result = await once();
  }
  return result;
}
