/**
 * Starts an engine worker (worker.ts, bundled as dist/engine.js) for one job and serves what it asks
 * for: runs of the learner's program, traced runs. The worker runs pack code, so it is held in:
 * - Node's permission model: it may read the engine bundle and the pack folder, nothing else; no file
 *   writes, no child processes, no worker threads;
 * - where a sandbox exists, inside it: own PID namespace, no network, only the engine and the pack in view
 *   (engineSandbox.ts); tied to the CLI's life (a model that loops never reads the end of its stdin);
 * - an empty environment, and no object of this realm in the model's (realmBridge.ts);
 * - a heap limit, and a time limit on every stretch it computes without asking for anything: a model
 *   that loops or allocates without end is stopped and named, and the learner's work is untouched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LocateAttempt, PassingBatch } from '../../core/check/check';
import type { ProcessResult, RunLimits } from '../../core/check/process';
import type { CheckReport, Location } from '../../core/report/report';
import type { BalancerRun } from '../../worlds/templates/simulation';
import { killGroup } from '../run/runner';
import {
  ENGINE_PROTOCOL,
  parseWorkerMessage,
  type CheckJob,
  type EngineFailureKind,
  type EngineJob,
  type HostMessage,
  type SimulateReferenceJob,
  type SimulateWorldJob,
  type WorldOutcome,
} from './protocol';

export interface EngineServices {
  readonly execute: (input: string, limits?: RunLimits) => Promise<ProcessResult>;
  readonly locate?: (attempts: readonly LocateAttempt[]) => Promise<{ location?: Location; runs: number }>;
  readonly onPhase?: (phase: string) => void;
  readonly onBatch?: (batch: PassingBatch) => void;
  /** A world job's exchange of lines with the learner's program: its answers, or why it stopped. */
  readonly exchange?: (
    commands: readonly string[],
  ) => Promise<{ answers: readonly string[] } | { stopped: { message: string; details?: string } }>;
}

export interface EngineOptions {
  /** The Node that runs the worker (in VS Code: its own runtime, with ELECTRON_RUN_AS_NODE). */
  readonly node?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** The longest the worker may compute between two messages. */
  readonly quietLimitMs?: number;
  readonly heapLimitMb?: number;
  /** Wraps the worker's command line, e.g. in a sandbox without network; returns the command to run. */
  readonly wrap?: (command: string, args: readonly string[]) => { command: string; args: string[] };
  readonly signal?: AbortSignal;
  /** Hold the worker to Node's permission model (default). A runtime without it gets the worker without. */
  readonly permission?: boolean;
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

export const DEFAULT_QUIET_LIMIT_MS = 20_000;
export const DEFAULT_HEAP_LIMIT_MB = 256;

/** The worker bundle next to this one (dist/engine.js), or undefined when running from source. */
export function engineBundle(bundleDir: string): string | undefined {
  const file = path.join(bundleDir, 'engine.js');
  return fs.existsSync(file) ? file : undefined;
}

function permissionArgs(bundle: string, packDir: string): string[] {
  const read = (p: string): string => `--allow-fs-read=${p}`;
  // Node 20 aborts on the same folder given twice (a radix tree assertion): the real path and the given one once each.
  const folders = [...new Set([fs.realpathSync(packDir), path.resolve(packDir)])];
  // The bundle's folder: the engine and the libraries it loads on first use (dist/vendor-*.js).
  return [
    '--experimental-permission',
    read(path.join(path.dirname(bundle), '*')),
    ...folders.map((dir) => read(path.join(dir, '*'))),
    '--no-warnings',
  ];
}

/**
 * The worker's environment: what Node needs to start (a PATH for the sandbox tool's own script, Electron's
 * switch to run as Node) and nothing of the CLI's: a grader's token stays out of reach of the model.
 */
function engineEnv(given: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    NODE_OPTIONS: '',
    ...(given.ELECTRON_RUN_AS_NODE ? { ELECTRON_RUN_AS_NODE: given.ELECTRON_RUN_AS_NODE } : {}),
  };
}

