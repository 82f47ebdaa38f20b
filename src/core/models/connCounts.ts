import type { Answer, AnswerShape, Random, ReferenceModel, StepResult } from '../model';

/**
 * Lesson "conn-counts": least connections as a counter kept *outside* the picker.
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
export interface ConnState {
  readonly backends: readonly string[];
  /** Insertion-ordered like the learner's dict/Map, so a key added by mistake shows up in ACTIVE. */
  readonly active: ReadonlyMap<string, number>;
}

const NAME = /^[A-Za-z0-9._-]+$/;
const ACTIVE_LINE = /^[^\s:]+:-?\d+$/;
const ERROR_LINE = /^ERROR( [A-Za-z]+)?$/;

function lines(...answer: string[]): Answer {
  return { kind: 'lines', lines: answer };
}

/** Python compares str by code point; so does this (for the ASCII names the protocol allows). */
function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function pick(state: ConnState, on: ReadonlySet<string>): StepResult<ConnState> {
  const { backends, active } = state;
  if (backends.length === 0) {
    if (on.has('empty-no-error')) return { state, answer: lines('NONE') };
    if (on.has('empty-crash')) return { state, answer: { kind: 'crash', error: 'pick on an empty backends tuple' } };
    return { state, answer: lines('ERROR ValueError') };
  }
  const countOf = (name: string): number => active.get(name) ?? 0;
  const fewest = Math.min(...backends.map(countOf));
  const tied = backends.filter((name) => countOf(name) === fewest);
  let chosen: string;
  if (on.has('tiebreak-order')) chosen = tied[0]!;
  else if (on.has('tiebreak-last')) chosen = tied[tied.length - 1]!;
  else chosen = [...tied].sort(byCodePoint)[0]!;
  if (!on.has('pick-writes')) return { state, answer: lines(chosen) };
  const next = new Map(active);
  next.set(chosen, countOf(chosen) + 1);
  return { state: { ...state, active: next }, answer: lines(chosen) };
}

function change(state: ConnState, name: string | undefined, delta: 1 | -1, on: ReadonlySet<string>): StepResult<ConnState> {
  if (name === undefined) return { state, answer: lines('ERROR') };
  const seen = state.active.has(name);
  // `active[b] += 1` / `active[b] - 1` on a missing key: the KeyError leaves the dict as it was.
  if (!seen && on.has(delta > 0 ? 'unseen-crash' : 'unseen-crash-close')) return { state, answer: lines('ERROR KeyError') };
  const current = state.active.get(name) ?? 0;
  const value = delta > 0 ? current + 1 : on.has('negative-count') ? current - 1 : Math.max(0, current - 1);
  const next = new Map(state.active);
  next.set(name, value);
  return { state: { ...state, active: next }, answer: lines('OK') };
}

function active(state: ConnState): StepResult<ConnState> {
  const names = [...state.active.keys()].sort(byCodePoint);
  return { state, answer: lines(...names.map((name) => `${name}:${state.active.get(name)!}`)) };
}

const initial = (): ConnState => ({ backends: [], active: new Map() });

function step(state: ConnState, command: string, on: ReadonlySet<string>): StepResult<ConnState> {
  const [verb, ...args] = command.trim().split(/\s+/);
  switch (verb) {
    case 'RESET':
      return { state: initial(), answer: lines('OK') };
    case 'BACKENDS':
      return { state: { ...state, backends: args }, answer: lines('OK') };
    case 'PICK':
      return pick(state, on);
    case 'OPEN':
      return change(state, args.length === 1 ? args[0] : undefined, 1, on);
    case 'CLOSE':
      return change(state, args.length === 1 ? args[0] : undefined, -1, on);
    case 'ACTIVE':
      return active(state);
    default:
      return { state, answer: lines('ERROR') };
  }
}

/** Names whose code-point order differs from any order a generator would list them in. */
const NAMES = ['s1', 's2', 's3', 's4', 'zeta', 'alpha', 'mid', 'web1', 'web10', 'web2'];

function shuffled(random: Random, items: readonly string[]): string[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export const connCountsModel: ReferenceModel<ConnState> = {
  id: 'conn-counts',
  description: 'BACKENDS/PICK/OPEN/CLOSE/ACTIVE: pick() reads a per-backend counter; ties go to the smallest name',
  mutations: [
    { id: 'tiebreak-order', description: 'ties go to the first tied backend in backends order instead of the smallest name' },
    { id: 'tiebreak-last', description: 'ties go to the last tied backend in backends order (a `<=` in the loop)' },
    { id: 'negative-count', description: 'connection_closed goes below zero' },
    { id: 'pick-writes', description: 'pick() adds one to the winner in counts.active' },
    { id: 'unseen-crash', description: 'connection_opened raises KeyError for a backend with no entry yet' },
    { id: 'unseen-crash-close', description: 'connection_closed raises KeyError for a backend with no entry yet' },
    { id: 'empty-no-error', description: 'pick() on empty backends returns None/null instead of raising ValueError' },
    { id: 'empty-crash', description: 'pick() on empty backends fails with an unexpected error (e.g. reduce of an empty array)' },
  ],
  resetCommand: 'RESET',
  resetAnswer: ['OK'],
  initial,
  step,
  snapshot: (state) => Object.fromEntries(state.active),
  answerShape(command): AnswerShape {
    return command.trim().split(/\s+/)[0] === 'ACTIVE' ? { kind: 'many', line: ACTIVE_LINE } : { kind: 'one' };
  },
  isAnswerLine: (line) => NAME.test(line) || ACTIVE_LINE.test(line) || ERROR_LINE.test(line),
  /**
   * Mostly the caller's real pattern: PICK, then OPEN the winner, CLOSE something later. The reference
   * runs alongside so that OPENs follow actual picks; strangers, empty tuples and re-ordered tuples
   * appear often enough to exercise every mistake.
   */
  generate(random: Random, length: number): string[] {
    const pool = shuffled(random, NAMES).slice(0, 2 + random.int(4));
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
