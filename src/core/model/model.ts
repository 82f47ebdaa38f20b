/**
 * A reference model is the executable truth of a lesson's protocol: a pure state machine that answers
 * one command at a time. Mutations are named, switchable mistakes injected into the same machine, so
 * a mutant is "the reference with these mutation ids on", and pairs of mistakes come for free.
 *
 * A model ships inside its lesson pack (`"model": "model/model.ts"` in lesson.json), so the engine knows no
 * protocol of its own. docs/authoring.md documents this interface for pack authors with a worked example.
 */
export type Answer =
  | { readonly kind: 'lines'; readonly lines: readonly string[] }
  /** The mutant would crash here (an uncaught error), printing nothing for this command. */
  | { readonly kind: 'crash'; readonly error: string };

export interface StepResult<S> {
  readonly state: S;
  readonly answer: Answer;
  /**
   * Other answers that are just as right under these mutations: set by a nondeterministic mutation such as
   * "ties go to any of the tied". The engine then accepts any of them at this step.
   */
  readonly alternatives?: readonly (readonly string[])[];
}

export interface MutationInfo {
  readonly id: string;
  readonly description: string;
  /**
   * The mutation allows several answers (its `step` returns `alternatives`), like a program that breaks ties
   * at random. It can only be matched step by step, never as a whole program.
   */
  readonly nondeterministic?: boolean;
}

/** How to cut a stream of answer lines back into per-command answers. */
export type AnswerShape =
  | { readonly kind: 'one' }
  /** Zero or more lines, each matching `line`. */
  | { readonly kind: 'many'; readonly line: RegExp };

/**
 * The kind of one argument of a command: `name` (one word), `number` (a whole number: digits only) or `names`
 * (zero or more words; only as the last argument).
 */
export type ArgumentKind = 'name' | 'number' | 'names';

/** Each command's first word → the kinds of its arguments, in order: `{ SETUP: ['names'], FINISHED: ['name'], CHOOSE: [] }`. */
export type CommandGrammar = Readonly<Record<string, readonly ArgumentKind[]>>;

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
  /**
   * A read-only command that prints the program's bookkeeping (a command that lists the counts). The engine runs it after
   * every step of a confirmed counterexample to show the learner's own counts beside the reference's.
   */
  readonly observeCommand?: string;
  /**
   * The protocol's commands and their arguments. With it, generated transcripts keep only commands inside it,
   * shrinking never drops an argument a command needs (a learner is never shown `LIMIT 1` for `LIMIT 1 5`),
   * and validate checks every hidden transcript against it. Without it, commands are not checked.
   */
  readonly grammar?: CommandGrammar;
  initial(): S;
  /**
   * Answers one command. `observed` is the learner program's own answer to it, when known: the model then
   * follows it wherever it tells something about the program's state (the choice it made, the counts it
   * printed), under these same mutations, and returns the state that follows. That is how a
   * diagnosis stays in step with a program after their first difference. The returned `answer` is always the
   * model's own.
   */
  step(state: S, command: string, mutations: ReadonlySet<string>, observed?: readonly string[]): StepResult<S>;
  /** The visible bookkeeping after a command, for trace tables of lessons without an observe command. */
  snapshot(state: S): Readonly<Record<string, number | string>>;
  answerShape(command: string): AnswerShape;
  /** True when a stdout line could be an answer of this protocol at all; others are stray prints. */
  isAnswerLine(line: string): boolean;
  /** One random transcript's commands, for fuzzing. Deterministic for a given Random. */
  generate(random: Random, length: number): string[];
  /**
   * One sentence, in the learner's terms, on how the program's answer differs from the reference's at a
   * step no known mistake explains, e.g. "CHOOSE took c with 1 in flight while a had 0".
   */
  describeDifference?(state: S, command: string, expected: readonly string[], actual: readonly string[]): string;
}
