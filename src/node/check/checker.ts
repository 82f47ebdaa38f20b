/**
 * Checks a learner file against a loaded pack: the Node side of core `check`. The learner's program runs
 * contained (contain.ts); the diagnosis runs in an engine worker (engineCheck.ts) when the engine bundle is
 * at hand, so that the pack's model never runs in this process, or in-process for tests and benchmarks.
 */
import { check, defaultSeed } from '../../core/check/check';
import type { CheckReport } from '../../core/report/report';
import type { Language } from '../../core/pack/schema';
import { containProgram } from '../sandbox/contain';
import { EngineError } from '../engine/host';
import { WordedError } from '../errors/errors';
import { safeText } from '../../core/text/text';
import { DEFAULT_INTERPRETERS, type Interpreters } from '../languages/languages';
import { ModelError, ModelLoadError } from '../engine/modelLoader';
import { DEFAULT_OUTPUT_LIMIT_BYTES, DEFAULT_TIME_LIMIT_MS } from '../run/limits';
import { loadPack, type LoadedPack } from '../packs/packs';
import { resolveInterpreter } from '../languages/interpreter';
import { replayLesson, replayLine } from '../run/replay';
import { availableSandbox, type SandboxSetting } from '../sandbox/sandbox';
import { learnerRuns, prepareCheck, type CheckContext, type CheckFileOptions, type LearnerRuns } from './checkRuns';
import { checkInEngine } from './engineCheck';

export { PER_COMMAND_BUDGET_MS, timeLimitFor, type CheckFileOptions } from './checkRuns';
export { engineWrap, modelTranspiled } from './engineCheck';
export { DEFAULT_OUTPUT_LIMIT_BYTES, DEFAULT_TIME_LIMIT_MS };

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
  const context = await prepareCheck(pack, file, language, options);
  try {
    // Finding the sandbox and the real interpreter takes starting each once; the engine worker starts meanwhile.
    const launching = containProgram(context.program, context.contain);
    launching.catch(() => undefined); // awaited below; a rejection must not go unhandled while the worker starts
    const runs = learnerRuns(context, launching);
    let report: CheckReport;
    try {
      report = options.engine
        ? await checkInEngine(context, runs, launching, options.engine)
        : await checkInProcess(context, runs);
    } catch (error) {
      return reportOfFailure(error, pack, file, language, checkStarted);
    } finally {
      // A traced run started ahead and not taken is stopped before the program's prepared files go.
      await runs.settle();
    }
    return { ...report, containment: (await launching).containment };
  } finally {
    await context.program.dispose();
  }
}

/** The diagnosis in this process (tests and benchmarks): the pack's model loaded here. */
async function checkInProcess(context: CheckContext, runs: LearnerRuns): Promise<CheckReport> {
  const { pack, language, file, program, options, interpreters, driver } = context;
  const model = pack.model ?? (await loadPack(pack.dir, pack.origin, { model: true })).model!;
  return check({
    manifest: pack.manifest,
    model,
    transcripts: pack.transcripts,
    language,
    file,
    fileName: program.fileName,
    source: context.source,
    clock: () => performance.now(),
    options: {
      seed: options.seed ?? defaultSeed(pack.manifest),
      ...(options.fuzzTranscripts !== undefined ? { fuzzTranscripts: options.fuzzTranscripts } : {}),
      timeLimitMs: context.timeLimitMs,
      outputLimitBytes: context.outputLimitBytes,
      interpreter: program.command,
      concurrency: context.concurrency,
    },
    execute: runs.execute,
    replay: (stdin) => replayLine(stdin, language, context.absolute, replayLesson(pack), interpreters, driver),
    ...(runs.trace ? { locate: runs.locate, traceAhead: runs.traceAhead } : {}),
    ...(options.onPhase ? { onPhase: options.onPhase } : {}),
  });
}

/** A check the pack's model could not finish is the pack's fault, said as a report; anything else is thrown on. */
function reportOfFailure(
  error: unknown,
  pack: LoadedPack,
  file: string,
  language: Language,
  checkStarted: number,
): CheckReport {
  if (error instanceof ModelError || error instanceof ModelLoadError)
    return modelFailure(pack, file, language, error.message, Math.round(performance.now() - checkStarted));
  if (error instanceof EngineError && (error.kind === 'model-error' || error.kind === 'stopped'))
    return modelFailure(pack, file, language, error.message, Math.round(performance.now() - checkStarted));
  // The worker found the pack broken (a model that imports outside it): the pack's words, not a crash.
  if (error instanceof EngineError && error.kind === 'pack-error') throw new WordedError(error.message);
  throw error;
}
