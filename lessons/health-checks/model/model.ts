/**
 * Reference model of lesson "health-checks": POOL / DOWN / UP / CAP / PICK / DONE / STATUS.
 *
 * A least-connections balancer that only sends work to healthy backends below a per-backend cap.
 * PICK: healthy backends under the cap, fewest in flight, ties to pool order → the name; EMPTY when the pool is
 * empty or nothing is healthy; BUSY when something is healthy but every healthy backend is at the cap.
 * POOL replaces the pool (all healthy, all at 0) and keeps the cap; DOWN/UP keep the count; DONE works on a
 * down backend too; names outside the pool are ignored. STATUS: `name:n`, ` down` after an unhealthy one.
 *
 * Counts are BigInts so that an unsigned counter's wrap-around (0 - 1 = 18446744073709551615 in a uint64,
 * as with Go's `atomic.AddUint64(&b.conns, ^uint64(0))`) is printed exactly as the learner's program prints it.
 *
 * This file is pack code: the engine loads it with nothing but the language itself (no require, no I/O).
 * The `import type` below is erased when the model is loaded; it only lets the editor check the shape.
 */
import type { Answer, AnswerShape, Random, ReferenceModel, StepResult } from 'lesson-companion/model';

interface HealthState {
  readonly pool: readonly string[];
  /** Insertion-ordered like the learner's dict/Map, so a stranger added by mistake shows up in STATUS. */
  readonly inFlight: ReadonlyMap<string, bigint>;
  /** Backends marked DOWN. Names outside the pool only get here through a mutation. */
  readonly down: ReadonlySet<string>;
  /** The CAP in force: undefined before any CAP; 0n after `CAP 0`. Both mean no limit (except to one mutant). */
  readonly cap: bigint | undefined;
  /** Rotation cursor, used only by the rotating-tiebreak mutant. */
  readonly cursor: number;
  /**
   * When each backend's count last changed, or it came back UP (a logical clock): for ties that go to the least
   * recently moved one (HAProxy's leastconn requeues a server behind its equals when its count moves, and queues
   * it again when it comes back up). Unset: pool order.
   */
  readonly moved?: ReadonlyMap<string, number>;
  readonly clock?: number;
}

type On = ReadonlySet<string>;
type Step = StepResult<HealthState>;

const BACKEND = /^[A-Za-z0-9._-]+$/;
const STATUS_LINE = /^[^\s:]+:-?\d+( down)?$/;
const U32 = (1n << 32n) - 1n;
const U64 = (1n << 64n) - 1n;

function lines(...answer: string[]): Answer {
  return { kind: 'lines', lines: answer };
}

function crash(state: HealthState, error: string): Step {
  return { state, answer: { kind: 'crash', error } };
}

function codePointCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The mask of an unsigned counter when a wrap-around mutant is on, else undefined. */
function unsignedMask(on: On): bigint | undefined {
  return on.has('wrap-64') ? U64 : on.has('wrap-32') ? U32 : undefined;
}

const countOf = (state: HealthState, name: string): bigint => state.inFlight.get(name) ?? 0n;

/**
 * Where PICK ranks a backend: its count, except below zero under HAProxy's key, (inflight + 1) * SRV_EWGHT_MAX /
 * eweight in 32 bits with the signed count read as unsigned: -1 wraps to the idle key 0, -2 and below to huge ones.
 */
function rankOf(state: HealthState, name: string, on: On): bigint {
  const count = countOf(state, name);
  if (count >= 0n || !on.has('negative-idle-key')) return count;
  return count === -1n ? 0n : count + (1n << 32n);
}

/** The state with `name` moved to now on the logical clock (behind its equals, for the moved-last tiebreak). */
function movedNow(state: HealthState, name: string): HealthState {
  const clock = (state.clock ?? 0) + 1;
  return { ...state, moved: new Map(state.moved ?? []).set(name, clock), clock };
}

/** May one more request go to a backend with `count` in flight under this cap? */
function underCap(count: bigint, cap: bigint | undefined, on: On): boolean {
  if (on.has('cap-ignored') || cap === undefined) return true;
  if (cap === 0n && !on.has('cap-zero-literal')) return true;
  if (on.has('cap-plus-one')) return count <= cap;
  if (on.has('cap-minus-one')) return count + 1n < cap;
  return count < cap;
}

