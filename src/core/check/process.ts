/** What the Node runner reports about one run of a learner program; core only reads it. */
export interface ProcessResult {
  readonly stdout: string;
  /** The program's error output; a long one keeps its head and its tail, with a line saying how much was left out. */
  readonly stderr: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Stopped for time: the total limit ran out, or the program stalled (see `stalled`). */
  readonly timedOut: boolean;
  /**
   * Stopped because it stopped answering: all its input was written and it printed nothing on stdout for
   * about a second while still running (it spins, sleeps or waits for input that will not come). A stalled
   * run is also `timedOut`, so whatever only knows `timedOut` treats it as the hang it is.
   */
  readonly stalled?: boolean;
  /** How long a stalled run had printed nothing when it was stopped, in ms. */
  readonly silentMs?: number;
  /**
   * The stall was charged in the program's CPU time alone: it computed for the whole stall limit without a word.
   * Waiting for a core is never charged, so no load on the machine causes that; a stall charged by the clock
   * (the program slept) might be the machine's doing, and is run again before it is believed.
   */
  readonly stalledOnCpu?: boolean;
  /** The time limit that applied to this run (the runner may raise it with the number of commands), in ms. */
  readonly timeLimitMs?: number;
  /** Stopped because its stdout went past the output limit (stderr has its own cap and never stops it). */
  readonly outputLimited: boolean;
  /** It failed because an allocation failed under the memory limit (MemoryError, heap out of memory). */
  readonly memoryExceeded?: boolean;
  /** The memory limit it ran under, in MiB, when it ran out of memory. */
  readonly memoryLimitMiB?: number;
  /** The program could not be started at all (e.g. ENOENT for a missing interpreter). */
  readonly startError?: { readonly code: string; readonly command: string };
  /** The program could not even be prepared (e.g. a TypeScript syntax error found while transpiling). */
  readonly prepareError?: { readonly message: string; readonly line: number | null };
  readonly durationMs: number;
  /**
   * Set by the check, not the runner: whether the check's first run took this program's lines that are not
   * answers for prints to drop or for answers to keep. Every later run of the check reads its lines so, where its
   * own line counts (a short list, a run cut short) could tell the other way.
   */
  readonly strays?: StrayLines;
}

/** What the lines of a run that are not in any answer's form are: prints to drop, or answers to keep. */
export type StrayLines = 'drop' | 'keep';

/** Per-run overrides of the check's limits. */
export interface RunLimits {
  /** A smaller output cap, e.g. once a program is known to flood. */
  readonly outputLimitBytes?: number;
  /** A longer silence before the run counts as stalled (the retry of a run that printed nothing at all). */
  readonly stallMs?: number;
}

/** Runs the learner program once with this stdin. Supplied by the Node layer. */
export type Execute = (input: string, limits?: RunLimits) => Promise<ProcessResult>;
