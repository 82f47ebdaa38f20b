/**
 * Runs one learner program as a real process, bounded in time and output. The process gets its own
 * process group so that everything it started can be killed together; where no sandbox holds it, a sweep
 * through /proc also finds what left the group (descendants.ts). Every live run is registered with
 * cleanup.ts, so a CLI stopped by a signal ends it too.
 */
import { randomBytes } from 'node:crypto';
import type { ProcessResult } from '../../core/check/process';
import { trackProcess } from '../sandbox/cleanup';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { DescendantTracker, treeDataKiB } from '../sandbox/descendants';
import { ProgramClock } from './programClock';
import { StderrKeeper } from './stderrKeeper';

export interface ProcessSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** Added to the CLI's own environment, or the whole environment when `inheritEnv` is false. */
  readonly env?: NodeJS.ProcessEnv;
  /** False for contained runs: the program gets `env` only, never a token from the CLI's environment. */
  readonly inheritEnv?: boolean;
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
  /** The memory limit (MiB) the command line applies, to recognise a program that ran into it. */
  readonly memoryLimitMiB?: number;
}

export const DEFAULT_STDERR_LIMIT_BYTES = 64 * 1024;
export const DEFAULT_STALL_MS = 1000;
/** A program that has printed nothing yet also gets this long to start (an interpreter on a loaded machine). */
const START_GRACE_MS = 2000;
export const SWEEP_EVERY_MS = 100;
/** How often a silent program's CPU time is read once the clock says it stalled but its CPU time does not yet. */
const RECHECK_MS = 200;
/** A silent program whose memory grew this much since the last look is filling it, not stopped. */
const MEMORY_GROWTH_KIB = 16 * 1024;

/** What interpreters print when an allocation fails under a memory limit. */
export const OUT_OF_MEMORY =
  /^MemoryError\b|JavaScript heap out of memory|Array buffer allocation failed|std::bad_alloc|Cannot allocate memory|out of memory/im;

export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

