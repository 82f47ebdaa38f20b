import type { Answer, AnswerShape, Random, ReferenceModel, StepResult } from 'lesson-companion/model';

/**
 * Reference model of lesson "conn-counts": least connections as a counter kept *outside* the picker.
 *
 * This file is pack code: the engine loads it with nothing but the language itself (no require, no I/O).
 * The `import type` above is erased when the model is loaded; it only lets the editor check the shape.
 *
 * The learner writes three functions over a `ConnCounts` (one dict/Map of active counts):
 * `pick(counts, backends)`, `connection_opened(counts, backend)` and `connection_closed(counts, backend)`.
 * A pack driver turns them into this line protocol, one command per line:
 *
 *   BACKENDS <b1> <b2> ...   OK. Sets the backends tuple passed to the following PICKs (may be empty).
 *                            The counts are NOT touched: backends and counts are separate arguments.
 *   PICK                     pick(counts, backends): the chosen name. `ERROR ValueError` when backends is
 *                            empty; `NONE` when the learner's pick returned None/null/undefined.
 *   OPEN <b>                 connection_opened(counts, b) → OK
 *   CLOSE <b>                connection_closed(counts, b) → OK
 *   ACTIVE                   one `name:count` line per key of counts.active, sorted by name (code points).
 *   RESET                    OK. A fresh ConnCounts and an empty backends tuple (the model's resetCommand).
 *
 * A learner function that raises ValueError/KeyError is answered `ERROR ValueError` / `ERROR KeyError` by
 * the driver and the session goes on, so a KeyError is a visible answer line the diagnosis can match
 * instead of a crash that hides every later command. In JavaScript a missing Map entry reads as
 * `undefined` and the count becomes NaN; the JS driver reports that as `ERROR KeyError` too and undoes
 * the write, so the one mistake looks the same in every language.
 *
 * Reference rules (seed "Least Connections Is a Counter"): pick = min by (active.get(b, 0), b), never
 * writes; opened = get(b, 0) + 1; closed = max(0, get(b, 0) - 1), which also creates `b:0` for a backend
 * never seen before.
 */
interface ConnState {
  readonly backends: readonly string[];
  /** Insertion-ordered like the learner's dict/Map, so a key added by mistake shows up in ACTIVE. */
  readonly active: ReadonlyMap<string, bigint>;
}

const NAME = /^[A-Za-z0-9._-]+$/;
const ACTIVE_LINE = /^[^\s:]+:-?\d+$/;
const ERROR_LINE = /^ERROR( [A-Za-z]+)?$/;
const U32 = (1n << 32n) - 1n;
const U64 = (1n << 64n) - 1n;

function lines(...answer: string[]): Answer {
  return { kind: 'lines', lines: answer };
}

/** Python compares str by code point; so does this (for the ASCII names the protocol allows). */
function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function pick(state: ConnState, on: ReadonlySet<string>, observed?: readonly string[]): StepResult<ConnState> {
  const { backends, active } = state;
  if (backends.length === 0) {
    if (on.has('empty-no-error')) return { state, answer: lines('NONE') };
    if (on.has('empty-crash')) return { state, answer: { kind: 'crash', error: 'pick on an empty backends tuple' } };
    return { state, answer: lines('ERROR ValueError') };
  }
  const countOf = (name: string): bigint => active.get(name) ?? 0n;
  // [count, name] pairs compared with `<` in JavaScript compare as the text "count,name": 10 ranks below 9 (and
  // "," sorts before every digit, so the count's text alone orders them, then the name as the tiebreak has it).
  const fewer = on.has('counts-as-text')
    ? (a: bigint, b: bigint): boolean => byCodePoint(`${a}`, `${b}`) < 0
    : (a: bigint, b: bigint): boolean => a < b;
  let fewest = countOf(backends[0]!);
  for (const name of backends) if (fewer(countOf(name), fewest)) fewest = countOf(name);
  const tied = backends.filter((name) => countOf(name) === fewest);
  const byName = [...tied].sort(byCodePoint)[0]!;
  let chosen: string;
  if (on.has('tiebreak-order')) chosen = tied[0]!;
  else if (on.has('tiebreak-last')) chosen = tied[tied.length - 1]!;
  else chosen = byName;
  const answer = lines(chosen);
  const alternatives = on.has('tiebreak-any') ? [...new Set(tied)].filter((name) => name !== chosen).map((name) => [name]) : undefined;
  const extra = alternatives ? { alternatives } : {};
  if (!on.has('pick-writes') && !on.has('pick-writes-zero')) return { state, answer, ...extra };
  const next = new Map(active);
  // defaultdict(int) or setdefault(b, 0) inside pick(): every backend it looks at gets an entry.
  if (on.has('pick-writes-zero')) for (const name of backends) if (!next.has(name)) next.set(name, 0n);
  if (on.has('pick-writes')) {
    const winner = observed?.length === 1 && backends.includes(observed[0]!) ? observed[0]! : chosen;
    next.set(winner, countOf(winner) + 1n);
  }
  return { state: { ...state, active: next }, answer, ...extra };
}

