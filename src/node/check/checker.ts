/**
 * Checks a learner file against a loaded pack: the Node side of core `check`. The learner's program runs
 * contained (contain.ts); the diagnosis runs in an engine worker (engine/host.ts) when the engine bundle is
 * at hand, so that the pack's model never runs in this process, or in-process for tests and benchmarks.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { check, defaultSeed, type LocateAttempt, type PassingBatch } from '../../core/check/check';
import type { ProcessResult, RunLimits } from '../../core/check/process';
import type { CheckReport, Location } from '../../core/report/report';
import type { Language } from '../../core/pack/schema';
import { rankSuspiciousLines } from '../../core/diagnosis/spectrum';
import { containProgram, type ContainOptions } from '../sandbox/contain';
import { EngineError, runEngineJob, type WarmEngine } from '../engine/host';
import { WordedError } from '../errors/errors';
import { safeText } from '../../core/text/text';
import { engineWrap as engineSandboxWrap, type ModelPack } from '../engine/engineSandbox';
import { DEFAULT_INTERPRETERS, prepareProgram, type Interpreters, type PreparedProgram } from '../languages/languages';
import { starterLayout } from './starterLayout';
import { linesIn, traceCommandLines, tracedFiles } from '../run/lineTrace';
import { ModelError, ModelLoadError } from '../engine/modelLoader';
import { DEFAULT_OUTPUT_LIMIT_BYTES, DEFAULT_TIME_LIMIT_MS } from '../run/limits';
import { loadPack, resolveInside, type LoadedPack } from '../packs/packs';
import { batchKey, passes, passReport, type PassingBatchStore } from './fastPass';
import { transpiledModelFiles } from '../engine/modelCache';
import { resolveInterpreter } from '../languages/interpreter';
import { replayLesson, replayLine } from '../run/replay';
import { availableSandbox, sandboxSettingFromEnv, type SandboxSetting } from '../sandbox/sandbox';

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

export { DEFAULT_OUTPUT_LIMIT_BYTES, DEFAULT_TIME_LIMIT_MS };
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

/**
 * Traces the learner's program on each attempt in turn until the lines of one failing command stand out
 * from those of the right commands of its kind (src/core/diagnosis/spectrum.ts).
 */
async function locateLines(
  program: PreparedProgram,
  learnerFile: string,
  language: Language,
  attempts: readonly LocateAttempt[],
  contain: ContainOptions,
  limits: { timeLimitMs: number; outputLimitBytes: number },
): Promise<{ location?: Location; runs: number }> {
  let runs = 0;
  let fallback: Location | undefined;
  for (const attempt of attempts) {
    runs += 1;
    const trace = await traceCommandLines(
      {
        language,
        spec: { command: program.command, args: program.args, cwd: program.cwd, ...limits },
        files: tracedFiles(program, learnerFile),
        commands: attempt.commands,
        answers: attempt.answers,
      },
      // The traced command line, contained like every run of the learner's program.
      async (spec, input) => (await containProgram({ ...program, args: spec.args }, contain)).run(input, limits),
    );
    if (!trace) continue;
    const ranked = rankSuspiciousLines({
      commands: attempt.commands,
      lines: linesIn(trace, learnerFile),
      failingIndex: attempt.failingIndex,
      otherFailing: attempt.otherFailing,
      failingAnswer: attempt.answers[attempt.failingIndex] ?? null,
    });
    if (ranked?.discriminating)
      return { location: { lines: ranked.lines, function: null, reason: ranked.reason }, runs };
    // The same lines ran where it went right (a wrong value, not a wrong branch: a sort key, a `-= 1` with
    // no floor): the lines of that command's own code are still where to look, said as such.
    if (ranked) fallback ??= { lines: ranked.lines, function: null, reason: ranked.reason, telling: false };
  }
  return fallback ? { location: fallback, runs } : { runs };
}

/** Where the engine worker runs: see engineSandbox.ts. */
export const engineWrap = (
  setting: SandboxSetting,
  pack: ModelPack,
  trustModel?: string,
): ReturnType<typeof engineSandboxWrap> => engineSandboxWrap(setting, pack, trustModel);

