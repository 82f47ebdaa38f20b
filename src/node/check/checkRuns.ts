/**
 * What a check of one learner file works with (checker.ts): the program prepared once with its limits and
 * containment, and the runs of it the check makes, the known passing batch's run first where there is one.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LocateAttempt, PassingBatch } from '../../core/check/check';
import { MAX_TRACE_TRIES } from '../../core/check/locateAttempts';
import type { Located } from '../../core/check/checkInput';
import type { ProcessResult, RunLimits } from '../../core/check/process';
import type { Language } from '../../core/pack/schema';
import { rankSuspiciousLines } from '../../core/diagnosis/spectrum';
import { containProgram, type ContainOptions, type Launch } from '../sandbox/contain';
import type { WarmEngine } from '../engine/host';
import { DEFAULT_INTERPRETERS, prepareProgram, type Interpreters, type PreparedProgram } from '../languages/languages';
import { starterLayout } from './starterLayout';
import {
  linesIn,
  startTrace,
  traceCommandLines,
  traceKey,
  tracedFiles,
  type LineTrace,
  type LineTraceRequest,
  type StartedTrace,
} from '../run/lineTrace';
import type { ProcessSpec } from '../run/runner';
import { DEFAULT_OUTPUT_LIMIT_BYTES, DEFAULT_TIME_LIMIT_MS } from '../run/limits';
import { resolveInside, type LoadedPack } from '../packs/packs';
import { batchKey, type PassingBatchStore } from './fastPass';
import { builtInBatch } from './builtInBatch';
import { sandboxSettingFromEnv, type SandboxSetting } from '../sandbox/sandbox';

export interface CheckFileOptions {
  readonly interpreters?: Partial<Interpreters>;
  readonly timeLimitMs?: number;
  readonly outputLimitBytes?: number;
  readonly seed?: number;
  readonly fuzzTranscripts?: number;
  /** `require` fails (SandboxUnavailableError) where there is no sandbox; default: LESSON_COMPANION_SANDBOX, else auto. */
  readonly sandbox?: SandboxSetting;
  /** The id of the one pack whose model may run without a sandbox where there is none (engineSandbox.ts). */
  readonly trustModel?: string;
  readonly memoryLimitMiB?: number;
  /** The engine worker bundle (dist/engine.js) to run the diagnosis in; without it the diagnosis runs in this process. */
  readonly engine?: string;
  /** Trace the learner's program to point at the lines that went wrong (one or two more runs per mistake). */
  readonly trace?: boolean;
  readonly onPhase?: (phase: string) => void;
  readonly signal?: AbortSignal;
  /**
   * For a built-in lesson, compute the passing batch here (builtInBatch.ts) and start the learner's run at once,
   * beside the engine worker's start: the command line's check, which keeps nothing between checks.
   */
  readonly builtInFirstRun?: boolean;
  /**
   * What a long-lived caller (the check service) keeps between checks, in its memory: passing batches (a
   * correct program then passes on its first run, without the engine), an engine worker already started for
   * this pack, and the pack's model as transpiled last time. The command line has none of them.
   */
  readonly kept?: {
    readonly passingBatches?: PassingBatchStore;
    readonly warmEngine?: (packDir: string) => WarmEngine | undefined;
    readonly transpiledModel?: (pack: LoadedPack) => Promise<Record<string, string>>;
  };
}

/**
 * Time each command may take in a batch. The time limit is for a whole process, and one process answers
 * hundreds of commands: a correct program taking 10 ms per command must not fail a 598-command batch.
 * A hang does not wait for this: the runner stops a program that stopped answering after about 1 s.
 */
export const PER_COMMAND_BUDGET_MS = 25;

/** The time limit for a run with this input: the limit, or the per-command budget times the commands if more. */
export function timeLimitFor(input: string, timeLimitMs: number): number {
  let commands = 0;
  for (let i = input.indexOf('\n'); i >= 0; i = input.indexOf('\n', i + 1)) commands++;
  return Math.max(timeLimitMs, commands * PER_COMMAND_BUDGET_MS);
}

