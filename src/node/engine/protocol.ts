/**
 * The messages between a check's host (the CLI process, which starts learner programs) and its engine
 * worker (a separate Node process that loads the pack's model and runs the diagnosis). One JSON object per
 * line in each direction. The worker may run pack code, so the host trusts nothing it says: every message
 * is checked on arrival, and a worker that says something else is stopped.
 */
import type { LocateAttempt, PassingBatch } from '../../core/check/check';
import { MAX_TRACE_TRIES } from '../../core/check/locateAttempts';
import type { ProcessResult, RunLimits } from '../../core/check/process';
import type { CheckReport, Location } from '../../core/report/report';
import type { Language } from '../../core/pack/schema';
import { SCENARIO_LIMITS } from '../../worlds/templates/scenarioSchema';
import type { BalancerRun, TickRecord } from '../../worlds/templates/simulation';
import { WORLD_LIMITS, type WorldRun } from '../../core/world/worldRun';

/**
 * 2: simulate-reference jobs, answered with a series; 3: simulate-world jobs, with exchanges of the learner's lines;
 * 4: a waiting worker prepares its check's pack before the check comes, and answers with the passing batch;
 * 5: the worker may ask for a traced run ahead (`trace-ahead`), beside the run that confirms the same commands.
 */
export const ENGINE_PROTOCOL = 5;

/** What the worker needs to check a learner file: everything but the right to start processes. */
export interface CheckJob {
  readonly kind: 'check';
  readonly packDir: string;
  readonly origin: 'built-in' | 'installed' | 'folder';
  readonly language: Language;
  /** The learner file as the report names it, its absolute path, its base name as tracebacks show it, its text. */
  readonly file: string;
  readonly absolute: string;
  readonly fileName: string;
  readonly source: string;
  readonly seed?: number;
  readonly fuzzTranscripts?: number;
  readonly timeLimitMs: number;
  readonly outputLimitBytes: number;
  readonly interpreter: string;
  readonly concurrency: number;
  /** For the replay line: how the learner would run the program by hand. */
  readonly replay: {
    readonly interpreters: { readonly python: string; readonly node: string };
    readonly driver?: string;
  };
  readonly trace: boolean;
  /** The model's files, transpiled by the host (real path → CommonJS code): the worker needs no transpiler. */
  readonly transpiled?: Readonly<Record<string, string>>;
}

/** The reference's series on one of the pack's scenarios: the model drives the simulated cluster. */
export interface SimulateReferenceJob {
  readonly kind: 'simulate-reference';
  readonly packDir: string;
  readonly origin: 'built-in' | 'installed' | 'folder';
  /** The scenario's id in the pack's lesson.json. */
  readonly scenario: string;
  /** As for a check: the model's files transpiled by the host. */
  readonly transpiled?: Readonly<Record<string, string>>;
}

/**
 * A world scenario's run (issue 22): the pack's world drives the reference, the scenario's baselines and,
 * with `learner`, the learner's program, whose lines the worker exchanges through the host (`exchange`).
 */
export interface SimulateWorldJob {
  readonly kind: 'simulate-world';
  readonly packDir: string;
  readonly origin: 'built-in' | 'installed' | 'folder';
  readonly scenario: string;
  readonly learner: boolean;
  readonly transpiled?: Readonly<Record<string, string>>;
}

/** What the worker answers a world job with: the lanes, the run's length, each contestant's run and title. */
export interface WorldOutcome {
  readonly lanes: readonly string[];
  readonly ticks: number;
  readonly runs: Readonly<Record<string, WorldRun>>;
  readonly titles: Readonly<Record<string, string>>;
}

export type EngineJob = CheckJob | SimulateReferenceJob | SimulateWorldJob;

/**
 * What a worker waiting for its check does meanwhile (the check service's warm worker): load the pack and its
 * model, and compute the passing batch of a check with these settings. A check job for the same pack, origin and
 * transpiled files then uses that load.
 */
