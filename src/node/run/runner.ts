/**
 * Runs one learner program as a real process, bounded in time and output. The process gets its own
 * process group so that everything it started can be killed together; where no sandbox holds it, a sweep
 * through /proc also finds what left the group (descendants.ts). Every live run is registered with
 * cleanup.ts, so a CLI stopped by a signal ends it too.
 */
import { randomBytes } from 'node:crypto';
import type { ProcessResult } from '../../core/check/process';
import { trackProcess } from '../sandbox/cleanup';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnPlan, spawnPlanned, type SpawnRequest } from './spawnPlan';
import { endRun } from './endRun';
import { DescendantTracker, treeDataKiB } from '../sandbox/descendants';
import { ProgramClock } from './programClock';
import { StderrKeeper } from './stderrKeeper';

/** What to spawn (spawnPlan.ts), and the limits and watches of the run. */
export interface ProcessSpec extends SpawnRequest {
  readonly timeLimitMs: number;
  /** Cap on stdout; the program is stopped when it prints more. */
  readonly outputLimitBytes: number;
  /** Cap on the stderr kept (its head and its tail); stderr alone never stops the program. */
  readonly stderrLimitBytes?: number;
  /**
   * Once all input is written, a program that prints nothing on stdout for this long of its own time (CPU
   * time while it runs, the clock while it sleeps: programClock.ts) is stopped as stalled (a hang, whether it
   * spins or sleeps). 0 turns it off.
   */
  readonly stallMs?: number;
  /** Without a sandbox: follow the program's descendants through /proc and kill them with it. */
  readonly sweepDescendants?: boolean;
  /**
   * In a sandbox: the word only this run's command line carries. A run stopped while it lives also ends every
   * process of ours that carries it (the sandbox's first child, which a stop during its setup leaves untied:
   * ownerMark.ts).
   */
  readonly runWord?: string;
  /** The memory limit (MiB) the command line applies, to recognise a program that ran into it. */
  readonly memoryLimitMiB?: number;
  /** A cancelled check: the run is stopped when it aborts, or at once if it has already (it raced the cancel). */
  readonly signal?: AbortSignal;
}

export const DEFAULT_STDERR_LIMIT_BYTES = 64 * 1024;
export const DEFAULT_STALL_MS = 1000;
/** A program that has printed nothing yet also gets this long to start (an interpreter on a loaded machine). */
const START_GRACE_MS = 2000;
export const SWEEP_EVERY_MS = 100;
/** How often a silent program's CPU time is read once the clock says it stalled but its CPU time does not yet. */
const RECHECK_MS = 200;
/**
 * The time limit is charged in the program's own time too (programClock.ts), so a run that waited for a core is
 * not stopped for the load (a quarter of a core is common on a busy 2-core machine, far less when it is
 * overloaded); but by the clock no run lasts more than this many times its limit (one that neither runs nor
 * sleeps, stuck in the kernel, is charged nothing).
 */
const TIME_LIMIT_WALL_FACTOR = 20;
/** A silent program whose memory grew this much since the last look is filling it, not stopped. */
const MEMORY_GROWTH_KIB = 16 * 1024;

/** What interpreters print when an allocation fails under a memory limit. */
export const OUT_OF_MEMORY =
  /^MemoryError\b|JavaScript heap out of memory|Array buffer allocation failed|std::bad_alloc|Cannot allocate memory|out of memory/im;

/** Runs `spec` with `input`: a fresh process every time. */
export function runProcess(spec: ProcessSpec, input: string): Promise<ProcessResult> {
  const started = performance.now();
  return new Promise((resolve) => new ProgramRun(spec, started, resolve).feed(input));
}

type ExitResult = Pick<ProcessResult, 'exitCode' | 'signal' | 'startError'>;

/**
 * One run, from its spawn to its result: what it printed, which limit it ran into, and the watches on it (the
 * time limit, the stall watch, the sweep of its descendants). Every way out goes through finish(), once.
 */
