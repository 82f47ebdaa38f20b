/**
 * Reference model of lesson "least-connections": POOL / PICK / DONE / STATUS.
 * Ties go to pool order; STATUS is sorted by name in code-point order.
 *
 * Counts are BigInts so that an unsigned counter's wrap-around (0 - 1 = 18446744073709551615 in a uint64,
 * as in Go's `atomic.AddUint64(&b.conns, ^uint64(0))`) is printed exactly as the learner's program prints it.
 *
 * This file is pack code: the engine loads it with nothing but the language itself (no require, no I/O).
 * The `import type` below is erased when the model is loaded; it only lets the editor check the shape.
 */
import type { Answer, AnswerShape, Random, ReferenceModel, StepResult } from 'lesson-companion/model';

interface PoolState {
  readonly pool: readonly string[];
  /** Insertion-ordered like the learner's dict/Map, so a stranger added by mistake shows up. */
  readonly inFlight: ReadonlyMap<string, bigint>;
  /** Rotation cursor, used only by the rotating-tiebreak mutant. */
  readonly cursor: number;
  /** Counts of backends dropped by a POOL, kept only by the registry mutant (a name seen before comes back). */
  readonly retired?: ReadonlyMap<string, bigint>;
  /**
   * When each backend was last picked, and when its count last changed (a logical clock): for ties that go
   * to the least recently used backend, or to the least recently moved one (HAProxy's leastconn requeues a
   * server in its tree when its count changes, behind the others with the same count). Unset: pool order.
   */
  readonly used?: ReadonlyMap<string, number>;
  readonly moved?: ReadonlyMap<string, number>;
  readonly clock?: number;
}

const BACKEND = /^[A-Za-z0-9._-]+$/;
const STATUS_LINE = /^[^\s:]+:-?\d+$/;
const U32 = (1n << 32n) - 1n;
const U64 = (1n << 64n) - 1n;

function lines(...answer: string[]): Answer {
  return { kind: 'lines', lines: answer };
}

function codePointCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The mask of an unsigned counter when a wrap-around mutant is on, else undefined. */
function unsignedMask(on: ReadonlySet<string>): bigint | undefined {
  return on.has('wrap-64') ? U64 : on.has('wrap-32') ? U32 : undefined;
}

function pick(state: PoolState, on: ReadonlySet<string>, observed?: readonly string[]): StepResult<PoolState> {
  const { pool, inFlight } = state;
  if (pool.length === 0) {
    if (on.has('empty-crash')) return { state, answer: { kind: 'crash', error: 'pick on an empty pool' } };
    return { state, answer: lines('EMPTY') };
  }
  const countOf = (name: string): bigint => inFlight.get(name) ?? 0n;
  // HAProxy keeps an `int` count but its tree ranks keys as unsigned: a count of -1 ranks as the busiest. With the
  // key of its later leastconn, (inflight + 1) * SRV_EWGHT_MAX / eweight in 32 bits, -1 wraps to the idle key 0.
  const rank = (name: string): bigint => {
    const count = countOf(name);
    if (count >= 0n) return count;
    if (on.has('negative-idle-key')) return count === -1n ? 0n : count + (1n << 32n);
    return on.has('negative-unsigned') ? count + (1n << 32n) : count;
  };
  // Counts compared as text (`Object.values(counts).sort()[0]`, the default sort): "10" comes before "9".
  const fewer = on.has('counts-as-text')
    ? (a: bigint, b: bigint): boolean => codePointCompare(`${a}`, `${b}`) < 0
    : (a: bigint, b: bigint): boolean => a < b;
  let fewest = rank(pool[0]!);
  for (const name of pool) if (fewer(rank(name), fewest)) fewest = rank(name);
  const tied = pool.map((name, index) => ({ name, index })).filter((b) => rank(b.name) === fewest);
  const since = (times: ReadonlyMap<string, number> | undefined, b: { name: string; index: number }): number => times?.get(b.name) ?? b.index - pool.length;
  let chosen = tied[0]!;
  let cursor = state.cursor;
  if (on.has('tiebreak-name')) {
    chosen = [...tied].sort((x, y) => codePointCompare(x.name, y.name))[0]!;
  } else if (on.has('tiebreak-last')) {
    chosen = tied[tied.length - 1]!;
  } else if (on.has('tiebreak-rotate')) {
    chosen = tied.find((b) => b.index >= cursor % pool.length) ?? tied[0]!;
  } else if (on.has('tiebreak-lru')) {
    chosen = tied.reduce((best, b) => (since(state.used, b) < since(state.used, best) ? b : best));
  } else if (on.has('tiebreak-moved')) {
    chosen = tied.reduce((best, b) => (since(state.moved, b) < since(state.moved, best) ? b : best));
  }
  const answer = lines(chosen.name);
  const alternatives = on.has('tiebreak-any') ? tied.filter((b) => b !== chosen).map((b) => [b.name]) : undefined;
  // Follow the program's own choice when it names a backend of the pool: its count is what the next PICK sees.
  const followed = observed?.length === 1 ? pool.indexOf(observed[0]!) : -1;
  if (followed >= 0) chosen = { name: pool[followed]!, index: followed };
  cursor = chosen.index + 1;
  const next = new Map(inFlight);
  const clock = (state.clock ?? 0) + 1;
  const used = new Map(state.used ?? []).set(chosen.name, clock);
  let moved = state.moved;
  if (!on.has('no-increment') && !on.has('count-on-done')) {
    const mask = unsignedMask(on);
    const raised = countOf(chosen.name) + 1n;
    next.set(chosen.name, mask === undefined ? raised : raised & mask);
    moved = new Map(state.moved ?? []).set(chosen.name, clock);
  }
  return { state: { ...state, inFlight: next, cursor, used, ...(moved ? { moved } : {}), clock }, answer, ...(alternatives ? { alternatives } : {}) };
}

