/**
 * Ties a child process's life to the CLI's, even when the CLI is killed with SIGKILL and runs no cleanup
 * (an autograder's hard timeout): util-linux `setpriv --pdeathsig KILL` asks the kernel to send the child
 * SIGKILL when its parent dies, then runs the command in its place. Node cannot set PR_SET_PDEATHSIG itself.
 *
 * What it covers: the process we start, and through it a PID namespace (unshare's `--kill-child` then ends
 * its first process, and the kernel everything else inside). What it does not: a process that the child
 * forks outside a sandbox (the setting is not inherited), which only the sweep of descendants.ts finds, and
 * only while the CLI lives. Without `setpriv` (not Linux, or a system without util-linux) nothing is tied.
 */
import { onPath } from './sandbox';

let setpriv: string | null | undefined;

/** `command args` run so that it gets SIGKILL when the CLI dies, where Linux and `setpriv` allow it. */
export function tiedToParent(command: string, args: readonly string[]): { command: string; args: string[] } {
  if (process.platform !== 'linux') return { command, args: [...args] };
  setpriv ??= onPath('setpriv') ?? null;
  if (!setpriv) return { command, args: [...args] };
  return { command: setpriv, args: ['--pdeathsig', 'KILL', '--', command, ...args] };
}