export interface PrepareJob {
  readonly packDir: string;
  readonly origin: 'built-in' | 'installed' | 'folder';
  readonly transpiled?: Readonly<Record<string, string>>;
  readonly seed?: number;
  readonly fuzzTranscripts?: number;
}

export type HostMessage =
  | { readonly type: 'start'; readonly protocol: number; readonly job: EngineJob }
  | { readonly type: 'prepare'; readonly protocol: number; readonly job: PrepareJob }
  | { readonly type: 'executed'; readonly id: number; readonly result: ProcessResult }
  | {
      readonly type: 'located';
      readonly id: number;
      readonly location?: Location;
      /** Which attempt the location is from (the first when absent). */
      readonly attempt?: number;
      readonly runs: number;
    }
  | {
      readonly type: 'exchanged';
      readonly id: number;
      readonly answers?: readonly string[];
      readonly stopped?: { readonly message: string; readonly details?: string };
    };

export type EngineFailureKind = 'model-error' | 'pack-error' | 'internal';

export type WorkerMessage =
  | { readonly type: 'execute'; readonly id: number; readonly input: string; readonly limits?: RunLimits }
  | { readonly type: 'locate'; readonly id: number; readonly attempts: readonly LocateAttempt[] }
  /** Start this attempt's traced run now, for a later `locate` to take (CheckInput `traceAhead`); no answer. */
  | { readonly type: 'trace-ahead'; readonly attempt: LocateAttempt }
  | { readonly type: 'phase'; readonly phase: string }
  | { readonly type: 'batch'; readonly batch: PassingBatch }
  /** The prepared pack's passing batch, or none when the pack or its model did not load (the check says why). */
  | { readonly type: 'prepared'; readonly batch?: PassingBatch }
  | { readonly type: 'report'; readonly report: CheckReport }
  | { readonly type: 'series'; readonly run: BalancerRun }
  | { readonly type: 'exchange'; readonly id: number; readonly commands: readonly string[] }
  | { readonly type: 'world'; readonly outcome: WorldOutcome }
  | {
      readonly type: 'failed';
      readonly kind: EngineFailureKind;
      readonly message: string;
      readonly file?: string;
      readonly line?: number | null;
    };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
/** A worker may ask for no more input than this at once (the host bounds what it feeds a learner). */
const MAX_INPUT_CHARS = 64 * 1024 * 1024;

function isAttempt(v: unknown): v is LocateAttempt {
  return (
    isObj(v) &&
    Array.isArray(v.commands) &&
    v.commands.every((c) => typeof c === 'string') &&
    Array.isArray(v.answers) &&
    v.answers.every((a) => Array.isArray(a) && a.every((l) => typeof l === 'string')) &&
    isId(v.failingIndex) &&
    Array.isArray(v.otherFailing) &&
    v.otherFailing.every(isId) &&
    (v.tries === undefined || (isId(v.tries) && v.tries >= 1 && v.tries <= MAX_TRACE_TRIES)) &&
    (v.alongside === undefined || typeof v.alongside === 'boolean')
  );
}

const isCount = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER;
const isCounts = (v: unknown): v is number[] =>
  Array.isArray(v) && v.length <= SCENARIO_LIMITS.servers && v.every(isCount);

function isTick(v: unknown): v is TickRecord {
  return (
    isObj(v) &&
    isCounts(v.queues) &&
    isCounts(v.sent) &&
    v.queues.length === v.sent.length &&
    isCount(v.failed) &&
    isCount(v.waiting)
  );
}

/** A series as the worker sends it: bounded, whole numbers only, every tick the same width. */
export function isBalancerRun(v: unknown): v is BalancerRun {
  if (!isObj(v) || !Array.isArray(v.ticks) || v.ticks.length > SCENARIO_LIMITS.ticks || !v.ticks.every(isTick))
    return false;
  const widths = new Set((v.ticks as TickRecord[]).map((t) => t.queues.length));
  if (widths.size > 1) return false;
  if (v.stopped === undefined) return true;
  const s = v.stopped;
  return (
    isObj(s) &&
    isId(s.tick) &&
    typeof s.message === 'string' &&
    s.message.length <= 4000 &&
    (s.details === undefined || (typeof s.details === 'string' && s.details.length <= 70_000))
  );
}

