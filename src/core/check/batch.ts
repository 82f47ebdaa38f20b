import type { ReferenceModel } from '../model/model';
import type { Execute, ProcessResult, RunLimits, StrayLines } from './process';
import { answerForm, manyAnswerEnd, manyAnswerForms, noteAnswerForms, outputLines } from '../model/segment';
import { simulate, type Outcome } from '../model/simulate';

export interface BatchOptions {
  /** At most this many processes; lists not reached by then are `not-run`. */
  readonly maxRuns?: number;
  /**
   * At most this many processes in a row that crashed on the first list they were given (no list answered to
   * the end in between): lists not reached by then are `not-run`. A process that got through lists before it
   * crashed earned its restart; one that crashed at once showed only the crash again.
   */
  readonly maxCrashesAtOnce?: number;
  /** True when a run shows that further runs would fail the same way (e.g. an unwritten stub). */
  readonly hopeless?: (run: ProcessResult) => boolean;
  readonly limits?: RunLimits;
  /**
   * The caller needs no list after the first whose outcome this holds for (a shrinker takes its first
   * candidate that still fails): the lists after it are `not-run`, so a crash there costs no restart. `first`:
   * the list was the first of its process (a fresh one), so it ran as if alone.
   */
  readonly until?: (list: number, outcome: Outcome, first: boolean) => boolean;
}

/**
 * Everything one process was given and answered: the evidence a diagnosis walks step by step. Reset
 * commands are included, so state that survives a reset shows here as it would in the program.
 */
export interface Stream {
  /** Every command written to the process, in order, each list after the reset command. */
  readonly commands: readonly string[];
  /** The program's answer lines (stray debug prints removed). */
  readonly lines: readonly string[];
  readonly ending: Outcome['ending'];
  /** Where each list starts in `commands` (at its reset command): its index in the batch and length (reset included). */
  readonly segments: readonly { readonly list: number; readonly start: number; readonly length: number }[];
}

export interface BatchResult {
  /** One outcome per command list, in order. */
  readonly outcomes: readonly Outcome[];
  /** Every process run, in order; the first one saw the whole batch. */
  readonly runs: readonly ProcessResult[];
  /** stdout lines that cannot be answers of this protocol (debug prints). */
  readonly strayLines: readonly string[];
  /** What the first run with lines in no answer's form took them for; absent when every line was an answer. */
  readonly strays?: StrayLines;
  /** One per process run, in order. */
  readonly streams: readonly Stream[];
}

/**
 * After a hang or a flood the rest is not run: each costs a whole time (or output) limit, and one already
 * says what is wrong. A flood otherwise restarts once per remaining list, each run printing the whole limit.
 */
const MAX_STOPPED = 1;

function endingOf(run: ProcessResult): Outcome['ending'] {
  if (run.timedOut) return 'timed-out';
  if (run.outputLimited) return 'output-limit';
  return run.exitCode === 0 ? 'finished' : 'crashed';
}

/** What to do with the lists not yet run after a process crashed part-way. */
export interface AfterCrash {
  /** Lists (batch indexes) that will most likely crash the same way: run after the others, one process each. */
  readonly defer: ReadonlySet<number>;
  /** Of those, lists not worth a process of their own (e.g. generated ones): not run. */
  readonly skip: ReadonlySet<number>;
}

/**
 * Runs many command lists through as few processes as possible. Each list is prefixed with the
 * protocol's reset command, so one process can answer them all. When a process dies part-way, the
 * lists it never reached are run again in a fresh process, so one crash costs one extra run; with
 * `afterCrash`, lists that would crash the same way go last, so the others share one process.
 */
