/**
 * Names the mistakes a program's behaviour reveals. The evidence is walked step by step against the
 * reference and every candidate (each mutation alone, then pairs where one is not enough; see
 * stepwise.ts). The verdicts, strongest first:
 *
 * - exact: a candidate answers every command of the evidence exactly as the program did;
 * - likely: the differing commands are covered by candidates that the program's own answers never
 *   contradict (a candidate that would have answered otherwise where the program was right is out);
 * - what is left uncovered is a difference the lesson has no name for, reported as such with a sentence.
 *
 * A nondeterministic candidate ("ties go to any of the tied") is never contradicted, so it is trusted
 * only when nothing else the program does at that kind of command is left unexplained: a program that
 * sometimes chooses something that is not even among the best is not "just" breaking ties.
 *
 * The steps, each in its own file: the candidates (candidates.ts), which of them the evidence admits
 * (admission.ts), the fewest that cover the differences (cover.ts), the findings they are credited with
 * (credit.ts), and free choices on top or in doubt (freeChoice.ts).
 */
import type { ReferenceModel } from '../model/model';
import { admit, unreliableVerbs } from './admission';
import { answersExactly, candidateOf, candidateSpace, pairsOf, type CandidateSpace } from './candidates';
import { cover } from './cover';
import { exactDiagnosis, findingsOf } from './credit';
import { releaseSteps, type Diagnosis, type Finding, type MistakeMutants } from './finding';
import { dropDoubtfulFreeChoices, explainRestByFreeChoice } from './freeChoice';
import {
  stepKey,
  verbOf,
  walkEvidence,
  type Candidate,
  type CandidateTally,
  type EvidenceStream,
  type Walk,
} from './stepwise';

export type { Diagnosis, Finding, MistakeMutants } from './finding';
export { MAX_PAIR_CANDIDATES, MAX_SINGLE_CANDIDATES } from './candidates';
export { rarelyContradicted } from './admission';

export interface DiagnoseOptions {
  /** The program answers differently on two fresh runs: prefer the nondeterministic form of a mistake. */
  readonly random?: boolean;
}

export function diagnose(
  model: ReferenceModel,
  mistakes: readonly MistakeMutants[],
  streams: readonly EvidenceStream[],
  options: DiagnoseOptions = {},
): Diagnosis {
  const space = candidateSpace(model, mistakes);
  const quick = exactSinglesFirst(model, streams, space);
  if (quick) return quick;
  const singles = walkEvidence(
    model,
    streams,
    space.mutations.map((m) => candidateOf(space, [m])),
  );
  if (singles.differingCount === 0) return { findings: [], unexplained: [], unexplainedCount: 0, differingCount: 0 };
  const exact = exactVerdict(model, streams, space, singles);
  if (exact) return exact;

  const paired = walkCoveringPairs(model, streams, space, singles);
  const { admissible, admittedAsDeterministic } = admit(
    [...singles.tallies, ...(paired?.tallies ?? [])],
    singles,
    options.random,
  );
  const { chosen, uncovered } = cover(admissible, singles.differingKeys, options.random === true);
  let findings = findingsOf(chosen, space.mistakeOf, space.nondeterministic, singles.tallies);
  if (options.random === true) findings = dropChanceHalves(findings, admissible, singles);
  findings = explainRestByFreeChoice(model, streams, space, singles, findings, uncovered);
  findings = dropDoubtfulFreeChoices(singles, findings, uncovered);
  if (options.random !== true) findings = dropFragments(singles, findings, uncovered);

  const unexplained = singles.sentences.filter((s) => uncovered.has(stepKey(s.step)));
  const restsOnDeterminism = chosen.some(
    (t) => admittedAsDeterministic.has(t) && findings.some((f) => f.mutations.join() === t.candidate.mutations.join()),
  );
  return {
    findings,
    unexplained,
    unexplainedCount: unexplained.length,
    differingCount: singles.differingCount,
    ...(restsOnDeterminism ? { restsOnDeterminism } : {}),
  };
}

/**
 * In a program seen to draw at random, a fixed rule credited only at kinds of command the program is not understood
 * at (some answer there explained by no admitted candidate) is chance, also as half of a pair whose other half is
 * firm elsewhere:
 * a power-of-two-choices pick of the busier of 10 and 9 fits counts compared as text beside a count that goes
 * below zero, one batch in three.
 */
function dropChanceHalves(
  findings: readonly Finding[],
  admissible: readonly CandidateTally[],
  singles: Walk,
): Finding[] {
  // The kinds of command where some answer is explained by no admitted candidate: there the program is not understood.
  const unreliable = unreliableVerbs(admissible, singles, false);
  return findings.filter((f) => f.nondeterministic || f.steps.some((s) => !unreliable.has(verbOf(s.command))));
}

