/**
 * The mark a check service's client gives it, carried on the command line of every sandbox the service
 * starts, so that the client can end what a service that died without cleaning up (SIGKILL, the OOM killer)
 * left behind.
 *
 * Why the kernel's ties are not enough: bubblewrap's first child waits on an eventfd for its parent to
 * write the user namespace's maps before it does anything else, its own `--die-with-parent` included. An
 * outer bwrap killed in that gap (its tie to the service, parentDeath.ts, fires at any moment) leaves the
 * child as PID 1 of its own namespace, its parent init, waiting for ever, deaf to SIGTERM. Seen under load:
 * one in twenty services killed with SIGKILL under twelve checks. Only a process that outlives the service
 * can end it: the client, which sees the service exit.
 *
 * The mark is a random word, new for each service: a process carries it only if that service started it.
 * It is in the command line (readable for any process of ours, whatever namespace it is in), not in the
 * environment a learner's program sees.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';

/** The variable through which the client gives the service its mark. */
export const OWNER_MARK_VARIABLE = 'LESSON_COMPANION_OWNER_MARK';
const MARK = /^[0-9a-f]{16}$/;
const HAS_PROC = process.platform === 'linux' && fs.existsSync('/proc/self/cmdline');
const OWN_UID = typeof process.getuid === 'function' ? process.getuid() : -1;

/** A new mark for a service about to be started. */
export function newOwnerMark(): string {
  return randomBytes(8).toString('hex');
}

/** The mark this process (a check service) was given, if any. */
export function ownerMark(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const mark = env[OWNER_MARK_VARIABLE];
  return mark && MARK.test(mark) ? mark : undefined;
}

/**
 * The word that carries `mark` on a sandbox's command line: a variable name no one sets, so bubblewrap's
 * `--unsetenv` of it changes nothing inside.
 */
export function ownerWord(mark: string): string {
  return `LESSON_COMPANION_OWNED_BY_${mark}`;
}

/** This process's word, to put on the command line of each sandbox it starts; none outside a service. */
export function ownWord(): string | undefined {
  const mark = ownerMark();
  return mark ? ownerWord(mark) : undefined;
}

/** The pids of our own live processes whose command line holds `mark`'s word. */
export function processesOwnedBy(mark: string): number[] {
  return MARK.test(mark) ? processesCarrying(ownerWord(mark)) : [];
}

/**
 * A word new for each sandboxed run, carried on its command line as the service's word is. bubblewrap's first
 * child is a fork of the outer bwrap, so it carries the word too, and it is in a session of its own (no kill of
 * the run's process group reaches it). A run stopped while bwrap sets that child up (a check cancelled at the
 * start of a run) leaves it untied to anything, PID 1 of its namespace, running the learner's program for ever:
 * seen under load in checkService.test.ts. Only its command line finds it.
 */
export function newRunWord(): string {
  return `LESSON_COMPANION_RUN_${randomBytes(8).toString('hex')}`;
}

/** The pids of our own live processes whose command line holds `word`. */
export function processesCarrying(word: string): number[] {
  if (!HAS_PROC || word === '') return [];
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (OWN_UID >= 0 && fs.statSync(`/proc/${name}`).uid !== OWN_UID) continue;
      if (!fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(word)) continue;
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // An exited process only waiting to be reaped is not left running.
      if (!/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) found.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** SIGKILLs each of `pids`; returns how many were still there to kill. */
function killAll(pids: readonly number[]): number {
  let killed = 0;
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
      killed += 1;
    } catch {
      // Already gone.
    }
  }
  return killed;
}

/**
 * Kills every process of ours that carries a run's word: now (synchronously, as a CLI's exit needs), and once
 * more after `againMs`, since a fork under way at the first look carries the word only once it exists.
 */
export function endCarriers(word: string, againMs = 250): void {
  killAll(processesCarrying(word));
  setTimeout(() => killAll(processesCarrying(word)), againMs).unref();
}

/**
 * Kills every process the service marked `mark` left, in rounds: the first after the kernel's own ties have
 * had time to end what they hold (most of a killed service's sandboxes die with it), the next because a
 * process the dead service had forked but not yet turned into its sandbox carries the mark only once it has.
 * Resolves with how many were killed.
 */
export async function endOwnedBy(mark: string, roundsMs: readonly number[] = [250, 1000]): Promise<number> {
  let killed = 0;
  let waited = 0;
  for (const at of roundsMs) {
    // Unref'd: a process on its way out (the CLI at its end) does not wait for a sweep it no longer needs.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - waited)).unref());
    waited = at;
    killed += killAll(processesOwnedBy(mark));
  }
  return killed;
}