export async function runBatch(
  model: ReferenceModel,
  execute: Execute,
  lists: readonly (readonly string[])[],
  options: BatchOptions & { readonly afterCrash?: (crashed: Stream, pending: readonly number[]) => AfterCrash } = {},
): Promise<BatchResult> {
  const outcomes: (Outcome | undefined)[] = new Array(lists.length).fill(undefined);
  const runs: ProcessResult[] = [];
  const strayLines: string[] = [];
  const streams: Stream[] = [];
  let strays: StrayLines | undefined;
  let waiting = lists.map((_, i) => i);
  let stopped = 0;
  let crashesAtOnce = 0;
  const limits = options.limits;
  const abandon = (indexes: readonly number[], ending: Outcome['ending']): void => {
    for (const i of indexes) outcomes[i] ??= { lines: [], ending };
  };
  while (waiting.length > 0) {
    if (
      stopped >= MAX_STOPPED ||
      runs.length >= (options.maxRuns ?? Infinity) ||
      crashesAtOnce >= (options.maxCrashesAtOnce ?? Infinity) ||
      (runs.length > 0 && options.hopeless?.(runs[runs.length - 1]!))
    ) {
      abandon(waiting, 'not-run');
      break;
    }
    const pending = waiting;
    const input = pending.map((i) => [model.resetCommand, ...lists[i]!].join('\n')).join('\n') + '\n';
    const run = await execute(input, limits);
    runs.push(run);
    if (run.startError || run.prepareError) {
      abandon(pending, 'crashed');
      break;
    }
    if (run.timedOut || run.outputLimited) stopped += 1;
    const read = answerLinesOf(
      model,
      run,
      pending.map((i) => lists[i]!),
      strayLines,
    );
    const lines = read.lines;
    strays ??= read.strays;
    const stream = streamOf(model, lists, pending, lines, endingOf(run));
    streams.push(stream);
    const { consumed, answeredNothing } = readOutcomes(model, lists, pending, lines, endingOf(run), outcomes);
    if (answeredNothing) {
      // A fresh process did not even answer the reset command: the program fails before answering
      // anything (a syntax error, an import error, a main() that is never called, even with exit code 0),
      // and every further process would fail the same way.
      abandon(waiting, 'not-run');
      waiting = [];
    }
    if (options.until && pending.slice(0, consumed).some((i, k) => options.until!(i, outcomes[i]!, k === 0))) {
      abandon(waiting, 'not-run');
      break;
    }
    waiting = waiting.slice(consumed);
    crashesAtOnce = stream.ending === 'crashed' && consumed <= 1 ? crashesAtOnce + 1 : 0;
    if (waiting.length > 0 && stream.ending === 'crashed' && options.afterCrash) {
      const { defer, skip } = options.afterCrash(stream, waiting);
      abandon(
        waiting.filter((i) => defer.has(i) && skip.has(i)),
        'not-run',
      );
      waiting = [...waiting.filter((i) => !defer.has(i)), ...waiting.filter((i) => defer.has(i) && !skip.has(i))];
    }
  }
  return {
    outcomes: outcomes.map((o) => o ?? { lines: [], ending: 'not-run' }),
    runs,
    strayLines,
    streams,
    ...(strays ? { strays } : {}),
  };
}

/** One process's commands (each list after the reset command), answer lines and ending, with where each list starts. */
function streamOf(
  model: ReferenceModel,
  lists: readonly (readonly string[])[],
  pending: readonly number[],
  lines: readonly string[],
  ending: Outcome['ending'],
): Stream {
  const segments: { list: number; start: number; length: number }[] = [];
  let offset = 0;
  for (const i of pending) {
    segments.push({ list: i, start: offset, length: lists[i]!.length + 1 });
    offset += lists[i]!.length + 1;
  }
  return { commands: pending.flatMap((i) => [model.resetCommand, ...lists[i]!]), lines, ending, segments };
}

/**
 * Each pending list's outcome from one process's answer lines, in order, until the first it did not answer to
 * the end (that one gets what it answered and how the process ended). `consumed` counts the lists read;
 * `answeredNothing`: the process did not answer even the first reset command.
 */
function readOutcomes(
  model: ReferenceModel,
  lists: readonly (readonly string[])[],
  pending: readonly number[],
  lines: readonly string[],
  ending: Outcome['ending'],
  outcomes: (Outcome | undefined)[],
): { consumed: number; answeredNothing: boolean } {
  let at = 0;
  let consumed = 0;
  for (const i of pending) {
    const full = [model.resetCommand, ...lists[i]!];
    const taken: string[] = [];
    let answered = 0;
    for (const command of full) {
      const shape = model.answerShape(command);
      if (shape.kind === 'one') {
        if (at >= lines.length) break;
        taken.push(lines[at++]!);
      } else {
        // A many-line answer at the very end of a dead process cannot be told from "never answered".
        if (at >= lines.length && ending !== 'finished') break;
        const end = manyAnswerEnd(model, shape.line, lines, at);
        taken.push(...lines.slice(at, end));
        at = end;
      }
      answered += 1;
    }
    const answerLines = taken.slice(model.resetAnswer.length);
    consumed += 1;
    if (answered < full.length) {
      outcomes[i] = { lines: answerLines, ending: ending === 'finished' ? 'crashed' : ending };
      return { consumed, answeredNothing: answered === 0 && consumed === 1 };
    }
    outcomes[i] = { lines: answerLines, ending: 'finished' };
  }
  return { consumed, answeredNothing: false };
}