function done(state: PoolState, name: string | undefined, on: ReadonlySet<string>): StepResult<PoolState> {
  if (name === undefined) return { state, answer: lines('OK') };
  // Counts kept across POOLs are usually checked with `name in counts`, so a name from an old pool still counts down.
  const known = state.pool.includes(name) || (on.has('reset-keeps-all') && state.inFlight.has(name));
  if (!known && on.has('unknown-crash')) {
    return { state, answer: { kind: 'crash', error: `DONE for ${name}, which is not in the pool` } };
  }
  if (!known && !on.has('unknown-added')) return { state, answer: lines('OK') };
  const current = state.inFlight.get(name) ?? 0n;
  const mask = unsignedMask(on);
  let lowered: bigint;
  if (on.has('count-on-done')) lowered = current + 1n;
  else if (mask !== undefined) lowered = (current - 1n) & mask;
  else if (on.has('negative-count') || on.has('negative-unsigned') || on.has('negative-idle-key') || on.has('negative-hidden')) lowered = current - 1n;
  else lowered = current > 0n ? current - 1n : 0n;
  const next = new Map(state.inFlight);
  next.set(name, lowered);
  if (lowered === current) return { state: { ...state, inFlight: next }, answer: lines('OK') };
  const clock = (state.clock ?? 0) + 1;
  return { state: { ...state, inFlight: next, moved: new Map(state.moved ?? []).set(name, clock), clock }, answer: lines('OK') };
}

function status(state: PoolState, on: ReadonlySet<string>, observed?: readonly string[]): StepResult<PoolState> {
  const names = [...state.inFlight.keys()].sort(codePointCompare);
  // A display that never shows a negative number (`max(0, count)`) over a count that goes below zero.
  const hidden = on.has('negative-hidden');
  const shown = (count: bigint): bigint => (hidden && count < 0n ? 0n : count);
  const answer = lines(...names.map((name) => `${name}:${shown(state.inFlight.get(name) ?? 0n)}`));
  if (!observed) return { state, answer };
  // The program printed its own counts: from here on, those are the counts (a 0 it prints over a negative count
  // it hides is that count still).
  const next = new Map(state.inFlight);
  for (const line of observed) {
    const match = /^([^\s:]+):(-?\d+)$/.exec(line);
    if (!match) continue;
    const printed = BigInt(match[2]!);
    if (hidden && printed === 0n && (state.inFlight.get(match[1]!) ?? 0n) < 0n) continue;
    next.set(match[1]!, printed);
  }
  return { state: { ...state, inFlight: next }, answer };
}

