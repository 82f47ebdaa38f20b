/**
 * Runs a learner file through one of its lesson's load scenarios (src/worlds/templates/simulation.ts) beside round robin and
 * the reference. The learner's program is driven line by line in a contained process (interactive.ts through
 * contain.ts); round robin is computed here; the reference's series comes from the engine worker, because it
 * needs the pack's model, which never runs in this process (in-process only for tests and benchmarks, as
 * checks do without the engine bundle).
 */
import * as path from 'node:path';
import type { Language } from '../../core/pack/schema';
import { templateScenarios, type Scenario } from '../../worlds/templates/scenarioSchema';
import { totalRequests } from '../../worlds/templates/scenarioRules';
import {
  modelSession,
  protocolBalancer,
  roundRobin,
  runScenario,
  type BalancerRun,
} from '../../worlds/templates/simulation';
import { simulationResult, type SimulationResult } from '../../worlds/templates/simulationReport';
import { chooseScenario } from '../../core/world/scenarioChoice';
import { safeText } from '../../core/text/text';
import { engineWrap, modelTranspiled } from './checker';
import { containProgram, type ContainOptions, type Containment } from '../sandbox/contain';
import { EngineError, runReferenceSimulation } from '../engine/host';
import { WordedError } from '../errors/errors';
import type { SessionStats } from '../run/interactive';
import { DEFAULT_INTERPRETERS, prepareProgram, type Interpreters, type PreparedProgram } from '../languages/languages';
import { starterLayout } from './starterLayout';
import { DEFAULT_OUTPUT_LIMIT_BYTES, DEFAULT_TIME_LIMIT_MS } from '../run/limits';
import { loadPack, resolveInside, type LoadedPack } from '../packs/packs';
import { sandboxSettingFromEnv, type SandboxSetting } from '../sandbox/sandbox';

/** How long one answer may take: far more than any real program needs, far less than a hang is worth waiting for. */
export const DEFAULT_ANSWER_TIME_LIMIT_MS = 2000;
/** Time a whole run may take per request, on top of the check's time limit (about a hundred times what Python needs). */
const PER_REQUEST_BUDGET_MS = 20;

export interface SimulateFileOptions {
  readonly interpreters?: Partial<Interpreters>;
  /** The scenario's id; default: the one that shows `mistake`, else the pack's first. */
  readonly scenario?: string;
  /** The id of a mistake a check named: the sentence then says what it does under load. */
  readonly mistake?: string;
  readonly timeLimitMs?: number;
  readonly answerTimeLimitMs?: number;
  readonly outputLimitBytes?: number;
  readonly sandbox?: SandboxSetting;
  /** The id of the one pack whose model may run without a sandbox where there is none (engineSandbox.ts). */
  readonly trustModel?: string;
  readonly memoryLimitMiB?: number;
  /** The engine worker bundle (dist/engine.js) that computes the reference's series; without it, this process does. */
  readonly engine?: string;
  readonly signal?: AbortSignal;
}

export interface SimulationOutcome {
  readonly result: SimulationResult;
  readonly containment?: Containment;
  /** The learner's session: round trips and time spent waiting for answers. */
  readonly stats: SessionStats;
  /** Every command the learner's program was sent, in order. */
  readonly transcript: readonly string[];
}

/** The learner's program as a simulation runs it (with the pack's driver, if any), and how it is contained. */
export async function simulatedProgram(
  pack: LoadedPack,
  file: string,
  language: Language,
  options: SimulateFileOptions,
): Promise<{ program: PreparedProgram; contain: ContainOptions }> {
  const interpreters: Interpreters = { ...DEFAULT_INTERPRETERS, ...options.interpreters };
  const starter = pack.manifest.starters[language];
  const driver = starter?.driver ? await resolveInside(pack.dir, starter.driver) : undefined;
  if (starter?.driver && !driver) throw new WordedError(`the pack's ${language} driver points outside the pack`);
  const program = await prepareProgram(
    language,
    path.resolve(file),
    interpreters,
    driver,
    await starterLayout(pack, language),
  );
  const contain: ContainOptions = {
    setting: options.sandbox ?? sandboxSettingFromEnv(),
    hidden: [pack.dir],
    ...(options.memoryLimitMiB !== undefined ? { memoryLimitMiB: options.memoryLimitMiB } : {}),
  };
  return { program, contain };
}

/** The scenario to run, or a worded error naming the ones there are. */
export function pickScenario(pack: LoadedPack, wanted?: string, mistake?: string): Scenario {
  const scenarios = templateScenarios(pack.manifest.scenarios);
  if (scenarios.length === 0)
    throw new WordedError(`lesson "${pack.manifest.id}" declares no load scenarios, so there is nothing to simulate`);
  const scenario = chooseScenario(scenarios, wanted, mistake ? [mistake] : []);
  if (!scenario)
    throw new WordedError(
      `lesson "${pack.manifest.id}" has no scenario "${wanted}"; it has ${(pack.manifest.scenarios ?? []).map((s) => s.id).join(', ')}`,
    );
  return scenario;
}

