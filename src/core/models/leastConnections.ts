import type { AnswerShape, Random, ReferenceModel, StepResult } from '../model';

/**
 * Lesson "least-connections": POOL / PICK / DONE / STATUS.
 * Ties go to pool order; STATUS is sorted by name in code-point order.
 */
interface PoolState {
  readonly pool: readonly string[];
  /** Insertion-ordered like the learner's dict/Map, so a stranger added by mistake shows up. */
  readonly inFlight: ReadonlyMap<string, number>;
  /** Rotation cursor, used only by the rotating-tiebreak mutant. */
  readonly cursor: number;
}

const BACKEND = /^[A-Za-z0-9._-]+$/;
const STATUS_LINE = /^[^\s:]+:-?\d+$/;

function lines(...answer: string[]): StepResult<PoolState>['answer'] {
  return { kind: 'lines', lines: answer };
}

function codePointCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function pick(state: PoolState, on: ReadonlySet<string>): StepResult<PoolState> {
  const { pool, inFlight } = state;
  if (pool.length === 0) {
    if (on.has('empty-crash')) return { state, answer: { kind: 'crash', error: 'pick on an empty pool' } };
    return { state, answer: lines('EMPTY') };
  }
  const countOf = (name: string): number => inFlight.get(name) ?? 0;
  const fewest = Math.min(...pool.map(countOf));
  const tiedIndexes = pool.map((name, index) => ({ name, index })).filter((b) => countOf(b.name) === fewest);
  let chosen = tiedIndexes[0]!;
  let cursor = state.cursor;
  if (on.has('tiebreak-name')) {
    chosen = [...tiedIndexes].sort((x, y) => codePointCompare(x.name, y.name))[0]!;
  } else if (on.has('tiebreak-last')) {
    chosen = tiedIndexes[tiedIndexes.length - 1]!;
  } else if (on.has('tiebreak-rotate')) {
    chosen = tiedIndexes.find((b) => b.index >= cursor % pool.length) ?? tiedIndexes[0]!;
    cursor = chosen.index + 1;
  }
  const next = new Map(inFlight);
  if (!on.has('no-increment')) next.set(chosen.name, countOf(chosen.name) + 1);
  return { state: { pool, inFlight: next, cursor }, answer: lines(chosen.name) };
}

function done(state: PoolState, name: string | undefined, on: ReadonlySet<string>): StepResult<PoolState> {
  if (name === undefined) return { state, answer: lines('OK') };
  const known = state.pool.includes(name);
  if (!known && on.has('unknown-crash')) {
    return { state, answer: { kind: 'crash', error: `DONE for ${name}, which is not in the pool` } };
  }
  if (!known && !on.has('unknown-added')) return { state, answer: lines('OK') };
  const current = state.inFlight.get(name) ?? 0;
  const lowered = on.has('negative-count') ? current - 1 : Math.max(0, current - 1);
  const next = new Map(state.inFlight);
  next.set(name, lowered);
  return { state: { ...state, inFlight: next }, answer: lines('OK') };
}

function status(state: PoolState): StepResult<PoolState> {
  const names = [...state.inFlight.keys()].sort(codePointCompare);
  return { state, answer: lines(...names.map((name) => `${name}:${state.inFlight.get(name) ?? 0}`)) };
}

const NAME_POOL = ['zeta', 'alpha', 'mid', 'a', 'b', 'c', 'web1', 'web10', 'web2'];

export const leastConnectionsModel: ReferenceModel<PoolState> = {
  id: 'least-connections',
  description: 'POOL/PICK/DONE/STATUS least-connections balancer; ties go to pool order',
  mutations: [
    { id: 'tiebreak-name', description: 'ties go to the smallest name instead of pool order' },
    { id: 'tiebreak-last', description: 'ties go to the last tied backend in pool order' },
    { id: 'tiebreak-rotate', description: 'ties rotate among the tied backends' },
    { id: 'negative-count', description: 'DONE at 0 goes below zero' },
    { id: 'no-increment', description: 'PICK does not count the chosen backend at once' },
    { id: 'unknown-crash', description: 'DONE for a name not in the pool crashes' },
    { id: 'unknown-added', description: 'DONE for a name not in the pool adds it to the counts' },
    { id: 'empty-crash', description: 'PICK on an empty pool crashes' },
  ],
  resetCommand: 'POOL',
  resetAnswer: ['OK'],
  initial: () => ({ pool: [], inFlight: new Map(), cursor: 0 }),
  step(state, command, on) {
    const [verb, ...args] = command.trim().split(/\s+/);
    switch (verb) {
      case 'POOL':
        return { state: { pool: args, inFlight: new Map(args.map((n) => [n, 0])), cursor: 0 }, answer: lines('OK') };
      case 'PICK':
        return pick(state, on);
      case 'DONE':
        return done(state, args[0], on);
      case 'STATUS':
        return status(state);
      default:
        return { state, answer: lines('ERROR') };
    }
  },
  snapshot: (state) => Object.fromEntries(state.inFlight),
  answerShape(command): AnswerShape {
    return command.trim().split(/\s+/)[0] === 'STATUS' ? { kind: 'many', line: STATUS_LINE } : { kind: 'one' };
  },
  isAnswerLine: (line) => line === 'OK' || line === 'EMPTY' || BACKEND.test(line) || STATUS_LINE.test(line),
  generate(random: Random, length: number): string[] {
    const size = random.int(5);
    const shuffled = [...NAME_POOL];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = random.int(i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    const pool = shuffled.slice(0, size);
    const commands = [`POOL ${pool.join(' ')}`.trimEnd()];
    while (commands.length < length) {
      const roll = random.int(100);
      if (roll < 45) commands.push('PICK');
      else if (roll < 75 && pool.length > 0) commands.push(`DONE ${random.pick(pool)}`);
      else if (roll < 83) commands.push(`DONE ${random.pick(['ghost', 'zz', 'Alpha'])}`);
      else commands.push('STATUS');
    }
    return commands;
  },
};
