/**
 * The editor's side of the check service (server.ts): starts it, speaks to it, restarts it, stops it. No
 * `vscode` here, so that tests drive the very client the extension uses.
 *
 * - Started lazily (the first `warm` or `check`), below the editor's priority (nice 10, inherited by the
 *   learner's program and the engine workers), so that on a machine with few cores the checks yield the CPU
 *   to the editor.
 * - If it dies, the requests it was serving fail with a sentence that says so, and the next request starts a
 *   new one. After 3 deaths within 3 minutes it is not started again until `restart()`: a service that
 *   cannot live should be looked at in the log, not restarted for ever.
 * - `dispose()` asks it to shut down, then ends it: stdin closed, SIGTERM, SIGKILL 500 ms later. It never
 *   takes longer than about 2 s, well within the time VS Code gives an extension to deactivate.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import {
  createMessageConnection,
  CancellationTokenSource,
  ResponseError,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import type { CheckReport } from '../../core/report/report';
import { ClosingMessageReader } from './closingReader';
import type { RepairResult } from '../../core/repair/result';
import { quietNodeEnv } from '../run/nodeEnv';
import { OWNER_MARK_VARIABLE, endOwnedBy, newOwnerMark } from '../sandbox/ownerMark';
import {
  checkRequest,
  exitNotification,
  initializeRequest,
  phaseNotification,
  repairRequest,
  SERVICE_ERRORS,
  SERVICE_PROTOCOL,
  shutdownRequest,
  simulateRequest,
  statusRequest,
  warmRequest,
  type CheckParams,
  type LessonTarget,
  type RepairParams,
  type ServiceStatus,
  type SimulateParams,
  type UnderLoadResult,
} from './protocol';

export interface ServiceClientOptions {
  /** dist/service.js */
  readonly script: string;
  /** The Node to run it with: in VS Code its own runtime (ELECTRON_RUN_AS_NODE is set for it). */
  readonly node: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Each line the service writes to stderr, and the client's own notes. */
  readonly log?: (line: string) => void;
}