/**
 * The run's stdout lines that are answers. A line no answer of this protocol could look like is either a
 * debug print or a wrong answer (a pick that returns "<b>x</b>"). Which one shows in the count: debug prints
 * make more lines than the reference answers, a wrong answer the same number. Only prints are dropped. A run
 * of a check whose first run decided (`run.strays`) is read as that run was.
 */
function answerLinesOf(
  model: ReferenceModel,
  run: ProcessResult,
  pending: readonly (readonly string[])[],
  strayLines: string[],
): { lines: string[]; strays?: StrayLines } {
  const all = outputLines(run.stdout);
  const isAnswer = (line: string): boolean => model.isAnswerLine(line);
  if (all.every(isAnswer)) return { lines: all };
  const simulations = pending.map((commands) => simulate(model, commands));
  for (const simulation of simulations) noteAnswerForms(model, simulation.steps);
  const expected = simulations.flatMap((simulation) => [...model.resetAnswer, ...simulation.outcome.lines]);
  // An answer is an answer whatever it holds: `a:NaN` or `undefined` where the reference says `a:0` or `b` is a
  // wrong answer in the answers' form, never a debug print to drop (it would hide the mistake it shows).
  const forms = new Set([...expected.map(answerForm), ...manyAnswerForms(model, pending.flat())]);
  const answers = all.filter((line) => isAnswer(line) || forms.has(answerForm(line)));
  if (answers.length === all.length) return { lines: all };
  // A run cut short (crash, hang, flood) printed only part of its answers, so there the counts say nothing;
  // which reading lines up with the reference's answers does. A tie (e.g. a flood after the last answer) is prints.
  const agreement = (lines: readonly string[]): number =>
    lines.reduce((n, line, i) => n + (line === expected[i] ? 1 : 0), 0);
  const dropStrays =
    run.strays !== undefined
      ? run.strays === 'drop'
      : endingOf(run) === 'finished'
        ? Math.abs(answers.length - expected.length) < Math.abs(all.length - expected.length)
        : agreement(answers) >= agreement(all);
  if (!dropStrays) return { lines: all, strays: 'keep' };
  for (const line of all)
    if (!isAnswer(line) && !forms.has(answerForm(line)) && strayLines.length < 20) strayLines.push(line);
  return { lines: answers, strays: 'drop' };
}

/**
 * Whether the model's own reset command leaves something of a list behind for the next, so that a correct
 * program batched in one process answers a list otherwise than alone (a pack whose reset keeps a setting, as a
 * pool reload keeps a cap). Found in the model: after any of these lists, the reset gives another state than
 * it gives from the start. Then lists cannot share a process and be judged as if alone: the candidates of a
 * counterexample must each run fresh, or one that differs only after another's setting would be kept by the
 * shrinker and then not reproduce.
 */
export function resetCarriesOver(model: ReferenceModel, lists: readonly (readonly string[])[]): boolean {
  return lists.some((list) => leavesStateBehind(model, list));
}

/** After this list, the model's reset gives another state than it gives from the start. */
export function leavesStateBehind(model: ReferenceModel, list: readonly string[]): boolean {
  const none = new Set<string>();
  let state = model.initial();
  for (const command of list) {
    const result = model.step(state, command, none);
    if (result.answer.kind === 'crash') return false;
    state = result.state;
  }
  return (
    stateText(model.step(state, model.resetCommand, none).state) !==
    stateText(model.step(model.initial(), model.resetCommand, none).state)
  );
}

/**
 * For lists run one after another in one process: whether each starts, in the model, from the state the reset
 * gives from the start (nothing a list before it left behind), or its first command makes it that state, answered
 * alike (a setting the list sets again before anything reads what the list before left). A list after a crash starts a fresh process.
 */