function change(state: ConnState, name: string | undefined, delta: 1 | -1, on: ReadonlySet<string>, observed?: readonly string[]): StepResult<ConnState> {
  if (name === undefined) return { state, answer: lines('ERROR') };
  const seen = state.active.has(name);
  // `active[b] += 1` / `active[b] - 1` on a missing key: the KeyError leaves the dict as it was.
  const raises = !seen && on.has(delta > 0 ? 'unseen-crash' : 'unseen-crash-close');
  const answer = raises ? lines('ERROR KeyError') : lines('OK');
  // The program's own answer wins: an error means its dict did not change, an OK that it did.
  const failed = observed ? observed[0]?.startsWith('ERROR') === true : raises;
  if (failed) return { state, answer };
  if (!seen && delta < 0 && on.has('close-skips-unseen')) return { state, answer };
  const current = state.active.get(name) ?? 0n;
  const mask = on.has('wrap-64') ? U64 : on.has('wrap-32') ? U32 : undefined;
  let value: bigint;
  if (delta > 0) value = mask === undefined ? current + 1n : (current + 1n) & mask;
  else if (mask !== undefined) value = (current - 1n) & mask;
  else if (on.has('negative-count')) value = current - 1n;
  else value = current > 0n ? current - 1n : 0n;
  const next = new Map(state.active);
  next.set(name, value);
  return { state: { ...state, active: next }, answer };
}

function active(state: ConnState, observed?: readonly string[]): StepResult<ConnState> {
  const names = [...state.active.keys()].sort(byCodePoint);
  const answer = lines(...names.map((name) => `${name}:${state.active.get(name)!}`));
  if (!observed) return { state, answer };
  // What the program printed is what its dict holds, keys it left out included.
  const next = new Map<string, bigint>();
  for (const line of observed) {
    const match = /^([^\s:]+):(-?\d+)$/.exec(line);
    if (match) next.set(match[1]!, BigInt(match[2]!));
  }
  return { state: { ...state, active: next }, answer };
}

const initial = (): ConnState => ({ backends: [], active: new Map() });

function step(state: ConnState, command: string, on: ReadonlySet<string>, observed?: readonly string[]): StepResult<ConnState> {
  const [verb, ...args] = command.trim().split(/\s+/);
  switch (verb) {
    case 'RESET':
      // A class-level dict shared by every ConnCounts: a "fresh" one still holds the old counts.
      return { state: on.has('reset-keeps-counts') ? { ...initial(), active: state.active } : initial(), answer: lines('OK') };
    case 'BACKENDS':
      return { state: { ...state, backends: args }, answer: lines('OK') };
    case 'PICK':
      return pick(state, on, observed);
    case 'OPEN':
      return change(state, args.length === 1 ? args[0] : undefined, 1, on, observed);
    case 'CLOSE':
      return change(state, args.length === 1 ? args[0] : undefined, -1, on, observed);
    case 'ACTIVE':
      return active(state, observed);
    default:
      return { state, answer: lines('ERROR') };
  }
}

function describeDifference(state: ConnState, command: string, expected: readonly string[], actual: readonly string[]): string {
  const verb = command.trim().split(/\s+/)[0];
  const count = (name: string): string => `${state.active.get(name) ?? 0n}`;
  if (verb === 'PICK' && actual.length === 1 && expected.length === 1) {
    const [mine] = actual;
    const [theirs] = expected;
    if (!state.backends.includes(mine!)) {
      return state.backends.length === 0
        ? `pick() on an empty backends tuple answered "${mine}", where it must raise ValueError`
        : `pick() returned "${mine}", which is not one of the backends (${state.backends.join(', ')})`;
    }
    if (count(mine!) === count(theirs!)) return `pick() returned ${mine} while ${theirs}, which sorts first, is tied with it at ${count(mine!)}`;
    return `pick() returned ${mine} with ${count(mine!)} active while ${theirs} had ${count(theirs!)}`;
  }
  if (verb === 'ACTIVE') {
    const wrong = actual.find((line) => !expected.includes(line));
    const missing = expected.find((line) => !actual.some((a) => a.split(':')[0] === line.split(':')[0]));
    if (wrong) {
      const name = wrong.split(':')[0]!;
      return state.active.has(name) ? `ACTIVE printed ${wrong} where counts.active has ${name}:${count(name)}` : `ACTIVE printed ${wrong}, an entry nothing should have created`;
    }
    if (missing) return `ACTIVE left out ${missing}`;
    return 'ACTIVE printed the right entries in another order (they are sorted by name)';
  }
  return `${command} answered "${actual.join(' / ') || '(nothing)'}" where the reference answers "${expected.join(' / ') || '(nothing)'}"`;
}

/** Names whose code-point order differs from any order a generator would list them in. */
const NAMES = ['s1', 's2', 's3', 's4', 'zeta', 'alpha', 'mid', 'web1', 'web10', 'web2'];
/** From an empty tuple up to 8 backends, so a program with a fixed number of slots (a list of 4) is caught. */
const POOL_SIZE = { min: 0, max: 8 };

