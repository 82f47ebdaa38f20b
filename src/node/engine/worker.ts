/**
 * The engine worker: the process that runs pack code. It loads the lesson pack with its reference model and
 * runs the whole diagnosis, asking its host (over stdin/stdout, see protocol.ts) for every run of the
 * learner's program. Started by host.ts under Node's permission model: it may read the engine and the pack,
 * and nothing else; it may not write files, start processes or threads. What it needs comes in messages.
 */
import { check } from '../../core/check/check';
import { defaultSeed } from '../../core/check/cases';
import { passingBatch } from '../../core/check/passingBatch';
import type { Located, PassingBatch } from '../../core/check/checkInput';
import type { ProcessResult, RunLimits } from '../../core/check/process';
import { replayLesson, replayLine } from '../run/replay';
import { ModelError, ModelLoadError } from './modelLoader';
import { loadPack, PackError, type LoadedPack } from '../packs/packs';
import { modelSession, protocolBalancer, runScenario } from '../../worlds/templates/simulation';
import { templateScenarios } from '../../worlds/templates/scenarioSchema';
import {
  ENGINE_PROTOCOL,
  parseHostMessage,
  type CheckJob,
  type EngineJob,
  type HostMessage,
  type PrepareJob,
  type SimulateReferenceJob,
  type SimulateWorldJob,
  type WorkerMessage,
} from './protocol';
import { ProgramStopped, type LineSession } from '../../core/world/lineSession';
import { WorldError } from '../../core/world/worldRun';
import { isWorldScenario, type WorldScenario } from '../../core/world/worldScenarioSchema';
import { runWorldContestants } from './worldContestants';

const send = (message: WorkerMessage): void => {
  process.stdout.write(`${JSON.stringify(message)}\n`);
};

const pending = new Map<number, (message: HostMessage) => void>();
let nextId = 0;

function ask<T extends HostMessage>(message: (id: number) => WorkerMessage): Promise<T> {
  const id = nextId++;
  return new Promise<T>((resolve) => {
    pending.set(id, (reply) => resolve(reply as T));
    send(message(id));
  });
}

/** The pack with its model, as a job names it. Patterns were checked at validate and install; the worker never matches them. */
function loadJobPack(job: Pick<PrepareJob, 'packDir' | 'origin' | 'transpiled'>): Promise<LoadedPack> {
  return loadPack(job.packDir, job.origin, {
    model: true,
    checkPatterns: false,
    ...(job.transpiled ? { transpiled: job.transpiled } : {}),
  });
}

/** The pack loaded while this worker waited for its check (a 'prepare' from the host), and what it was asked for. */
let prepared: { readonly job: PrepareJob; readonly pack: Promise<LoadedPack> } | undefined;

/**
 * Loads the pack before the check comes and tells the host the passing batch of a check with the prepared
 * settings, so that the host can pass a correct program on its first run. A pack or model that fails to load
 * says so when the check uses it, in the check's own words; the host only learns that no batch is coming.
 */
function prepare(job: PrepareJob): void {
  const pack = loadJobPack(job);
  prepared = { job, pack };
  pack.then(
    (loaded) => {
      let batch: PassingBatch | undefined;
      try {
        batch = passingBatch({
          manifest: loaded.manifest,
          model: loaded.model!,
          transcripts: loaded.transcripts,
          options: {
            seed: job.seed ?? defaultSeed(loaded.manifest),
            ...(job.fuzzTranscripts !== undefined ? { fuzzTranscripts: job.fuzzTranscripts } : {}),
          },
        });
      } catch {
        // The model failed generating: the check meets the same failure and reports it.
      }
      send({ type: 'prepared', ...(batch ? { batch } : {}) });
    },
    () => send({ type: 'prepared' }),
  );
}

const sameFiles = (a: Readonly<Record<string, string>> = {}, b: Readonly<Record<string, string>> = {}): boolean =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([file, code]) => b[file] === code);

/** The prepared load, when the job is for that very pack and model code; else a load of its own. */
function packFor(job: CheckJob): Promise<LoadedPack> {
  const p = prepared?.job;
  if (p && p.packDir === job.packDir && p.origin === job.origin && sameFiles(p.transpiled, job.transpiled))
    return prepared!.pack;
  return loadJobPack(job);
}

