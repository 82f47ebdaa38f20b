/**
 * The reference model a new pack starts with (`lesson-companion new`): plain JavaScript, commented for an
 * author who has never written one. docs/authoring.md walks through the same file.
 */
export const SCAFFOLD_MODEL = `// The reference model of this lesson: the truth every learner program is checked against.
//
// It is a pure state machine. The engine calls step(state, command, mutations) once per command and
// compares the answer with what the learner's program printed. Each mutation is a known mistake switched
// on inside the same machine; the lesson's "mistakes" in lesson.json name them, so that a program that
// behaves like a mutant gets that mistake's explanation. Pure means: no I/O, no clock, no Math.random.
// (The engine runs this file with nothing but the language itself: there is no require, no process.)

/** @typedef {{ pool: string[], inFlight: Map<string, number> }} State */

const NAME = /^[A-Za-z0-9._-]+$/;
const STATUS_LINE = /^[^\\s:]+:-?\\d+$/;

/** @returns {{ kind: 'lines', lines: string[] }} */
const lines = (...answer) => ({ kind: 'lines', lines: answer });

/** @param {State} state @param {Set<string>} on @param {string[] | undefined} observed */
function pick(state, on, observed) {
  const { pool, inFlight } = state;
  if (pool.length === 0) {
    // A crash answer: the mutant dies here, as a learner's program would.
    if (on.has('empty-crash')) return { state, answer: { kind: 'crash', error: 'PICK on an empty pool' } };
    return { state, answer: lines('EMPTY') };
  }
  const count = (name) => inFlight.get(name) ?? 0;
  const fewest = Math.min(...pool.map(count));
  const tied = pool.filter((name) => count(name) === fewest);
  let chosen = tied[0];
  if (on.has('tiebreak-name')) chosen = [...tied].sort()[0];
  if (on.has('tiebreak-last')) chosen = tied[tied.length - 1];
  if (on.has('tiebreak-rotate')) chosen = tied[(state.picks ?? 0) % tied.length];
  const answer = lines(chosen);
  // "observed" is the learner's own answer. Following it keeps the model in step with the program after
  // a first difference, so that one mistake does not hide the next.
  if (observed && observed.length === 1 && pool.includes(observed[0])) chosen = observed[0];
  const next = new Map(inFlight);
  if (!on.has('no-increment')) next.set(chosen, count(chosen) + 1);
  return { state: { ...state, inFlight: next, picks: (state.picks ?? 0) + 1 }, answer };
}

/** @param {State} state @param {string | undefined} name @param {Set<string>} on */
function done(state, name, on) {
  if (name === undefined) return { state, answer: lines('OK') };
  const known = state.pool.includes(name);
  if (!known && on.has('unknown-crash')) return { state, answer: { kind: 'crash', error: 'DONE for a stranger' } };
  if (!known && !on.has('unknown-added')) return { state, answer: lines('OK') };
  const current = state.inFlight.get(name) ?? 0;
  const next = new Map(state.inFlight);
  next.set(name, on.has('negative-count') ? current - 1 : Math.max(0, current - 1));
  return { state: { ...state, inFlight: next }, answer: lines('OK') };
}

/** @param {State} state @param {string[] | undefined} observed */
function status(state, observed) {
  const names = [...state.inFlight.keys()].sort();
  const answer = lines(...names.map((name) => name + ':' + state.inFlight.get(name)));
  if (!observed) return { state, answer };
  // The program printed its counts: from here on, those are the counts.
  const next = new Map(state.inFlight);
  for (const line of observed) {
    const match = /^([^\\s:]+):(-?\\d+)$/.exec(line);
    if (match) next.set(match[1], Number(match[2]));
  }
  return { state: { ...state, inFlight: next }, answer };
}

export const model = {
  id: '__ID__',
  description: 'POOL/PICK/DONE/STATUS: least connections, ties to pool order',
  // Every mistake a lesson can name is one of these. A nondeterministic one (ties at random) may return
  // several right answers as "alternatives"; see docs/authoring.md.
  mutations: [
    { id: 'tiebreak-name', description: 'ties go to the smallest name' },
    { id: 'tiebreak-last', description: 'ties go to the last tied backend' },
    { id: 'tiebreak-rotate', description: 'ties rotate' },
    { id: 'no-increment', description: 'PICK does not count the chosen backend' },
    { id: 'negative-count', description: 'DONE at 0 goes below zero' },
    { id: 'unknown-crash', description: 'DONE for a stranger crashes' },
    { id: 'unknown-added', description: 'DONE for a stranger adds it to the counts' },
    { id: 'empty-crash', description: 'PICK on an empty pool crashes' },
  ],
  // The engine runs many transcripts through one process, each after this command.
  resetCommand: 'POOL',
  resetAnswer: ['OK'],
  // A read-only command that prints the counts: traces show the learner's own counts with it.
  observeCommand: 'STATUS',
  initial: () => ({ pool: [], inFlight: new Map() }),
  step(state, command, on, observed) {
    const [verb, ...args] = command.trim().split(/\\s+/);
    if (verb === 'POOL') return { state: { pool: args, inFlight: new Map(args.map((n) => [n, 0])) }, answer: lines('OK') };
    if (verb === 'PICK') return pick(state, on, observed);
    if (verb === 'DONE') return done(state, args[0], on);
    if (verb === 'STATUS') return status(state, observed);
    return { state, answer: lines('ERROR') };
  },
  // The counts after a command, for trace tables.
  snapshot: (state) => Object.fromEntries(state.inFlight),
  // STATUS answers any number of lines; every other command exactly one.
  answerShape: (command) => (command.trim().startsWith('STATUS') ? { kind: 'many', line: STATUS_LINE } : { kind: 'one' }),
  // Lines that could be answers at all; anything else the program prints is a stray debug print.
  isAnswerLine: (line) => line === 'OK' || line === 'EMPTY' || NAME.test(line) || STATUS_LINE.test(line),
  // Random transcripts for fuzzing: use only the random source you are given, so a seed reproduces.
  generate(random, length) {
    const pool = ['zeta', 'alpha', 'mid', 'a', 'b'].slice(0, random.int(5));
    const commands = [('POOL ' + pool.join(' ')).trim()];
    while (commands.length < length) {
      const roll = random.int(10);
      if (roll < 5) commands.push('PICK');
      else if (roll < 8 && pool.length > 0) commands.push('DONE ' + random.pick(pool));
      else if (roll < 9) commands.push('DONE ghost');
      else commands.push('STATUS');
    }
    return commands;
  },
  // One sentence for a difference no mistake explains.
  describeDifference(state, command, expected, actual) {
    if (command.trim() === 'PICK' && actual.length === 1 && state.pool.includes(actual[0])) {
      const count = (name) => state.inFlight.get(name) ?? 0;
      return 'PICK chose ' + actual[0] + ' with ' + count(actual[0]) + ' in flight while ' + expected[0] + ' had ' + count(expected[0]);
    }
    return command + ' answered "' + actual.join(' / ') + '" where the reference answers "' + expected.join(' / ') + '"';
  },
};
`;
