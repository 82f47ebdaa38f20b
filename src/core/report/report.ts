/** The result of a check: the CLI's --json output, and what the extension shows. */
import type { Language } from '../pack/schema';

export type ProblemKind =
  | 'timeout'
  | 'crash'
  | 'syntax'
  | 'output-limit'
  | 'stray-output'
  | 'stale-state'
  | 'unimplemented'
  | 'interpreter-missing'
  | 'unrecognised-difference'
  /** Every run ended normally without one line on stdout: no answer to anything (a main() never called, a thread not waited for). */
  | 'no-answers'
  /** Answers end in `\r` (a `\r\n` line ending) or trailing spaces; the check compares them without. */
  | 'line-endings'
  /** The program answers differently on two runs of the same commands (an unseeded random generator). */
  | 'nondeterministic'
  /** The lesson's own reference model failed (threw, looped, ran out of memory): the pack's fault, not the learner's. */
  | 'model-error';

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
  /** The reference's bookkeeping after this command (lessons without an observe command show only this). */
  readonly counts: Readonly<Record<string, number | string>>;
  readonly matches: boolean;
  /**
   * The program's own answer to the lesson's observe command (a command that lists the counts) run right after this command:
   * the learner's counts. null when it gave none; absent when the lesson has no observe command.
   */
  readonly observed?: readonly string[] | null;
  /** The reference's answer to the observe command at the same point: what the counts should be. */
  readonly shouldBe?: readonly string[];
  /** The program's full answer when `actual` had to be cut for display (a line of more than about 80 characters). */
  readonly details?: string;
}

/** How to run a counterexample by hand, with the learner's own prints and debugger. */
export interface Replay {
  /** The exact standard input (reset command first). */
  readonly stdin: string;
  /** One POSIX shell line that replays it from the learner file's folder, e.g. `printf '%s\n' 'START a b' CHOOSE | python3 main.py`. */
  readonly shell: string;
}

/** A command sent before every transcript, as the trace shows it. */
export interface PreambleRow {
  readonly command: string;
  readonly expected: readonly string[];
  readonly counts: Readonly<Record<string, number | string>>;
}

export interface Counterexample {
  /** The transcript it was shrunk from: a hidden transcript's name, or `generated-N`. */
  readonly transcript: string;
  /** The same, in the learner's words: the hidden transcript's description, or "a random test (#24)". */
  readonly label: string;
  readonly commands: readonly string[];
  readonly expected: readonly string[];
  readonly actual: readonly string[];
  /** Index into `commands` of the first command whose answer differs. */
  readonly divergesAt: number;
  readonly trace: readonly TraceRow[];
  /** How many commands the failing transcript had before shrinking. */
  readonly shrunkFrom: number;
  /** Set when the trace rows carry the program's own counts (`observed`) from this command. */
  readonly observeCommand?: string;
  /**
   * What every run sends before `commands` (the model's reset command), with the reference's answer and
   * counts: shown as row 0 of the trace, so a shrunk example reads on its own.
   */
  readonly preamble?: readonly PreambleRow[];
  /** The "yours" column comes from a fresh process run of exactly these commands, which failed this way. */
  readonly reproduced: boolean;
  readonly replay?: Replay;
}

/** Where in the learner's file a finding points: the lines that ran when the program went wrong. */
export interface Location {
  /** 1-based lines, most suspicious first. */
  readonly lines: readonly number[];
  /** The function (or method) those lines are in, when known. */
  readonly function: string | null;
  /** Why these lines, in words: "these lines ran when CHOOSE answered alpha, and not at the other CHOOSE commands, which were right". */
  readonly reason: string;
  /**
   * false when no line told the failing command from the right ones: `lines` are then the lines that ran
   * at that kind of command and at the fewest others (its method's body, say), and `reason` says so.
   * Absent (the usual case) when the lines ran where the program went wrong and not where it was right.
   */
  readonly telling?: false;
  /**
   * Which run the reason's command is from: a row of the mistake's own table (1-based), or another
   * transcript (by name and description), so the note never seems to quote the table when it does not.
   */
  readonly at?:
    | { readonly table: true; readonly row: number }
    | { readonly table: false; readonly transcript: string; readonly label: string };
}

