/**
 * Hand-made evidence for the tests of core `checkProblems` (checkProblems.test.ts, checkProblemsMutants.test.ts):
 * a least-connections transcript, an empty batch, a probe, the inputs of `assembleProblems`, a difference two runs
 * showed, a finding, a diagnosis of differences no mistake names and a run of the program. Each helper builds its
 * value when called, so a test that calls it inside `it` or `beforeEach` gets the mutation-coverage credit.
 */
import type { BatchResult } from '../../src/core/check/batch';
import type { Case } from '../../src/core/check/cases';
import type { AnswerDifference, Probe } from '../../src/core/check/probe';
import type { ProcessResult } from '../../src/core/check/process';
import type { Diagnosis, Finding } from '../../src/core/diagnosis/diagnose';
import { simulate } from '../../src/core/model/simulate';
import type { ProblemInputs } from '../../src/core/report/checkProblems';
import type { Problem } from '../../src/core/report/report';
import { model } from '../../lessons/least-connections/model/model';

/** A hidden least-connections transcript, expected as the reference answers it. */
export function lessonCase(label: string, commands: readonly string[]): Case {
  return { name: label.split(' ')[0]!, label, commands, expected: simulate(model, commands).outcome, hidden: true };
}

/** The transcript most tests probe: two PICKs on a tie. */
export const tiesCase = (): Case => lessonCase('ties go to pool order', ['POOL b a', 'PICK', 'PICK', 'STATUS']);

/** A main batch with one (empty) stream, no runs and no stray lines, or with `extra` over it. */
export function mainBatch(extra: Partial<BatchResult> = {}): BatchResult {
  return {
    outcomes: [],
    runs: [],
    strayLines: [],
    streams: [{ commands: [], lines: [], ending: 'finished', segments: [] }],
    ...extra,
  };
}

/** A probe of `probed` (the ties transcript unless given) where the runs agreed, except for what `extra` says. */
export function probe(extra: Partial<Probe>, probed: Case = tiesCase()): Probe {
  return {
    probed,
    determinism: { fresh: 'same', afterReset: 'same' },
    streams: [],
    alone: probed.expected,
    ...extra,
  } as Probe;
}

/** The inputs of `assembleProblems` for the least-connections model with nothing to report, except `extra`. */
export function inputs(extra: Partial<ProblemInputs>): ProblemInputs {
  return {
    model,
    main: mainBatch(),
    runProblems: () => [],
    findings: [],
    diagnosis: undefined,
    probe: undefined,
    cases: [tiesCase()],
    counterexample: null,
    ...extra,
  };
}

/** Two runs that answered the second command (`PICK`) differently. */
export const differs = (
  first: string[] | null,
  second: string[] | null,
  seen?: AnswerDifference['seen'],
): AnswerDifference => ({ index: 1, command: 'PICK', first, second, ...(seen ? { seen } : {}) });

/** The tiebreak mistake, found with no steps unless `extra` gives some. */
export const finding = (extra: Partial<Finding>): Finding => ({
  mistake: 'tiebreak',
  mutation: 'tiebreak-name',
  mutations: ['tiebreak-name'],
  confidence: 'exact',
  nondeterministic: false,
  steps: [],
  stepCount: 0,
  ...extra,
});

export const kinds = (problems: readonly Problem[]): string[] => problems.map((p) => p.kind);

/** A diagnosis that names no mistake: one difference per sentence, at the third command of the first transcript unless `listIndex` says otherwise. */
export const unexplained = (sentences: string[], listIndex = 2): Diagnosis => ({
  findings: [],
  unexplained: sentences.map((sentence) => ({
    step: { stream: 0, index: 3, list: 0, listIndex, command: 'PICK' },
    sentence,
  })),
  unexplainedCount: sentences.length,
  differingCount: sentences.length,
});

/** A run of the learner's program that exited with code 1, or as `extra` says. */
export const processRun = (extra: Partial<ProcessResult> = {}): ProcessResult => ({
  stdout: '',
  stderr: '',
  exitCode: 1,
  signal: null,
  timedOut: false,
  outputLimited: false,
  durationMs: 1,
  ...extra,
});
