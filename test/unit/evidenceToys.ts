/**
 * A one-count toy lesson for the tests of claims against evidence (src/core/diagnosis/evidence.ts), built per
 * test: a reference model whose commands answer and move one count as the test writes them, with COUNT as its
 * observe command (it prints `count N`, and from the count a program printed the model goes on, as a lesson's
 * observe command does), and the counterexample the confirm phase would show for a program that answers like
 * the model with some mutations on. Shared by the evidenceMutants and evidenceVetMutants tests.
 */
import type { MutationInfo, ReferenceModel } from '../../src/core/model/model';
import type { Counterexample } from '../../src/core/report/report';
import { buildCounterexample, splitObserved, withObserve } from '../../src/core/check/counterexample';
import { simulate } from '../../src/core/model/simulate';
import type { ToyAnswer } from './validationToys';

/** The toy's observe command. */
export const OBSERVE = 'COUNT';

/** What COUNT prints for a count. */
export const countLine = (n: number): string => `count ${n}`;

export interface CounterSpec {
  /** Mutation ids (deterministic) or whole MutationInfos (a nondeterministic one): only vetFindings reads them. */
  readonly mutations?: readonly (string | MutationInfo)[];
  /** What a command answers under `on` with the count at `count`; undefined for the plain answer (COUNT its count line, others OK). */
  readonly answer?: (command: string, on: ReadonlySet<string>, count: number) => ToyAnswer | undefined;
  /** The count after a command other than COUNT; unchanged unless given. */
  readonly next?: (command: string, on: ReadonlySet<string>, count: number) => number;
}

/** The toy "counter": commands starting with LIST answer zero or more lowercase words, every other command one line. */
export function counter(spec: CounterSpec): ReferenceModel {
  const model: ReferenceModel<number> = {
    id: 'counter',
    description: 'one count, moved and read as each test says',
    mutations: (spec.mutations ?? []).map((m) => (typeof m === 'string' ? { id: m, description: m } : m)),
    resetCommand: 'RESET',
    resetAnswer: ['OK'],
    observeCommand: OBSERVE,
    initial: () => 0,
    step: (count, command, on, observed) => {
      if (command === 'RESET') return { state: 0, answer: { kind: 'lines', lines: ['OK'] } };
      const said = spec.answer?.(command, on, count) ?? (command === OBSERVE ? [countLine(count)] : ['OK']);
      // The program printed its own count: from here on, that is the count.
      const printed = command === OBSERVE ? /^count (-?\d+)$/.exec(observed?.[0] ?? '') : null;
      const state =
        command === OBSERVE ? (printed ? Number(printed[1]) : count) : (spec.next?.(command, on, count) ?? count);
      if (said === 'crash') return { state, answer: { kind: 'crash', error: `${command} fails` } };
      if ('alternatives' in said)
        return { state, answer: { kind: 'lines', lines: said.lines }, alternatives: said.alternatives };
      return { state, answer: { kind: 'lines', lines: said as readonly string[] } };
    },
    snapshot: (count) => ({ count }),
    answerShape: (command) => (command.startsWith('LIST') ? { kind: 'many', line: /^[a-z]+$/ } : { kind: 'one' }),
    isAnswerLine: () => true,
    generate: (random, length) => Array.from({ length }, () => random.pick(['INC'])),
  };
  return model as ReferenceModel;
}

/** The same lesson without an observe command: its traces carry no counts of the program's. */
export const blind = (model: ReferenceModel): ReferenceModel => ({ ...model, observeCommand: undefined });

/**
 * The trace of a program that answers like `model` with `on` (mutations it may have that no finding names
 * included), reproduced, with the program's own counts after every command when the model has an observe command.
 */
export function traceOf(model: ReferenceModel, commands: readonly string[], ...on: string[]): Counterexample {
  const run = (sent: readonly string[]) => simulate(model, sent, new Set(on)).outcome;
  const plain = run(commands);
  const observed = splitObserved(model, commands, plain, run(withObserve(model, commands)));
  return buildCounterexample(
    model,
    { transcript: 'generated-1', label: 'a random test (#1)', shrunkFrom: commands.length, reproduced: true },
    commands,
    plain,
    observed,
  );
}
