/**
 * dist/service.js: the resident check service. The editor starts one per window (with ELECTRON_RUN_AS_NODE)
 * and speaks JSON-RPC to it over stdin and stdout (protocol.ts); stdout carries nothing else.
 *
 * It ends, and ends everything it started, when any of these happens: an `exit` notification (after
 * `shutdown`), its stdin closes, the editor's process is gone (looked at every few seconds, since a killed
 * editor closes no pipe on some systems), or SIGTERM/SIGINT/SIGHUP.
 */
import {
  CancellationToken,
  createMessageConnection,
  type MessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';
import { SandboxUnavailableError } from '../sandbox/contain';
import { endEverything, endEverythingOnSignals } from '../sandbox/cleanup';
import { PackError } from '../packs/packs';
import { WordedError } from '../errors/errors';
import { ModelNotHeldError } from '../engine/engineSandbox';
import { engineBundle } from '../engine/host';
import { CheckService } from './checkService';
import { IdleCollection } from './idleCollection';
import {
  checkRequest,
  exitNotification,
  initializeRequest,
  phaseNotification,
  SERVICE_ERRORS,
  SERVICE_PROTOCOL,
  shutdownRequest,
  repairRequest,
  simulateRequest,
  statusRequest,
  warmRequest,
} from './protocol';

const PARENT_POLL_MS = 3000;

/** An abort signal that follows a JSON-RPC cancellation token. */
function abortOn(token: CancellationToken): AbortController {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  token.onCancellationRequested(() => controller.abort());
  return controller;
}

/** Errors the learner or author can act on keep their words; anything else is said as the service's own failure. */
function asResponse(error: unknown): ResponseError<string | void> | Error {
  if (error instanceof ModelNotHeldError)
    return new ResponseError(SERVICE_ERRORS.modelNotHeld, `${error.message}. Nothing was run.`, error.packId);
  if (error instanceof SandboxUnavailableError)
    return new ResponseError(SERVICE_ERRORS.refused, `${error.message}. Nothing was run.`);
  if (error instanceof PackError || error instanceof WordedError)
    return new ResponseError(SERVICE_ERRORS.refused, error.message);
  return error instanceof Error ? error : new Error(String(error));
}

function watchParent(pid: number, onGone: () => void): void {
  const timer = setInterval(() => {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') onGone();
    }
  }, PARENT_POLL_MS);
  timer.unref();
}

export function serve(): void {
  // Anything printed by accident must not corrupt the protocol: console output goes to stderr.
  console.log = console.info = console.warn = console.error;
  endEverythingOnSignals();
  const service = new CheckService({ engine: engineBundleOrExit() });
  const connection = createMessageConnection(
    new StreamMessageReader(process.stdin),
    new StreamMessageWriter(process.stdout),
  );
  const exit = (code: number): never => {
    service.dispose();
    endEverything();
    process.exit(code);
  };
  answerSetUp(connection, service, exit);
  const idle = new IdleCollection();
  answerJobs(connection, service, idle);
  answerStatusAndShutdown(connection, service, idle, exit);
  connection.onClose(() => exit(0));
  process.stdin.on('end', () => exit(0));
  connection.listen();
}

function engineBundleOrExit(): string {
  const engine = engineBundle(__dirname);
  if (!engine) {
    process.stderr.write(
      'lesson-companion service: dist/engine.js is missing beside dist/service.js; rebuild with `npm run build`.\n',
    );
    process.exit(2);
  }
  return engine;
}

/** `initialize` (the protocol agreed, the editor's process watched) and `warm`. */
function answerSetUp(connection: MessageConnection, service: CheckService, exit: (code: number) => never): void {
  connection.onRequest(initializeRequest, (params) => {
    if (params.protocol !== SERVICE_PROTOCOL) {
      throw new ResponseError(
        SERVICE_ERRORS.refused,
        `the editor speaks check-service protocol ${params.protocol}, this service ${SERVICE_PROTOCOL}: reload the window`,
      );
    }
    if (Number.isInteger(params.clientPid) && params.clientPid > 0) watchParent(params.clientPid, () => exit(0));
    return { protocol: SERVICE_PROTOCOL, pid: process.pid };
  });
  connection.onRequest(warmRequest, async (params) => {
    await service.prepare(params).catch((error: unknown) => {
      // Warming is a head start, never a failure: the check says what is wrong in its own words.
      process.stderr.write(`warm: ${(error as Error).message}\n`);
    });
    return null;
  });
}

/** The jobs: check, repair and simulate, each cancellable, each cancel ending everything the job started. */
function answerJobs(connection: MessageConnection, service: CheckService, idle: IdleCollection): void {
  connection.onRequest(checkRequest, async (params, token) => {
    const abort = abortOn(token);
    // One job at a time comes from an editor window: what a cancelled check started is all of what runs.
    abort.signal.addEventListener('abort', endEverything);
    try {
      const onPhase = (phase: string): void => {
        if (params.progressToken)
          void connection.sendNotification(phaseNotification, { progressToken: params.progressToken, phase });
      };
      return await idle.around(() => service.check(params, onPhase, abort.signal));
    } catch (error) {
      throw asResponse(error);
    }
  });
  connection.onRequest(repairRequest, async (params, token) => {
    const abort = abortOn(token);
    abort.signal.addEventListener('abort', endEverything);
    try {
      return await idle.around(() => service.repair(params, abort.signal));
    } catch (error) {
      throw asResponse(error);
    }
  });
  connection.onRequest(simulateRequest, async (params, token) => {
    const abort = abortOn(token);
    abort.signal.addEventListener('abort', endEverything);
    try {
      return await idle.around(() => service.simulate(params, abort.signal));
    } catch (error) {
      throw asResponse(error);
    }
  });
}

/** `status`, and the end: `shutdown`, then `exit` (an exit without a shutdown first is exit code 1). */
function answerStatusAndShutdown(
  connection: MessageConnection,
  service: CheckService,
  idle: IdleCollection,
  exit: (code: number) => never,
): void {
  let shuttingDown = false;
  connection.onRequest(statusRequest, () => {
    // Collected first, so that the figures are what the service holds, not garbage V8 has not collected yet.
    idle.collectNow();
    return { ...service.status(), collections: idle.collections };
  });
  connection.onRequest(shutdownRequest, () => {
    shuttingDown = true;
    service.dispose();
    endEverything();
    return null;
  });
  connection.onNotification(exitNotification, () => exit(shuttingDown ? 0 : 1));
}

serve();
