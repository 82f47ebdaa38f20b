import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { Language } from '../core/pack/schema';
import { SandboxUnavailableError } from '../node/sandbox/contain';
import { engineBundle } from '../node/engine/host';
import { isLanguage, languageOf } from '../node/languages/languages';
import { isSandboxSetting, SANDBOX_SETTINGS, sandboxSettingFromEnv } from '../node/sandbox/sandbox';
import { simulateFile, type SimulateFileOptions } from '../node/check/simulator';
import { bounded, readLearnerFile, requireStarter } from './checkCommand';
import { EXIT, UsageError, type CliCommand, type CliIO } from './command';
import { selectPack } from './packSelection';
import type { LoadedPack } from '../node/packs/packs';
import { formatSimulation } from './simulateFormat';
import { formatWorldSimulation } from './worldFormat';
import { simulateWorldFile } from '../node/check/worldSimulator';
import { worldTable } from '../core/world/worldReport';
import { isWorldScenario, type WorldScenario } from '../core/world/worldScenarioSchema';

/** The world scenario `simulate` runs, when the one chosen (by id, by the mistake it shows, else the first) is one. */
function worldScenarioChosen(
  scenarios: readonly object[],
  wanted?: string,
  mistake?: string,
): WorldScenario | undefined {
  const all = scenarios as readonly ({ id: string; shows?: string[] } & object)[];
  const chosen =
    wanted !== undefined
      ? all.find((s) => s.id === wanted)
      : ((mistake !== undefined ? all.find((s) => s.shows?.includes(mistake)) : undefined) ?? all[0]);
  return chosen && isWorldScenario(chosen) ? chosen : undefined;
}

const TIMEOUT_MS = { min: 100, max: 600_000 };

/** What `simulate` was asked to do, its options read and bounded before anything is read or run. */
interface SimulateRequest {
  readonly file: string;
  readonly language: Language;
  readonly lesson: string | undefined;
  readonly scenario: string | undefined;
  readonly mistake: string | undefined;
  readonly json: boolean;
  /** The simulation's options, but for the scenario (a template scenario's is added where it runs). */
  readonly options: SimulateFileOptions;
}

/**
 * Drives the learner's balancer through one of the lesson's load scenarios, beside round robin and the
 * reference, and says what happened in numbers. Exit 0 when the learner's program ran the whole scenario,
 * 1 when it stopped (crashed, hung, answered something that is not a server), 2 for usage and pack errors.
 */
export const simulateCommand: CliCommand = {
  name: 'simulate',
  usage:
    'simulate <file> [--lesson <id|dir>] [--scenario <id>] [--mistake <id>] [--json] [--language python|javascript|typescript] [--python <path>] [--node <path>] [--timeout <ms>] [--sandbox auto|require|off]',
  summary:
    "drive your balancer through a simulated cluster (one of the lesson's scenarios) beside round robin and the lesson's reference, and compare their queues",
  async run(args, io) {
    const { given, request } = parseSimulateRequest(args, io);
    const source = await readLearnerFile(request.file, given);
    const pack = await selectPack(io, request.lesson, request.file, source);
    requireStarter(pack, request.language);
    const world = worldScenarioChosen(pack.manifest.scenarios ?? [], request.scenario, request.mistake);
    if (world) return simulateWorld(pack, world, request, io);
    return simulateTemplate(pack, request, io);
  },
};