async function referenceRun(pack: LoadedPack, scenario: Scenario, options: SimulateFileOptions): Promise<BalancerRun> {
  let run: BalancerRun;
  if (options.engine) {
    const engine = options.engine;
    const [wrap, transpiled] = await Promise.all([
      engineWrap(options.sandbox ?? sandboxSettingFromEnv(), pack, options.trustModel),
      modelTranspiled(pack),
    ]);
    const job = {
      kind: 'simulate-reference',
      packDir: pack.dir,
      origin: pack.origin,
      scenario: scenario.id,
      transpiled,
    } as const;
    const once = (permission: boolean): Promise<BalancerRun> =>
      runReferenceSimulation(engine, job, {
        ...wrap,
        permission,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    try {
      run = await once(true).catch((error: unknown) => {
        if (error instanceof EngineError && error.message === 'NO_PERMISSION_MODEL') return once(false);
        throw error;
      });
    } catch (error) {
      if (
        error instanceof EngineError &&
        (error.kind === 'model-error' || error.kind === 'stopped' || error.kind === 'pack-error')
      ) {
        throw new WordedError(
          `the lesson's reference could not run scenario "${scenario.id}": ${error.message}. This is a fault of the lesson pack "${pack.manifest.id}", not of your program.`,
        );
      }
      if (error instanceof EngineError && error.kind === 'internal')
        throw new WordedError(`the reference's series could not be computed: ${error.message}`);
      throw error;
    }
  } else {
    const model = pack.model ?? (await loadPack(pack.dir, pack.origin, { model: true })).model!;
    run = await runScenario(scenario, protocolBalancer(scenario.commands, modelSession(model)));
  }
  const width = scenario.servers.length;
  if (run.ticks.length > scenario.ticks || run.ticks.some((t) => t.queues.length !== width)) {
    throw new WordedError(`the lesson's engine sent a series that does not fit scenario "${scenario.id}"`);
  }
  if (run.stopped) {
    throw new WordedError(
      `the lesson's reference model failed on scenario "${scenario.id}" at tick ${run.stopped.tick}: ${run.stopped.message}. This is a fault of the lesson pack "${pack.manifest.id}", not of your program.`,
    );
  }
  return run;
}

export async function simulateFile(
  pack: LoadedPack,
  file: string,
  language: Language,
  options: SimulateFileOptions = {},
): Promise<SimulationOutcome> {
  const mistake =
    options.mistake === undefined ? undefined : pack.manifest.mistakes.find((m) => m.id === options.mistake);
  if (options.mistake !== undefined && !mistake) {
    throw new WordedError(
      `lesson "${pack.manifest.id}" has no mistake "${options.mistake}"; it has ${pack.manifest.mistakes.map((m) => m.id).join(', ')}`,
    );
  }
  const scenario = pickScenario(pack, options.scenario, mistake?.id);
  const { program, contain } = await simulatedProgram(pack, file, language, options);
  const requests = totalRequests(scenario);
  const limits = {
    timeLimitMs: Math.max(
      options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
      (options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS) + requests * PER_REQUEST_BUDGET_MS,
    ),
    answerTimeLimitMs: options.answerTimeLimitMs ?? DEFAULT_ANSWER_TIME_LIMIT_MS,
    outputLimitBytes: options.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES,
  };
  try {
    const reference = referenceRun(pack, scenario, options);
    // Awaited below with the learner's run; a rejection must not go unhandled while that one runs.
    reference.catch(() => undefined);
    let yours: BalancerRun;
    let containment: Containment | undefined;
    let stats: SessionStats = { exchanges: 0, commands: 0, waitingMs: 0 };
    let transcript: readonly string[] = [];
    if (program.prepareError) {
      const where = program.prepareError.line ? ` (line ${program.prepareError.line})` : '';
      yours = {
        ticks: [],
        stopped: { tick: 1, message: `your file does not compile${where}: ${safeText(program.prepareError.message)}` },
      };
    } else {
      const launch = await containProgram(program, contain);
      containment = launch.containment;
      const session = await launch.open(limits);
      const onAbort = (): void => void session.close();
      options.signal?.addEventListener('abort', onAbort);
      try {
        yours = await runScenario(scenario, protocolBalancer(scenario.commands, session));
      } finally {
        options.signal?.removeEventListener('abort', onAbort);
        await session.close();
      }
      stats = session.stats;
      transcript = session.transcript;
    }
    const roundRobinRun = await runScenario(scenario, roundRobin());
    const result = simulationResult(
      pack.manifest.id,
      scenario,
      { yours, roundRobin: roundRobinRun, reference: await reference },
      mistake ? { id: mistake.id, title: mistake.title } : undefined,
    );
    return { result, ...(containment ? { containment } : {}), stats, transcript };
  } finally {
    await program.dispose();
  }
}
