/** What a check is given, and what it hands back on the way (check.ts runs it). */
import type { CheckPhase, Location } from '../report/report';
import type { Language, LessonManifest } from '../pack/schema';
import type { ReferenceModel } from '../model/model';
import type { Transcript } from '../model/transcript';
import type { Execute } from './process';
import type { LocateAttempt } from './locateAttempts';

export interface CheckOptions {
  readonly seed: number;
  readonly fuzzTranscripts?: number;
  readonly fuzzLength?: number;
  readonly timeLimitMs: number;
  readonly outputLimitBytes: number;
  readonly interpreter: string;
  /** How many processes may run side by side (the machine's cores). */
  readonly concurrency?: number;
}

export type { CheckPhase };

export interface CheckInput {
  readonly manifest: LessonManifest;
  readonly model: ReferenceModel;
  readonly transcripts: readonly Transcript[];
  readonly language: Language;
  /** The learner file as shown to the learner, and its base name as tracebacks show it. */
  readonly file: string;
  readonly fileName: string;
  readonly source: string;
  readonly execute: Execute;
  readonly options: CheckOptions;
  readonly clock: () => number;
  /** One shell line that replays this standard input from the learner file's folder. */
  readonly replay?: (stdin: string) => string;
  /**
   * Traces the learner's program on the commands (reset first) and names the lines that ran at the failing
   * command and not at the right ones of its kind; each attempt costs a process run, and the next is tried
   * only while no line stands out. Undefined when tracing is not possible.
   */
  readonly locate?: (attempts: readonly LocateAttempt[]) => Promise<Located>;
  /**
   * Starts the traced run of an attempt now, beside the confirming run of the same commands, for `locate` to take
   * when it is asked for that attempt: the check counts it as a run when it asks. Given only with `locate`.
   */
  readonly traceAhead?: (attempt: LocateAttempt) => void;
  readonly onPhase?: (phase: CheckPhase) => void;
  /** The whole first run's input and the exact stdout of a program that passes it (see src/node/check/fastPass.ts). */
  readonly onBatch?: (batch: PassingBatch) => void;
}

/** Where a traced run says the mistake is, and which of the attempts it is from (the first when absent). */
export interface Located {
  readonly location?: Location;
  readonly attempt?: number;
  readonly runs: number;
}

export interface PassingBatch {
  readonly input: string;
  readonly expectedStdout: string;
  readonly transcripts: readonly { readonly name: string; readonly description: string }[];
  readonly fuzz: { readonly seed: number; readonly transcripts: number };
}
