/**
 * The tick engine of a world scenario: the pack's world (model.ts, ScenarioWorld) says what is sent and what
 * each answer means; this drives it, tick by tick, against one program behind a line session (the learner's
 * process, the reference model, a baseline) and keeps the measures the world reports at the end of each tick.
 * It knows no protocol and no kind of system: commands, answers and measures are the world's.
 *
 * One round trip per answer the world reads: the commands it sends without reading their answers are held and
 * written together with the next command whose answer it reads.
 */
import type { Answer, Baseline, Measures, ReferenceModel, ScenarioWorld, WorldStep } from '../model/model';
import { seededRandom } from '../model/random';
import { safeText } from '../text/text';
import { ProgramStopped, type LineSession } from './lineSession';

export { ProgramStopped } from './lineSession';

export interface WorldTick {
  readonly measures: Measures;
}

export interface WorldRun {
  readonly ticks: readonly WorldTick[];
  /** Set when the program could not finish the run: at which tick, and why. */
  readonly stopped?: { readonly tick: number; readonly message: string; readonly details?: string };
}

/** The pack's world broke its contract (a measure that is not a number, an arrival with no command): the pack's fault. */
export class WorldError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorldError';
  }
}

/** Bounds on what a world may ask of a run: each arrival waits for an answer from the learner's program. */
export const WORLD_LIMITS = {
  ticks: 500,
  arrivalsPerTick: 1000,
  arrivals: 20_000,
  lanes: 32,
  measures: 16,
  sendPerStep: 1000,
} as const;

function measuresOf(raw: Measures, lanes: number, tick: number): Measures {
  const names = Object.keys(raw);
  if (names.length > WORLD_LIMITS.measures)
    throw new WorldError(
      `the world reported ${names.length} measures at tick ${tick}; at most ${WORLD_LIMITS.measures}`,
    );
  const out: Record<string, number | number[]> = {};
  for (const name of names) {
    const value = raw[name];
    if (typeof value === 'number' && Number.isFinite(value)) out[name] = value;
    else if (
      Array.isArray(value) &&
      value.length === lanes &&
      value.every((v) => typeof v === 'number' && Number.isFinite(v))
    )
      out[name] = [...(value as number[])];
    else
      throw new WorldError(
        `the world's measure "${safeText(name)}" at tick ${tick} is neither a number nor one number per lane (${lanes})`,
      );
  }
  return out;
}

/** Drives `world` with `params` through `session`; the pack's own faults throw, the program's end the run. */
export async function runWorld(
  world: ScenarioWorld,
  rawParams: unknown,
  seed: number,
  session: LineSession,
): Promise<WorldRun> {
  const params = world.params(rawParams);
  const ticks = world.ticks(params);
  const lanes = world.lanes(params).length;
  if (!Number.isInteger(ticks) || ticks < 1 || ticks > WORLD_LIMITS.ticks)
    throw new WorldError(`the world asks for ${ticks} ticks; a run has 1 to ${WORLD_LIMITS.ticks}`);
  let held: string[] = [];
  const hold = (step: WorldStep<unknown>): unknown => {
    const send = step.send ?? [];
    if (send.length > WORLD_LIMITS.sendPerStep)
      throw new WorldError(`the world sends ${send.length} commands at once; at most ${WORLD_LIMITS.sendPerStep}`);
    for (const command of send) held.push(String(command));
    return step.state;
  };
  const out: WorldTick[] = [];
  let tick = 0;
  let arrivals = 0;
  try {
    let state = hold(world.start(params, seededRandom(seed)));
    for (tick = 1; tick <= ticks; tick++) {
      const opened = world.tick(state, tick);
      state = hold(opened);
      const count = opened.arrivals;
      if (!Number.isInteger(count) || count < 0 || count > WORLD_LIMITS.arrivalsPerTick)
        throw new WorldError(
          `the world has ${count} arrivals at tick ${tick}; a tick has 0 to ${WORLD_LIMITS.arrivalsPerTick}`,
        );
      arrivals += count;
      if (arrivals > WORLD_LIMITS.arrivals)
        throw new WorldError(
          `the run has more than ${WORLD_LIMITS.arrivals} arrivals: each waits for an answer from the learner's program`,
        );
      for (let index = 0; index < count; index++) {
        const arrival = world.arrival(state, index);
        state = hold(arrival);
        if (typeof arrival.ask !== 'string' || arrival.ask === '')
          throw new WorldError(`the world's arrival ${index + 1} at tick ${tick} has no command to ask`);
        const batch = [...held, arrival.ask];
        held = [];
        const answers = await session.exchange(batch);
        const line = (answers[answers.length - 1] ?? '').trim();
        const read = world.answer(state, line);
        if ('notAnswer' in read)
          throw new ProgramStopped(
            `at tick ${tick} it answered "${safeText(line)}" to ${safeText(arrival.ask)}: ${safeText(String(read.notAnswer))}`,
          );
        state = hold(read);
      }
      const ended = world.endTick(state);
      state = hold(ended);
      out.push({ measures: measuresOf(ended.measures, lanes, tick) });
    }
    if (held.length > 0) await session.exchange(held);
  } catch (error) {
    if (!(error instanceof ProgramStopped)) throw error;
    const at = Math.max(1, Math.min(tick, ticks));
    return {
      ticks: out,
      stopped: { tick: at, message: error.message, ...(error.details ? { details: error.details } : {}) },
    };
  }
  return { ticks: out };
}

function firstLine(answer: Answer, command: string, who: string): string {
  if (answer.kind === 'crash') throw new ProgramStopped(`${who} crashed at "${command}": ${answer.error}`);
  return answer.lines[0] ?? '';
}

/** The pack's reference model (with these mutations on) as a line session. */
export function referenceSession(model: ReferenceModel, mutations: ReadonlySet<string> = new Set()): LineSession {
  let state = model.initial();
  return {
    exchange: async (commands) =>
      commands.map((command) => {
        const result = model.step(state, command, mutations);
        state = result.state;
        return firstLine(result.answer, command, 'the model');
      }),
  };
}

/** A pack's baseline as a line session. */
export function baselineSession(baseline: Baseline): LineSession {
  let state = baseline.model.initial();
  return {
    exchange: async (commands) =>
      commands.map((command) => {
        const result = baseline.model.step(state, command);
        state = result.state;
        return firstLine(result.answer, command, `the baseline "${baseline.title}"`);
      }),
  };
}
