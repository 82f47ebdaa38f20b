/**
 * Runs a learner file through one of its lesson's world scenarios (core/world): the engine worker runs the
 * pack's world, reference and baselines, and exchanges the learner's lines through this process, which
 * drives the learner's contained process. The pack's code never runs here (in-process only without the
 * engine bundle: tests, as checks do).
 */
import type { Language } from '../../core/pack/schema';
import { ProgramStopped, type LineSession } from '../../core/world/lineSession';
import { safeText } from '../../core/text/text';
import { worldSentence, type WorldResult } from '../../core/world/worldReport';
import type { WorldScenario } from '../../core/world/worldScenarioSchema';
import { engineWrap, modelTranspiled } from './checker';
import { containProgram, type ContainOptions, type Containment, type SessionLimits } from '../sandbox/contain';
import { EngineError, runWorldSimulation } from '../engine/host';
import type { WorldOutcome } from '../engine/protocol';
import { runWorldContestants } from '../engine/worldContestants';
import { WordedError } from '../errors/errors';
import type { SessionStats } from '../run/interactive';
import type { PreparedProgram } from '../languages/languages';
import { DEFAULT_OUTPUT_LIMIT_BYTES, DEFAULT_TIME_LIMIT_MS } from '../run/limits';
import { loadPack, type LoadedPack } from '../packs/packs';
import { sandboxSettingFromEnv } from '../sandbox/sandbox';
import { DEFAULT_ANSWER_TIME_LIMIT_MS, simulatedProgram, type SimulateFileOptions } from './simulator';

/** A whole run may take this long beyond the check's time limit; a hang is caught sooner, per answer. */
const RUN_BUDGET_MS = 120_000;

export interface WorldSimulationOutcome {
  readonly result: WorldResult;
  readonly containment?: Containment;
  readonly stats: SessionStats;
  readonly transcript: readonly string[];
}

