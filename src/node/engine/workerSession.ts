/**
 * One engine worker's life, once it is started (host.ts starts it): send its job when ready, serve what it asks
 * for, hold it to a time limit on every stretch it computes without asking, and end it with its result or the
 * reason it failed. Every way out goes through end(), which kills the worker's whole process group once.
 */
import type { ChildProcess } from 'node:child_process';
import type { LocateAttempt, PassingBatch } from '../../core/check/check';
import type { Located } from '../../core/check/checkInput';
import type { ProcessResult, RunLimits } from '../../core/check/process';
import type { CheckReport } from '../../core/report/report';
import type { BalancerRun } from '../../worlds/templates/simulation';
import { ProgramClock } from '../run/programClock';
import { endRun } from '../run/endRun';
import {
  ENGINE_PROTOCOL,
  parseWorkerMessage,
  type EngineFailureKind,
  type EngineJob,
  type HostMessage,
  type PrepareJob,
  type WorkerMessage,
  type WorldOutcome,
} from './protocol';

export interface EngineServices {
  readonly execute: (input: string, limits?: RunLimits) => Promise<ProcessResult>;
  readonly locate?: (attempts: readonly LocateAttempt[]) => Promise<Located>;
  readonly traceAhead?: (attempt: LocateAttempt) => void;
  readonly onPhase?: (phase: string) => void;
  readonly onBatch?: (batch: PassingBatch) => void;
  /** A world job's exchange of lines with the learner's program: its answers, or why it stopped. */
  readonly exchange?: (
    commands: readonly string[],
  ) => Promise<{ answers: readonly string[] } | { stopped: { message: string; details?: string } }>;
}

/** The job could not finish: the pack's model failed, the pack is broken, or the engine itself failed. */
export class EngineError extends Error {
  constructor(
    readonly kind: EngineFailureKind | 'stopped' | 'cancelled',
    message: string,
    readonly file?: string,
    readonly line?: number | null,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export type WorkerResult = CheckReport | BalancerRun | WorldOutcome;
/** What the job is answered with; the other kinds of result from this worker are protocol violations. */
export type ExpectedResult = 'report' | 'series' | 'world';

export interface WorkerSessionSettings {
  readonly expected: ExpectedResult;
  readonly services: EngineServices;
  readonly quietLimitMs: number;
  readonly heapLimitMb: number;
  readonly signal?: AbortSignal;
  /** The command the worker was started with, to name it when it cannot start. */
  readonly command: string;
  /** A sandboxed worker's word (ownerMark.ts), by which its end finds what the kill of its group misses. */
  readonly runWord?: string;
  /** A waiting worker's preparation (the check service's warm worker), and who is told its passing batch. */
  readonly prepare?: { readonly job: PrepareJob; readonly onPrepared: (batch: PassingBatch | undefined) => void };
}

/** A message the worker may not send for this job: unreadable, the wrong result, or a request it has no right to. */
function breaksProtocol(
  message: WorkerMessage | undefined,
  expected: ExpectedResult,
  canExchange: boolean,
): message is undefined {
  return (
    !message ||
    ((message.type === 'report' || message.type === 'series' || message.type === 'world') &&
      message.type !== expected) ||
    ((message.type === 'execute' ||
      message.type === 'locate' ||
      message.type === 'trace-ahead' ||
      message.type === 'batch' ||
      message.type === 'prepared') &&
      expected !== 'report') ||
    (message.type === 'exchange' && (expected !== 'world' || !canExchange))
  );
}

/** Why a worker that closed before its result stopped, told from what it wrote to stderr. */
function closedWorkerError(
  stderr: string,
  code: number | null,
  signal: NodeJS.Signals | null,
  heapLimitMb: number,
): EngineError {
  if (/heap out of memory|Allocation failed/i.test(stderr)) {
    return new EngineError(
      'model-error',
      `the lesson's engine ran out of memory (${heapLimitMb} MiB): its reference model may allocate without end`,
    );
  }
  if (/Maximum call stack size exceeded/.test(stderr))
    return new EngineError('model-error', "the lesson's reference model recursed without end (stack overflow)");
  if (/bad option: --experimental-permission|--experimental-permission is not allowed/.test(stderr)) {
    return new EngineError('internal', 'NO_PERMISSION_MODEL');
  }
  const last = process.env.LC_DEBUG_ENGINE ? stderr : (stderr.trim().split('\n').slice(-1)[0] ?? '');
  return new EngineError(
    'internal',
    `the lesson's engine stopped (${signal ?? `exit code ${code}`})${last ? `: ${last}` : ''}`,
  );
}

/** How far past its quiet limit, by the clock, a starved worker may go while its CPU time stays under it. */
const QUIET_WALL_FACTOR = 20;
const QUIET_RECHECK_MS = 250;

export class WorkerSession {
  private settled = false;
  private stderr = '';
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Requests of the worker's we are still serving (and its job, until sent): while any is open it waits for us. */
  private waitingForUs = 0;
  private buffered = '';
  /** The worker has written something: it runs, its sandbox set up and tied to its parent (endRun.ts). */
  private heard = false;
  /** Sent a preparation and not yet answered: the worker computes (the model's code runs), timed like a job. */
  private preparing = false;
  private readonly onAbort = (): void => this.end(new EngineError('cancelled', 'the check was cancelled'));

  constructor(
    private readonly child: ChildProcess,
    private readonly settings: WorkerSessionSettings,
    private readonly resolve: (result: WorkerResult) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  /** Listens to the worker and sends it its job when `ready` gives it; the session ends through resolve or reject. */
  start(ready: Promise<EngineJob>): void {
    const { signal } = this.settings;
    signal?.addEventListener('abort', this.onAbort);
    if (signal?.aborted) return this.onAbort();
    this.listen();
    this.sendJobWhenReady(ready);
    const { prepare } = this.settings;
    if (prepare) {
      this.preparing = true;
      this.reply({ type: 'prepare', protocol: ENGINE_PROTOCOL, job: prepare.job });
      this.arm();
    }
  }

  private listen(): void {
    const child = this.child;
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => this.readLines(chunk));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (this.stderr.length < 16_384) this.stderr += chunk;
    });
    child.stdin!.on('error', () => undefined);
    child.on('error', (error) =>
      this.end(
        new EngineError('internal', `cannot start the lesson's engine (${this.settings.command}): ${error.message}`),
      ),
    );
    child.on('close', (code, signal) => {
      if (this.settled) return;
      this.end(closedWorkerError(this.stderr, code, signal, this.settings.heapLimitMb));
    });
  }