const isMeasure = (v: unknown): boolean =>
  (typeof v === 'number' && Number.isFinite(v)) ||
  (Array.isArray(v) && v.length <= WORLD_LIMITS.lanes && v.every((x) => typeof x === 'number' && Number.isFinite(x)));

function isWorldRun(v: unknown): v is WorldRun {
  if (!isObj(v) || !Array.isArray(v.ticks) || v.ticks.length > WORLD_LIMITS.ticks) return false;
  const ticksOk = v.ticks.every(
    (t) =>
      isObj(t) &&
      isObj(t.measures) &&
      Object.keys(t.measures).length <= WORLD_LIMITS.measures &&
      Object.values(t.measures).every(isMeasure),
  );
  if (!ticksOk) return false;
  const s = v.stopped;
  return (
    s === undefined ||
    (isObj(s) &&
      isId(s.tick) &&
      typeof s.message === 'string' &&
      s.message.length <= 4000 &&
      (s.details === undefined || (typeof s.details === 'string' && s.details.length <= 70_000)))
  );
}

/** A world job's outcome as the worker sends it: bounded, numbers only, a title for every run. */
export function isWorldOutcome(v: unknown): v is WorldOutcome {
  if (
    !isObj(v) ||
    !Array.isArray(v.lanes) ||
    v.lanes.length > WORLD_LIMITS.lanes ||
    !v.lanes.every((l) => typeof l === 'string' && l.length <= 80)
  )
    return false;
  if (!isId(v.ticks) || v.ticks > WORLD_LIMITS.ticks || !isObj(v.runs) || !isObj(v.titles)) return false;
  const keys = Object.keys(v.runs);
  const titles = v.titles;
  return (
    keys.length <= 8 &&
    keys.every(
      (k) => isWorldRun((v.runs as Obj)[k]) && typeof titles[k] === 'string' && (titles[k] as string).length <= 80,
    )
  );
}

/** The worker runs the pack's code: the limits it asks a run for are bounded (a silence of at most 10 s). */
const isRunLimits = (raw: unknown): boolean =>
  isObj(raw) &&
  (raw.outputLimitBytes === undefined || (typeof raw.outputLimitBytes === 'number' && raw.outputLimitBytes > 0)) &&
  (raw.stallMs === undefined ||
    (typeof raw.stallMs === 'number' && Number.isInteger(raw.stallMs) && raw.stallMs >= 100 && raw.stallMs <= 10_000));
/** Only the fields a run reads, not whatever else the message carried. */
const runLimitsOf = (raw: Record<string, unknown>): RunLimits => ({
  ...(typeof raw.outputLimitBytes === 'number' ? { outputLimitBytes: raw.outputLimitBytes } : {}),
  ...(typeof raw.stallMs === 'number' ? { stallMs: raw.stallMs } : {}),
});

function isBatch(b: unknown): b is PassingBatch {
  return (
    isObj(b) &&
    typeof b.input === 'string' &&
    typeof b.expectedStdout === 'string' &&
    b.input.length <= MAX_INPUT_CHARS &&
    Array.isArray(b.transcripts) &&
    b.transcripts.every((t) => isObj(t) && typeof t.name === 'string' && typeof t.description === 'string') &&
    isObj(b.fuzz) &&
    typeof b.fuzz.seed === 'number' &&
    typeof b.fuzz.transcripts === 'number'
  );
}

