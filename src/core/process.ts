/** What the Node runner reports about one run of a learner program; core only reads it. */
export interface ProcessResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly outputLimited: boolean;
  /** The program could not be started at all (e.g. ENOENT for a missing interpreter). */
  readonly startError?: { readonly code: string; readonly command: string };
  /** The program could not even be prepared (e.g. a TypeScript syntax error found while transpiling). */
  readonly prepareError?: { readonly message: string; readonly line: number | null };
  readonly durationMs: number;
}

/** Per-run overrides of the check's limits. */
export interface RunLimits {
  /** A smaller output cap, e.g. once a program is known to flood. */
  readonly outputLimitBytes?: number;
}

/** Runs the learner program once with this stdin. Supplied by the Node layer. */
export type Execute = (input: string, limits?: RunLimits) => Promise<ProcessResult>;
