/**
 * Which candidates may explain the program: those its own answers never contradict, with two allowances, each
 * for evidence that is weak. A kind of command the program is not understood at (nothing explains what it does
 * there) does not rule a candidate out; nor, for a program seen to answer the same twice, do one or two
 * contradictions against twenty times as many commands explained.
 */
import { stepKey, verbOf, type CandidateTally, type Walk } from './stepwise';

/** The candidates admitted, and those admitted only because the program looked deterministic. */
export interface Admission {
  readonly admissible: readonly CandidateTally[];
  readonly admittedAsDeterministic: ReadonlySet<CandidateTally>;
}

/**
 * `random`: the program answered differently on two fresh runs (true), the same (false), or it is not known
 * (undefined: the probe has not run yet).
 */
export function admit(all: readonly CandidateTally[], singles: Walk, random: boolean | undefined): Admission {
  const unreliable = unreliableVerbs(all, singles, random);
  const admittedAsDeterministic = new Set<CandidateTally>();
  const admissible = all.filter((t) => {
    if (t.supportCount === 0) return false;
    const firm = t.support.some((s) => !unreliable.has(verbOf(s.command)));
    // Seen only where the program is not understood, its agreement there may be coincidence: it must also make no
    // claim of its own that the program does not bear out (KEYS sorted by key is "oldest first" only by chance).
    if (!firm && !t.candidate.nondeterministic && (t.otherAnswers ?? 0) > 0) return false;
    if ([...t.againstByVerb].every(([verb, n]) => n === 0 || (firm && unreliable.has(verb)))) return true;
    // Only once the probe has shown two fresh runs agree: before it, a random program may look deterministic.
    if (!rarelyContradicted(t, random !== false)) return false;
    admittedAsDeterministic.add(t);
    return true;
  });
  return { admissible, admittedAsDeterministic };
}

/**
 * A kind of command where the program does something no candidate explains (power-of-two-choices picks) is
 * weak evidence against a mistake: agreeing with the reference there can be coincidence. So a candidate
 * with support at a well-understood kind of command is not ruled out by disagreements at such a kind;
 * one seen only where the program is not understood must not be contradicted anywhere.
 */
export function unreliableVerbs(
  all: readonly CandidateTally[],
  singles: Walk,
  random: boolean | undefined,
): Set<string> {
  const explainedSomehow = new Set(all.flatMap((t) => t.support.map(stepKey)));
  const unreliable = new Set(
    singles.sentences.filter((s) => !explainedSomehow.has(stepKey(s.step))).map((s) => verbOf(s.step.command)),
  );
  // A program seen to answer differently on two runs chooses at random where a free choice explains it: there
  // a fixed rule's agreement, or disagreement, is chance too. (Otherwise one batch in twelve had every random
  // pick of a power-of-two-choices program agree with some fixed tie rule by chance, and the count that goes
  // below zero, plain in the counts it printed, was not named.)
  if (random)
    for (const t of singles.tallies)
      if (t.candidate.nondeterministic) for (const s of t.support) unreliable.add(verbOf(s.command));
  return unreliable;
}

/** At most this many commands may contradict a candidate that is otherwise overwhelmingly supported … */
const RARE_CONTRADICTIONS = 2;
/** … by this many commands it explains for each that contradicts it. */
const SUPPORT_PER_CONTRADICTION = 20;

/**
 * A deterministic program with a mistake of the lesson and a quirk of its own (Caddy's -1 sentinel, which picks
 * past a backend whose count went below zero): the mistake's mutation explains the program everywhere but where
 * the quirk acts, and some other candidate happens to fit those few commands, so no kind of command looks
 * unreliable. One or two contradictions against twenty times as many commands explained, with support at a kind
 * of command where it is never contradicted, do not rule it out; what it leaves is still said as a difference
 * no mistake explains. Only for a program known to answer the same on two fresh runs (`mayBeRandom` false): for
 * a random one a candidate's agreement is chance (above).
 */
export function rarelyContradicted(t: CandidateTally, mayBeRandom: boolean): boolean {
  if (mayBeRandom || t.against > RARE_CONTRADICTIONS || t.supportCount < SUPPORT_PER_CONTRADICTION * t.against)
    return false;
  const contradictedVerbs = new Set([...t.againstByVerb].filter(([, n]) => n > 0).map(([verb]) => verb));
  return t.support.some((s) => !contradictedVerbs.has(verbOf(s.command)));
}
