/**
 * A pack's world and baselines (the model module's `world` and `baselines` exports) as the engine uses them:
 * called through the realm bridge like the model itself, every result copied into this realm (commands as
 * strings, measures as numbers), every exception turned into the pack's fault by `call`. Their state stays
 * an opaque value of the model's realm.
 */
import type { Answer, Baseline, Measures, Random, ScenarioWorld, WorldStep } from '../../core/model/model';
import type { RealmBridge } from './realmBridge';

export type GuardedCall = <T>(operation: string, fn: () => T) => T;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const lines = (v: unknown): string[] =>
  v === undefined || v === null ? [] : Array.from(v as ArrayLike<unknown>, (x) => String(x));

function step(raw: unknown, operation: string): WorldStep<unknown> {
  if (!isObject(raw))
    throw new Error(`${operation} returned ${raw === null ? 'null' : typeof raw}, not { state, send }`);
  return { state: raw.state, send: lines(raw.send) };
}

function measuresOf(raw: unknown): Measures {
  if (!isObject(raw)) throw new Error('world.endTick() returned no `measures` object');
  const out: Record<string, number | number[]> = {};
  for (const key of Object.keys(raw).slice(0, 64)) {
    const value = raw[key];
    out[String(key)] =
      typeof value === 'number'
        ? value
        : Array.isArray(value) || isObject(value)
          ? Array.from(value as ArrayLike<unknown>, (x) => Number(x))
          : Number.NaN;
  }
  return out;
}

function answerOf(raw: unknown): Answer {
  if (!isObject(raw)) return { kind: 'lines', lines: [] };
  return raw.kind === 'crash'
    ? { kind: 'crash', error: String(raw.error) }
    : { kind: 'lines', lines: lines(raw.lines) };
}

/** The world, guarded; undefined when the module exports none. Throws (through `call`) when its shape is wrong. */
export function guardWorld(raw: unknown, bridge: RealmBridge, call: GuardedCall): ScenarioWorld | undefined {
  if (raw === undefined) return undefined;
  const w = raw as Record<string, unknown>;
  const methods = ['params', 'ticks', 'lanes', 'start', 'tick', 'arrival', 'answer', 'endTick'];
  const missing = methods.filter((m) => typeof w[m] !== 'function');
  if (missing.length > 0)
    call('world', () => {
      throw new Error(
        `the exported \`world\` has no ${missing.map((m) => `\`${m}\``).join(', ')} function${missing.length > 1 ? 's' : ''}`,
      );
    });
  const invoke = (name: string, ...args: unknown[]): unknown =>
    call(`world.${name}()`, () => bridge.call(w[name], w, ...args));
  return {
    params: (params) => invoke('params', bridge.json(params)),
    ticks: (params) => Number(invoke('ticks', params)),
    lanes: (params) => lines(invoke('lanes', params)),
    start: (params, random: Random) => step(invoke('start', params, bridge.random(random)), 'world.start()'),
    tick: (state, tick) => {
      const raw = invoke('tick', state, tick);
      return {
        ...call('world.tick()', () => step(raw, 'world.tick()')),
        arrivals: Number((raw as Record<string, unknown>).arrivals),
      };
    },
    arrival: (state, index) => {
      const raw = invoke('arrival', state, index);
      const ask = (raw as Record<string, unknown> | null)?.ask;
      return {
        ...call('world.arrival()', () => step(raw, 'world.arrival()')),
        ask: typeof ask === 'string' ? ask : '',
      };
    },
    answer: (state, line) => {
      const raw = invoke('answer', state, String(line));
      if (isObject(raw) && raw.notAnswer !== undefined) return { notAnswer: String(raw.notAnswer) };
      return call('world.answer()', () => step(raw, 'world.answer()'));
    },
    endTick: (state) => {
      const raw = invoke('endTick', state);
      return call('world.endTick()', () => ({
        ...step(raw, 'world.endTick()'),
        measures: measuresOf((raw as Record<string, unknown>).measures),
      }));
    },
  };
}

/** The baselines by id, guarded; an empty record when the module exports none. */
export function guardBaselines(
  raw: unknown,
  bridge: RealmBridge,
  call: GuardedCall,
): Readonly<Record<string, Baseline>> {
  if (raw === undefined) return {};
  const out: Record<string, Baseline> = {};
  if (!isObject(raw))
    call('baselines', () => {
      throw new Error('the exported `baselines` must be an object: id → { title, model: { initial, step } }');
    });
  for (const id of Object.keys(raw as object).slice(0, 16)) {
    const b = (raw as Record<string, unknown>)[id];
    const model = isObject(b) ? b.model : undefined;
    if (
      !isObject(b) ||
      typeof b.title !== 'string' ||
      !isObject(model) ||
      typeof model.initial !== 'function' ||
      typeof model.step !== 'function'
    ) {
      call(`baselines.${id}`, () => {
        throw new Error(`baseline "${id}" must be { title, model: { initial(), step(state, command) } }`);
      });
    }
    const m = model as Record<string, unknown>;
    out[String(id)] = {
      title: String((b as Record<string, unknown>).title),
      model: {
        initial: () => call(`baselines.${id}.initial()`, () => bridge.call(m.initial, m)),
        step: (state, command) => {
          const result = call(`baselines.${id}.step("${command}")`, () =>
            bridge.call(m.step, m, state, String(command)),
          ) as Record<string, unknown> | null;
          return { state: result?.state, answer: answerOf(result?.answer) };
        },
      },
    };
  }
  return out;
}