/** Runs a check in a fresh worker and resolves with its report; rejects with an EngineError. */
export function runEngineJob(
  bundle: string,
  job: CheckJob,
  services: EngineServices,
  options?: EngineOptions,
): Promise<CheckReport>;
/**
 * The same, with the model's files still being transpiled: the worker starts at once (its start-up is about
 * as long as a first transpile) and gets its job when they are ready. A failure to prepare them is the check's.
 */
export function runEngineJob(
  bundle: string,
  job: Omit<CheckJob, 'transpiled'>,
  services: EngineServices,
  options: EngineOptions,
  transpiled: Promise<CheckJob['transpiled']>,
): Promise<CheckReport>;
export function runEngineJob(
  bundle: string,
  job: CheckJob | Omit<CheckJob, 'transpiled'>,
  services: EngineServices,
  options: EngineOptions = {},
  transpiled?: Promise<CheckJob['transpiled']>,
): Promise<CheckReport> {
  const ready: Promise<EngineJob> = transpiled
    ? transpiled.then((files) => ({ ...job, ...(files ? { transpiled: files } : {}) }) as CheckJob)
    : Promise.resolve(job as CheckJob);
  return runWorker(bundle, job, 'report', ready, services, options) as Promise<CheckReport>;
}

/** The reference's series on a scenario, computed in a fresh worker (the model never runs here); rejects with an EngineError. */
export function runReferenceSimulation(
  bundle: string,
  job: SimulateReferenceJob,
  options: EngineOptions = {},
): Promise<BalancerRun> {
  const refuse = async (): Promise<never> => {
    throw new Error('a simulation runs no learner program in the worker');
  };
  return runWorker(bundle, job, 'series', Promise.resolve(job), { execute: refuse }, options) as Promise<BalancerRun>;
}

/** A world scenario's runs, computed in a fresh worker that exchanges the learner's lines through `exchange`; rejects with an EngineError. */
export function runWorldSimulation(
  bundle: string,
  job: SimulateWorldJob,
  exchange: NonNullable<EngineServices['exchange']>,
  options: EngineOptions = {},
): Promise<WorldOutcome> {
  const refuse = async (): Promise<never> => {
    throw new Error('a simulation runs no learner transcript in the worker');
  };
  return runWorker(
    bundle,
    job,
    'world',
    Promise.resolve(job),
    { execute: refuse, exchange },
    options,
  ) as Promise<WorldOutcome>;
}

/**
 * A worker started before its check, waiting for its job: the editor's check service keeps one per lesson so
 * that a check does not wait for a Node start. Used once; the service starts the next after.
 */
export interface WarmEngine {
  readonly packDir: string;
  /** True while it waits for a job (it has not been given one, and it did not die meanwhile). */
  readonly waiting: boolean;
  /** Gives the worker its check, and serves it with `services`; rejects with an EngineError. */
  run(job: CheckJob, services: EngineServices, signal?: AbortSignal): Promise<CheckReport>;
  /** Ends the worker, waiting or not. */
  dispose(): void;
}