function reset(state: PoolState, names: readonly string[], on: ReadonlySet<string>): StepResult<PoolState> {
  let inFlight: Map<string, bigint>;
  if (on.has('reset-keeps-all')) {
    // Counts kept for the whole process: old names stay, new ones start at 0.
    inFlight = new Map(state.inFlight);
    for (const name of names) if (!inFlight.has(name)) inFlight.set(name, 0n);
  } else if (on.has('reset-keeps-registry')) {
    // A registry of every backend ever configured: a name seen before, in any pool, comes back with its count.
    const retired = new Map([...(state.retired ?? []), ...state.inFlight]);
    inFlight = new Map(names.map((name) => [name, retired.get(name) ?? 0n]));
    return { state: { pool: names, inFlight, cursor: 0, retired }, answer: lines('OK') };
  } else if (on.has('reset-keeps-counts')) {
    // A reload that keeps a backend keeps its count; only new names start at 0.
    inFlight = new Map(names.map((name) => [name, state.inFlight.get(name) ?? 0n]));
  } else {
    inFlight = new Map(names.map((name) => [name, 0n]));
  }
  return { state: { pool: names, inFlight, cursor: 0 }, answer: lines('OK') };
}

function describeDifference(state: PoolState, command: string, expected: readonly string[], actual: readonly string[]): string {
  const verb = command.trim().split(/\s+/)[0];
  const count = (name: string): string => `${state.inFlight.get(name) ?? 0n}`;
  if (verb === 'PICK' && actual.length === 1 && expected.length === 1) {
    const [mine] = actual;
    const [theirs] = expected;
    if (!state.pool.includes(mine!)) {
      return state.pool.length === 0
        ? `PICK answered "${mine}" on an empty pool, where the answer is EMPTY`
        : `PICK answered "${mine}", which is not a backend of the pool (${state.pool.join(' ')})`;
    }
    return `PICK chose ${mine} with ${count(mine!)} in flight while ${theirs} had ${count(theirs!)}`;
  }
  if (verb === 'STATUS') {
    const wrong = actual.find((line) => !expected.includes(line));
    const missing = expected.find((line) => !actual.some((a) => a.split(':')[0] === line.split(':')[0]));
    if (wrong) {
      const name = wrong.split(':')[0]!;
      return state.inFlight.has(name) ? `STATUS printed ${wrong} where ${name} has ${count(name)} in flight` : `STATUS printed ${wrong}, but ${name} is not in the pool`;
    }
    if (missing) return `STATUS left out ${missing}`;
    return `STATUS printed the right lines in another order (they are sorted by name)`;
  }
  return `${command} answered "${actual.join(' / ') || '(nothing)'}" where the reference answers "${expected.join(' / ') || '(nothing)'}"`;
}

const NAME_POOL = ['zeta', 'alpha', 'mid', 'a', 'b', 'c', 'web1', 'web10', 'web2', 'web3', 'db', 'b2'];
/** From an empty pool up to 8 backends, so a program with a fixed number of slots (a list of 4) is caught. */
const POOL_SIZE = { min: 0, max: 8 };

/** Most pools hold 0–4 backends (a quick check, a short shrunk transcript); one in four holds 5 up to the most. */
function poolSizeOf(random: Random): number {
  return random.int(4) === 0 ? 5 + random.int(POOL_SIZE.max - 4) : POOL_SIZE.min + random.int(5 - POOL_SIZE.min);
}