function counted(state: HealthState, name: string, on: On): HealthState {
  if (on.has('no-increment')) return state;
  const mask = unsignedMask(on);
  const raised = countOf(state, name) + 1n;
  const inFlight = new Map(state.inFlight);
  inFlight.set(name, mask === undefined ? raised : raised & mask);
  return { ...state, inFlight };
}

/** What PICK answers under these mutations, before following the program: a backend (and whether it is counted) or a word. */
interface Choice {
  readonly answer: Answer;
  readonly chosen?: string;
  readonly counts?: boolean;
  readonly alternatives?: readonly string[];
}

function choose(state: HealthState, on: On): Choice {
  const { pool } = state;
  // The cap asked before health: room is looked for over the whole pool, down backends included (BUSY when none
  // has it), and only then are the down ones dropped (EMPTY when none is left).
  if (on.has('cap-before-health') && pool.length > 0) {
    const room = pool.filter((name) => underCap(countOf(state, name), state.cap, on));
    if (room.length === 0) return { answer: lines('BUSY') };
    const open = room.filter((name) => !state.down.has(name));
    return open.length === 0 ? { answer: lines('EMPTY') } : fewestOf(state, open, on);
  }
  // "Is everyone full?" asked first, over the whole pool, down backends included; otherwise the rule as written.
  if (on.has('full-before-health') && pool.length > 0 && pool.every((name) => !underCap(countOf(state, name), state.cap, on)))
    return { answer: lines('BUSY') };
  const healthy = on.has('pick-ignores-health') ? pool : pool.filter((name) => !state.down.has(name));
  if (healthy.length === 0) {
    if (pool.length === 0) {
      if (on.has('empty-crash') || on.has('none-healthy-crash')) return { answer: { kind: 'crash', error: 'PICK on an empty pool' } };
      return { answer: lines('EMPTY') };
    }
    // A port of the Go example's `if best == nil { return &backends[0] }`: counted like any pick, or (as in the Go
    // original, where the return comes before best.inc()) not counted at all.
    if (on.has('fallback-first')) return { answer: lines(pool[0]!), chosen: pool[0]!, counts: true };
    if (on.has('fallback-first-uncounted') || on.has('fallback-first-full')) return { answer: lines(pool[0]!), chosen: pool[0]!, counts: false };
    if (on.has('empty-as-busy') || on.has('empty-busy-swapped')) return { answer: lines('BUSY') };
    if (on.has('none-healthy-crash')) return { answer: { kind: 'crash', error: 'PICK with no healthy backend' } };
    return { answer: lines('EMPTY') };
  }
  const open = healthy.filter((name) => underCap(countOf(state, name), state.cap, on));
  if (open.length === 0) {
    // The same fallback, when the cap is one more `continue` in the loop: a full pool also ends in backends[0].
    if (on.has('fallback-first-full')) return { answer: lines(pool[0]!), chosen: pool[0]!, counts: false };
    // A down backend as the last resort: when every healthy one is full, one that is down but has room takes it.
    const spare = on.has('pick-down-when-full') ? pool.filter((name) => state.down.has(name) && underCap(countOf(state, name), state.cap, on)) : [];
    if (spare.length > 0) return fewestOf(state, spare, on);
    return { answer: lines(on.has('busy-as-empty') || on.has('empty-busy-swapped') ? 'EMPTY' : 'BUSY') };
  }
  return fewestOf(state, open, on);
}

/** Among the backends that may take the request, the fewest in flight; ties as the tiebreak mutants say. */
function fewestOf(state: HealthState, open: readonly string[], on: On): Choice {
  const { pool } = state;
  // Counts compared as text (`Object.values(counts).sort()[0]`, the default sort): "10" comes before "9".
  const fewer = on.has('counts-as-text')
    ? (a: bigint, b: bigint): boolean => codePointCompare(`${a}`, `${b}`) < 0
    : (a: bigint, b: bigint): boolean => a < b;
  let fewest = rankOf(state, open[0]!, on);
  for (const name of open) if (fewer(rankOf(state, name, on), fewest)) fewest = rankOf(state, name, on);
  const tied = open.filter((name) => rankOf(state, name, on) === fewest);
  const since = (name: string): number => state.moved?.get(name) ?? pool.indexOf(name) - pool.length;
  let chosen = tied[0]!;
  if (on.has('tiebreak-name')) chosen = [...tied].sort(codePointCompare)[0]!;
  else if (on.has('tiebreak-last')) chosen = tied[tied.length - 1]!;
  else if (on.has('tiebreak-rotate')) chosen = tied.find((name) => pool.indexOf(name) >= state.cursor % pool.length) ?? tied[0]!;
  else if (on.has('tiebreak-moved')) chosen = tied.reduce((best, name) => (since(name) < since(best) ? name : best));
  const alternatives = on.has('tiebreak-any') ? tied.filter((name) => name !== chosen) : undefined;
  return { answer: lines(chosen), chosen, counts: true, ...(alternatives ? { alternatives } : {}) };
}

