/**
 * A reference model is the executable truth of a lesson's protocol: a pure state machine that answers
 * one command at a time. Mutations are named, switchable mistakes injected into the same machine, so
 * a mutant is "the reference with these mutation ids on", and pairs of mistakes come for free.
 *
 * Models live in the engine (not in packs) so that no pack ever runs code in the editor's process.
 */
export type Answer =
  | { readonly kind: 'lines'; readonly lines: readonly string[] }
  /** The mutant would crash here (an uncaught error), printing nothing for this command. */
  | { readonly kind: 'crash'; readonly error: string };

export interface StepResult<S> {
  readonly state: S;
  readonly answer: Answer;
}

export interface MutationInfo {
  readonly id: string;
  readonly description: string;
}

/** How to cut a stream of answer lines back into per-command answers. */
export type AnswerShape =
  | { readonly kind: 'one' }
  /** Zero or more lines, each matching `line`. */
  | { readonly kind: 'many'; readonly line: RegExp };

export interface Random {
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
}

export interface ReferenceModel<S = unknown> {
  readonly id: string;
  readonly description: string;
  readonly mutations: readonly MutationInfo[];
  /**
   * A command that puts any program back into the initial state and answers exactly `resetAnswer`.
   * It lets the engine run many transcripts in one process.
   */
  readonly resetCommand: string;
  readonly resetAnswer: readonly string[];
  initial(): S;
  step(state: S, command: string, mutations: ReadonlySet<string>): StepResult<S>;
  /** The visible bookkeeping after a command, for trace tables (e.g. in-flight counts). */
  snapshot(state: S): Readonly<Record<string, number>>;
  answerShape(command: string): AnswerShape;
  /** True when a stdout line could be an answer of this protocol at all; others are stray prints. */
  isAnswerLine(line: string): boolean;
  /** One random transcript's commands, for fuzzing. Deterministic for a given Random. */
  generate(random: Random, length: number): string[];
}