export function startsClean(model: ReferenceModel, lists: readonly (readonly string[])[]): boolean[] {
  return cleanStarts(model, lists, { untilUnclean: false });
}

/** `startsClean` for every list, walked only up to the first that does not (a round of hundreds of lists). */
export function allStartClean(model: ReferenceModel, lists: readonly (readonly string[])[]): boolean {
  const starts = cleanStarts(model, lists, { untilUnclean: true });
  return starts.length === lists.length && starts.every((clean) => clean);
}

/** How a list that does not start clean may still count: `alike`, where it answers there as it would clean. */
type StartTest = { readonly untilUnclean: boolean; readonly alike?: boolean };

function cleanStarts(model: ReferenceModel, lists: readonly (readonly string[])[], test: StartTest): boolean[] {
  const none = new Set<string>();
  const cleanState = model.step(model.initial(), model.resetCommand, none).state;
  const clean = stateText(cleanState);
  const ways = [none, ...model.mutations.map((m) => new Set([m.id]))];
  const answersAlike = (carried: unknown, list: readonly string[]): boolean =>
    ways.every((on) => answersOf(model, carried, list, on) === answersOf(model, cleanState, list, on));
  let state = model.initial();
  const starts: boolean[] = [];
  for (const list of lists) {
    state = model.step(state, model.resetCommand, none).state;
    const fresh =
      stateText(state) === clean ||
      firstCommandSettles(model, cleanState, state, list[0]) ||
      (test.alike === true && answersAlike(state, list));
    starts.push(fresh);
    if (!fresh && test.untilUnclean) break;
    for (const command of list) {
      const result = model.step(state, command, none);
      if (result.answer.kind === 'crash') {
        state = model.initial();
        break;
      }
      state = result.state;
    }
  }
  return starts;
}

/**
 * For lists run one after another in one process: whether each answers there as it would alone, in the model.
 * It starts clean (startsClean), or what the lists before it left does not change a line it answers: from that
 * state and from the clean one alike, under the reference and under each of the lesson's mutations (a cap kept
 * across the reset, where the list never fills a backend to it).
 */
export function startsAlike(model: ReferenceModel, lists: readonly (readonly string[])[]): boolean[] {
  return cleanStarts(model, lists, { untilUnclean: false, alike: true });
}

/** What the model answers to the list from this state, under these mutations, as one text. */
function answersOf(model: ReferenceModel, from: unknown, list: readonly string[], on: ReadonlySet<string>): string {
  let state = from;
  const answers: string[] = [];
  for (const command of list) {
    const result = model.step(state, command, on);
    if (result.answer.kind !== 'lines') return [...answers, '(crash)'].join('\n');
    answers.push(...result.answer.lines, '');
    state = result.state;
  }
  return answers.join('\n');
}

/** The first command answers alike from both states and leaves the same state after it. */
function firstCommandSettles(
  model: ReferenceModel,
  clean: unknown,
  carried: unknown,
  command: string | undefined,
): boolean {
  if (command === undefined) return false;
  const none = new Set<string>();
  const [fromClean, fromCarried] = [model.step(clean, command, none), model.step(carried, command, none)];
  if (fromClean.answer.kind !== 'lines' || fromCarried.answer.kind !== 'lines') return false;
  const [a, b] = [fromClean.answer.lines, fromCarried.answer.lines];
  return (
    a.length === b.length &&
    a.every((line, i) => line === b[i]) &&
    stateText(fromClean.state) === stateText(fromCarried.state)
  );
}

/**
 * A model state as text, for telling two states apart: bigints, Maps and Sets written out. By type tag, not
 * `instanceof` or prototypes: the engine runs a pack's model in a realm of its own, where a deep-equal library
 * that compares prototypes or `valueOf` calls every two states different (so a reset that keeps nothing was taken
 * for a reset that keeps state). Keys in another order only cost runs: the examples are then run alone.
 */
function stateText(state: unknown): string {
  return (
    JSON.stringify(state, (_key, value: unknown) => {
      if (typeof value === 'bigint') return `${value}n`;
      const tag = Object.prototype.toString.call(value);
      if (tag === '[object Map]') return { map: [...(value as Map<unknown, unknown>)] };
      if (tag === '[object Set]') return { set: [...(value as Set<unknown>)] };
      return value;
    }) ?? 'undefined'
  );
}