function pick(state: HealthState, on: On, observed?: readonly string[]): Step {
  const choice = choose(state, on);
  if (choice.answer.kind === 'crash') return { state, answer: choice.answer };
  let chosen = choice.chosen;
  let counts = choice.counts ?? false;
  // Follow the program's own answer: a backend of the pool it named is the one whose count went up; BUSY or
  // EMPTY counted nothing. (The uncounted fallback only applies where the mutant itself chose it.)
  if (observed?.length === 1) {
    const [said] = observed;
    if (said !== undefined && state.pool.includes(said)) {
      if (said !== chosen) counts = true;
      chosen = said;
    } else if (said === 'BUSY' || said === 'EMPTY') {
      chosen = undefined;
    }
  }
  let next = state;
  if (chosen !== undefined) {
    if (counts) next = counted(state, chosen, on);
    if (counts && !on.has('no-increment')) next = movedNow(next, chosen);
    next = { ...next, cursor: state.pool.indexOf(chosen) + 1 };
  }
  const alternatives = choice.alternatives?.map((name) => [name]);
  return { state: next, answer: choice.answer, ...(alternatives && alternatives.length > 0 ? { alternatives } : {}) };
}

function done(state: HealthState, name: string | undefined, on: On): Step {
  if (name === undefined) return { state, answer: lines('OK') };
  const known = state.pool.includes(name);
  if (!known) {
    if (on.has('done-stranger-crash')) return crash(state, `DONE for ${name}, which is not in the pool`);
    if (!on.has('done-stranger-added')) return { state, answer: lines('OK') };
  }
  if (known && state.down.has(name) && on.has('done-ignores-down')) return { state, answer: lines('OK') };
  const current = countOf(state, name);
  const mask = unsignedMask(on);
  let lowered: bigint;
  if (mask !== undefined) lowered = (current - 1n) & mask;
  else if (on.has('negative-count') || on.has('negative-idle-key') || on.has('negative-hidden')) lowered = current - 1n;
  else lowered = current > 0n ? current - 1n : 0n;
  const inFlight = new Map(state.inFlight);
  inFlight.set(name, lowered);
  const next = { ...state, inFlight };
  return { state: lowered === current ? next : movedNow(next, name), answer: lines('OK') };
}

function health(state: HealthState, verb: 'DOWN' | 'UP', name: string | undefined, on: On): Step {
  if (name === undefined) return { state, answer: lines('OK') };
  const known = state.pool.includes(name);
  if (!known && on.has('health-stranger-crash')) return crash(state, `${verb} for ${name}, which is not in the pool`);
  // "A new server came up": UP for a stranger joins it to the end of the pool, where it takes picks; DOWN skips it.
  if (!known && on.has('health-stranger-joins'))
    return verb === 'DOWN'
      ? { state, answer: lines('OK') }
      : { state: { ...state, pool: [...state.pool, name], inFlight: new Map(state.inFlight).set(name, 0n) }, answer: lines('OK') };
  if (!known && !on.has('health-stranger-added')) return { state, answer: lines('OK') };
  const down = new Set(state.down);
  const inFlight = new Map(state.inFlight);
  if (verb === 'DOWN') down.add(name);
  else down.delete(name);
  if (!inFlight.has(name)) inFlight.set(name, 0n);
  if ((verb === 'UP' && on.has('up-resets-count')) || (verb === 'DOWN' && on.has('down-resets-count'))) inFlight.set(name, 0n);
  const next = { ...state, down, inFlight };
  // Back up, it is queued again behind the backends with its count.
  return { state: verb === 'UP' && state.down.has(name) ? movedNow(next, name) : next, answer: lines('OK') };
}

function setCap(state: HealthState, arg: string | undefined): Step {
  if (arg === undefined || !/^\d+$/.test(arg)) return { state, answer: lines('ERROR') };
  return { state: { ...state, cap: BigInt(arg) }, answer: lines('OK') };
}

