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
import type { CheckReport } from '../../core/report/report';
import type { BalancerRun } from '../../worlds/templates/simulation';
import type { PassingBatch } from '../../core/check/checkInput';
import type { EngineWrap } from './engineSandbox';
import type { CheckJob, EngineJob, PrepareJob, SimulateReferenceJob, SimulateWorldJob, WorldOutcome } from './protocol';
import {
  EngineError,
  WorkerSession,
  type EngineServices,
  type ExpectedResult,
  type WorkerResult,
  type WorkerSessionSettings,
} from './workerSession';

export { EngineError, type EngineServices } from './workerSession';

export interface EngineOptions {
  /** The Node that runs the worker (in VS Code: its own runtime, with ELECTRON_RUN_AS_NODE). */
  readonly node?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** The longest the worker may compute between two messages. */
  readonly quietLimitMs?: number;
  readonly heapLimitMb?: number;
  /** Wraps the worker's command line, e.g. in a sandbox without network; returns the command to run. */
  readonly wrap?: EngineWrap;
  readonly signal?: AbortSignal;
  /** Hold the worker to Node's permission model (default). A runtime without it gets the worker without. */
  readonly permission?: boolean;
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
  /**
   * Settles once the worker has loaded the pack it was prepared for: with the passing batch of a check with the
   * prepared settings, or undefined (not prepared, the pack or model failed to load, or the worker ended).
   */
  readonly prepared: Promise<PassingBatch | undefined>;
  /** True while it waits for a job (it has not been given one, and it did not die meanwhile). */
  readonly waiting: boolean;
  /** Gives the worker its check, and serves it with `services`; rejects with an EngineError. */
  run(job: CheckJob, services: EngineServices, signal?: AbortSignal): Promise<CheckReport>;
  /** Ends the worker, waiting or not. */
  dispose(): void;
}

/**
 * Starts a worker that waits for its check. With `prepare`, it loads that pack and its model meanwhile and
 * computes the passing batch of a check with those settings (`prepared`); a check of the same pack then
 * starts from that load.
 */
export function startWarmEngine(
  bundle: string,
  packDir: string,
  options: Omit<EngineOptions, 'signal'> = {},
  prepare?: PrepareJob,
): WarmEngine {
  let told!: (batch: PassingBatch | undefined) => void;
  const prepared = new Promise<PassingBatch | undefined>((resolve) => (told = resolve));
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
    traceAhead: (attempt) => served?.traceAhead?.(attempt),
    onPhase: (phase) => served?.onPhase?.(phase),
    onBatch: (batch) => served?.onBatch?.(batch),
  };
  const result = runWorker(
    bundle,
    { packDir },
    'report',
    ready,
    services,
    { ...options, signal: stop.signal },
    prepare ? { job: prepare, onPrepared: told } : undefined,
  ) as Promise<CheckReport>;
  // A worker that ends before it prepared (or was never asked to) tells no batch.
  const ended = (): void => {
    state = 'ended';
    told(undefined);
  };
  result.then(ended, ended);
  if (!prepare) told(undefined);
  return {
    packDir,
    prepared,
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

/** Starts the worker and serves its job to the end: the session (workerSession.ts) holds what it is doing. */
function runWorker(
  bundle: string,
  job: Pick<EngineJob, 'packDir'>,
  expected: ExpectedResult,
  ready: Promise<EngineJob>,
  services: EngineServices,
  options: EngineOptions,
  prepare?: WorkerSessionSettings['prepare'],
): Promise<WorkerResult> {
  const node = options.node ?? process.execPath;
  const args = [
    ...(options.permission === false ? [] : permissionArgs(bundle, job.packDir)),
    `--max-old-space-size=${options.heapLimitMb ?? DEFAULT_HEAP_LIMIT_MB}`,
    bundle,
  ];
  const command: ReturnType<EngineWrap> = options.wrap ? options.wrap(node, args) : { command: node, args };
  // LESSON_COMPANION_ENGINE_QUIET_MS: tests of a model that loops need not wait the full default.
  const quietLimitMs =
    options.quietLimitMs ?? (Number(process.env.LESSON_COMPANION_ENGINE_QUIET_MS) || DEFAULT_QUIET_LIMIT_MS);
  return new Promise<WorkerResult>((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(command.command, command.args, {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: engineEnv(options.env ?? process.env),
        windowsHide: true,
        // A process group of its own, so that the session's end can kill the worker with whatever its sandbox started.
        detached: process.platform !== 'win32',
      });
    } catch (error) {
      reject(new EngineError('internal', `cannot start the lesson's engine: ${(error as Error).message}`));
      return;
    }
    const settings = {
      expected,
      services,
      quietLimitMs,
      heapLimitMb: options.heapLimitMb ?? DEFAULT_HEAP_LIMIT_MB,
      signal: options.signal,
      command: command.command,
      ...(command.runWord ? { runWord: command.runWord } : {}),
      ...(prepare ? { prepare } : {}),
    };
    new WorkerSession(child, settings, resolve, reject).start(ready);
  });
}