async function outcomeOf(
  pack: LoadedPack,
  scenario: WorldScenario,
  learner: LineSession,
  options: SimulateFileOptions,
): Promise<WorldOutcome> {
  const fault = (message: string): WordedError =>
    new WordedError(
      `the lesson's world could not run scenario "${scenario.id}": ${message}. This is a fault of the lesson pack "${pack.manifest.id}", not of your program.`,
    );
  if (!options.engine) {
    const model = pack.model ?? (await loadPack(pack.dir, pack.origin, { model: true })).model!;
    try {
      return await runWorldContestants(pack.manifest.id, scenario, model, learner);
    } catch (error) {
      if (error instanceof ProgramStopped) throw error;
      throw fault((error as Error).message);
    }
  }
  const engine = options.engine;
  const [wrap, transpiled] = await Promise.all([
    engineWrap(options.sandbox ?? sandboxSettingFromEnv(), pack, options.trustModel),
    modelTranspiled(pack),
  ]);
  const job = {
    kind: 'simulate-world',
    packDir: pack.dir,
    origin: pack.origin,
    scenario: scenario.id,
    learner: true,
    transpiled,
  } as const;
  const exchange = async (
    commands: readonly string[],
  ): Promise<{ answers: readonly string[] } | { stopped: { message: string; details?: string } }> => {
    try {
      return { answers: await learner.exchange(commands) };
    } catch (error) {
      if (error instanceof ProgramStopped)
        return { stopped: { message: error.message, ...(error.details ? { details: error.details } : {}) } };
      throw error;
    }
  };
  const once = (permission: boolean): Promise<WorldOutcome> =>
    runWorldSimulation(engine, job, exchange, {
      ...wrap,
      permission,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  try {
    return await once(true).catch((error: unknown) => {
      if (error instanceof EngineError && error.message === 'NO_PERMISSION_MODEL') return once(false);
      throw error;
    });
  } catch (error) {
    if (error instanceof EngineError && error.kind !== 'cancelled' && error.kind !== 'internal')
      throw fault(error.message);
    if (error instanceof EngineError && error.kind === 'internal')
      throw new WordedError(`the scenario's runs could not be computed: ${error.message}`);
    throw error;
  }
}

export async function simulateWorldFile(
  pack: LoadedPack,
  scenario: WorldScenario,
  file: string,
  language: Language,
  options: SimulateFileOptions = {},
): Promise<WorldSimulationOutcome> {
  const mistake =
    options.mistake === undefined ? undefined : pack.manifest.mistakes.find((m) => m.id === options.mistake);
  const { program, contain } = await simulatedProgram(pack, file, language, options);
  const limits = {
    timeLimitMs: (options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS) + RUN_BUDGET_MS,
    answerTimeLimitMs: options.answerTimeLimitMs ?? DEFAULT_ANSWER_TIME_LIMIT_MS,
    outputLimitBytes: options.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES,
  };
  try {
    const run = await runThroughWorld(pack, scenario, program, contain, limits, options);
    const result = worldResult(pack, scenario, run.outcome, mistake);
    return {
      result,
      ...(run.containment ? { containment: run.containment } : {}),
      stats: run.stats,
      transcript: run.transcript,
    };
  } finally {
    await program.dispose();
  }
}

interface LearnerWorldRun {
  readonly outcome: WorldOutcome;
  readonly containment?: Containment;
  readonly stats: SessionStats;
  readonly transcript: readonly string[];
}

/**
 * The scenario's outcome with the learner's program as one contestant, run line by line in its contained
 * session (closed when the run ends or is cancelled). A file that does not compile takes part as a program that
 * stops at once, saying so, so the reference and baselines still run.
 */
async function runThroughWorld(
  pack: LoadedPack,
  scenario: WorldScenario,
  program: PreparedProgram,
  contain: ContainOptions,
  limits: SessionLimits,
  options: SimulateFileOptions,
): Promise<LearnerWorldRun> {
  if (program.prepareError) {
    const where = program.prepareError.line ? ` (line ${program.prepareError.line})` : '';
    const message = `your file does not compile${where}: ${safeText(program.prepareError.message)}`;
    const outcome = await outcomeOf(
      pack,
      scenario,
      { exchange: async () => Promise.reject(new ProgramStopped(message)) },
      options,
    );
    return { outcome, stats: { exchanges: 0, commands: 0, waitingMs: 0 }, transcript: [] };
  }
  const launch = await containProgram(program, contain);
  const containment = launch.containment;
  const session = await launch.open(limits);
  const onAbort = (): void => void session.close();
  options.signal?.addEventListener('abort', onAbort);
  let outcome: WorldOutcome;
  try {
    outcome = await outcomeOf(pack, scenario, session, options);
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await session.close();
  }
  return { outcome, containment, stats: session.stats, transcript: session.transcript };
}

/** The outcome as the report shows it, with the sentence in numbers (and the mistake when the scenario shows it). */
function worldResult(
  pack: LoadedPack,
  scenario: WorldScenario,
  outcome: WorldOutcome,
  mistake: LoadedPack['manifest']['mistakes'][number] | undefined,
): WorldResult {
  // Lanes and titles come from pack code: made safe to print before any sentence or chart names them.
  const lanes = outcome.lanes.map((lane) => safeText(lane));
  const keys = ['yours', 'reference', ...(scenario.baselines ?? []).map((id) => `baseline.${id}`)];
  const contestants = keys.map((key) => ({ key, title: safeText(outcome.titles[key] ?? key) }));
  return {
    lesson: pack.manifest.id,
    scenario,
    lanes,
    ticks: outcome.ticks,
    contestants,
    runs: outcome.runs,
    ...(mistake && scenario.shows?.includes(mistake.id) ? { mistake: { id: mistake.id, title: mistake.title } } : {}),
    sentence: worldSentence(
      scenario,
      lanes,
      outcome.ticks,
      outcome.runs,
      mistake && scenario.shows?.includes(mistake.id) ? mistake : undefined,
    ),
  };
}
