/**
 * Greedy set cover of the differing commands by the admitted candidates: the fewest mistakes that explain the
 * most of what the program did differently.
 */
import { stepKey, type CandidateTally } from './stepwise';

/**
 * Each round takes the candidate that explains the most commands not yet explained; on a tie a deterministic
 * one (a random program: a nondeterministic one), then a single before a pair. `uncovered` is what is left.
 */
export function cover(
  admissible: readonly CandidateTally[],
  differing: ReadonlySet<string>,
  random: boolean,
): { chosen: CandidateTally[]; uncovered: Set<string> } {
  const uncovered = new Set(differing);
  const chosen: CandidateTally[] = [];
  for (;;) {
    let best: { tally: CandidateTally; gain: number } | undefined;
    for (const tally of admissible) {
      if (chosen.includes(tally)) continue;
      const gain = tally.support.filter((s) => uncovered.has(stepKey(s))).length;
      if (gain === 0) continue;
      if (!best || gain > best.gain || (gain === best.gain && prefer(tally, best.tally, random)))
        best = { tally, gain };
    }
    if (!best) break;
    chosen.push(best.tally);
    for (const s of best.tally.support) uncovered.delete(stepKey(s));
  }
  return { chosen, uncovered };
}

function prefer(a: CandidateTally, b: CandidateTally, random: boolean): boolean {
  const freeA = a.candidate.nondeterministic;
  const freeB = b.candidate.nondeterministic;
  if (freeA !== freeB) return random ? freeA : freeB;
  return a.candidate.mutations.length < b.candidate.mutations.length;
}