class ProgramRun {
  private readonly stallMs: number;
  // Raw chunks, decoded once at the end: a character split across two chunks must not turn into garbage.
  private readonly stdout: Buffer[] = [];
  private readonly stderr: StderrKeeper;
  private bytes = 0;
  private lastOutput = performance.now();
  private lastStdout: number | undefined;
  private inputWritten: number | undefined;
  private timedOut = false;
  private stalled = false;
  /** It stalled on its own CPU time alone (programClock.ts): a hang no load could have caused. */
  private stalledOnCpu = false;
  /** How long it had printed nothing when it was called stalled, in ms (the sentence says it). */
  private silentMs: number | undefined;
  private outputLimited = false;
  private settled = false;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly tracker: DescendantTracker | undefined;
  private readonly untrack: () => void;
  private readonly sweeper: NodeJS.Timeout | undefined;
  private timer: NodeJS.Timeout;
  private readonly watchMemory: boolean;
  /** The program's memory when the watch began or was last judged: growth since then is being busy. */
  private memoryBefore: number | undefined;
  private busyFrom: number | undefined;
  private stallTimer: NodeJS.Timeout | undefined;
  /** When the started process exited: from then on only its leftovers hold the pipes, and it is not stalled. */
  private exitedAt: number | undefined;
  private readonly clock: ProgramClock;
  /** The time limit's own clock: charged from the start, apart from the stall watch's silences. */
  private readonly limitClock: ProgramClock;

  constructor(
    private readonly spec: ProcessSpec,
    private readonly started: number,
    private readonly resolve: (result: ProcessResult) => void,
  ) {
    this.stallMs = spec.stallMs ?? DEFAULT_STALL_MS;
    this.stderr = new StderrKeeper(spec.stderrLimitBytes ?? DEFAULT_STDERR_LIMIT_BYTES);
    // Unique to this run, inherited by all it starts: how the sweep recognises its descendants.
    const runId = spec.sweepDescendants ? randomBytes(12).toString('hex') : undefined;
    const child = (this.child = spawnPlanned(spawnPlan(spec, runId)));
    const tracker = (this.tracker =
      runId && child.pid !== undefined ? new DescendantTracker(child.pid, `LESSON_COMPANION_RUN=${runId}`) : undefined);
    this.untrack = trackProcess(() => this.stop());
    this.sweeper = tracker ? setInterval(() => tracker.poll(), SWEEP_EVERY_MS) : undefined;
    if (tracker) setTimeout(() => tracker.poll(), 20).unref();
    this.limitClock = new ProgramClock(child.pid);
    this.limitClock.mark();
    this.timer = setTimeout(
      () => this.judgeTimeLimitSoon(),
      Math.max(0, spec.timeLimitMs - (performance.now() - started)),
    );
    // A silent program that keeps filling its memory is let run into its memory limit, which says more.
    this.watchMemory = spec.memoryLimitMiB !== undefined && child.pid !== undefined;
    this.clock = new ProgramClock(child.pid);
    spec.signal?.addEventListener('abort', this.cancelled);
    if (spec.signal?.aborted) this.stop();
  }

  private readonly cancelled = (): void => this.stop();

  /** Listens to the program and writes it all its input; the stall watch starts once it is written. */
  feed(input: string): void {
    const child = this.child;
    child.stdout.on('data', (chunk: Buffer) => this.onStdout(chunk));
    child.stderr.on('data', (chunk: Buffer) => this.onStderr(chunk));
    child.on('error', (error) => this.failedToStart(error));
    // 'close' waits for the pipes to drain; a grandchild holding them open is killed with the group.
    child.on('close', (code, signal) => this.finish({ exitCode: code, signal }));
    child.on('exit', (code, signal) => this.exited(code, signal));
    // A program that exits without reading all its input makes the write fail with EPIPE: not our error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input, () => this.written(performance.now()));
  }

  private stop(): void {
    endRun(this.child, this.spec.runWord, this.bytes > 0);
    this.tracker?.killAll();
  }

