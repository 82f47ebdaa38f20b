/**
 * The check service's protocol: JSON-RPC 2.0 over the service's stdin and stdout (vscode-jsonrpc), as a
 * language server speaks to its editor. The editor sends requests; the service answers each, and streams a
 * check's phases as notifications. Cancelling a request is JSON-RPC's own `$/cancelRequest`.
 *
 * Versioned: `initialize` names the protocol both sides speak, and the service refuses any other, so an
 * extension and a service bundle of different builds never half-understand each other.
 */
import { NotificationType, NotificationType0, RequestType, RequestType0 } from 'vscode-jsonrpc/node';
import type { Language } from '../../core/pack/schema';
import type { CheckReport } from '../../core/report/report';
import type { RepairResult } from '../../core/repair/result';
import type { SimulationResult } from '../../worlds/templates/simulationReport';
import type { WorldResult } from '../../core/world/worldReport';

/** A simulation's result: a template scenario's (balancers) or a world scenario's (any protocol; it has `lanes`). */
export type UnderLoadResult = SimulationResult | WorldResult;
import type { SandboxSetting } from '../sandbox/sandbox';

export const SERVICE_PROTOCOL = 1;

export interface InitializeParams {
  readonly protocol: number;
  /** The editor's process: the service ends when it is gone, whatever happened to the pipe. */
  readonly clientPid: number;
}
export interface InitializeResult {
  readonly protocol: number;
  readonly pid: number;
}

/** Which lesson, which file, and how: the same choices `lesson-companion check` takes on its command line. */
export interface LessonTarget {
  readonly packDir: string;
  readonly origin: 'built-in' | 'installed' | 'folder';
  readonly language: Language;
  readonly interpreters?: { readonly python?: string; readonly node?: string };
  readonly sandbox?: SandboxSetting;
  /** The id of the one pack whose model the user lets run where no sandbox can hold it (engineSandbox.ts). */
  readonly trustModel?: string;
}

export interface CheckParams extends LessonTarget {
  readonly file: string;
  readonly timeLimitMs?: number;
  readonly seed?: number;
  readonly fuzzTranscripts?: number;
  /** Names this check's phase notifications. */
  readonly progressToken?: string;
}

/** A fix for the mistakes of a check the editor has (rung 4 of the hint ladder, src/node/repair). */
export interface RepairParams extends Omit<CheckParams, 'progressToken'> {
  readonly report: CheckReport;
}

export interface SimulateParams extends LessonTarget {
  readonly file: string;
  readonly scenario?: string;
  readonly mistake?: string;
  readonly timeLimitMs?: number;
}

export interface PhaseParams {
  readonly progressToken: string;
  readonly phase: string;
}

/** What the service holds, for the editor's log and for tests. */
export interface ServiceStatus {
  readonly pid: number;
  readonly checks: number;
  readonly packs: number;
  readonly passingBatches: number;
  readonly warmEngine: string | null;
  /** Engine workers started so far, waiting ones included. */
  readonly enginesStarted: number;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  /** Full collections made after jobs (server.ts, idleCollection.ts). */
  readonly collections: number;
}

export const initializeRequest = new RequestType<InitializeParams, InitializeResult, void>('initialize');
/** A lesson session opened: load its pack, transpile its model, find the interpreter and sandbox, start an engine worker. */
export const warmRequest = new RequestType<LessonTarget, null, void>('lessonCompanion/warm');
export const checkRequest = new RequestType<CheckParams, CheckReport, void>('lessonCompanion/check');
export const repairRequest = new RequestType<RepairParams, RepairResult, void>('lessonCompanion/repair');
export const simulateRequest = new RequestType<SimulateParams, UnderLoadResult, void>('lessonCompanion/simulate');
export const statusRequest = new RequestType0<ServiceStatus, void>('lessonCompanion/status');
export const phaseNotification = new NotificationType<PhaseParams>('lessonCompanion/phase');
export const shutdownRequest = new RequestType0<null, void>('shutdown');
export const exitNotification = new NotificationType0('exit');

/** Error codes the service answers with, besides JSON-RPC's own. */
export const SERVICE_ERRORS = {
  /** The check could not start: a usage, pack or sandbox problem, said in words in the message. */
  refused: 1001,
  /** Refused because no sandbox can hold the pack's model; `data` is the lesson id the editor may ask about. */
  modelNotHeld: 1002,
  /** The request was cancelled. */
  cancelled: -32800,
} as const;