  private sendJobWhenReady(ready: Promise<EngineJob>): void {
    // Until its job is sent, the worker waits for us: that is not its silence.
    this.waitingForUs += 1;
    ready.then(
      (started) => {
        this.waitingForUs -= 1;
        this.reply({ type: 'start', protocol: ENGINE_PROTOCOL, job: started });
        this.arm();
      },
      (error: unknown) => this.end(error as Error),
    );
  }

  private end(error: Error | undefined, result?: WorkerResult): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.settings.signal?.removeEventListener('abort', this.onAbort);
    // The whole group, not only the outer bwrap: its sandboxed child, killed with it before bwrap has set it
    // up, waits on an eventfd for ever as PID 1 of its own namespace (seen: such children of the engine's
    // bwrap left by the service tests, parent init, in eventfd_read); until then it is in bwrap's group, and
    // after, in a session of its own, it carries the worker's word.
    if (process.platform === 'win32') this.child.kill('SIGKILL');
    else endRun(this.child, this.settings.runWord, this.heard);
    if (error) this.reject(error);
    else this.resolve(result!);
  }

  /**
   * The worker is quiet while it computes; it must not be for too long when it is not waiting for us. Its quiet
   * time is charged in its own CPU time (programClock.ts), so a loaded machine that gives it a sliver of a core
   * does not make its model "loop for ever"; the clock bounds it at QUIET_WALL_FACTOR times the limit.
   */
  private arm(): void {
    clearTimeout(this.timer);
    // A request served after the end (a cancelled check) must not leave a timer holding the process open. A
    // worker still preparing computes even while its job is not sent yet.
    if (this.settled || (this.waitingForUs > 0 && !this.preparing)) return;
    const { quietLimitMs } = this.settings;
    const since = performance.now();
    const clock = new ProgramClock(this.child.pid);
    clock.mark();
    const judge = (): void => {
      if (this.settled) return;
      const left = quietLimitMs - clock.chargedSince(since);
      const wallLeft = quietLimitMs * QUIET_WALL_FACTOR - (performance.now() - since);
      if (left > 5 && wallLeft > 5) {
        this.timer = setTimeout(judge, Math.min(Math.max(left, QUIET_RECHECK_MS), wallLeft));
        return;
      }
      this.end(
        new EngineError(
          'stopped',
          `the lesson's engine computed for more than ${Math.round(quietLimitMs / 1000)} s without a result: its reference model may loop for ever`,
        ),
      );
    };
    this.timer = setTimeout(judge, quietLimitMs);
  }

  private reply(message: HostMessage): void {
    if (!this.settled && this.child.stdin?.writable) this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  private async serve(work: () => Promise<HostMessage>): Promise<void> {
    this.waitingForUs += 1;
    this.arm();
    try {
      this.reply(await work());
    } catch (error) {
      this.end(new EngineError('internal', `the host failed to serve the engine: ${(error as Error).message}`));
    } finally {
      this.waitingForUs -= 1;
      this.arm();
    }
  }

  private readLines(chunk: string): void {
    this.heard = true;
    this.buffered += chunk;
    let newline: number;
    while ((newline = this.buffered.indexOf('\n')) >= 0) {
      // Once ended (a cancelled check), what the worker wrote before it was stopped is not served: a run it
      // asked for then would start a learner program nobody waits for.
      if (this.settled) return;
      const line = this.buffered.slice(0, newline);
      this.buffered = this.buffered.slice(newline + 1);
      const message = parseWorkerMessage(line);
      if (breaksProtocol(message, this.settings.expected, !!this.settings.services.exchange))
        return this.end(
          new EngineError(
            'internal',
            "the lesson's engine said something that is not part of its protocol, so it was stopped",
          ),
        );
      this.arm();
      if (this.handle(message) === 'ended') return;
    }
  }

  /** Serves one request, passes on one notice, or ends the session with the worker's result or failure. */
  private handle(message: WorkerMessage): 'ended' | undefined {
    const { services } = this.settings;
    switch (message.type) {
      case 'execute':
        void this.serve(async () => ({
          type: 'executed',
          id: message.id,
          result: await services.execute(message.input, message.limits),
        }));
        return undefined;
      case 'locate':
        void this.serve(async () => {
          const located = services.locate ? await services.locate(message.attempts) : { runs: 0 };
          return {
            type: 'located',
            id: message.id,
            ...(located.location ? { location: located.location } : {}),
            ...(located.attempt !== undefined ? { attempt: located.attempt } : {}),
            runs: located.runs,
          };
        });
        return undefined;
      case 'trace-ahead':
        services.traceAhead?.(message.attempt);
        return undefined;
      case 'phase':
        services.onPhase?.(message.phase);
        return undefined;
      case 'batch':
        services.onBatch?.(message.batch);
        return undefined;
      case 'prepared':
        // Answered once, and only when asked: anything else is not the protocol.
        if (!this.preparing) {
          this.end(new EngineError('internal', "the lesson's engine said it prepared what it was not asked to"));
          return 'ended';
        }
        this.preparing = false;
        this.arm();
        this.settings.prepare!.onPrepared(message.batch);
        return undefined;
      case 'exchange': {
        const exchange = services.exchange!;
        void this.serve(async () => {
          const answered = await exchange(message.commands);
          return 'stopped' in answered
            ? { type: 'exchanged', id: message.id, stopped: answered.stopped }
            : { type: 'exchanged', id: message.id, answers: answered.answers };
        });
        return undefined;
      }
      case 'report':
        this.end(undefined, message.report);
        return 'ended';
      case 'series':
        this.end(undefined, message.run);
        return 'ended';
      case 'world':
        this.end(undefined, message.outcome);
        return 'ended';
      case 'failed':
        this.end(new EngineError(message.kind, message.message, message.file, message.line));
        return 'ended';
    }
  }
}
