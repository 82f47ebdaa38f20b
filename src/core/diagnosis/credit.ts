/**
 * From the candidates chosen to the findings said: one finding per mistake, each credited with the commands
 * where that mistake shows.
 */
import type { Diagnosis, Finding } from './finding';
import { stepKey, type CandidateTally, type Walk } from './stepwise';

/**
 * One finding per mistake. A mutation found as half of a pair is credited only with the commands the
 * other half does not explain alone: those are where this mistake shows.
 */
export function findingsOf(
  tallies: readonly CandidateTally[],
  mistakeOf: ReadonlyMap<string, string>,
  free: ReadonlySet<string>,
  singles: readonly CandidateTally[],
): Finding[] {
  const byMistake = new Map<string, { finding: Finding; keys: Set<string> }>();
  const singleKeys = (mutation: string): Set<string> =>
    new Set(
      singles
        .find((t) => t.candidate.mutations.length === 1 && t.candidate.mutations[0] === mutation)
        ?.support.map(stepKey) ?? [],
    );
  for (const tally of tallies) {
    for (const mutation of tally.candidate.mutations) {
      const others = tally.candidate.mutations.filter((m) => m !== mutation).map(singleKeys);
      const own =
        others.length === 0 ? tally.support : tally.support.filter((s) => !others.some((keys) => keys.has(stepKey(s))));
      if (own.length === 0) continue;
      const mistake = mistakeOf.get(mutation)!;
      const existing = byMistake.get(mistake);
      if (!existing) {
        byMistake.set(mistake, {
          finding: {
            mistake,
            mutation,
            mutations: tally.candidate.mutations,
            confidence: 'likely',
            nondeterministic: free.has(mutation),
            steps: [...own],
            stepCount: others.length === 0 ? tally.supportCount : own.length,
          },
          keys: new Set(own.map(stepKey)),
        });
        continue;
      }
      const steps = [...existing.finding.steps];
      for (const s of own) {
        if (existing.keys.has(stepKey(s))) continue;
        existing.keys.add(stepKey(s));
        steps.push(s);
      }
      existing.finding = { ...existing.finding, steps, stepCount: Math.max(existing.finding.stepCount, steps.length) };
    }
  }
  const first = (f: Finding): number => Math.min(...f.steps.map((s) => s.stream * 1e9 + s.index), Infinity);
  return [...byMistake.values()]
    .map((v) => ({
      ...v.finding,
      steps: [...v.finding.steps].sort((a, b) => a.stream - b.stream || a.index - b.index),
    }))
    .sort((a, b) => first(a) - first(b));
}

/** The diagnosis when candidates answer every command exactly as the program did: nothing left unexplained. */
export function exactDiagnosis(
  tallies: readonly CandidateTally[],
  mistakeOf: ReadonlyMap<string, string>,
  free: ReadonlySet<string>,
  singles: Walk,
): Diagnosis {
  const findings = findingsOf(tallies, mistakeOf, free, singles.tallies).map((f) => ({
    ...f,
    confidence: 'exact' as const,
  }));
  // An exact pair where neither half is exact alone names both, even when following the program's answers
  // lets one half explain every differing command step by step (a tie broken otherwise, after counts that
  // only the other half gets wrong).
  for (const tally of tallies) {
    for (const mutation of tally.candidate.mutations) {
      const mistake = mistakeOf.get(mutation)!;
      if (tally.candidate.mutations.length < 2 || findings.some((f) => f.mistake === mistake)) continue;
      findings.push({
        mistake,
        mutation,
        mutations: tally.candidate.mutations,
        confidence: 'exact',
        nondeterministic: free.has(mutation),
        steps: [...tally.support],
        stepCount: tally.supportCount,
      });
    }
  }
  return { findings, unexplained: [], unexplainedCount: 0, differingCount: singles.differingCount };
}