function status(state: HealthState, on: On, observed?: readonly string[]): Step {
  const names = [...state.inFlight.keys()].sort(codePointCompare);
  // A display that never shows a negative number (`max(0, count)`) over a count that goes below zero.
  const hidden = on.has('negative-hidden');
  const shown = (count: bigint): bigint => (hidden && count < 0n ? 0n : count);
  const answer = lines(...names.map((name) => `${name}:${shown(countOf(state, name))}${state.down.has(name) ? ' down' : ''}`));
  if (!observed) return { state, answer };
  // The program printed its own bookkeeping: from here on, those are the counts and the health flags.
  const inFlight = new Map(state.inFlight);
  const down = new Set(state.down);
  for (const line of observed) {
    const match = /^([^\s:]+):(-?\d+)( down)?$/.exec(line);
    if (!match) continue;
    // A 0 printed over a count it hides below zero is that count still.
    if (!(hidden && match[2] === '0' && countOf(state, match[1]!) < 0n)) inFlight.set(match[1]!, BigInt(match[2]!));
    if (match[3]) down.add(match[1]!);
    else down.delete(match[1]!);
  }
  return { state: { ...state, inFlight, down }, answer };
}

function reset(state: HealthState, names: readonly string[], on: On): Step {
  // A reload in place: a backend that stays keeps its count and its down flag (a config reload that diffs the pool).
  const inPlace = on.has('pool-reload-in-place');
  const inFlight = new Map(names.map((name) => [name, on.has('pool-keeps-counts') || inPlace ? countOf(state, name) : 0n]));
  // A set of down names that is never cleared: a backend marked down stays down in every later pool.
  const down = on.has('pool-keeps-down') ? new Set(state.down) : inPlace ? new Set([...state.down].filter((name) => names.includes(name))) : new Set<string>();
  const cap = on.has('pool-resets-cap') ? undefined : state.cap;
  return { state: { pool: names, inFlight, down, cap, cursor: 0 }, answer: lines('OK') };
}