function shuffled(random: Random, items: readonly string[]): string[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export const model: ReferenceModel<PoolState> = {
  id: 'least-connections',
  description: 'POOL/PICK/DONE/STATUS least-connections balancer; ties go to pool order',
  mutations: [
    { id: 'tiebreak-name', description: 'ties go to the smallest name instead of pool order' },
    { id: 'tiebreak-last', description: 'ties go to the last tied backend in pool order' },
    { id: 'tiebreak-rotate', description: 'ties rotate among the tied backends' },
    { id: 'tiebreak-lru', description: 'ties go to the least recently picked backend' },
    { id: 'tiebreak-moved', description: 'ties go to the backend whose count changed least recently (HAProxy leastconn)' },
    { id: 'tiebreak-any', description: 'ties go to any tied backend (at random, or by some rotation)', nondeterministic: true },
    { id: 'negative-count', description: 'DONE at 0 goes below zero' },
    { id: 'wrap-32', description: 'DONE at 0 wraps an unsigned 32-bit counter to 4294967295' },
    { id: 'wrap-64', description: 'DONE at 0 wraps an unsigned 64-bit counter to 18446744073709551615' },
    { id: 'negative-unsigned', description: 'DONE at 0 goes to -1, and PICK ranks -1 as the busiest (a signed count compared as unsigned)' },
    { id: 'negative-idle-key', description: 'DONE at 0 goes to -1, and PICK ranks -1 like an idle backend and -2 or below as the busiest (HAProxy leastconn\'s key (inflight + 1) * SRV_EWGHT_MAX / eweight, unsigned)' },
    { id: 'negative-hidden', description: 'DONE at 0 goes below zero, and STATUS prints a count below zero as 0 (max(0, count))' },
    { id: 'counts-as-text', description: 'PICK compares the counts as text (a default sort in JavaScript): a count of 10 ranks below one of 9' },
    { id: 'no-increment', description: 'PICK does not count the chosen backend at once' },
    { id: 'count-on-done', description: 'the request is counted when it finishes: PICK does not count, DONE adds one' },
    { id: 'unknown-crash', description: 'DONE for a name not in the pool crashes' },
    { id: 'unknown-added', description: 'DONE for a name not in the pool adds it to the counts' },
    { id: 'empty-crash', description: 'PICK on an empty pool crashes' },
    { id: 'reset-keeps-counts', description: 'POOL keeps the counts of backends that stay in the pool' },
    { id: 'reset-keeps-registry', description: 'POOL brings back the old count of any backend seen before, in any earlier pool' },
    { id: 'reset-keeps-all', description: 'POOL keeps every count it ever had, old backends included' },
  ],
  resetCommand: 'POOL',
  resetAnswer: ['OK'],
  observeCommand: 'STATUS',
  // The protocol's commands and their arguments: generated and shrunk transcripts stay inside it.
  grammar: { POOL: ['names'], PICK: [], DONE: ['name'], STATUS: [] },
  poolSize: POOL_SIZE,
  initial: () => ({ pool: [], inFlight: new Map(), cursor: 0 }),
  step(state, command, on, observed) {
    const [verb, ...args] = command.trim().split(/\s+/);
    switch (verb) {
      case 'POOL':
        return reset(state, args, on);
      case 'PICK':
        return pick(state, on, observed);
      case 'DONE':
        return done(state, args[0], on);
      case 'STATUS':
        return status(state, on, observed);
      default:
        return { state, answer: lines('ERROR') };
    }
  },
  snapshot: (state) => Object.fromEntries([...state.inFlight].map(([name, count]) => [name, count >= BigInt(Number.MIN_SAFE_INTEGER) && count <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(count) : String(count)])),
  answerShape(command): AnswerShape {
    return command.trim().split(/\s+/)[0] === 'STATUS' ? { kind: 'many', line: STATUS_LINE } : { kind: 'one' };
  },
  isAnswerLine: (line) => line === 'OK' || line === 'EMPTY' || BACKEND.test(line) || STATUS_LINE.test(line),
  describeDifference,
  generate(random: Random, length: number): string[] {
    const pool = shuffled(random, NAME_POOL).slice(0, poolSizeOf(random));
    const commands = [`POOL ${pool.join(' ')}`.trimEnd()];
    let current = pool;
    while (commands.length < length) {
      const roll = random.int(100);
      if (roll < 45) commands.push('PICK');
      else if (roll < 73 && current.length > 0) commands.push(`DONE ${random.pick(current)}`);
      else if (roll < 81) commands.push(`DONE ${random.pick(['ghost', 'zz', 'Alpha'])}`);
      else if (roll < 96 || current.length === 0) commands.push('STATUS');
      else {
        // A reload that keeps some backends and adds one: counts must still start from 0.
        current = [...shuffled(random, current).slice(0, Math.max(1, current.length - 1)), random.pick(NAME_POOL.filter((n) => !current.includes(n)))];
        commands.push(`POOL ${current.join(' ')}`);
      }
    }
    return commands;
  },
};

export default model;

// Scenarios written with `params` run in the queue world shipped with lesson-companion, beside its baselines.
export { queueWorld as world, queueBaselines as baselines } from 'lesson-companion/worlds/queues';