  private finish(exit: ExitResult): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    clearTimeout(this.stallTimer);
    clearInterval(this.sweeper);
    this.spec.signal?.removeEventListener('abort', this.cancelled);
    this.stop();
    this.untrack();
    this.resolve(this.result(exit));
  }

  /** What the run comes to, once it has ended: its output, and which limit (if any) stopped it. */
  private result(exit: ExitResult): ProcessResult {
    const { spec, outputLimited } = this;
    const text = Buffer.concat(this.stdout).toString('utf8');
    const errorText = this.stderr.text();
    // A line cut by the output limit is not a line the program printed ("still" of "still looking…" would
    // pass for an answer), so stdout ends at its last complete line.
    const out = outputLimited ? text.replace(/[^\n]*$/, '') : text;
    // It failed by itself (not killed by us), saying an allocation failed: that is the whole story, even if
    // a stall or the time limit was being called at the same moment.
    const failedByItself = exit.exitCode !== 0 && exit.signal !== 'SIGKILL' && !exit.startError && !outputLimited;
    const memoryExceeded = spec.memoryLimitMiB !== undefined && failedByItself && OUT_OF_MEMORY.test(errorText);
    if (memoryExceeded) this.stalled = this.timedOut = false;
    const { stalled, silentMs, stalledOnCpu } = this;
    return {
      stdout: out,
      stderr: errorText,
      timedOut: this.timedOut,
      outputLimited,
      ...(stalled
        ? {
            stalled,
            ...(silentMs !== undefined ? { silentMs: Math.round(silentMs) } : {}),
            ...(stalledOnCpu ? { stalledOnCpu } : {}),
          }
        : {}),
      ...(memoryExceeded ? { memoryExceeded, memoryLimitMiB: spec.memoryLimitMiB } : {}),
      timeLimitMs: spec.timeLimitMs,
      ...exit,
      durationMs: performance.now() - this.started,
    };
  }

  private memoryNow(): number {
    return this.watchMemory ? treeDataKiB(this.child.pid!) : 0;
  }

  /**
   * Progress, not only the total limit: once all input is written, silence on stdout means a hang. Sleeps until
   * the silence could be long enough, then judges it (judgeSilence).
   */
  private watchForStall(): void {
    clearTimeout(this.stallTimer);
    // A program that has exited has not stalled: what still holds its pipes is a leftover, and the exit's own
    // wait ends the run (its /proc is gone too, so the clock could only charge the wall clock: the load).
    if (this.settled || this.stallMs <= 0 || this.inputWritten === undefined || this.exitedAt !== undefined) return;
    const { lastStdout, busyFrom, stallMs } = this;
    const since = Math.max(lastStdout ?? this.inputWritten, busyFrom ?? 0);
    const allowed = lastStdout === undefined && busyFrom === undefined ? stallMs + START_GRACE_MS : stallMs;
    this.memoryBefore ??= this.memoryNow();
    // A timer may fire a little early: a few milliseconds before the end is the end.
    const wait = since + allowed - performance.now();
    if (wait > 5) {
      this.stallTimer = setTimeout(() => this.watchForStall(), wait).unref();
      return;
    }
    // One more poll first: output that only waits because this process was busy is read before judging.
    setImmediate(() => this.judgeSilence(since, allowed));
  }

  /** Silent since `since` by the clock: stopped as stalled, unless it printed, was not charged the time, or is filling its memory. */
  private judgeSilence(since: number, allowed: number): void {
    if (this.settled || this.timedOut || this.outputLimited || this.exitedAt !== undefined) return;
    if ((this.lastStdout ?? 0) > since) {
      this.watchForStall();
      return;
    }
    // Silent this long by the clock, but was it the program's time? Waiting for a core is not a stall, nor is an
    // exit this process has not heard yet (it is busy): the exit's own handling ends the watch.
    const charged = this.clock.chargedSince(since);
    if (charged < allowed - 5 || this.clock.ended) {
      const recheck = this.clock.ended ? RECHECK_MS : Math.min(allowed - charged, RECHECK_MS);
      this.stallTimer = setTimeout(() => this.watchForStall(), recheck).unref();
      return;
    }
    const memory = this.memoryNow();
    const grew = memory - this.memoryBefore! > MEMORY_GROWTH_KIB;
    this.memoryBefore = memory;
    if (grew) {
      this.busyFrom = performance.now();
      this.watchForStall();
      return;
    }
    this.stalled = true;
    this.stalledOnCpu = this.clock.chargedByCpuSince(since) >= allowed - 5;
    this.silentMs = performance.now() - since;
    this.timedOut = true;
    this.stop();
  }

  /**
   * The limit's time has passed by the clock: stopped if the program sleeps now (it waits on something, not for a
   * core: the clock is its time), was charged the limit in its own time, or the clock ran far past it.
   */
  private judgeTimeLimitSoon(): void {
    // One more poll first, as the stall watch does: output that waits only because this process was busy is read.
    setImmediate(() => this.judgeTimeLimit());
  }

  private judgeTimeLimit(): void {
    if (this.settled) return;
    if (this.exitedAt !== undefined) {
      // A program that has exited finished in time, however late this process saw it (busy with another check in
      // the same event loop): its /proc is gone, and the clock could only charge it the wall clock, the load's.
      // What it left holding its pipes gets the limit again from the exit, by the clock.
      const leftoverLeft = this.exitedAt + this.spec.timeLimitMs - performance.now();
      if (leftoverLeft > 5) {
        this.timer = setTimeout(() => this.judgeTimeLimitSoon(), leftoverLeft);
        return;
      }
    }
    const { timeLimitMs } = this.spec;
    const left = timeLimitMs - this.limitClock.chargedSince(this.started);
    const wallLeft = timeLimitMs * TIME_LIMIT_WALL_FACTOR - (performance.now() - this.started);
    // A program that has exited, unheard yet, finished in time: its exit is on its way (exited() then judges).
    if (this.limitClock.ended) {
      this.timer = setTimeout(() => this.judgeTimeLimitSoon(), RECHECK_MS);
      return;
    }
    if (left > 5 && wallLeft > 5 && !this.limitClock.asleep) {
      this.timer = setTimeout(() => this.judgeTimeLimitSoon(), Math.min(Math.max(left, RECHECK_MS), wallLeft));
      return;
    }
    this.timedOut = true;
    this.stop();
  }

  private onStdout(chunk: Buffer): void {
    // The first answer ends the start-up grace: from now on a second of silence is a stall.
    const first = this.lastStdout === undefined;
    this.lastOutput = this.lastStdout = performance.now();
    if (first) this.watchForStall();
    // Keep output up to the limit, also from the chunk that crosses it: it may hold the last real answers.
    const limit = this.spec.outputLimitBytes;
    const room = Math.max(0, limit - this.bytes);
    this.bytes += chunk.length;
    if (room > 0) this.stdout.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    if (this.bytes > limit && !this.outputLimited) {
      this.outputLimited = true;
      this.stop();
    }
  }

  private onStderr(chunk: Buffer): void {
    this.lastOutput = performance.now();
    this.stderr.add(chunk);
  }

  private failedToStart(error: NodeJS.ErrnoException): void {
    this.finish({
      exitCode: null,
      signal: null,
      startError: { code: error.code ?? 'ERROR', command: this.spec.command },
    });
  }

  private exited(code: number | null, signal: NodeJS.Signals | null): void {
    this.exitedAt = performance.now();
    clearTimeout(this.stallTimer);
    setTimeout(() => this.stop(), 50).unref();
    setTimeout(() => this.giveUpOnLeftovers(code, signal), 1000).unref();
  }

  /**
   * A grandchild that escaped every kill can hold the pipes open for ever: once they have been quiet for a
   * second after the exit, stop waiting. The check runs after one more poll (setImmediate), so output that only
   * waits because this process was busy is still read first.
   */
  private giveUpOnLeftovers(code: number | null, signal: NodeJS.Signals | null): void {
    setImmediate(() => {
      if (this.settled) return;
      if (!this.timedOut && !this.outputLimited && performance.now() - this.lastOutput < 1000) {
        setTimeout(() => this.giveUpOnLeftovers(code, signal), 1000).unref();
        return;
      }
      this.child.stdout.destroy();
      this.child.stderr.destroy();
      this.finish({ exitCode: code, signal });
    });
  }

  private written(at: number): void {
    this.inputWritten = at;
    this.clock.mark();
    this.watchForStall();
  }
}