/** One check of one learner file: the file, the program prepared to run it, and its limits. */
export interface CheckContext {
  readonly pack: LoadedPack;
  /** The file as the report names it, and its absolute path. */
  readonly file: string;
  readonly absolute: string;
  readonly language: Language;
  readonly source: string;
  readonly program: PreparedProgram;
  readonly interpreters: Interpreters;
  /** The lesson's driver for this language, when the starter has one. */
  readonly driver: string | undefined;
  readonly timeLimitMs: number;
  readonly outputLimitBytes: number;
  readonly contain: ContainOptions;
  readonly concurrency: number;
  readonly options: CheckFileOptions;
}

/** Reads the learner's file and prepares its program (a TypeScript file is transpiled, a driver found). */
export async function prepareCheck(
  pack: LoadedPack,
  file: string,
  language: Language,
  options: CheckFileOptions,
): Promise<CheckContext> {
  const interpreters: Interpreters = { ...DEFAULT_INTERPRETERS, ...options.interpreters };
  const starter = pack.manifest.starters[language];
  const driver = starter?.driver ? await resolveInside(pack.dir, starter.driver) : undefined;
  if (starter?.driver && !driver) throw new Error(`the pack's ${language} driver points outside the pack`);
  const absolute = path.resolve(file);
  const source = await fs.readFile(absolute, 'utf8');
  const program = await prepareProgram(language, absolute, interpreters, driver, await starterLayout(pack, language));
  const timeLimitMs = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  const outputLimitBytes = options.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES;
  const contain: ContainOptions = {
    setting: options.sandbox ?? sandboxSettingFromEnv(),
    hidden: [pack.dir],
    ...(options.memoryLimitMiB !== undefined ? { memoryLimitMiB: options.memoryLimitMiB } : {}),
  };
  const concurrency = Math.max(1, Math.min(2, os.availableParallelism?.() ?? os.cpus().length));
  return {
    pack,
    file,
    absolute,
    language,
    source,
    program,
    interpreters,
    driver,
    timeLimitMs,
    outputLimitBytes,
    contain,
    concurrency,
    options,
  };
}

/** The runs of the learner's program a check makes, and what the fast pass knows. */
export interface LearnerRuns {
  readonly execute: (input: string, limits?: RunLimits) => Promise<ProcessResult>;
  readonly locate: (attempts: readonly LocateAttempt[]) => Promise<Located>;
  /** Starts an attempt's traced run now, for `locate` to take (CheckInput `traceAhead`). */
  readonly traceAhead: (attempt: LocateAttempt) => void;
  /** Stops the traced runs started ahead that no `locate` took, and waits for them: the check is over. */
  readonly settle: () => Promise<void>;
  /** Trace the program to locate a mistake: asked for, and the program can run. */
  readonly trace: boolean;
  /** The key of the pack's passing batch in the caller's store, where it keeps one. */
  readonly key: string | undefined;
  readonly batches: PassingBatchStore | undefined;
  /** The passing batch already known for this pack, and its run, started at once. */
  readonly known: PassingBatch | undefined;
  readonly firstRun: Promise<ProcessResult> | undefined;
  /** When the first run started (a fast pass's duration). */
  readonly started: number;
}

/**
 * The check's runs, through `launching` (the sandbox and the interpreter being found meanwhile). A correct
 * program passes on its first run, without the engine, when the pack's passing batch is known: that run starts
 * here, and the engine's first run is that one.
 */
