/**
 * The diagnosis of a check in an engine worker (engine/host.ts), so that the pack's model never runs in this
 * process: a warm worker the service keeps where there is one, else a fresh one, started beside the known
 * passing run and stopped when that run passes.
 */
import type { PassingBatch } from '../../core/check/check';
import type { CheckReport } from '../../core/report/report';
import type { Launch } from '../sandbox/contain';
import { EngineError, runEngineJob, type EngineServices, type WarmEngine } from '../engine/host';
import type { CheckJob } from '../engine/protocol';
import { engineWrap as engineSandboxWrap, type ModelPack } from '../engine/engineSandbox';
import { resolveInside, type LoadedPack } from '../packs/packs';
import { passes, passReport } from './fastPass';
import { transpiledModelFiles } from '../engine/modelCache';
import type { SandboxSetting } from '../sandbox/sandbox';
import type { CheckContext, LearnerRuns } from './checkRuns';

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

/** The check's report from the engine worker, or the fast pass's when the known passing run passes. */
export async function checkInEngine(
  context: CheckContext,
  runs: LearnerRuns,
  launching: Promise<Launch>,
  engine: string,
): Promise<CheckReport> {
  const { pack, options } = context;
  const wrap = await engineWrap(context.contain.setting, pack, options.trustModel);
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
  const { firstRun, known } = runs;
  const passed = (): CheckReport =>
    passReport(pack, context.language, context.file, known!, performance.now() - runs.started);
  // A worker kept waiting (the check service's, its pack loaded) is taken only when the known passing run
  // fails: a pass leaves it waiting for the next check, and a failure hands it its job at once.
  const warmKept = options.kept?.warmEngine;
  if (firstRun && known && warmKept && passes(await Promise.race([cannotRun, firstRun]), known)) return passed();
  const engineRun = startEngine(context, runs, { engine, wrap, signal: stop.signal }, warmKept?.(pack.dir));
  engineRun.catch(() => undefined);
  // Else the worker starts beside the known passing run (starting it after would add its start-up to every
  // failing check); a pass needs nothing more, so the worker is stopped.
  if (firstRun && known && !warmKept && passes(await Promise.race([cannotRun, firstRun]), known)) {
    stop.abort();
    return passed();
  }
  return await Promise.race([cannotRun, engineRun]);
}

/** The worker's run of the check: the warm one given, else a fresh one (without Node's permission model where the runtime has none). */
async function startEngine(
  context: CheckContext,
  runs: LearnerRuns,
  how: { engine: string; wrap: Awaited<ReturnType<typeof engineWrap>>; signal: AbortSignal },
  warm: WarmEngine | undefined,
): Promise<CheckReport> {
  const { engine, wrap, signal } = how;
  const { pack, options } = context;
  // Transpiled once the worker has been started (a first transpile takes about as long as its start).
  let transpiled: Promise<Record<string, string>> | undefined;
  const transpile = options.kept?.transpiledModel ?? modelTranspiled;
  const job = engineJob(context, runs.trace);
  const services = engineServices(context, runs);
  const run = (permission: boolean): Promise<CheckReport> =>
    warm && permission
      ? transpile(pack).then((files) => warm.run({ ...job, transpiled: files }, services, signal))
      : runEngineJob(
          engine,
          job,
          services,
          { signal, ...wrap, permission },
          (transpiled ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => transpile(pack))),
        );
  // A runtime without Node's permission model (an old Electron) still gets the worker process, its heap and time limits.
  return run(true).catch((error: unknown) => {
    if (error instanceof EngineError && error.message === 'NO_PERMISSION_MODEL') return run(false);
    throw error;
  });
}

/** The worker's job: the learner's file and how to run it; the model's files are added once transpiled. */
function engineJob(context: CheckContext, trace: boolean): Omit<CheckJob, 'transpiled'> {
  const { pack, options, program, interpreters, driver } = context;
  return {
    kind: 'check',
    packDir: pack.dir,
    origin: pack.origin,
    language: context.language,
    file: context.file,
    absolute: context.absolute,
    fileName: program.fileName,
    source: context.source,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.fuzzTranscripts !== undefined ? { fuzzTranscripts: options.fuzzTranscripts } : {}),
    timeLimitMs: context.timeLimitMs,
    outputLimitBytes: context.outputLimitBytes,
    interpreter: program.command,
    concurrency: context.concurrency,
    replay: {
      interpreters: { python: interpreters.python, node: interpreters.node },
      ...(driver ? { driver } : {}),
    },
    trace,
  };
}

/** What the worker may ask of this process: runs, traced runs, and telling the phase and a passing batch. */
function engineServices(context: CheckContext, runs: LearnerRuns): EngineServices {
  const { options } = context;
  const { key, batches } = runs;
  return {
    execute: runs.execute,
    ...(runs.trace ? { locate: runs.locate, traceAhead: runs.traceAhead } : {}),
    ...(options.onPhase ? { onPhase: options.onPhase } : {}),
    ...(key ? { onBatch: (batch: PassingBatch) => batches!.set(key, batch) } : {}),
  };
}