export function startWarmEngine(
  bundle: string,
  packDir: string,
  options: Omit<EngineOptions, 'signal'> = {},
): WarmEngine {
  let assign!: (job: EngineJob) => void;
  let refuse!: (error: Error) => void;
  const ready = new Promise<EngineJob>((resolve, reject) => {
    assign = resolve;
    refuse = reject;
  });
  let served: EngineServices | undefined;
  let state: 'waiting' | 'running' | 'ended' = 'waiting';
  const stop = new AbortController();
  // The job's own services, bound when it arrives: the worker asks for nothing before it has its job.
  const services: EngineServices = {
    execute: (input, limits) => served!.execute(input, limits),
    locate: (attempts) => (served?.locate ? served.locate(attempts) : Promise.resolve({ runs: 0 })),
    onPhase: (phase) => served?.onPhase?.(phase),
    onBatch: (batch) => served?.onBatch?.(batch),
  };
  const result = runWorker(bundle, { packDir }, 'report', ready, services, {
    ...options,
    signal: stop.signal,
  }) as Promise<CheckReport>;
  result.then(
    () => (state = 'ended'),
    () => (state = 'ended'),
  );
  return {
    packDir,
    get waiting() {
      return state === 'waiting';
    },
    run(job, jobServices, signal) {
      if (state !== 'waiting')
        return Promise.reject(new EngineError('internal', 'this engine worker is no longer waiting for a job'));
      state = 'running';
      served = jobServices;
      if (signal?.aborted) stop.abort();
      signal?.addEventListener('abort', () => stop.abort());
      assign(job);
      return result;
    },
    dispose() {
      refuse(new EngineError('cancelled', 'the engine worker was not needed'));
      stop.abort();
    },
  };
}

