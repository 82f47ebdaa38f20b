/**
 * Toy lessons for the tests of diagnose() (src/core/diagnosis/diagnose.ts), built per test: a reference model
 * whose commands answer one line each, written as a table of what each mutation changes (a command the table
 * leaves alone answers itself in lower case), and the evidence of a program given as one line per command, one
 * process per list. Shared by the diagnoseMutants tests.
 */
import type { MistakeMutants } from '../../src/core/diagnosis/diagnose';
import type { EvidenceStream, StepRef } from '../../src/core/diagnosis/stepwise';
import type { ReferenceModel } from '../../src/core/model/model';
import { toyModel } from './validationToys';

/** One line, or one line with others just as right (what a nondeterministic mutation answers). */
export type TableAnswer = string | { readonly line: string; readonly also: readonly string[] };

export interface TableSpec {
  /** Mutation ids, in the model's order. */
  readonly mutations: readonly string[];
  /** Those of them that are nondeterministic. */
  readonly free?: readonly string[];
  /** The answer to `command` under `on`; undefined for the plain answer (the command trimmed, in lower case). */
  readonly answer: (command: string, on: ReadonlySet<string>) => TableAnswer | undefined;
}

/** The plain answer: the command trimmed, in lower case. */
export const plain = (command: string): string => command.trim().toLowerCase();

/** The toy model "table": RESET answers OK, every other command one line (`spec.answer`, else `plain`). */
export function tableModel(spec: TableSpec): ReferenceModel {
  const free = new Set(spec.free ?? []);
  const model = toyModel({
    mutations: spec.mutations.map((id) => ({
      id,
      description: id,
      ...(free.has(id) ? { nondeterministic: true } : {}),
    })),
    answer: (command, on) => {
      const said = spec.answer(command, on) ?? plain(command);
      return typeof said === 'string' ? [said] : { lines: [said.line], alternatives: said.also.map((line) => [line]) };
    },
  });
  return { ...model, answerShape: () => ({ kind: 'one' }) };
}

/** What the table model answers to `command` with the mutations `on` (its own first answer). */
export const answerOf =
  (model: ReferenceModel, ...on: string[]) =>
  (command: string): string => {
    const step = model.step(model.initial(), command, new Set(on));
    return step.answer.kind === 'lines' ? step.answer.lines[0]! : 'crashed';
  };

/** The evidence of a program that answers each command with `program(command)`: each list after RESET, in a process of its own. */
export function streamsOf(
  lists: readonly (readonly string[])[],
  program: (command: string) => string,
): EvidenceStream[] {
  return lists.map((list) => {
    const commands = ['RESET', ...list];
    return {
      commands,
      lines: ['OK', ...list.map(program)],
      ending: 'finished',
      segments: [{ list: 0, start: 0, length: commands.length }],
    };
  });
}

/** The lesson's mistakes: each id with its mutations, in the order given. */
export const mistakesOf = (groups: Record<string, readonly string[]>): MistakeMutants[] =>
  Object.entries(groups).map(([id, mutants]) => ({ id, mutants }));

/** The commands of some steps, in their order. */
export const commandsOf = (steps: readonly Pick<StepRef, 'command'>[]): string[] => steps.map((s) => s.command);