function describeDifference(state: HealthState, command: string, expected: readonly string[], actual: readonly string[]): string {
  const verb = command.trim().split(/\s+/)[0];
  const count = (name: string): string => `${countOf(state, name)}`;
  const capText = state.cap === undefined || state.cap === 0n ? 'no cap' : `cap ${state.cap}`;
  const healthy = state.pool.filter((name) => !state.down.has(name));
  if (verb === 'PICK' && actual.length === 1 && expected.length === 1) {
    const [mine] = actual as [string];
    const [theirs] = expected as [string];
    if (mine === 'BUSY' || mine === 'EMPTY') {
      if (state.pool.length === 0) return `PICK answered ${mine} on an empty pool`;
      if (healthy.length === 0) return `PICK answered ${mine} when no backend of the pool is healthy`;
      const open = state.pool.includes(theirs) ? theirs : healthy.find((name) => capText === 'no cap' || countOf(state, name) < state.cap!);
      if (open) return `PICK answered ${mine}, but ${open} is healthy with ${count(open)} in flight${capText === 'no cap' ? ' and there is no cap' : `, under ${capText}`}`;
      return `PICK answered ${mine} when every healthy backend (${healthy.join(' ')}) is at ${capText}`;
    }
    if (!state.pool.includes(mine)) {
      return state.pool.length === 0 ? `PICK answered "${mine}" on an empty pool` : `PICK answered "${mine}", which is not a backend of the pool (${state.pool.join(' ')})`;
    }
    if (state.down.has(mine)) return healthy.length === 0 ? `PICK chose ${mine}, which is down, when no backend of the pool is healthy` : `PICK chose ${mine}, which is down`;
    if (state.cap !== undefined && state.cap > 0n && countOf(state, mine) >= state.cap) return `PICK chose ${mine} with ${count(mine)} in flight at cap ${state.cap}`;
    if (theirs === 'BUSY') return `PICK chose ${mine} with ${count(mine)} in flight at ${capText}, where every healthy backend counts as full`;
    if (theirs === 'EMPTY') return `PICK chose ${mine} when no backend of the pool is healthy`;
    if (countOf(state, mine) === countOf(state, theirs)) return `PICK chose ${mine}, tied with ${theirs} at ${count(mine)} in flight, but ${theirs} comes first in the pool`;
    return `PICK chose ${mine} with ${count(mine)} in flight while ${theirs} had ${count(theirs)}`;
  }
  if (verb === 'STATUS') {
    const nameOf = (line: string): string => line.split(':')[0]!;
    const wrong = actual.find((line) => !expected.includes(line));
    if (wrong) {
      const name = nameOf(wrong);
      if (!state.inFlight.has(name)) return `STATUS printed ${wrong}, but ${name} is not in the pool`;
      const shouldBeDown = state.down.has(name);
      const saysDown = wrong.endsWith(' down');
      if (shouldBeDown !== saysDown) return shouldBeDown ? `STATUS printed ${wrong}, but ${name} is down` : `STATUS printed ${wrong}, but ${name} is healthy`;
      return `STATUS printed ${wrong} where ${name} has ${count(name)} in flight`;
    }
    const missing = expected.find((line) => !actual.some((a) => nameOf(a) === nameOf(line)));
    if (missing) return `STATUS left out ${missing}`;
    return 'STATUS printed the right lines in another order (they are sorted by name)';
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
const STRANGERS = ['ghost', 'zz', 'Alpha'];

function shuffled(random: Random, items: readonly string[]): string[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export const model: ReferenceModel<HealthState> = {
  id: 'health-checks',
  description: 'POOL/DOWN/UP/CAP/PICK/DONE/STATUS: least connections over healthy backends under a cap; ties go to pool order',
  mutations: [
    { id: 'pick-ignores-health', description: 'PICK also chooses backends that are down' },
    { id: 'pick-down-when-full', description: 'when every healthy backend is at the cap, PICK chooses a backend that is down but under the cap (BUSY only when there is none)' },
    { id: 'fallback-first', description: 'with no healthy backend, PICK answers the first backend of the pool (and counts it)' },
    { id: 'fallback-first-uncounted', description: "with no healthy backend, PICK answers the first backend of the pool without counting it (the Go example's `return &backends[0]`, before inc())" },
    { id: 'fallback-first-full', description: 'whenever no backend may take the request (none healthy, or every healthy one at the cap), PICK answers the first backend without counting it' },
    { id: 'none-healthy-crash', description: 'PICK crashes when no backend is healthy (the minimum of nothing), the empty pool included' },
    { id: 'empty-crash', description: 'PICK crashes on an empty pool' },
    { id: 'empty-as-busy', description: 'with backends in the pool but none healthy, PICK answers BUSY' },
    { id: 'busy-as-empty', description: 'when every healthy backend is at the cap, PICK answers EMPTY' },
    { id: 'cap-before-health', description: 'the cap is asked before health: BUSY when every backend, down ones included, is at the cap; EMPTY when only down backends have room' },
    { id: 'full-before-health', description: 'BUSY when every backend, down ones included, is at the cap, before health is asked; otherwise as the rule says' },
    { id: 'empty-busy-swapped', description: 'both words swapped: BUSY when no backend is healthy, EMPTY when every healthy backend is at the cap' },
    { id: 'cap-ignored', description: 'PICK never looks at the cap' },
    { id: 'cap-plus-one', description: 'the cap lets one request more through (count <= cap)' },
    { id: 'cap-minus-one', description: 'the cap stops one request early (count + 1 < cap)' },
    { id: 'cap-zero-literal', description: 'CAP 0 is taken as a limit of zero: every PICK is BUSY' },
    { id: 'done-ignores-down', description: 'DONE on a backend that is down changes nothing' },
    { id: 'up-resets-count', description: 'UP sets the backend\'s count back to 0' },
    { id: 'down-resets-count', description: 'DOWN sets the backend\'s count to 0' },
    { id: 'counts-as-text', description: 'PICK compares the counts as text (a default sort in JavaScript): a count of 10 ranks below one of 9' },
    { id: 'negative-count', description: 'DONE at 0 goes below zero' },
    { id: 'negative-hidden', description: 'DONE at 0 goes below zero, and STATUS prints a count below zero as 0 (max(0, count))' },
    { id: 'wrap-32', description: 'DONE at 0 wraps an unsigned 32-bit counter to 4294967295' },
    { id: 'wrap-64', description: 'DONE at 0 wraps an unsigned 64-bit counter to 18446744073709551615' },
    { id: 'negative-idle-key', description: "DONE at 0 goes to -1, and PICK ranks -1 like an idle backend and -2 or below as the busiest (HAProxy leastconn's key (inflight + 1) * SRV_EWGHT_MAX / eweight, unsigned)" },
    { id: 'tiebreak-name', description: 'ties go to the smallest name instead of pool order' },
    { id: 'tiebreak-last', description: 'ties go to the last tied backend in pool order' },
    { id: 'tiebreak-rotate', description: 'ties rotate among the tied backends' },
    { id: 'tiebreak-moved', description: 'ties go to the backend whose count changed (or that came back up) least recently (HAProxy leastconn)' },
    { id: 'tiebreak-any', description: 'ties go to any tied backend (at random, or by some rotation)', nondeterministic: true },
    { id: 'no-increment', description: 'PICK does not count the chosen backend' },
    { id: 'health-stranger-crash', description: 'DOWN or UP for a name outside the pool crashes' },
    { id: 'health-stranger-added', description: 'DOWN or UP for a name outside the pool adds it to STATUS' },
    { id: 'health-stranger-joins', description: 'UP for a name outside the pool adds it to the pool, where it takes picks' },
    { id: 'done-stranger-crash', description: 'DONE for a name outside the pool crashes' },
    { id: 'done-stranger-added', description: 'DONE for a name outside the pool adds it to STATUS' },
    { id: 'pool-keeps-counts', description: 'POOL keeps the counts of backends that stay in the pool' },
    { id: 'pool-keeps-down', description: 'POOL keeps every backend that was ever marked down as down' },
    { id: 'pool-reload-in-place', description: 'POOL keeps the count and the down flag of every backend that stays' },
    { id: 'pool-resets-cap', description: 'POOL forgets the cap (back to no limit)' },
  ],
  resetCommand: 'POOL',
  resetAnswer: ['OK'],
  observeCommand: 'STATUS',
  // The protocol's commands and their arguments: generated and shrunk transcripts stay inside it.
  grammar: { POOL: ['names'], DOWN: ['name'], UP: ['name'], CAP: ['number'], PICK: [], DONE: ['name'], STATUS: [] },
  poolSize: POOL_SIZE,
  initial: () => ({ pool: [], inFlight: new Map(), down: new Set(), cap: undefined, cursor: 0 }),
  step(state, command, on, observed) {
    const [verb, ...args] = command.trim().split(/\s+/);
    switch (verb) {
      case 'POOL':
        return reset(state, args, on);
      case 'DOWN':
      case 'UP':
        return health(state, verb, args[0], on);
      case 'CAP':
        return setCap(state, args[0]);
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
  snapshot(state) {
    const shown = (count: bigint): number | string => (count >= BigInt(Number.MIN_SAFE_INTEGER) && count <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(count) : String(count));
    const entries: [string, number | string][] = [...state.inFlight].map(([name, count]) => [name, state.down.has(name) ? `${count} down` : shown(count)]);
    if (state.cap !== undefined && state.cap > 0n) entries.push(['CAP', shown(state.cap)]);
    return Object.fromEntries(entries);
  },
  answerShape(command): AnswerShape {
    return command.trim().split(/\s+/)[0] === 'STATUS' ? { kind: 'many', line: STATUS_LINE } : { kind: 'one' };
  },
  isAnswerLine: (line) => line === 'OK' || line === 'EMPTY' || line === 'BUSY' || BACKEND.test(line) || STATUS_LINE.test(line),
  describeDifference,
  generate(random: Random, length: number): string[] {
    // POOL keeps the cap and every list runs after a bare POOL in a process that ran others: set it first.
    const commands = [`CAP ${random.pick([0, 0, 1, 2, 2, 3])}`];
    let current = shuffled(random, NAME_POOL).slice(0, poolSizeOf(random));
    commands.push(`POOL ${current.join(' ')}`.trimEnd());
    while (commands.length < length) {
      const roll = random.int(100);
      if (roll < 36) commands.push('PICK');
      else if (roll < 54 && current.length > 0) commands.push(`DONE ${random.pick(current)}`);
      else if (roll < 64 && current.length > 0) commands.push(`DOWN ${random.pick(current)}`);
      else if (roll < 72 && current.length > 0) commands.push(`UP ${random.pick(current)}`);
      else if (roll < 78) commands.push(`${random.pick(['DONE', 'DOWN', 'UP'])} ${random.pick(STRANGERS)}`);
      else if (roll < 92) commands.push('STATUS');
      else if (roll < 96) commands.push(`CAP ${random.pick([0, 1, 2, 3])}`);
      else {
        // A reload that keeps some backends and adds one: counts and health start over, the cap stays.
        current = [...shuffled(random, current).slice(0, Math.max(1, current.length - 1)), random.pick(NAME_POOL.filter((n) => !current.includes(n)))];
        commands.push(`POOL ${current.join(' ')}`);
      }
    }
    return commands;
  },
};

export default model;
