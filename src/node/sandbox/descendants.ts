/**
 * Without a sandbox, the learner's process group is not enough: a grandchild that calls `setsid` (or is
 * spawned `detached`) leaves the group and lives on. This finds such processes through /proc (Linux) three
 * ways, so that each covers what the others miss:
 * - the process tree, polled while the program runs (a descendant's parent link is lost once its parent
 *   exits, so it is recorded while it is still there);
 * - the session and process group of every recorded process (children of a `setsid` grandchild);
 * - a marker in the environment the program was started with, which its descendants inherit (one that
 *   a `setsid` grandchild started and left before the first poll);
 * - the run's own stdin, stdout and stderr pipes, which a descendant holds open unless it closes or
 *   redirects them: this finds one that also emptied its environment (`setsid nohup env -i sleep 300`).
 * What none of them finds: a process that left the tree before a poll, cleared its environment and closed
 * or redirected its standard streams (a daemon done by the book). Only a sandbox holds that one.
 * Where /proc does not exist (macOS), only the process group is killed.
 */
import * as fs from 'node:fs';

interface ProcEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
  readonly session: number;
  /** Clock ticks after boot: with the pid, names one process even when pids are reused. */
  readonly start: string;
}

const HAS_PROC = process.platform === 'linux' && fs.existsSync('/proc/self/stat');
const HAS_CHILDREN_LISTS = HAS_PROC && fs.existsSync(`/proc/self/task/${process.pid}/children`);
const OWN_UID = typeof process.getuid === 'function' ? process.getuid() : -1;

function readEntry(pid: number): ProcEntry | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (name) state ppid pgrp session ..." — the name may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return undefined; // exited, only waiting to be reaped
    return { pid, ppid: Number(fields[1]), pgrp: Number(fields[2]), session: Number(fields[3]), start: fields[19]! };
  } catch {
    return undefined;
  }
}

function allProcesses(): ProcEntry[] {
  const entries: ProcEntry[] = [];
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return entries;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const entry = readEntry(Number(name));
    if (entry) entries.push(entry);
  }
  return entries;
}

/** The children of every thread of `pid` (a child belongs to the thread that started it). */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return children;
  }
  for (const task of tasks) {
    try {
      for (const word of fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' '))
        if (word) children.push(Number(word));
    } catch {
      // The thread ended.
    }
  }
  return children;
}

/**
 * The data memory (heap, in KiB) of `pid` and all its descendants, 0 where /proc cannot tell: whether a
 * silent program is busy filling its memory (it will run out) or really stopped.
 */