function parseSimulateRequest(args: string[], io: CliIO): { given: string; request: SimulateRequest } {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      lesson: { type: 'string' },
      scenario: { type: 'string' },
      mistake: { type: 'string' },
      json: { type: 'boolean' },
      language: { type: 'string' },
      python: { type: 'string' },
      node: { type: 'string' },
      timeout: { type: 'string' },
      sandbox: { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new UsageError('simulate takes exactly one file');
  const timeLimitMs = bounded('timeout', values.timeout, TIMEOUT_MS, 'milliseconds');
  const sandbox = values.sandbox ?? sandboxSettingFromEnv(io.env);
  if (!isSandboxSetting(sandbox))
    throw new UsageError(`--sandbox takes ${SANDBOX_SETTINGS.join(', ')}, not "${sandbox}"`);
  const file = path.resolve(io.cwd, positionals[0]!);
  const language = values.language ?? languageOf(file);
  if (!language || !isLanguage(language))
    throw new UsageError(`cannot tell the language of ${positionals[0]}: use a .py, .js or .ts file, or --language`);
  const engine = engineBundle(io.bundleDir);
  const options: SimulateFileOptions = {
    interpreters: {
      ...(values.python ? { python: values.python } : {}),
      ...(values.node ? { node: values.node } : {}),
    },
    ...(values.mistake !== undefined ? { mistake: values.mistake } : {}),
    ...(timeLimitMs !== undefined ? { timeLimitMs } : {}),
    sandbox,
    // The reference's series needs the pack's model: the engine worker next to this bundle computes it.
    ...(engine ? { engine } : {}),
  };
  const request: SimulateRequest = {
    file,
    language: language as Language,
    lesson: values.lesson,
    scenario: values.scenario,
    mistake: values.mistake,
    json: values.json === true,
    options,
  };
  return { given: positionals[0]!, request };
}

/** A world scenario (ticks of a queue world), run by the world simulator; said as JSON or as text. */
async function simulateWorld(
  pack: LoadedPack,
  world: WorldScenario,
  request: SimulateRequest,
  io: CliIO,
): Promise<number> {
  if (request.mistake !== undefined && !pack.manifest.mistakes.some((m) => m.id === request.mistake)) {
    throw new UsageError(
      `lesson "${pack.manifest.id}" has no mistake "${request.mistake}"; it has ${pack.manifest.mistakes.map((m) => m.id).join(', ')}`,
    );
  }
  let worldOutcome;
  try {
    worldOutcome = await simulateWorldFile(pack, world, request.file, request.language, request.options);
  } catch (error) {
    if (!(error instanceof SandboxUnavailableError)) throw error;
    io.err(`lesson-companion simulate: ${error.message}. Nothing was run.\n`);
    return EXIT.usage;
  }
  const { result } = worldOutcome;
  if (request.json) {
    const stats = {
      exchanges: worldOutcome.stats.exchanges,
      commands: worldOutcome.stats.commands,
      waitingMs: Math.round(worldOutcome.stats.waitingMs),
    };
    io.out(
      `${JSON.stringify({ ...result, table: worldTable(result), ...(worldOutcome.containment ? { containment: worldOutcome.containment } : {}), stats })}\n`,
    );
  } else io.out(formatWorldSimulation(result, io.isTTY && !io.env.NO_COLOR));
  return result.runs.yours?.stopped ? EXIT.failed : EXIT.ok;
}

/** A scenario of command templates (lesson.json's own format), run by the simulator; said as JSON or as text. */
async function simulateTemplate(pack: LoadedPack, request: SimulateRequest, io: CliIO): Promise<number> {
  const { interpreters, ...rest } = request.options;
  let outcome;
  try {
    outcome = await simulateFile(pack, request.file, request.language, {
      interpreters,
      ...(request.scenario !== undefined ? { scenario: request.scenario } : {}),
      ...rest,
    });
  } catch (error) {
    if (!(error instanceof SandboxUnavailableError)) throw error;
    io.err(`lesson-companion simulate: ${error.message}. Nothing was run.\n`);
    return EXIT.usage;
  }
  const { result } = outcome;
  if (request.json) {
    const stats = {
      exchanges: outcome.stats.exchanges,
      commands: outcome.stats.commands,
      waitingMs: Math.round(outcome.stats.waitingMs),
    };
    io.out(
      `${JSON.stringify({ ...result, ...(outcome.containment ? { containment: outcome.containment } : {}), stats })}\n`,
    );
  } else {
    io.out(formatSimulation(result, io.isTTY && !io.env.NO_COLOR));
  }
  return result.runs.yours.stopped ? EXIT.failed : EXIT.ok;
}