export function learnerRuns(context: CheckContext, launching: Promise<Launch>): LearnerRuns {
  const { pack, program, options, timeLimitMs, outputLimitBytes } = context;
  const runContained = async (input: string, limits?: RunLimits): Promise<ProcessResult> => {
    if (program.prepareError) {
      return {
        stdout: '',
        stderr: '',
        exitCode: null,
        signal: null,
        timedOut: false,
        outputLimited: false,
        prepareError: program.prepareError,
        durationMs: 0,
      };
    }
    // A cancelled check starts no more runs (a stalled run's retry, a run the engine asked for as it was stopped).
    if (options.signal?.aborted) throw new Error('the check was cancelled');
    const launch = await launching;
    // Cancelled while the sandbox was being found: nothing starts. A cancel after this stops the run itself.
    if (options.signal?.aborted) throw new Error('the check was cancelled');
    return launch.run(input, {
      timeLimitMs: timeLimitFor(input, timeLimitMs),
      outputLimitBytes: limits?.outputLimitBytes ?? outputLimitBytes,
      ...(limits?.stallMs !== undefined ? { stallMs: limits.stallMs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  };
  const batches = options.kept?.passingBatches;
  const settings = {
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.fuzzTranscripts !== undefined ? { fuzzTranscripts: options.fuzzTranscripts } : {}),
  };
  const key = options.engine && batches ? batchKey(pack, options.engine, settings) : undefined;
  const kept = key && !program.prepareError ? batches!.get(key) : undefined;
  // The command line keeps no batch: a built-in lesson's is computed here (its model is the tool's own code).
  const computed = options.builtInFirstRun && options.engine && !program.prepareError;
  const known = kept ?? (computed ? builtInBatch(pack, settings) : undefined);
  const started = performance.now();
  const firstRun = known ? runContained(known.input) : undefined;
  let firstRunTaken = false;
  const execute = async (input: string, limits?: RunLimits): Promise<ProcessResult> => {
    // The engine's first run is the one already made (or being made) for the fast pass.
    if (firstRun && !firstRunTaken && input === known!.input && limits?.outputLimitBytes === undefined) {
      firstRunTaken = true;
      return firstRun;
    }
    return runContained(input, limits);
  };
  const trace = options.trace !== false && !program.prepareError;
  const tracing = lineTracing(program, context.absolute, context.language, context.contain, {
    timeLimitMs,
    outputLimitBytes,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const locate = (attempts: readonly LocateAttempt[]): Promise<Located> => locateLines(tracing, attempts);
  const traceAhead = (attempt: LocateAttempt): void => tracing.ahead(attempt);
  return { execute, locate, traceAhead, settle: tracing.settle, trace, key, batches, known, firstRun, started };
}

/** The check's traced runs of the learner's program: each asked for by `locate`, or started ahead for it. */
interface LineTracing {
  /** The learner's file, as the traced lines name it. */
  readonly learnerFile: string;
  readonly request: (commands: readonly string[], answers: readonly (readonly string[])[]) => LineTraceRequest;
  readonly runner: (spec: ProcessSpec, input: string) => Promise<ProcessResult>;
  readonly ahead: (attempt: LocateAttempt) => void;
  /** The run started ahead for this request, if one was and is not taken yet. */
  readonly take: (request: LineTraceRequest) => StartedTrace | undefined;
  readonly settle: () => Promise<void>;
}

/**
 * Traced runs started ahead in one check at most: the check asks for one per finding it confirms, on a spare core;
 * an engine worker asking for more (a pack's model is not trusted) gets nothing more started.
 */
const MAX_TRACES_AHEAD = 4;

function lineTracing(
  program: PreparedProgram,
  learnerFile: string,
  language: Language,
  contain: ContainOptions,
  limits: { timeLimitMs: number; outputLimitBytes: number; signal?: AbortSignal },
): LineTracing {
  const request = (commands: readonly string[], answers: readonly (readonly string[])[]): LineTraceRequest => ({
    language,
    spec: { command: program.command, args: program.args, cwd: program.cwd, ...limits },
    files: tracedFiles(program, learnerFile),
    commands,
    answers,
  });
  // The traced command line, contained like every run of the learner's program.
  const runner = async (spec: ProcessSpec, input: string, signal = limits.signal): Promise<ProcessResult> =>
    (await containProgram({ ...program, args: spec.args }, contain)).run(input, {
      timeLimitMs: limits.timeLimitMs,
      outputLimitBytes: limits.outputLimitBytes,
      ...(signal ? { signal } : {}),
    });
  const started = new Map<string, { trace: StartedTrace; stop: AbortController }[]>();
  let aheadCount = 0;
  return {
    learnerFile,
    request,
    runner,
    ahead: (attempt) => {
      if (++aheadCount > MAX_TRACES_AHEAD) return;
      const asked = request(attempt.commands, attempt.answers);
      const stop = new AbortController();
      const signal = limits.signal ? AbortSignal.any([limits.signal, stop.signal]) : stop.signal;
      const trace = startTrace(asked, (spec, input) => runner(spec, input, signal));
      trace.run.catch(() => undefined); // awaited by the locate that takes it, or by settle
      const key = traceKey(asked);
      started.set(key, [...(started.get(key) ?? []), { trace, stop }]);
    },
    take: (asked) => {
      const key = traceKey(asked);
      const [first, ...rest] = started.get(key) ?? [];
      if (rest.length > 0) started.set(key, rest);
      else started.delete(key);
      return first?.trace;
    },
    settle: async () => {
      const left = [...started.values()].flat();
      started.clear();
      for (const { stop } of left) stop.abort();
      await Promise.allSettled(left.map(({ trace }) => trace.run));
    },
  };
}

/** Only attempts this short are run again: the chance that a random program answers a long one the same is small. */
const RETRIED_TRACE_COMMANDS = 12;

/**
 * Traces the learner's program on each attempt in turn until the lines of one failing command stand out
 * from those of the right commands of its kind (src/core/diagnosis/spectrum.ts). Attempts the check lets go
 * `alongside` the first are traced with it in one process; if that run answers otherwise, one at a time.
 */
async function locateLines(tracing: LineTracing, attempts: readonly LocateAttempt[]): Promise<Located> {
  const { learnerFile } = tracing;
  let runs = 0;
  const counted = async (spec: ProcessSpec, input: string): Promise<ProcessResult> => {
    runs += 1;
    return tracing.runner(spec, input);
  };
  // A run started ahead was counted by the check when it asked for it.
  const traceOf = (commands: readonly string[], answers: readonly (readonly string[])[], tries: number) => {
    const asked = tracing.request(commands, answers);
    return traceCommandLines(asked, counted, tries, tracing.take(asked));
  };
  if (attempts.length > 1 && attempts.slice(1).every((a) => a.alongside)) {
    const together = await traceOf(
      attempts.flatMap((a) => a.commands),
      attempts.flatMap((a) => a.answers),
      1,
    );
    if (together) return { ...bestOf(attempts, splitTrace(together, attempts, learnerFile)), runs };
  }
  const lines: (readonly (ReadonlySet<number> | undefined)[] | undefined)[] = [];
  for (const attempt of attempts) {
    // A short run of a program that draws at random may answer as it did again; a long one hardly ever will.
    // The check says how often where it knows the program draws at random (locateAttempts.ts `tries`).
    const tries = Math.min(
      attempt.tries ?? (attempt.commands.length <= RETRIED_TRACE_COMMANDS ? MAX_TRACE_TRIES : 1),
      MAX_TRACE_TRIES,
    );
    const trace = await traceOf(attempt.commands, attempt.answers, tries);
    lines.push(trace ? linesIn(trace, learnerFile) : undefined);
    const best = bestOf(attempts, lines);
    if (best.location && best.location.telling !== false) return { ...best, runs };
  }
  return { ...bestOf(attempts, lines), runs };
}

/** Each attempt's lines per command, from one traced run of them all, one after another. */
function splitTrace(
  trace: LineTrace,
  attempts: readonly LocateAttempt[],
  learnerFile: string,
): (readonly (ReadonlySet<number> | undefined)[])[] {
  const all = linesIn(trace, learnerFile);
  let at = 0;
  return attempts.map((a) => all.slice(at, (at += a.commands.length)));
}

/**
 * The first attempt whose failing command's lines stand out, else the first whose lines ran where it went right
 * too (a wrong value, not a wrong branch: a sort key, a `-= 1` with no floor): the lines of that command's own
 * code are still where to look, said as such.
 */
function bestOf(
  attempts: readonly LocateAttempt[],
  lines: readonly (readonly (ReadonlySet<number> | undefined)[] | undefined)[],
): Omit<Located, 'runs'> {
  let fallback: Omit<Located, 'runs'> | undefined;
  for (const [k, attempt] of attempts.entries()) {
    const traced = lines[k];
    if (!traced) continue;
    const ranked = rankSuspiciousLines({
      commands: attempt.commands,
      lines: traced,
      failingIndex: attempt.failingIndex,
      otherFailing: attempt.otherFailing,
      failingAnswer: attempt.answers[attempt.failingIndex] ?? null,
    });
    if (ranked?.discriminating)
      return { location: { lines: ranked.lines, function: null, reason: ranked.reason }, attempt: k };
    if (ranked)
      fallback ??= {
        location: { lines: ranked.lines, function: null, reason: ranked.reason, telling: false },
        attempt: k,
      };
  }
  return fallback ?? {};
}
