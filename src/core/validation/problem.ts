/** One thing `validate` found wrong with a pack, in the author's terms: what, where, and what to do. */
export type ValidationArea =
  'schema' | 'files' | 'model' | 'transcripts' | 'starters' | 'mistakes' | 'read-order' | 'questions' | 'scenarios';

export interface ValidationProblem {
  readonly severity: 'error' | 'warning';
  readonly area: ValidationArea;
  /** Relative to the pack folder. */
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
  /** What the author can do about it. */
  readonly advice?: string;
  /** A transcript, in the transcript file format, that the author can paste into a transcript file. */
  readonly proposal?: string;
  /** Set on problems a caller acts on by kind: `bundle` refuses a pack whose questions have no answer hashes. */
  readonly code?: 'missing-answers' | 'cheap-answer-hash';
}