async function runCheck(job: CheckJob): Promise<void> {
  const pack = await packFor(job);
  const execute = async (input: string, limits?: RunLimits): Promise<ProcessResult> =>
    (
      await ask<Extract<HostMessage, { type: 'executed' }>>((id) => ({
        type: 'execute',
        id,
        input,
        ...(limits ? { limits } : {}),
      }))
    ).result;
  const locate = async (
    attempts: Parameters<NonNullable<Parameters<typeof check>[0]['locate']>>[0],
  ): Promise<Located> => {
    const reply = await ask<Extract<HostMessage, { type: 'located' }>>((id) => ({ type: 'locate', id, attempts }));
    return {
      ...(reply.location ? { location: reply.location } : {}),
      ...(reply.attempt !== undefined ? { attempt: reply.attempt } : {}),
      runs: reply.runs,
    };
  };
  const driver = job.replay.driver;
  const report = await check({
    manifest: pack.manifest,
    model: pack.model!,
    transcripts: pack.transcripts,
    language: job.language,
    file: job.file,
    fileName: job.fileName,
    source: job.source,
    clock: () => performance.now(),
    options: {
      seed: job.seed ?? defaultSeed(pack.manifest),
      ...(job.fuzzTranscripts !== undefined ? { fuzzTranscripts: job.fuzzTranscripts } : {}),
      timeLimitMs: job.timeLimitMs,
      outputLimitBytes: job.outputLimitBytes,
      interpreter: job.interpreter,
      concurrency: job.concurrency,
    },
    execute,
    replay: (stdin) =>
      replayLine(stdin, job.language, job.absolute, replayLesson(pack), job.replay.interpreters, driver),
    ...(job.trace ? { locate, traceAhead: (attempt) => send({ type: 'trace-ahead', attempt }) } : {}),
    onPhase: (phase) => send({ type: 'phase', phase }),
    onBatch: (batch) => send({ type: 'batch', batch }),
  });
  send({ type: 'report', report });
}

/** The reference's series on a scenario: the model, through the scenario's command templates, drives the cluster. */
async function simulateReference(job: SimulateReferenceJob): Promise<void> {
  const pack = await loadPack(job.packDir, job.origin, {
    model: true,
    checkPatterns: false,
    ...(job.transpiled ? { transpiled: job.transpiled } : {}),
  });
  const scenario = templateScenarios(pack.manifest.scenarios).find((s) => s.id === job.scenario);
  if (!scenario) throw new Error(`lesson "${pack.manifest.id}" has no scenario "${job.scenario}"`);
  const run = await runScenario(scenario, protocolBalancer(scenario.commands, modelSession(pack.model!)));
  send({ type: 'series', run });
}

/** The learner's program as a line session: each batch of lines exchanged through the host, which runs it. */
function learnerThroughHost(): LineSession {
  return {
    exchange: async (commands) => {
      const reply = await ask<Extract<HostMessage, { type: 'exchanged' }>>((id) => ({
        type: 'exchange',
        id,
        commands,
      }));
      if (reply.stopped) throw new ProgramStopped(reply.stopped.message, reply.stopped.details);
      return reply.answers ?? [];
    },
  };
}

/** A world scenario: the pack's world drives the reference, the scenario's baselines, then the learner's program. */
async function simulateWorld(job: SimulateWorldJob): Promise<void> {
  const pack = await loadPack(job.packDir, job.origin, {
    model: true,
    checkPatterns: false,
    ...(job.transpiled ? { transpiled: job.transpiled } : {}),
  });
  const scenario = (pack.manifest.scenarios ?? []).find(
    (s): s is WorldScenario => s.id === job.scenario && isWorldScenario(s),
  );
  if (!scenario) throw new WorldError(`lesson "${pack.manifest.id}" has no world scenario "${job.scenario}"`);
  const outcome = await runWorldContestants(
    pack.manifest.id,
    scenario,
    pack.model!,
    job.learner ? learnerThroughHost() : undefined,
  );
  send({ type: 'world', outcome });
}

function runJob(job: EngineJob): Promise<void> {
  if (job.kind === 'check') return runCheck(job);
  return job.kind === 'simulate-world' ? simulateWorld(job) : simulateReference(job);
}

function fail(error: unknown): void {
  if (error instanceof ModelError)
    send({ type: 'failed', kind: 'model-error', message: error.message, file: error.file });
  else if (error instanceof ModelLoadError)
    send({ type: 'failed', kind: 'model-error', message: error.message, file: error.file, line: error.line });
  else if (error instanceof PackError || error instanceof WorldError)
    send({ type: 'failed', kind: 'pack-error', message: error.message });
  else send({ type: 'failed', kind: 'internal', message: error instanceof Error ? error.message : String(error) });
}

function main(): void {
  // A socket pair to a Node parent takes writes asynchronously; the last message must not be lost at exit.
  (process.stdout as unknown as { _handle?: { setBlocking?: (on: boolean) => void } })._handle?.setBlocking?.(true);
  let buffered = '';
  let started = false;
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      const message = parseHostMessage(line);
      if (!message) continue;
      if (message.type === 'prepare') {
        if (!started && !prepared) prepare(message.job);
        continue;
      }
      if (message.type === 'start') {
        if (started || message.protocol !== ENGINE_PROTOCOL) continue;
        started = true;
        runJob(message.job).then(
          () => process.exit(0),
          (error: unknown) => {
            fail(error);
            process.exit(1);
          },
        );
        continue;
      }
      const resolve = pending.get(message.id);
      pending.delete(message.id);
      resolve?.(message);
    }
  });
  // The host went away: nothing left to do for it.
  process.stdin.on('end', () => process.exit(2));
}

main();