export function treeDataKiB(pid: number): number {
  if (!HAS_CHILDREN_LISTS) return 0;
  let total = 0;
  const queue = [pid];
  const seen = new Set<number>();
  while (queue.length > 0 && seen.size < 1000) {
    const next = queue.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    try {
      total += Number(/^VmData:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${next}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      continue;
    }
    queue.push(...childrenOf(next));
  }
  return total;
}

/** The pipes and socket pairs (as `pipe:[inode]`, `socket:[inode]`) among the standard streams of `pid`. */
function standardPipes(pid: number): Set<string> {
  const pipes = new Set<string>();
  for (const fd of [0, 1, 2]) {
    try {
      const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      // Node's stdio pipes are socket pairs.
      if (target.startsWith('pipe:') || target.startsWith('socket:')) pipes.add(target);
    } catch {
      // Closed, or the process is gone.
    }
  }
  return pipes;
}

/** Whether `pid` (one of ours) holds one of `pipes` open on any descriptor. */
function holdsPipe(pid: number, pipes: ReadonlySet<string>): boolean {
  if (pipes.size === 0) return false;
  try {
    if (OWN_UID >= 0 && fs.statSync(`/proc/${pid}`).uid !== OWN_UID) return false;
    const fds = fs.readdirSync(`/proc/${pid}/fd`);
    return fds.slice(0, 1024).some((fd) => {
      try {
        return pipes.has(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

function hasMarker(pid: number, marker: string): boolean {
  try {
    if (OWN_UID >= 0 && fs.statSync(`/proc/${pid}`).uid !== OWN_UID) return false;
    return fs.readFileSync(`/proc/${pid}/environ`).includes(marker);
  } catch {
    return false;
  }
}

export class DescendantTracker {
  /** pid → start time of every process seen as a descendant (the root included). */
  private readonly known = new Map<number, string>();
  private readonly rootStart: bigint;
  /** The run's own stdin/stdout/stderr pipes, read when it starts. */
  private readonly pipes: ReadonlySet<string>;

  /**
   * @param root the pid of the process started
   * @param marker `NAME=value` put in its environment, unique to this run; found in descendants' environments
   */
  constructor(
    private readonly root: number,
    private readonly marker?: string,
  ) {
    const entry = HAS_PROC ? readEntry(root) : undefined;
    if (entry) this.known.set(root, entry.start);
    this.rootStart = BigInt(entry?.start ?? 0);
    // Only pipes made for this run: not the CLI's own streams, which a program run by hand inherits.
    const own = standardPipes(process.pid);
    this.pipes = entry ? new Set([...standardPipes(root)].filter((pipe) => !own.has(pipe))) : new Set();
  }

  /**
   * Records the processes that descend from the known ones now. Cheap enough to call every 100 ms: it reads
   * the children lists of the run's own processes, not the whole process table (unless the kernel has none).
   */
  poll(): void {
    if (!HAS_PROC) return;
    if (!HAS_CHILDREN_LISTS) {
      this.findFrom(allProcesses(), false);
      return;
    }
    const queue = [...this.known.keys()];
    const seen = new Set<number>();
    while (queue.length > 0) {
      const pid = queue.pop()!;
      if (seen.has(pid)) continue;
      seen.add(pid);
      for (const child of childrenOf(pid)) {
        if (seen.has(child)) continue;
        const entry = readEntry(child);
        if (!entry) continue;
        this.known.set(child, entry.start);
        queue.push(child);
      }
    }
  }

  /**
   * Kills every process found to belong to the run, until none is left (a fork bomb keeps forking while it
   * is being killed: each round stops what it finds before killing it). Returns how many were killed.
   */
  killAll(): number {
    try {
      process.kill(-this.root, 'SIGKILL');
    } catch {
      // The group is already gone.
    }
    if (!HAS_PROC) return 0;
    let killed = 0;
    for (let round = 0; round < 50; round++) {
      const targets = this.findFrom(allProcesses(), true).filter((p) => p.pid !== process.pid);
      if (targets.length === 0) break;
      for (const target of targets) signal(target.pid, 'SIGSTOP');
      for (const target of targets) signal(target.pid, 'SIGKILL');
      killed += targets.length;
    }
    return killed;
  }

  /** The live processes of this run among `processes`, recording new ones. */
  private findFrom(processes: readonly ProcEntry[], withMarker: boolean): ProcEntry[] {
    const live = processes.filter((p) => this.known.get(p.pid) === p.start);
    // A session or group id stays reserved while the session or group exists, so a member of the session of
    // a known pid is the run's, unless that pid now names another process (the run's one ended long ago).
    const reused = new Set(
      processes.filter((p) => this.known.has(p.pid) && this.known.get(p.pid) !== p.start).map((p) => p.pid),
    );
    const groups = new Set([...this.known.keys()].filter((pid) => !reused.has(pid)));
    const found = new Map(live.map((p) => [p.pid, p]));
    const add = (p: ProcEntry): void => {
      if (found.has(p.pid)) return;
      found.set(p.pid, p);
      this.known.set(p.pid, p.start);
      grew = true;
    };
    let grew = true;
    while (grew) {
      grew = false;
      for (const p of processes) {
        if (found.has(p.pid)) continue;
        // A child of a process of the run, or a member of a session or group one of them leads.
        if (found.has(p.ppid) || (groups.has(p.session) && p.session !== 0) || (groups.has(p.pgrp) && p.pgrp !== 0))
          add(p);
      }
    }
    if (withMarker) {
      // Only a process started after the run's first one can be its descendant: the others are not read.
      for (const p of processes) {
        if (found.has(p.pid) || p.pid === process.pid || BigInt(p.start) < this.rootStart) continue;
        if ((this.marker && hasMarker(p.pid, this.marker)) || holdsPipe(p.pid, this.pipes)) add(p);
      }
    }
    return [...found.values()];
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}