/** What the step-by-step diagnosis saw of one mistake. */
export interface MistakeEvidence {
  /** Commands whose answer shows this mistake, over every transcript that was run. */
  readonly steps: number;
  /** Transcripts (hidden or generated) with at least one such command. */
  readonly transcripts: number;
  /** The first such command: the transcript (name and label), the command's 0-based index, and the command. */
  readonly first: {
    readonly transcript: string;
    readonly label: string;
    readonly index: number;
    readonly command: string;
  } | null;
}

export interface NamedMistake {
  readonly id: string;
  readonly title: string;
  readonly function: string;
  readonly line: number | null;
  /**
   * `exact`: a mutant with this mistake answers every transcript exactly as the program did.
   * `likely`: the mistake explains the program's answers step by step, but not the whole program.
   */
  readonly confidence: 'exact' | 'likely';
  readonly explanation: string;
  readonly hint: string;
  /** The model mutations whose behaviour the program reproduces. */
  readonly mutants: readonly string[];
  /** The form of the mistake the program shows, when the lesson words it apart (e.g. an unsigned counter's wrap-around). */
  readonly variant?: { readonly mutant: string; readonly title?: string; readonly explanation: string };
  /** For tie-breaking mistakes: the program's ties differ between two runs (`random`) or carry over a reset (`rotating`). */
  readonly behaviour?: 'random' | 'rotating';
  readonly evidence: MistakeEvidence;
  /** Hidden transcripts that reveal this mistake. */
  readonly revealedBy: readonly string[];
  readonly question?: string;
  readonly step?: number;
  readonly counterexample: Counterexample | null;
  /** The lines that ran when the program went wrong, when the learner's process could be traced. */
  readonly location?: Location;
}

export interface TranscriptVerdict {
  readonly name: string;
  /** The transcript's description, in the learner's words. */
  readonly description: string;
  readonly passed: boolean;
  /** True when it was never run because an earlier transcript hung; it counts as failed. */
  readonly notRun?: boolean;
  /** Set for failures: the first command (0-based) whose answer differs. */
  readonly divergesAt?: number;
  readonly expected?: readonly string[];
  readonly actual?: readonly string[];
}

/** What the extra runs of a failing transcript showed about the program itself. */
export interface Determinism {
  /** Two fresh processes on the same commands: the same answers, or not. */
  readonly fresh: 'same' | 'different' | 'unknown';
  /** The same commands twice in one process, each after the reset command: the same answers, or not. */
  readonly afterReset: 'same' | 'different' | 'unknown';
  /** Process runs these probes cost. */
  readonly runs: number;
}

/** A check's phases, in the order it goes through them (src/core/check/check.ts). */
export const CHECK_PHASES = ['run', 'probe', 'diagnose', 'confirm', 'locate'] as const;
export type CheckPhase = (typeof CHECK_PHASES)[number];

export interface CheckReport {
  readonly lesson: string;
  readonly language: Language;
  readonly file: string;
  readonly status: 'pass' | 'fail' | 'error';
  readonly checks: {
    readonly total: number;
    readonly passed: number;
    readonly failed: number;
    readonly notRun: number;
  };
  readonly transcripts: readonly TranscriptVerdict[];
  readonly mistakes: readonly NamedMistake[];
  readonly problems: readonly Problem[];
  readonly counterexample: Counterexample | null;
  readonly fuzz: {
    readonly seed: number;
    readonly transcripts: number;
    readonly failed: number;
    readonly notRun: number;
    /** More random tests drawn after these to settle the verdict of a program that chooses at random. */
    readonly settling?: number;
  };
  readonly determinism?: Determinism;
  /** How the learner's program was contained: a sandbox (own PID namespace, no view of the pack) or its own process group. */
  readonly containment?: 'sandbox' | 'process-group';
  readonly durationMs: number;
  /** Where the check's time went, in ms by phase (src/core/check/check.ts); a phase it did not need is absent. */
  readonly timings?: Readonly<Partial<Record<CheckPhase, number>>>;
  readonly processRuns: number;
  /** The process runs by the phase that started them (stall retries with their run); a phase that ran none is absent. */
  readonly runsByPhase?: Readonly<Partial<Record<CheckPhase, number>>>;
}
