/**
 * What the probe compares (probe.ts, probeMore.ts): two runs' answers to one transcript, command by command, and
 * the fresh runs that may tell a program that draws at random from one that has a rule.
 */
import { runBatch, type Stream } from './batch';
import type { Case } from './cases';
import type { ReferenceModel } from '../model/model';
import type { Execute } from './process';
import type { Determinism } from '../report/report';
import { segmentAnswers } from '../model/segment';
import type { Outcome } from '../model/simulate';
import { sameOutcome } from '../model/simulate';
import type { UnaskedLines } from './unasked';

export type BatchRun = Awaited<ReturnType<typeof runBatch>>;

/** Fresh runs that must all agree with the first before a difference across the reset is called leaky state. */
const MORE_FRESH_RUNS = 4;

export interface AnswerDifference {
  /** 0-based index of the command in the probed transcript, and the command. */
  readonly index: number;
  readonly command: string;
  readonly first: readonly string[] | null;
  readonly second: readonly string[] | null;
  /** For a difference across the reset: seen running it twice, or running it after the other transcripts. */
  readonly seen?: 'twice' | 'after-others';
  /** The transcript it was seen in, when not the probed one (a replay of the whole check's batch). */
  readonly transcript?: string;
}

/** The check's first batch, when it ran in one process: its lists and what each answered. */
export interface MainBatch {
  readonly cases: readonly Case[];
  readonly outcomes: readonly Outcome[];
}

export interface Probe {
  readonly probed: Case;
  readonly determinism: Determinism;
  /** The probe runs as evidence streams, their lists all standing for `probed`. */
  readonly streams: readonly Stream[];
  /** The probed transcript run alone in a fresh process. */
  readonly alone: Outcome;
  readonly freshDifference?: AnswerDifference;
  readonly resetDifference?: AnswerDifference;
  /** Two fresh runs printed a different number of lines no command asks for (a writer of its own on stdout). */
  readonly unasked?: UnaskedLines;
  /**
   * What the run with more of those lines answered, the lines in place: the trace to show with them, since the
   * run the probe keeps (`alone`) may have answered every command right.
   */
  readonly unaskedShown?: Outcome;
  /** Lists asked to ride in the batch replay's process after its own (probeMore.ts), and what they answered. */
  readonly ahead?: RanAhead;
}

/**
 * Lists the confirm phase will run first (each finding's first candidates with their observed twins), run at the
 * end of the probe's batch replay: where the probe then finds the program deterministic and keeping nothing
 * across the reset the model does not, they ran there as if alone, and the confirm phase needs no process of its
 * own for them.
 */
export interface RanAhead {
  readonly lists: readonly (readonly string[])[];
  readonly outcomes: readonly Outcome[];
  /** The process answered every list before them, and the model says each of them started clean there. */
  readonly asIfAlone: boolean;
}

export function firstDifference(
  model: ReferenceModel,
  commands: readonly string[],
  a: Outcome,
  b: Outcome,
): AnswerDifference | undefined {
  if (sameOutcome(a, b)) return undefined;
  const x = segmentAnswers(model, commands, a.lines, a.ending === 'finished');
  const y = segmentAnswers(model, commands, b.lines, b.ending === 'finished');
  for (let i = 0; i < commands.length; i++) {
    const p = x[i] ?? null;
    const q = y[i] ?? null;
    const same = p !== null && q !== null && p.length === q.length && p.every((line, k) => line === q[k]);
    if (!same && (p !== null || q !== null)) return { index: i, command: commands[i]!, first: p, second: q };
  }
  return { index: commands.length - 1, command: commands[commands.length - 1] ?? '', first: null, second: null };
}

/** Fresh runs, two at a time, until one answers otherwise than `first` or MORE_FRESH_RUNS have agreed. */
export async function freshRunsUntilOneDiffers(
  model: ReferenceModel,
  execute: Execute,
  probed: Case,
  first: Outcome,
): Promise<{ runs: Awaited<ReturnType<typeof runBatch>>[]; difference?: AnswerDifference }> {
  const runs: Awaited<ReturnType<typeof runBatch>>[] = [];
  for (let round = 0; round < MORE_FRESH_RUNS / 2; round++) {
    const pair = await Promise.all([
      runBatch(model, execute, [probed.commands]),
      runBatch(model, execute, [probed.commands]),
    ]);
    runs.push(...pair);
    for (const run of pair) {
      const outcome = run.outcomes[0]!;
      const difference = usableOutcome(outcome) ? firstDifference(model, probed.commands, first, outcome) : undefined;
      if (difference) return { runs, difference };
    }
  }
  return { runs };
}

export const usableOutcome = (o: Outcome): boolean =>
  o.ending !== 'not-run' && o.ending !== 'timed-out' && o.ending !== 'output-limit';

/** The first list of the check's batch that a second run of the whole batch answered otherwise, and where. */
export function wholeBatchDifference(
  model: ReferenceModel,
  main: MainBatch,
  again: readonly Outcome[],
): AnswerDifference | undefined {
  for (const [i, c] of main.cases.entries()) {
    const [first, second] = [main.outcomes[i]!, again[i]!];
    if (!usableOutcome(first) || !usableOutcome(second)) continue;
    const difference = firstDifference(model, c.commands, first, second);
    if (difference) return { ...difference, transcript: c.label };
  }
  return undefined;
}
