/**
 * What the step-by-step walk (stepwise.ts) says of one command: where it is in the evidence, what the program did
 * there, and, where it differs, how in the learner's words.
 */

/** A place in the evidence: a command of a stream, and the transcript (list) it belongs to. */
export interface StepRef {
  readonly stream: number;
  /** Index into the stream's commands. */
  readonly index: number;
  /** The batch list (case) the command belongs to, and the command's index within that list (reset excluded). */
  readonly list: number;
  readonly listIndex: number;
  readonly command: string;
}

export interface UnexplainedStep {
  readonly step: StepRef;
  /** What the program did there, compared with the reference, in the learner's words. */
  readonly sentence: string;
  /** What differs there is the form of the answer's lines (`a=1` for `a:1`), not what they say. */
  readonly form?: true;
}

/** What the program did at a command: answered these lines, or died there (`ended`: it exited normally without answering). */
export type ProgramAnswer =
  { readonly kind: 'lines'; readonly lines: readonly string[] } | { readonly kind: 'crash'; readonly ended?: boolean };