/** Most tuples hold 2–5 backends (a quick check, a short shrunk transcript); one in four holds 6 up to the most. */
function poolSizeOf(random: Random): number {
  return random.int(4) === 0 ? 6 + random.int(POOL_SIZE.max - 5) : 2 + random.int(4);
}

function shuffled(random: Random, items: readonly string[]): string[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export const model: ReferenceModel<ConnState> = {
  id: 'conn-counts',
  description: 'BACKENDS/PICK/OPEN/CLOSE/ACTIVE: pick() reads a per-backend counter; ties go to the smallest name',
  mutations: [
    { id: 'tiebreak-order', description: 'ties go to the first tied backend in backends order instead of the smallest name' },
    { id: 'tiebreak-last', description: 'ties go to the last tied backend in backends order (a `<=` in the loop)' },
    { id: 'tiebreak-any', description: 'ties go to any tied backend (at random, or by some rotation)', nondeterministic: true },
    { id: 'counts-as-text', description: 'pick compares each backend as the text "count,name" (arrays compared with < in JavaScript): a count of 10 ranks below one of 9' },
    { id: 'negative-count', description: 'connection_closed goes below zero' },
    { id: 'wrap-32', description: 'connection_closed at 0 wraps an unsigned 32-bit counter to 4294967295' },
    { id: 'wrap-64', description: 'connection_closed at 0 wraps an unsigned 64-bit counter to 18446744073709551615' },
    { id: 'pick-writes', description: 'pick() adds one to the winner in counts.active' },
    { id: 'pick-writes-zero', description: 'pick() stores a 0 entry for every backend it looks at (defaultdict, setdefault)' },
    { id: 'unseen-crash', description: 'connection_opened raises KeyError for a backend with no entry yet' },
    { id: 'unseen-crash-close', description: 'connection_closed raises KeyError for a backend with no entry yet' },
    { id: 'close-skips-unseen', description: 'connection_closed does nothing for a backend with no entry, so no 0 entry appears' },
    { id: 'reset-keeps-counts', description: 'a new ConnCounts still holds the old counts (one dict shared by every instance)' },
    { id: 'empty-no-error', description: 'pick() on empty backends returns None/null instead of raising ValueError' },
    { id: 'empty-crash', description: 'pick() on empty backends fails with an unexpected error (e.g. reduce of an empty array)' },
  ],
  resetCommand: 'RESET',
  resetAnswer: ['OK'],
  observeCommand: 'ACTIVE',
  // The protocol's commands and their arguments: generated and shrunk transcripts stay inside it.
  grammar: { RESET: [], BACKENDS: ['names'], OPEN: ['name'], CLOSE: ['name'], PICK: [], ACTIVE: [] },
  poolSize: POOL_SIZE,
  initial,
  step,
  snapshot: (state) => Object.fromEntries([...state.active].map(([name, count]) => [name, count >= BigInt(Number.MIN_SAFE_INTEGER) && count <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(count) : String(count)])),
  answerShape(command): AnswerShape {
    return command.trim().split(/\s+/)[0] === 'ACTIVE' ? { kind: 'many', line: ACTIVE_LINE } : { kind: 'one' };
  },
  describeDifference,
  isAnswerLine: (line) => NAME.test(line) || ACTIVE_LINE.test(line) || ERROR_LINE.test(line),
  /**
   * Mostly the caller's real pattern: PICK, then OPEN the winner, CLOSE something later. The reference
   * runs alongside so that OPENs follow actual picks; strangers, empty tuples and re-ordered tuples
   * appear often enough to exercise every mistake.
   */
  generate(random: Random, length: number): string[] {
    const pool = shuffled(random, NAMES).slice(0, poolSizeOf(random));
    let backends = random.int(8) === 0 ? [] : pool;
    const commands = [`BACKENDS ${backends.join(' ')}`.trimEnd()];
    let state = step(initial(), commands[0]!, new Set());
    const push = (command: string): string[] => {
      commands.push(command);
      const result = step(state.state, command, new Set());
      state = result;
      return result.answer.kind === 'lines' ? [...result.answer.lines] : [];
    };
    while (commands.length < length) {
      const roll = random.int(100);
      if (roll < 30) {
        const [chosen] = push('PICK');
        if (chosen && NAME.test(chosen) && random.int(3) > 0 && commands.length < length) push(`OPEN ${chosen}`);
      } else if (roll < 45) push(`OPEN ${random.pick(pool)}`);
      else if (roll < 65) push(`CLOSE ${random.pick(pool)}`);
      else if (roll < 72) push(`CLOSE ${random.pick(['s9', 'ghost', 'zz'])}`);
      else if (roll < 84) push('ACTIVE');
      else {
        // A RESET also empties the tuple, so it is followed by a new one; an empty tuple is rare.
        if (roll >= 96) push('RESET');
        const size = random.int(2) === 0 ? pool.length : 1 + random.int(pool.length);
        backends = random.int(8) === 0 ? [] : shuffled(random, pool).slice(0, size);
        if (commands.length < length) push(`BACKENDS ${backends.join(' ')}`.trimEnd());
      }
    }
    return commands;
  },
};

export default model;