/** A message from the worker, checked; undefined for anything that is not one. */
export function parseWorkerMessage(line: string): WorkerMessage | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObj(raw)) return undefined;
  switch (raw.type) {
    case 'execute':
      if (!isId(raw.id) || typeof raw.input !== 'string' || raw.input.length > MAX_INPUT_CHARS) return undefined;
      if (raw.limits !== undefined && !isRunLimits(raw.limits)) return undefined;
      return {
        type: 'execute',
        id: raw.id,
        input: raw.input,
        ...(isObj(raw.limits) ? { limits: runLimitsOf(raw.limits) } : {}),
      };
    case 'locate':
      return isId(raw.id) && Array.isArray(raw.attempts) && raw.attempts.length <= 4 && raw.attempts.every(isAttempt)
        ? { type: 'locate', id: raw.id, attempts: raw.attempts }
        : undefined;
    case 'trace-ahead':
      return isAttempt(raw.attempt) ? { type: 'trace-ahead', attempt: raw.attempt } : undefined;
    case 'phase':
      return typeof raw.phase === 'string' && raw.phase.length < 40 ? { type: 'phase', phase: raw.phase } : undefined;
    case 'batch':
      return isBatch(raw.batch) ? { type: 'batch', batch: raw.batch } : undefined;
    case 'prepared':
      if (raw.batch === undefined) return { type: 'prepared' };
      return isBatch(raw.batch) ? { type: 'prepared', batch: raw.batch } : undefined;
    case 'report':
      return isObj(raw.report) && typeof raw.report.status === 'string' && Array.isArray(raw.report.mistakes)
        ? { type: 'report', report: raw.report as unknown as CheckReport }
        : undefined;
    case 'series':
      return isBalancerRun(raw.run) ? { type: 'series', run: raw.run } : undefined;
    case 'exchange':
      return isId(raw.id) &&
        Array.isArray(raw.commands) &&
        raw.commands.length <= WORLD_LIMITS.sendPerStep * 4 &&
        raw.commands.every((c) => typeof c === 'string' && c.length <= 4096 && !c.includes('\n'))
        ? { type: 'exchange', id: raw.id, commands: raw.commands as string[] }
        : undefined;
    case 'world':
      return isWorldOutcome(raw.outcome) ? { type: 'world', outcome: raw.outcome } : undefined;
    case 'failed':
      if (raw.kind !== 'model-error' && raw.kind !== 'pack-error' && raw.kind !== 'internal') return undefined;
      if (typeof raw.message !== 'string') return undefined;
      return {
        type: 'failed',
        kind: raw.kind,
        message: raw.message.slice(0, 4000),
        ...(typeof raw.file === 'string' ? { file: raw.file } : {}),
        ...(typeof raw.line === 'number' || raw.line === null ? { line: raw.line as number | null } : {}),
      };
    default:
      return undefined;
  }
}

/** A message from the host; the worker trusts its host, but still reads only what it understands. */
export function parseHostMessage(line: string): HostMessage | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObj(raw)) return undefined;
  if (
    raw.type === 'start' &&
    raw.protocol === ENGINE_PROTOCOL &&
    isObj(raw.job) &&
    (raw.job.kind === 'check' || raw.job.kind === 'simulate-reference' || raw.job.kind === 'simulate-world')
  )
    return raw as unknown as HostMessage;
  if (
    raw.type === 'prepare' &&
    raw.protocol === ENGINE_PROTOCOL &&
    isObj(raw.job) &&
    typeof raw.job.packDir === 'string'
  )
    return raw as unknown as HostMessage;
  if (raw.type === 'executed' && isId(raw.id) && isObj(raw.result)) return raw as unknown as HostMessage;
  if (
    raw.type === 'located' &&
    isId(raw.id) &&
    typeof raw.runs === 'number' &&
    (raw.attempt === undefined || isId(raw.attempt))
  )
    return raw as unknown as HostMessage;
  if (raw.type === 'exchanged' && isId(raw.id) && (Array.isArray(raw.answers) || isObj(raw.stopped)))
    return raw as unknown as HostMessage;
  return undefined;
}