/** A fragment's kind of command differs unexplained at more than this many commands for each one it explains. */
const FRAGMENT_RATIO = 2;

/**
 * A likely finding in a deterministic program that is a corner of a bigger difference nothing names: every kind of
 * command it is credited at differs unexplained at more than twice as many commands. A JavaScript program that keeps
 * its counts as properties of a Map (`counts.active[b]`) lists no counts when asked: its 8 empty lists after a close
 * of an unseen backend fit "closing leaves no entry", and 44 others fit nothing. Said as the difference with no name,
 * not as a mistake whose fix would not help; a program whose differences there are mostly the finding's keeps it.
 */
function dropFragments(singles: Walk, findings: readonly Finding[], uncovered: Set<string>): Finding[] {
  const unexplainedAt = new Map<string, number>();
  for (const s of singles.sentences)
    if (uncovered.has(stepKey(s.step))) {
      const verb = verbOf(s.step.command);
      unexplainedAt.set(verb, (unexplainedAt.get(verb) ?? 0) + 1);
    }
  const fragment = (f: Finding): boolean => {
    if (f.confidence === 'exact' || f.nondeterministic || f.steps.length === 0) return false;
    const creditedAt = new Map<string, number>();
    for (const step of f.steps) creditedAt.set(verbOf(step.command), (creditedAt.get(verbOf(step.command)) ?? 0) + 1);
    return [...creditedAt].every(([verb, n]) => (unexplainedAt.get(verb) ?? 0) > FRAGMENT_RATIO * n);
  };
  const kept = findings.filter((f) => !fragment(f));
  for (const f of findings) if (!kept.includes(f)) releaseSteps(f, kept, uncovered);
  return kept;
}

/**
 * The common case first: one mistake that answers every command exactly as the program did. A plain simulation per
 * mutation, stopping at the first line the program did not print (most stop within the first transcript), finds it
 * at a small part of the cost of walking every candidate step by step; only the ones found are walked, for their
 * steps. Where the walk does not call each of them exact (a model whose following of the program's answers is not
 * the same as answering them), or the reference itself answers exactly, the whole walk decides, as without this.
 */
function exactSinglesFirst(
  model: ReferenceModel,
  streams: readonly EvidenceStream[],
  space: CandidateSpace,
): Diagnosis | undefined {
  if (answersExactly(model, streams, [])) return undefined;
  const found = space.mutations.filter((m) => !space.nondeterministic.has(m) && answersExactly(model, streams, [m]));
  if (found.length === 0) return undefined;
  const walked = walkEvidence(
    model,
    streams,
    found.map((m) => candidateOf(space, [m])),
  );
  if (walked.differingCount === 0 || !walked.tallies.every((t) => t.exact)) return undefined;
  return exactDiagnosis(walked.tallies, space.mistakeOf, space.nondeterministic, walked);
}

/**
 * A single that answers everything exactly, else a pair that does. Pairs only where singles leave something,
 * and first the cheap question: a plain simulation tells whether a pair answers everything exactly (no
 * following, no tallies); only its winner is walked, for its steps.
 */
function exactVerdict(
  model: ReferenceModel,
  streams: readonly EvidenceStream[],
  space: CandidateSpace,
  singles: Walk,
): Diagnosis | undefined {
  const exactSingles = singles.tallies.filter((t) => t.exact);
  if (exactSingles.length > 0) return exactDiagnosis(exactSingles, space.mistakeOf, space.nondeterministic, singles);
  const active = singles.tallies
    .filter((t) => t.supportCount > 0 || t.against > 0)
    .map((t) => t.candidate.mutations[0]!);
  const exact = (c: Candidate): boolean => !c.nondeterministic && answersExactly(model, streams, c.mutations);
  // Past the bound on pairs (a lesson of 35 mutations has more), the pairs of two that each explain something.
  const supported = singles.tallies.filter((t) => t.supportCount > 0).map((t) => t.candidate.mutations[0]!);
  const exactPair =
    pairsOf(space, active, space.mutations).find(exact) ?? pairsOf(space, supported, supported).find(exact);
  if (!exactPair) return undefined;
  const walked = walkEvidence(model, streams, [exactPair]).tallies;
  return exactDiagnosis(walked, space.mistakeOf, space.nondeterministic, singles);
}

/** Covering what singles leave: pairs of mutations that each explain something, walked together. */
function walkCoveringPairs(
  model: ReferenceModel,
  streams: readonly EvidenceStream[],
  space: CandidateSpace,
  singles: Walk,
): Walk | undefined {
  const supported = singles.tallies.filter((t) => t.supportCount > 0).map((t) => t.candidate.mutations[0]!);
  const pairs = pairsOf(space, supported, supported);
  return pairs.length > 0 ? walkEvidence(model, streams, pairs) : undefined;
}