/** The pack's model files, transpiled here (and cached on disk) so the worker starts without a transpiler. */
export async function modelTranspiled(pack: LoadedPack): Promise<Record<string, string>> {
  const entry = await resolveInside(pack.dir, pack.manifest.model);
  return entry ? transpiledModelFiles(entry) : {};
}

/** A check that could not run because the pack's own model failed: the pack's fault, said so. */
function modelFailure(
  pack: LoadedPack,
  file: string,
  language: Language,
  message: string,
  durationMs: number,
): CheckReport {
  return {
    lesson: pack.manifest.id,
    language,
    file,
    status: 'error',
    checks: {
      total: pack.transcripts.length,
      passed: 0,
      failed: pack.transcripts.length,
      notRun: pack.transcripts.length,
    },
    transcripts: pack.transcripts.map((t) => ({
      name: t.name,
      description: t.description || t.name,
      passed: false,
      notRun: true,
    })),
    mistakes: [],
    problems: [
      {
        kind: 'model-error',
        // The model's own words may hold a line break: written out, they cannot pass for a line of the report.
        message: `The lesson could not check your program: ${safeText(message)}.`,
        advice: `This is a fault of the lesson pack "${pack.manifest.id}" (its reference model, ${pack.manifest.model}), not of your program, which is untouched. Tell the lesson's author; a newer version of the pack may fix it.`,
      },
    ],
    counterexample: null,
    fuzz: { seed: 0, transcripts: 0, failed: 0, notRun: 0 },
    durationMs,
    processRuns: 0,
  };
}

/**
 * Begins what every check of `language` needs first and finds by starting a process (the sandbox, and the
 * real interpreter behind a version manager's shim; each is then remembered), so that it goes on while the
 * lesson is being found and loaded. checkFile picks up the same answers.
 */
export function beginFinding(language: Language, interpreters: Partial<Interpreters>, setting: SandboxSetting): void {
  const all: Interpreters = { ...DEFAULT_INTERPRETERS, ...interpreters };
  const [command, runtime] = language === 'python' ? [all.python, 'python' as const] : [all.node, 'node' as const];
  resolveInterpreter(command, runtime).catch(() => undefined);
  if (setting !== 'off') availableSandbox().catch(() => undefined);
}

