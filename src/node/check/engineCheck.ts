/**
 * The diagnosis of a check in an engine worker (engine/host.ts), so that the pack's model never runs in this
 * process: a warm worker the service keeps where there is one, else a fresh one, started beside the known
 * passing run and stopped when that run passes.
 */
import type { PassingBatch } from '../../core/check/check';
import type { CheckReport } from '../../core/report/report';
import type { Launch } from '../sandbox/contain';
import { EngineError, runEngineJob, type EngineServices } from '../engine/host';
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
  // Transpiled once the worker has been started (a first transpile takes about as long as its start).
  let transpiled: Promise<Record<string, string>> | undefined;
  const transpile = options.kept?.transpiledModel ?? modelTranspiled;
  const job = engineJob(context, runs.trace);
  const services = engineServices(context, runs);
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
  // A runtime without Node's permission model (an old Electron) still gets the worker process, its heap and time limits.
  const engineRun = run(true).catch((error: unknown) => {
    if (error instanceof EngineError && error.message === 'NO_PERMISSION_MODEL') return run(false);
    throw error;
  });
  engineRun.catch(() => undefined);
  // The worker starts beside the known passing run (starting it after would add its start-up to every
  // failing check); a pass needs nothing more, so the worker is stopped.
  const { firstRun, known } = runs;
  if (firstRun && known) {
    const result = await Promise.race([cannotRun, firstRun]);
    if (passes(result, known)) {
      stop.abort();
      return passReport(pack, context.language, context.file, known, performance.now() - runs.started);
    }
  }
  return await Promise.race([cannotRun, engineRun]);
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
    ...(runs.trace ? { locate: runs.locate } : {}),
    ...(options.onPhase ? { onPhase: options.onPhase } : {}),
    ...(key ? { onBatch: (batch: PassingBatch) => batches!.set(key, batch) } : {}),
  };
}