/** `expected`: what the job is answered with; the other kind of result from this worker is a protocol violation. */
function runWorker(
  bundle: string,
  job: Pick<EngineJob, 'packDir'>,
  expected: 'report' | 'series' | 'world',
  ready: Promise<EngineJob>,
  services: EngineServices,
  options: EngineOptions,
): Promise<CheckReport | BalancerRun | WorldOutcome> {
  const node = options.node ?? process.execPath;
  const args = [
    ...(options.permission === false ? [] : permissionArgs(bundle, job.packDir)),
    `--max-old-space-size=${options.heapLimitMb ?? DEFAULT_HEAP_LIMIT_MB}`,
    bundle,
  ];
  const command = options.wrap ? options.wrap(node, args) : { command: node, args };
  // LESSON_COMPANION_ENGINE_QUIET_MS: tests of a model that loops need not wait the full default.
  const quietLimitMs =
    options.quietLimitMs ?? (Number(process.env.LESSON_COMPANION_ENGINE_QUIET_MS) || DEFAULT_QUIET_LIMIT_MS);
  return new Promise<CheckReport | BalancerRun | WorldOutcome>((resolve, reject) => {
    let settled = false;
    let stderr = '';
    let child: ChildProcess;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let waitingForUs = 0;
    const end = (error: Error | undefined, result?: CheckReport | BalancerRun | WorldOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      // The whole group, not only the outer bwrap: its sandboxed child, killed with it before bwrap has set it
      // up, waits on an eventfd for ever as PID 1 of its own namespace (seen: such children of the engine's
      // bwrap left by the service tests, parent init, in eventfd_read); until then it is in bwrap's group.
      if (process.platform === 'win32') child.kill('SIGKILL');
      else killGroup(child.pid);
      if (error) reject(error);
      else resolve(result!);
    };
    // The worker is quiet while it computes; it must not be for too long when it is not waiting for us.
    const arm = (): void => {
      clearTimeout(timer);
      // A request served after the end (a cancelled check) must not leave a timer holding the process open.
      if (settled || waitingForUs > 0) return;
      timer = setTimeout(
        () =>
          end(
            new EngineError(
              'stopped',
              `the lesson's engine computed for more than ${Math.round(quietLimitMs / 1000)} s without a result: its reference model may loop for ever`,
            ),
          ),
        quietLimitMs,
      );
    };
    const onAbort = (): void => end(new EngineError('cancelled', 'the check was cancelled'));
    try {
      child = spawn(command.command, command.args, {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: engineEnv(options.env ?? process.env),
        windowsHide: true,
        // A process group of its own, so that end() can kill the worker with whatever its sandbox started.
        detached: process.platform !== 'win32',
      });
    } catch (error) {
      reject(new EngineError('internal', `cannot start the lesson's engine: ${(error as Error).message}`));
      return;
    }
    options.signal?.addEventListener('abort', onAbort);
    if (options.signal?.aborted) return onAbort();
    const reply = (message: HostMessage): void => {
      if (!settled && child.stdin?.writable) child.stdin.write(`${JSON.stringify(message)}\n`);
    };
    const serve = async (work: () => Promise<HostMessage>): Promise<void> => {
      waitingForUs += 1;
      arm();
      try {
        reply(await work());
      } catch (error) {
        end(new EngineError('internal', `the host failed to serve the engine: ${(error as Error).message}`));
      } finally {
        waitingForUs -= 1;
        arm();
      }
    };
    let buffered = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        // Once ended (a cancelled check), what the worker wrote before it was stopped is not served: a run it
        // asked for then would start a learner program nobody waits for.
        if (settled) return;
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const message = parseWorkerMessage(line);
        const violation =
          !message ||
          ((message.type === 'report' || message.type === 'series' || message.type === 'world') &&
            message.type !== expected) ||
          ((message.type === 'execute' || message.type === 'locate' || message.type === 'batch') &&
            expected !== 'report') ||
          (message.type === 'exchange' && (expected !== 'world' || !services.exchange));
        if (violation)
          return end(
            new EngineError(
              'internal',
              "the lesson's engine said something that is not part of its protocol, so it was stopped",
            ),
          );
        arm();
        switch (message.type) {
          case 'execute':
            void serve(async () => ({
              type: 'executed',
              id: message.id,
              result: await services.execute(message.input, message.limits),
            }));
            break;
          case 'locate':
            void serve(async () => {
              const located = services.locate ? await services.locate(message.attempts) : { runs: 0 };
              return {
                type: 'located',
                id: message.id,
                ...(located.location ? { location: located.location } : {}),
                runs: located.runs,
              };
            });
            break;
          case 'phase':
            services.onPhase?.(message.phase);
            break;
          case 'batch':
            services.onBatch?.(message.batch);
            break;
          case 'report':
            return end(undefined, message.report);
          case 'series':
            return end(undefined, message.run);
          case 'world':
            return end(undefined, message.outcome);
          case 'exchange': {
            const exchange = services.exchange!;
            void serve(async () => {
              const answered = await exchange(message.commands);
              return 'stopped' in answered
                ? { type: 'exchanged', id: message.id, stopped: answered.stopped }
                : { type: 'exchanged', id: message.id, answers: answered.answers };
            });
            break;
          }
          case 'failed':
            return end(new EngineError(message.kind, message.message, message.file, message.line));
        }
      }
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (stderr.length < 16_384) stderr += chunk;
    });
    child.stdin!.on('error', () => undefined);
    child.on('error', (error) =>
      end(new EngineError('internal', `cannot start the lesson's engine (${command.command}): ${error.message}`)),
    );
    child.on('close', (code, signal) => {
      if (settled) return;
      if (/heap out of memory|Allocation failed/i.test(stderr)) {
        return end(
          new EngineError(
            'model-error',
            `the lesson's engine ran out of memory (${options.heapLimitMb ?? DEFAULT_HEAP_LIMIT_MB} MiB): its reference model may allocate without end`,
          ),
        );
      }
      if (/Maximum call stack size exceeded/.test(stderr))
        return end(
          new EngineError('model-error', "the lesson's reference model recursed without end (stack overflow)"),
        );
      if (/bad option: --experimental-permission|--experimental-permission is not allowed/.test(stderr)) {
        return end(new EngineError('internal', 'NO_PERMISSION_MODEL'));
      }
      const last = process.env.LC_DEBUG_ENGINE ? stderr : (stderr.trim().split('\n').slice(-1)[0] ?? '');
      end(
        new EngineError(
          'internal',
          `the lesson's engine stopped (${signal ?? `exit code ${code}`})${last ? `: ${last}` : ''}`,
        ),
      );
    });
    // Until its job is sent, the worker waits for us: that is not its silence.
    waitingForUs += 1;
    ready.then(
      (started) => {
        waitingForUs -= 1;
        reply({ type: 'start', protocol: ENGINE_PROTOCOL, job: started });
        arm();
      },
      (error: unknown) => end(error as Error),
    );
  });
}