export async function checkFile(
  pack: LoadedPack,
  file: string,
  language: Language,
  options: CheckFileOptions = {},
): Promise<CheckReport> {
  const checkStarted = performance.now();
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
  try {
    // Finding the sandbox and the real interpreter takes starting each once; the engine worker starts meanwhile.
    const launching = containProgram(program, contain);
    launching.catch(() => undefined); // awaited below; a rejection must not go unhandled while the worker starts
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
      return (await launching).run(input, {
        timeLimitMs: timeLimitFor(input, timeLimitMs),
        outputLimitBytes: limits?.outputLimitBytes ?? outputLimitBytes,
        ...(limits?.stallMs !== undefined ? { stallMs: limits.stallMs } : {}),
      });
    };
    // A correct program passes on its first run, without the engine, when the pack's passing batch is known.
    const batches = options.kept?.passingBatches;
    const key =
      options.engine && batches
        ? batchKey(pack, options.engine, {
            ...(options.seed !== undefined ? { seed: options.seed } : {}),
            ...(options.fuzzTranscripts !== undefined ? { fuzzTranscripts: options.fuzzTranscripts } : {}),
          })
        : undefined;
    const known = key && !program.prepareError ? batches!.get(key) : undefined;
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
    const locate = (attempts: readonly LocateAttempt[]): Promise<{ location?: Location; runs: number }> =>
      locateLines(program, absolute, language, attempts, contain, { timeLimitMs, outputLimitBytes });
    let report: CheckReport;
    try {
      if (options.engine) {
        const engine = options.engine;
        // Transpiled once the worker has been started (a first transpile takes about as long as its start).
        let transpiled: Promise<Record<string, string>> | undefined;
        const transpile = options.kept?.transpiledModel ?? modelTranspiled;
        const job = {
          kind: 'check',
          packDir: pack.dir,
          origin: pack.origin,
          language,
          file,
          absolute,
          fileName: program.fileName,
          source,
          ...(options.seed !== undefined ? { seed: options.seed } : {}),
          ...(options.fuzzTranscripts !== undefined ? { fuzzTranscripts: options.fuzzTranscripts } : {}),
          timeLimitMs,
          outputLimitBytes,
          interpreter: program.command,
          concurrency,
          replay: {
            interpreters: { python: interpreters.python, node: interpreters.node },
            ...(driver ? { driver } : {}),
          },
          trace,
        } as const;
        const services = {
          execute,
          ...(trace ? { locate } : {}),
          ...(options.onPhase ? { onPhase: options.onPhase } : {}),
          ...(key ? { onBatch: (batch: PassingBatch) => batches!.set(key, batch) } : {}),
        };
        const warm = options.kept?.warmEngine?.(pack.dir);
        const run = (permission: boolean): Promise<CheckReport> =>
          warm && permission
            ? transpile(pack).then((files) => warm.run({ ...job, transpiled: files }, services, stop.signal))
            : runEngineJob(
                engine,
                job,
                services,
                { signal: stop.signal, ...wrap, permission },
                (transpiled ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => transpile(pack))),
              );
        const wrap = await engineWrap(contain.setting, pack, options.trustModel);
        // Cancelled from outside, or no way to run the program (--sandbox=require without one): stop the worker.
        const stop = new AbortController();
        options.signal?.addEventListener('abort', () => stop.abort());
        const cannotRun = launching.then(
          () => new Promise<never>(() => undefined),
          (error: unknown) => {
            stop.abort();
            throw error;
          },
        );
        // A runtime without Node's permission model (an old Electron) still gets the worker process, its heap and time limits.
        const engineRun = run(true).catch((error: unknown) => {
          if (error instanceof EngineError && error.message === 'NO_PERMISSION_MODEL') return run(false);
          throw error;
        });
        engineRun.catch(() => undefined);
        // The worker starts beside the known passing run (starting it after would add its start-up to every
        // failing check); a pass needs nothing more, so the worker is stopped.
        if (firstRun && known) {
          const result = await Promise.race([cannotRun, firstRun]);
          if (passes(result, known)) {
            stop.abort();
            return {
              ...passReport(pack, language, file, known, performance.now() - started),
              containment: (await launching).containment,
            };
          }
        }
        report = await Promise.race([cannotRun, engineRun]);
      } else {
        const model = pack.model ?? (await loadPack(pack.dir, pack.origin, { model: true })).model!;
        report = await check({
          manifest: pack.manifest,
          model,
          transcripts: pack.transcripts,
          language,
          file,
          fileName: program.fileName,
          source,
          clock: () => performance.now(),
          options: {
            seed: options.seed ?? defaultSeed(pack.manifest),
            ...(options.fuzzTranscripts !== undefined ? { fuzzTranscripts: options.fuzzTranscripts } : {}),
            timeLimitMs,
            outputLimitBytes,
            interpreter: program.command,
            concurrency,
          },
          execute,
          replay: (stdin) => replayLine(stdin, language, absolute, replayLesson(pack), interpreters, driver),
          ...(trace ? { locate } : {}),
          ...(options.onPhase ? { onPhase: options.onPhase } : {}),
        });
      }
    } catch (error) {
      if (error instanceof ModelError || error instanceof ModelLoadError)
        return modelFailure(pack, file, language, error.message, Math.round(performance.now() - checkStarted));
      if (error instanceof EngineError && (error.kind === 'model-error' || error.kind === 'stopped'))
        return modelFailure(pack, file, language, error.message, Math.round(performance.now() - checkStarted));
      // The worker found the pack broken (a model that imports outside it): the pack's words, not a crash.
      if (error instanceof EngineError && error.kind === 'pack-error') throw new WordedError(error.message);
      throw error;
    }
    return { ...report, containment: (await launching).containment };
  } finally {
    await program.dispose();
  }
}