/** A request the service did not answer with a result, in words; `cancelled` when the caller stopped it. */
export class ServiceError extends Error {
  constructor(
    message: string,
    readonly cancelled = false,
    /** The service refused the request for a reason the learner or author can act on (a pack, the sandbox). */
    readonly refused = false,
    /** Refused because no sandbox can hold the model of this lesson (its id): the editor may ask to run it anyway. */
    readonly modelNotHeld?: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

/**
 * V8's young generation held at 1 MiB a semi-space: V8 grows it under a check's allocation up to 16 MiB a
 * semi-space and keeps it, so the service's resident memory grew from ~62 MB after 10 checks to ~100 MB after
 * 200 with the same 9 MB of live heap (its new space 2 → 32 MB). A 10 MB heap pays for more frequent, small
 * scavenges instead (200 checks: 1.05x, not 1.5-1.7x).
 */
const YOUNG_GENERATION = '--max-semi-space-size=1';
/**
 * One malloc arena for the whole service (glibc; ignored elsewhere): with one per thread (the thread pool,
 * V8's helpers) freed memory stays spread over arenas it is not returned from. 200 checks after the young
 * generation's bound: 1.07-1.11x with it, 1.16-1.22x without (the same runs side by side).
 */
const MALLOC_ARENAS = { MALLOC_ARENA_MAX: '1' };
const BACKGROUND_PRIORITY = 10;
const CRASH_WINDOW_MS = 3 * 60_000;
const MAX_CRASHES = 3;

interface Running {
  readonly child: ChildProcess;
  readonly connection: MessageConnection;
  readonly ready: Promise<void>;
  /** Why it ended, once it has. */
  ended?: string;
  /** Requests in flight: each is told if the service dies under it. */
  readonly inFlight: Set<(reason: string) => void>;
}

export class CheckServiceClient {
  private running: Running | undefined;
  private readonly crashes: number[] = [];
  private readonly phaseListeners = new Map<string, (phase: string) => void>();
  private nextToken = 0;
  private stopping = false;
  private startCount = 0;

  constructor(private readonly options: ServiceClientOptions) {}

  /** The live service's process id, if one runs. */
  get pid(): number | undefined {
    return this.running && !this.running.ended ? this.running.child.pid : undefined;
  }

  /** How many services this client has started: a second check that reuses the service starts none. */
  get starts(): number {
    return this.startCount;
  }

  private log(line: string): void {
    this.options.log?.(line);
  }

  private start(): Running {
    if (this.stopping) throw new ServiceError('the check service is shutting down with the window');
    const recent = this.crashes.filter((at) => Date.now() - at < CRASH_WINDOW_MS);
    if (recent.length >= MAX_CRASHES) {
      throw new ServiceError(
        `the check service stopped ${recent.length} times in the last 3 minutes, so it is not started again; see the Lesson Companion log, then run "Developer: Reload Window"`,
      );
    }
    const mark = newOwnerMark();
    const child = spawn(this.options.node, [YOUNG_GENERATION, this.options.script], {
      env: {
        ...quietNodeEnv(this.options.env ?? process.env),
        ...MALLOC_ARENAS,
        ELECTRON_RUN_AS_NODE: '1',
        NO_COLOR: '1',
        [OWNER_MARK_VARIABLE]: mark,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.startCount += 1;
    try {
      if (child.pid !== undefined) os.setPriority(child.pid, BACKGROUND_PRIORITY);
    } catch {
      // Not allowed here: it runs at the editor's priority.
    }
    const connection = createMessageConnection(
      new ClosingMessageReader(child.stdout!),
      new StreamMessageWriter(child.stdin!),
    );
    const running: Running = { child, connection, ready: Promise.resolve(), inFlight: new Set() };
    let stderrLine = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      stderrLine += chunk;
      const lines = stderrLine.split('\n');
      stderrLine = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) this.log(`service: ${line}`);
    });
    child.stdin!.on('error', () => undefined);
    const ended = (why: string): void => {
      if (running.ended) return;
      running.ended = why;
      if (!this.stopping) this.crashes.push(Date.now());
      this.log(`check service ${child.pid ?? '?'} ended (${why})`);
      for (const tell of [...running.inFlight]) tell(why);
      running.inFlight.clear();
      connection.dispose();
      if (this.running === running) this.running = undefined;
      // A service that dies without cleaning up can leave a sandbox behind (ownerMark.ts says how).
      void endOwnedBy(mark).then((killed) => {
        if (killed > 0) this.log(`killed ${killed} sandbox process(es) still running after the check service ended`);
      });
    };
    child.on('error', (error) => ended(`cannot start ${this.options.node}: ${error.message}`));
    child.on('exit', (code, signal) => ended(signal ? `stopped by ${signal}` : `exit code ${code}`));
    connection.onNotification(phaseNotification, (params) =>
      this.phaseListeners.get(params.progressToken)?.(params.phase),
    );
    connection.onError(([error]) => this.log(`check service connection: ${error.message}`));
    connection.listen();
    (running as { ready: Promise<void> }).ready = this.send(running, (token) =>
      connection.sendRequest(initializeRequest, { protocol: SERVICE_PROTOCOL, clientPid: process.pid }, token),
    ).then((result) => {
      this.log(`check service ${result.pid} started (protocol ${result.protocol})`);
    });
    running.ready.catch(() => undefined);
    return running;
  }

  private service(): Running {
    if (!this.running || this.running.ended) this.running = this.start();
    return this.running;
  }

  /** One request, told in words if the service dies under it, cancelled by `signal`. */
  private send<T>(
    running: Running,
    request: (token: CancellationTokenSource['token']) => Promise<T>,
    signal?: AbortSignal,
    what = 'request',
  ): Promise<T> {
    if (running.ended) return Promise.reject(new ServiceError(`the check service is not running (${running.ended})`));
    const source = new CancellationTokenSource();
    return new Promise<T>((resolve, reject) => {
      const died = (why: string): void => {
        reject(
          new ServiceError(
            `the check service stopped (${why}) during the ${what}; nothing of your work is lost, and the next ${what} starts a new service`,
          ),
        );
      };
      const onAbort = (): void => {
        source.cancel();
        reject(new ServiceError(`the ${what} was cancelled`, true));
      };
      running.inFlight.add(died);
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort);
      request(source.token)
        .then(resolve, (error: unknown) => {
          if (error instanceof ResponseError && error.code === SERVICE_ERRORS.modelNotHeld)
            reject(new ServiceError(error.message, false, true, typeof error.data === 'string' ? error.data : ''));
          else if (error instanceof ResponseError && error.code === SERVICE_ERRORS.refused)
            reject(new ServiceError(error.message, false, true));
          else if (error instanceof ResponseError && error.code === SERVICE_ERRORS.cancelled)
            reject(new ServiceError(`the ${what} was cancelled`, true));
          else reject(new ServiceError(error instanceof Error ? error.message : String(error)));
        })
        .finally(() => {
          running.inFlight.delete(died);
          signal?.removeEventListener('abort', onAbort);
          source.dispose();
        });
    });
  }

  private async call<T>(
    what: string,
    request: (connection: MessageConnection, token: CancellationTokenSource['token']) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const running = this.service();
    await running.ready.catch((error: unknown) => {
      throw error instanceof ServiceError
        ? error
        : new ServiceError(`the check service did not start: ${(error as Error).message}`);
    });
    return this.send(running, (token) => request(running.connection, token), signal, what);
  }

  /** A lesson session opened: its pack, model, interpreter and an engine worker are made ready. */
  warm(target: LessonTarget): Promise<void> {
    return this.call('warm-up', (connection, token) => connection.sendRequest(warmRequest, target, token)).then(
      () => undefined,
    );
  }

  check(
    params: Omit<CheckParams, 'progressToken'>,
    onPhase?: (phase: string) => void,
    signal?: AbortSignal,
  ): Promise<CheckReport> {
    const progressToken = `check-${++this.nextToken}`;
    if (onPhase) this.phaseListeners.set(progressToken, onPhase);
    return this.call(
      'check',
      (connection, token) => connection.sendRequest(checkRequest, { ...params, progressToken }, token),
      signal,
    ).finally(() => this.phaseListeners.delete(progressToken));
  }

  /** Rung 4: a fix for the report's mistakes, verified by the service before it answers. */
  repair(params: RepairParams, signal?: AbortSignal): Promise<RepairResult> {
    return this.call(
      'search for a fix',
      (connection, token) => connection.sendRequest(repairRequest, params, token),
      signal,
    );
  }

  simulate(params: SimulateParams, signal?: AbortSignal): Promise<UnderLoadResult> {
    return this.call(
      'simulation',
      (connection, token) => connection.sendRequest(simulateRequest, params, token),
      signal,
    );
  }

  status(): Promise<ServiceStatus> {
    return this.call('status request', (connection, token) => connection.sendRequest(statusRequest, token));
  }

  /**
   * Ends the running service (if any) and forgets its deaths: the next request starts a new one, with the
   * environment and settings of now.
   */
  async restart(): Promise<void> {
    await this.dispose();
    this.stopping = false;
    this.crashes.length = 0;
  }

  async dispose(): Promise<void> {
    this.stopping = true;
    const running = this.running;
    if (!running || running.ended) return;
    const { child, connection } = running;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const within = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());
    await Promise.race([
      connection.sendRequest(shutdownRequest).then(
        () => undefined,
        () => undefined,
      ),
      gone,
      within(1000),
    ]);
    if (!running.ended) {
      await Promise.race([connection.sendNotification(exitNotification).catch(() => undefined), within(200)]);
      child.stdin?.end();
      await Promise.race([gone, within(300)]);
    }
    if (!running.ended) {
      child.kill('SIGTERM');
      await Promise.race([gone, within(500)]);
    }
    if (!running.ended) child.kill('SIGKILL');
  }
}
