/**
 * More evidence for a program that chooses at random, until its verdict stops changing. Each check of such a
 * program sees other draws: with the lesson's 40 generated transcripts a power-of-two-choices program happens
 * to pick among the least loaded every time in about one check in twenty, and is then taken for one that
 * breaks ties at random; a count that goes negative can go unseen. So after the first diagnosis, another
 * batch of generated transcripts (from a seed derived from the check's, so a check still reproduces) is run
 * and the diagnosis made again over all the evidence, until two rounds in a row name the same mistakes (at
 * most MAX_ROUNDS batches). What stays is what every round of draws supports. Pure: processes come in as
 * `execute`.
 */
import { runBatch, type Stream } from './batch';
import { generatedCases, type Case } from './cases';
import { diagnose, type Diagnosis, type MistakeMutants } from '../diagnosis/diagnose';
import type { ReferenceModel } from '../model/model';
import type { Execute } from './process';

const MAX_ROUNDS = 3;

export interface SettleInput {
  readonly model: ReferenceModel;
  readonly mistakes: readonly MistakeMutants[];
  readonly execute: Execute;
  /** Every case of the check; the new ones are appended, so a stream's list indexes them. */
  readonly cases: Case[];
  readonly streams: readonly Stream[];
  readonly diagnosis: Diagnosis;
  readonly seed: number;
  readonly count: number;
  readonly length: number;
}

/** The mistake ids a diagnosis names, and whether something is left unnamed: what must not change. */
const verdictOf = (d: Diagnosis): string =>
  `${d.findings
    .map((f) => f.mistake)
    .sort()
    .join()}|${d.unexplained.length > 0}`;

export async function settleRandomVerdict(
  input: SettleInput,
): Promise<{ streams: Stream[]; diagnosis: Diagnosis; rounds: number }> {
  let streams = [...input.streams];
  let diagnosis = input.diagnosis;
  let rounds = 0;
  for (let round = 1; round <= MAX_ROUNDS && input.count > 0; round++) {
    // Numbered on from the check's own generated transcripts: a random test (#41), ...
    const extra = generatedCases(
      input.model,
      (input.seed ^ Math.imul(round, 0x9e3779b1)) >>> 0,
      input.count,
      input.length,
    ).map((c, i) => {
      const n = input.count * round + i + 1;
      return { ...c, name: `generated-${n}`, label: `a random test (#${n})` };
    });
    const first = input.cases.length;
    input.cases.push(...extra);
    const run = await runBatch(
      input.model,
      input.execute,
      extra.map((c) => c.commands),
      { maxRuns: 3 },
    );
    rounds += 1;
    streams = [
      ...streams,
      ...run.streams.map((s) => ({ ...s, segments: s.segments.map((seg) => ({ ...seg, list: seg.list + first })) })),
    ];
    const before = verdictOf(diagnosis);
    diagnosis = diagnose(input.model, input.mistakes, streams, { random: true });
    if (verdictOf(diagnosis) === before) break;
  }
  return { streams, diagnosis, rounds };
}
