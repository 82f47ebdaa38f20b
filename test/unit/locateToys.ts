/**
 * A one-count toy lesson for the tests of what the check traces for a named mistake (core `locateAttempts`):
 * `SET n` sets the count (`SET 0` is the reset), `INC` adds one, `GET` prints the count, `LIST` prints one `x`
 * per count (a many-line answer, empty at zero) and `BAD` is a command the reference itself stops at. Its
 * mutations are the mistakes a learner's program makes; a FAKE program is this model with some of them on,
 * so its output, and the streams and counterexamples built from it, are what a real run would give.
 */
import type { Stream } from '../../src/core/check/batch';
import type { Case } from '../../src/core/check/cases';
import { buildCounterexample } from '../../src/core/check/counterexample';
import type { Finding } from '../../src/core/diagnosis/diagnose';
import type { StepRef } from '../../src/core/diagnosis/stepwise';
import type { StepResult, ReferenceModel } from '../../src/core/model/model';
import { simulate, type Outcome } from '../../src/core/model/simulate';
import type { Counterexample } from '../../src/core/report/report';

/**
 * Mistakes: `set-off` (SET sets one more: made at the reset already), `double` (INC adds two: shows only at a
 * later GET), `get-off` (GET prints one more: shows where it is made), `list-extra` (LIST prints one `x` too
 * many), `get-crash` (the program dies at GET once the count is above zero), `zero-inc` (INC from zero says
 * `OK!` and counts two: wrong where it is made, and in the counts from there), `list-short` (LIST prints one `x`
 * too few), `reset-loud` (the reset `SET 0` says `OK!`), `lenient` (the program answers `OK` to a command the
 * reference stops at), `get-any` (a free choice: GET prints the count or one more, as a random program may).
 */
export const tally: ReferenceModel<number> = {
  id: 'tally',
  description: 'one count, set, moved and read',
  mutations: [
    'set-off',
    'double',
    'get-off',
    'list-extra',
    'get-crash',
    'zero-inc',
    'list-short',
    'reset-loud',
    'lenient',
    'get-any',
  ].map((id) => ({ id, description: id, ...(id === 'get-any' ? { nondeterministic: true } : {}) })),
  resetCommand: 'SET 0',
  resetAnswer: ['OK'],
  initial: () => 0,
  step: (count, command, on): StepResult<number> => {
    const ok = (state: number): StepResult<number> => ({ state, answer: { kind: 'lines', lines: ['OK'] } });
    const [verb, arg] = command.trim().split(/\s+/);
    if (command === 'SET 0' && on.has('reset-loud')) return { state: 0, answer: { kind: 'lines', lines: ['OK!'] } };
    if (verb === 'SET') return ok(Number(arg) + (on.has('set-off') ? 1 : 0));
    if (verb === 'INC' && on.has('zero-inc') && count === 0)
      return { state: 2, answer: { kind: 'lines', lines: ['OK!'] } };
    if (verb === 'INC') return ok(count + (on.has('double') ? 2 : 1));
    if (verb === 'GET' && on.has('get-crash') && count > 0)
      return { state: count, answer: { kind: 'crash', error: 'GET fails' } };
    if (verb === 'GET' && on.has('get-any'))
      return { state: count, answer: { kind: 'lines', lines: [String(count)] }, alternatives: [[String(count + 1)]] };
    if (verb === 'GET')
      return { state: count, answer: { kind: 'lines', lines: [String(count + (on.has('get-off') ? 1 : 0))] } };
    if (verb === 'LIST')
      return {
        state: count,
        answer: {
          kind: 'lines',
          lines: Array.from(
            { length: Math.max(0, count + (on.has('list-extra') ? 1 : 0) - (on.has('list-short') ? 1 : 0)) },
            () => 'x',
          ),
        },
      };
    return on.has('lenient')
      ? ok(count)
      : { state: count, answer: { kind: 'crash', error: `${command}: no such command` } };
  },
  snapshot: (count) => ({ count }),
  answerShape: (command) => (command.startsWith('LIST') ? { kind: 'many', line: /^x$/ } : { kind: 'one' }),
  isAnswerLine: () => true,
  generate: () => [],
};

export const model = tally as ReferenceModel;

/** What a FAKE program with these mistakes prints for these commands, and how it ends. */
export const runOf = (commands: readonly string[], ...on: string[]): Outcome =>
  simulate(model, commands, new Set(on)).outcome;

/** The reproduced counterexample the confirm phase shows for a FAKE program with these mistakes. */
export function exampleOf(commands: readonly string[], ...on: string[]): Counterexample {
  return buildCounterexample(
    model,
    { transcript: 'generated-3', label: 'a random test (#3)', shrunkFrom: 9, reproduced: true },
    commands,
    runOf(commands, ...on),
  );
}

/**
 * One process run of a FAKE program over these transcripts (each after a reset), as the batch runner records
 * it; `ending` overrides how it ended (a time or output limit), `first` is the batch index of the first list.
 */
export function streamOf(
  lists: readonly (readonly string[])[],
  on: readonly string[],
  ending?: Stream['ending'],
  first = 0,
): Stream {
  const commands = lists.flatMap((list) => [model.resetCommand, ...list]);
  const run = runOf(commands, ...on);
  let start = 0;
  const segments = lists.map((list, i) => {
    const segment = { list: first + i, start, length: list.length + 1 };
    start += segment.length;
    return segment;
  });
  return { commands, lines: run.lines, ending: ending ?? run.ending, segments };
}

/** The cases of a check, named as generated transcripts are. */
export function casesOf(lists: readonly (readonly string[])[]): Case[] {
  return lists.map((commands, i) => ({
    name: `generated-${i + 1}`,
    label: `a random test (#${i + 1})`,
    commands,
    expected: runOf([model.resetCommand, ...commands]),
    hidden: false,
  }));
}

/** The differing command at `index` of stream number `stream` (of `streams`), as a diagnosis refers to it. */
export function stepAt(streams: readonly Stream[], stream: number, index: number): StepRef {
  const segment = streams[stream]?.segments.find((s) => index >= s.start && index < s.start + s.length);
  return {
    stream,
    index,
    list: segment?.list ?? -1,
    listIndex: segment ? index - segment.start - 1 : -1,
    command: streams[stream]?.commands[index] ?? '',
  };
}

/** A finding of one mutation, seen at these differing commands. */
export function findingOf(mutation: string, steps: readonly StepRef[], nondeterministic = false): Finding {
  return {
    mistake: mutation,
    mutation,
    mutations: [mutation],
    confidence: 'exact',
    nondeterministic,
    steps,
    stepCount: steps.length,
  };
}
