/** The result of a check: the CLI's --json output, and what the extension shows. */
import type { Language } from './schema';

export type ProblemKind =
  | 'timeout'
  | 'crash'
  | 'syntax'
  | 'output-limit'
  | 'stray-output'
  | 'stale-state'
  | 'unimplemented'
  | 'interpreter-missing'
  | 'unrecognised-difference';

export interface Problem {
  readonly kind: ProblemKind;
  readonly message: string;
  /** What the learner can do about it. */
  readonly advice?: string;
  /** 1-based line in the learner's file, when the evidence names one. */
  readonly line?: number | null;
  /** The learner's own error output, trimmed (a traceback, a syntax error). */
  readonly details?: string;
}

export interface TraceRow {
  readonly command: string;
  readonly expected: readonly string[];
  /** null when the program never answered this command (it crashed, hung or stopped). */
  readonly actual: readonly string[] | null;
  /** The reference's bookkeeping after this command. */
  readonly counts: Readonly<Record<string, number>>;
  readonly matches: boolean;
}

export interface Counterexample {
  readonly transcript: string;
  readonly commands: readonly string[];
  readonly expected: readonly string[];
  readonly actual: readonly string[];
  /** Index into `commands` of the first command whose answer differs. */
  readonly divergesAt: number;
  readonly trace: readonly TraceRow[];
  /** How many commands the failing transcript had before shrinking. */
  readonly shrunkFrom: number;
}

export interface NamedMistake {
  readonly id: string;
  readonly title: string;
  readonly function: string;
  readonly line: number | null;
  readonly confidence: 'exact' | 'partial';
  readonly explanation: string;
  readonly hint: string;
  /** The model mutations whose behaviour the program reproduces. */
  readonly mutants: readonly string[];
  /** Hidden transcripts that reveal this mistake. */
  readonly revealedBy: readonly string[];
  readonly question?: string;
  readonly step?: number;
  readonly counterexample: Counterexample | null;
}

export interface TranscriptVerdict {
  readonly name: string;
  readonly passed: boolean;
  /** True when it was never run because an earlier transcript hung; it counts as failed. */
  readonly notRun?: boolean;
  /** Set for failures: the first command (0-based) whose answer differs. */
  readonly divergesAt?: number;
  readonly expected?: readonly string[];
  readonly actual?: readonly string[];
}

export interface CheckReport {
  readonly lesson: string;
  readonly language: Language;
  readonly file: string;
  readonly status: 'pass' | 'fail' | 'error';
  readonly checks: { readonly total: number; readonly passed: number; readonly failed: number; readonly notRun: number };
  readonly transcripts: readonly TranscriptVerdict[];
  readonly mistakes: readonly NamedMistake[];
  readonly problems: readonly Problem[];
  readonly counterexample: Counterexample | null;
  readonly fuzz: { readonly seed: number; readonly transcripts: number; readonly failed: number; readonly notRun: number };
  readonly durationMs: number;
  readonly processRuns: number;
}
