/**
 * Names the mistakes a program's behaviour reveals by comparing it with the reference's mutants,
 * alone and in pairs. Exact matches win; otherwise a mutant is named only if it reproduces the
 * program's first departure from the reference, which is the least evidence we accept.
 */
import type { ReferenceModel } from './model';
import { firstDifferentLine, sameOutcome, simulate, type Outcome } from './simulate';

export interface Evidence {
  readonly name: string;
  readonly commands: readonly string[];
  readonly learner: Outcome;
}

export interface MistakeMutants {
  readonly id: string;
  readonly mutants: readonly string[];
}

export interface Finding {
  readonly mistake: string;
  readonly mutation: string;
  readonly confidence: 'exact' | 'partial';
  readonly revealedBy: readonly string[];
}

export interface Diagnosis {
  readonly kind: 'none' | 'exact' | 'partial' | 'unrecognised';
  readonly findings: readonly Finding[];
  /** Every mutation of the explaining candidate (one, or a pair). */
  readonly mutations: readonly string[];
  readonly failing: readonly string[];
}

interface Candidate {
  readonly mutations: readonly string[];
  readonly mistakes: readonly string[];
}

export function candidates(mistakes: readonly MistakeMutants[]): Candidate[] {
  const singles: Candidate[] = mistakes.flatMap((m) => m.mutants.map((mutation) => ({ mutations: [mutation], mistakes: [m.id] })));
  const pairs: Candidate[] = [];
  mistakes.forEach((a, i) =>
    mistakes.slice(i + 1).forEach((b) => {
      for (const ma of a.mutants) for (const mb of b.mutants) pairs.push({ mutations: [ma, mb], mistakes: [a.id, b.id] });
    }),
  );
  return [...singles, ...pairs];
}

/** True when `candidate` agrees with the learner at least one line past where the reference stops agreeing. */
function explainsDeparture(learner: Outcome, reference: Outcome, candidate: Outcome): boolean {
  const referenceAgrees = firstDifferentLine(learner, reference);
  if (referenceAgrees < 0) return false;
  const candidateAgrees = firstDifferentLine(learner, candidate);
  return candidateAgrees < 0 || candidateAgrees > referenceAgrees;
}

export function diagnose(model: ReferenceModel, mistakes: readonly MistakeMutants[], evidence: readonly Evidence[]): Diagnosis {
  const references = evidence.map((e) => simulate(model, e.commands).outcome);
  const failingIndexes = evidence.map((_, i) => i).filter((i) => !sameOutcome(evidence[i]!.learner, references[i]!));
  const failing = failingIndexes.map((i) => evidence[i]!.name);
  if (failingIndexes.length === 0) return { kind: 'none', findings: [], mutations: [], failing };

  const outcomeCache = new Map<string, Outcome[]>();
  const outcomesOf = (mutations: readonly string[]): Outcome[] => {
    const key = [...mutations].sort().join('+');
    let cached = outcomeCache.get(key);
    if (!cached) {
      cached = evidence.map((e) => simulate(model, e.commands, new Set(mutations)).outcome);
      outcomeCache.set(key, cached);
    }
    return cached;
  };
  const mistakeOf = new Map(mistakes.flatMap((m) => m.mutants.map((mutation) => [mutation, m.id] as const)));
  const revealedBy = (mutation: string): string[] => {
    const outcomes = outcomesOf([mutation]);
    return failingIndexes
      .filter((i) => explainsDeparture(evidence[i]!.learner, references[i]!, outcomes[i]!))
      .map((i) => evidence[i]!.name);
  };
  const findingsFor = (chosen: readonly Candidate[], confidence: Finding['confidence']): Finding[] => {
    const byMistake = new Map<string, Finding>();
    for (const candidate of chosen) {
      for (const mutation of candidate.mutations) {
        const mistake = mistakeOf.get(mutation)!;
        if (!byMistake.has(mistake)) byMistake.set(mistake, { mistake, mutation, confidence, revealedBy: revealedBy(mutation) });
      }
    }
    return [...byMistake.values()];
  };

  const all = candidates(mistakes);
  const exact = all.filter((c) => outcomesOf(c.mutations).every((o, i) => sameOutcome(o, evidence[i]!.learner)));
  const exactSingles = exact.filter((c) => c.mutations.length === 1);
  const chosenExact = exactSingles.length > 0 ? exactSingles : exact;
  if (chosenExact.length > 0) {
    return { kind: 'exact', findings: findingsFor(chosenExact, 'exact'), mutations: chosenExact[0]!.mutations, failing };
  }

  // No exact match: rank by how many failing transcripts a candidate explains, then by how long it agrees.
  // Where the program's first departure from the reference is its crash.
  const crashesAtDeparture = (i: number): boolean =>
    evidence[i]!.learner.ending === 'crashed' && firstDifferentLine(evidence[i]!.learner, references[i]!) === evidence[i]!.learner.lines.length;
  const scored = all
    .map((c) => {
      const outcomes = outcomesOf(c.mutations);
      const explainedIndexes = failingIndexes.filter((i) => explainsDeparture(evidence[i]!.learner, references[i]!, outcomes[i]!));
      let agreement = 0;
      for (const i of failingIndexes) {
        const d = firstDifferentLine(evidence[i]!.learner, outcomes[i]!);
        agreement += d < 0 ? evidence[i]!.learner.lines.length + 1 : d;
      }
      // A mutant that "explains" only crashes, while the program also crashes where that mutant would not,
      // matches the crash, not the mistake: a crash on every DONE is not "strangers crash".
      const onlyCrashes = explainedIndexes.length > 0 && explainedIndexes.every(crashesAtDeparture);
      const crashesElsewhere = failingIndexes.some((i) => !explainedIndexes.includes(i) && crashesAtDeparture(i));
      return { c, explained: explainedIndexes.length, agreement, coincidental: onlyCrashes && crashesElsewhere };
    })
    .filter((s) => s.explained > 0 && !s.coincidental)
    .sort((a, b) => b.explained - a.explained || b.agreement - a.agreement || a.c.mutations.length - b.c.mutations.length);
  if (scored.length === 0) return { kind: 'unrecognised', findings: [], mutations: [], failing };
  const best = scored.filter((s) => s.explained === scored[0]!.explained && s.agreement === scored[0]!.agreement).map((s) => s.c);
  const findings = findingsFor(best, 'partial').filter((f) => f.revealedBy.length > 0);
  if (findings.length === 0) return { kind: 'unrecognised', findings: [], mutations: [], failing };
  return { kind: 'partial', findings, mutations: best[0]!.mutations, failing };
}
