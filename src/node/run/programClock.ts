/**
 * How long a silent program has had to answer, in the program's own time: the CPU time its whole process tree
 * used while it wanted to run, and the wall time while it slept. A program waiting for a core on a loaded machine
 * is not charged for the wait, so a second of silence means the same on a busy laptop as on a quiet one: a
 * spinning hang is charged its CPU, a sleeping one the clock. Inside a sandbox the spawned process is bubblewrap
 * (or unshare) and the program one of its descendants: the whole tree is read (/proc/<pid>/stat, utime + stime,
 * and cutime + cstime for children already reaped). Where /proc cannot tell, the wall clock is all there is.
 */
import * as fs from 'node:fs';
import { childrenOf } from '../sandbox/descendants';

/** /proc reports times in USER_HZ ticks, 100 a second on every Linux architecture Node runs on. */
const MS_PER_TICK = 10;
/** Processes read per sample at most: a fork bomb must not make the watch itself slow. */
const MAX_PROCESSES = 200;

export interface TreeSample {
  /** CPU time of the tree so far, in ms; undefined where /proc cannot be read. */
  readonly cpuMs: number | undefined;
  /** Every thread of every process is asleep (waiting on something), none runnable or in uninterruptible I/O. */
  readonly sleeping: boolean;
  /**
   * The process itself has exited (a zombie this process has not reaped yet, or gone): the program is over, and
   * its silence since is not its own. On a loaded machine the exit can wait a second or more to be heard.
   */
  readonly ended?: boolean;
}

/** CPU time and state of `pid` and all its descendants. */
export function sampleTree(pid: number): TreeSample {
  let cpuMs = 0;
  let read = false;
  let sleeping = true;
  const queue = [pid];
  const seen = new Set<number>();
  let ended = false;
  while (queue.length > 0 && seen.size < MAX_PROCESSES) {
    const next = queue.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    let fields: string[];
    try {
      const stat = fs.readFileSync(`/proc/${next}/stat`, 'utf8');
      fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    } catch {
      if (next === pid) ended = true;
      continue; // it ended while we looked
    }
    if (next === pid && (fields[0] === 'Z' || fields[0] === 'X')) ended = true;
    read = true;
    // After the name: state, ppid, …; utime, stime, cutime, cstime are fields 14 to 17 of the line.
    cpuMs += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * MS_PER_TICK;
    if (sleeping && !threadsAsleep(next, fields[0]!)) sleeping = false;
    queue.push(...childrenOf(next));
  }
  return { cpuMs: read ? cpuMs : undefined, sleeping: read && sleeping, ...(ended ? { ended } : {}) };
}

/**
 * Whether every thread of `pid` sleeps (S, or stopped or dead); the process's own state stands for a thread gone.
 * A thread waiting to write into a full pipe does not: it has output that its reader (this process, when it is
 * starved of CPU) has not taken yet, so its wait is the reader's, not silence of its own.
 */
function threadsAsleep(pid: number, processState: string): boolean {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return asleep(processState);
  }
  for (const task of tasks) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      if (!asleep(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3))) return false;
      if (writingToFullPipe(pid, task)) return false;
    } catch {
      // the thread ended
    }
  }
  return true;
}

/**
 * Whether a sleeping thread waits to write into a full pipe, by the kernel function it waits in: a pipe's
 * `anon_pipe_write` (`pipe_write` on older kernels), or `sock_alloc_send_pskb` for the socket pair Node gives a
 * child as its stdout.
 */
function writingToFullPipe(pid: number, task: string): boolean {
  try {
    return /pipe_write|sock_alloc_send/.test(fs.readFileSync(`/proc/${pid}/task/${task}/wchan`, 'utf8'));
  } catch {
    return false; // not readable here: judged by its state alone
  }
}

const asleep = (state: string): boolean =>
  state === 'S' || state === 'T' || state === 't' || state === 'Z' || state === 'X' || state === 'I';

/**
 * The silence a program is charged for since a moment (its last answer, or the end of its input), from samples
 * taken when asked: between two samples it is charged the CPU time it used, or the wall time when it slept at
 * both. Sampled where the runner would otherwise judge by the clock, so a silent program costs a few reads of
 * /proc a second and a talkative one none.
 */
export class ProgramClock {
  private last: { at: number; cpuMs: number | undefined; sleeping: boolean; ended?: boolean } | undefined;
  /** The silence charged since `since`: all of it, and the part charged by its CPU time (not by the clock). */
  private charge = { since: Number.NaN, ms: 0, cpuMs: 0 };

  constructor(
    private readonly pid: number | undefined,
    private readonly sample: (pid: number) => TreeSample = sampleTree,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes a sample now, so that the silence after it is charged by what the program does from here. */
  mark(): void {
    this.chargedSince(this.now());
  }

  /** The silence since `since` (a time on the same clock) the program is charged for, in ms. */
  chargedSince(since: number): number {
    const at = this.now();
    const now = this.pid === undefined ? { cpuMs: undefined, sleeping: false } : this.sample(this.pid);
    const last = this.last;
    this.last = { at, ...now };
    if (this.charge.since !== since) this.charge = { since, ms: 0, cpuMs: 0 };
    const from = Math.max(since, last?.at ?? since);
    const span = at - from;
    // Over by now: the end of its silence was its exit, not a hang (an exit not heard yet is the load's).
    if (span <= 0 || now.ended) return this.charge.ms;
    // Asleep at both samples, no /proc, or no sample yet to compare with: the wall clock, at full rate.
    let rate = 1;
    if (last && last.cpuMs !== undefined && now.cpuMs !== undefined && !(last.sleeping && now.sleeping)) {
      const elapsed = at - last.at;
      // Ticks are 10 ms: over a short span a busy program can show none; the wall clock bounds it either way.
      rate = elapsed > 0 ? Math.min(1, (now.cpuMs - last.cpuMs) / elapsed) : 1;
      this.charge.cpuMs += span * rate;
    }
    this.charge.ms += span * rate;
    return this.charge.ms;
  }

  /**
   * The part of the silence since `since` charged by the program's CPU time (as of the last chargedSince): a
   * program that used the whole stall limit's CPU while silent hangs whatever the load, since waiting for a core
   * is never charged. The rest was charged by the clock while it slept, which a loaded machine can stretch.
   */
  chargedByCpuSince(since: number): number {
    return this.charge.since === since ? this.charge.cpuMs : 0;
  }

  /** Whether every thread of the program slept at the last sample (waiting on something, not for a core). */
  get asleep(): boolean {
    return (this.last?.sleeping ?? false) && !this.ended;
  }

  /** Whether the program had exited at the last sample, before this process heard of it. */
  get ended(): boolean {
    return this.last?.ended ?? false;
  }
}