/** What running `spec` spawns: the command line, folder and environment, as given to spawn. */
export interface SpawnPlan {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

/** In its own process group (detached), so that the group can be killed whole. */
function spawnPlanned(plan: SpawnPlan): ChildProcessWithoutNullStreams {
  return spawn(plan.command, [...plan.args], {
    cwd: plan.cwd,
    env: { ...plan.env },
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
}

/** What running `spec` spawns (and `runId` marks, for the sweep). */
export function spawnPlan(spec: ProcessSpec, runId?: string): SpawnPlan {
  const env = {
    ...(spec.inheritEnv === false
      ? {}
      : {
          ...process.env,
          PYTHONDONTWRITEBYTECODE: '1',
          PYTHONIOENCODING: 'utf-8',
          PYTHONUNBUFFERED: '1',
          NODE_OPTIONS: '',
        }),
    ...spec.env,
    ...(runId ? { LESSON_COMPANION_RUN: runId } : {}),
  };
  return {
    command: spec.command,
    args: spec.args,
    cwd: spec.cwd,
    env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)),
  };
}

/** Runs `spec` with `input`: a fresh process every time. */
export function runProcess(spec: ProcessSpec, input: string): Promise<ProcessResult> {
  const started = performance.now();
  const stallMs = spec.stallMs ?? DEFAULT_STALL_MS;
  return new Promise((resolve) => {
    // Raw chunks, decoded once at the end: a character split across two chunks must not turn into garbage.
    const stdout: Buffer[] = [];
    const stderr = new StderrKeeper(spec.stderrLimitBytes ?? DEFAULT_STDERR_LIMIT_BYTES);
    let bytes = 0;
    let lastOutput = performance.now();
    let lastStdout: number | undefined;
    let inputWritten: number | undefined;
    let timedOut = false;
    let stalled = false;
    /** How long it had printed nothing when it was called stalled, in ms (the sentence says it). */
    let silentMs: number | undefined;
    let outputLimited = false;
    let settled = false;
    // Unique to this run, inherited by all it starts: how the sweep recognises its descendants.
    const runId = spec.sweepDescendants ? randomBytes(12).toString('hex') : undefined;
    const child = spawnPlanned(spawnPlan(spec, runId));
    const tracker =
      runId && child.pid !== undefined ? new DescendantTracker(child.pid, `LESSON_COMPANION_RUN=${runId}`) : undefined;
    const stop = (): void => {
      killGroup(child.pid);
      tracker?.killAll();
    };
    const untrack = trackProcess(stop);
    const sweeper = tracker ? setInterval(() => tracker.poll(), SWEEP_EVERY_MS) : undefined;
    if (tracker) setTimeout(() => tracker.poll(), 20).unref();
    const finish = (result: Pick<ProcessResult, 'exitCode' | 'signal' | 'startError'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(stallTimer);
      clearInterval(sweeper);
      stop();
      untrack();
      const text = Buffer.concat(stdout).toString('utf8');
      const errorText = stderr.text();
      // A line cut by the output limit is not a line the program printed ("still" of "still looking…" would
      // pass for an answer), so stdout ends at its last complete line.
      const out = outputLimited ? text.replace(/[^\n]*$/, '') : text;
      // It failed by itself (not killed by us), saying an allocation failed: that is the whole story, even if
      // a stall or the time limit was being called at the same moment.
      const failedByItself =
        result.exitCode !== 0 && result.signal !== 'SIGKILL' && !result.startError && !outputLimited;
      const memoryExceeded = spec.memoryLimitMiB !== undefined && failedByItself && OUT_OF_MEMORY.test(errorText);
      if (memoryExceeded) stalled = timedOut = false;
      resolve({
        stdout: out,
        stderr: errorText,
        timedOut,
        outputLimited,
        ...(stalled ? { stalled, ...(silentMs !== undefined ? { silentMs: Math.round(silentMs) } : {}) } : {}),
        ...(memoryExceeded ? { memoryExceeded, memoryLimitMiB: spec.memoryLimitMiB } : {}),
        timeLimitMs: spec.timeLimitMs,
        ...result,
        durationMs: performance.now() - started,
      });
    };
    const timer = setTimeout(
      () => {
        timedOut = true;
        stop();
      },
      Math.max(0, spec.timeLimitMs - (performance.now() - started)),
    );
    // Progress, not only the total limit: once all input is written, silence on stdout means a hang.
    // A silent program that keeps filling its memory is let run into its memory limit, which says more.
    const watchMemory = spec.memoryLimitMiB !== undefined && child.pid !== undefined;
    const memoryNow = (): number => (watchMemory ? treeDataKiB(child.pid!) : 0);
    /** The program's memory when the watch began or was last judged: growth since then is being busy. */
    let memoryBefore: number | undefined;
    let busyFrom: number | undefined;
    let stallTimer: NodeJS.Timeout | undefined;
    /** When the started process exited: from then on only its leftovers hold the pipes, and it is not stalled. */
    let exitedAt: number | undefined;
    const clock = new ProgramClock(child.pid);
    const watchForStall = (): void => {
      clearTimeout(stallTimer);
      // A program that has exited has not stalled: what still holds its pipes is a leftover, and the exit's own
      // wait ends the run (its /proc is gone too, so the clock could only charge the wall clock: the load).
      if (settled || stallMs <= 0 || inputWritten === undefined || exitedAt !== undefined) return;
      const since = Math.max(lastStdout ?? inputWritten, busyFrom ?? 0);
      const allowed = lastStdout === undefined && busyFrom === undefined ? stallMs + START_GRACE_MS : stallMs;
      memoryBefore ??= memoryNow();
      // A timer may fire a little early: a few milliseconds before the end is the end.
      const wait = since + allowed - performance.now();
      if (wait > 5) {
        stallTimer = setTimeout(watchForStall, wait).unref();
        return;
      }
      // One more poll first: output that only waits because this process was busy is read before judging.
      setImmediate(() => {
        if (settled || timedOut || outputLimited || exitedAt !== undefined) return;
        if ((lastStdout ?? 0) > since) {
          watchForStall();
          return;
        }
        // Silent this long by the clock, but was it the program's time? Waiting for a core is not a stall.
        const charged = clock.chargedSince(since);
        if (charged < allowed - 5) {
          stallTimer = setTimeout(watchForStall, Math.min(allowed - charged, RECHECK_MS)).unref();
          return;
        }
        const memory = memoryNow();
        const grew = memory - memoryBefore! > MEMORY_GROWTH_KIB;
        memoryBefore = memory;
        if (grew) {
          busyFrom = performance.now();
          watchForStall();
          return;
        }
        stalled = true;
        silentMs = performance.now() - since;
        timedOut = true;
        stop();
      });
    };
    const onStdout = (chunk: Buffer): void => {
      // The first answer ends the start-up grace: from now on a second of silence is a stall.
      const first = lastStdout === undefined;
      lastOutput = lastStdout = performance.now();
      if (first) watchForStall();
      // Keep output up to the limit, also from the chunk that crosses it: it may hold the last real answers.
      const room = Math.max(0, spec.outputLimitBytes - bytes);
      bytes += chunk.length;
      if (room > 0) stdout.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      if (bytes > spec.outputLimitBytes && !outputLimited) {
        outputLimited = true;
        stop();
      }
    };
    const onStderr = (chunk: Buffer): void => {
      lastOutput = performance.now();
      stderr.add(chunk);
    };
    const failedToStart = (error: NodeJS.ErrnoException): void => {
      finish({ exitCode: null, signal: null, startError: { code: error.code ?? 'ERROR', command: spec.command } });
    };
    const exited = (code: number | null, signal: NodeJS.Signals | null): void => {
      exitedAt = performance.now();
      clearTimeout(stallTimer);
      setTimeout(stop, 50).unref();
      // A grandchild that escaped every kill can hold the pipes open for ever: once they have been quiet
      // for a second after the exit, stop waiting. The check runs after one more poll (setImmediate), so
      // output that only waits because this process was busy is still read first.
      const giveUp = (): void => {
        setImmediate(() => {
          if (settled) return;
          if (!timedOut && !outputLimited && performance.now() - lastOutput < 1000) {
            setTimeout(giveUp, 1000).unref();
            return;
          }
          child.stdout.destroy();
          child.stderr.destroy();
          finish({ exitCode: code, signal });
        });
      };
      setTimeout(giveUp, 1000).unref();
    };
    const written = (at: number): void => {
      inputWritten = at;
      clock.mark();
      watchForStall();
    };
    child.stdout.on('data', onStdout);
    child.stderr.on('data', onStderr);
    child.on('error', failedToStart);
    // 'close' waits for the pipes to drain; a grandchild holding them open is killed with the group.
    child.on('close', (code, signal) => finish({ exitCode: code, signal }));
    child.on('exit', exited);
    // A program that exits without reading all its input makes the write fail with EPIPE: not our error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input, () => written(performance.now()));
  });
}
