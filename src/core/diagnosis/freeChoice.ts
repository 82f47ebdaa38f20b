/**
 * Free choices (a nondeterministic mutation: ties at random) in a diagnosis. After the cover, what is left may be
 * random ties on top of the mistakes found (or of two others, a triple); and a free-choice finding is dropped
 * where the program does something unexplained at the same kind of command, since a program that sometimes
 * chooses something that is not even among the best is not "just" breaking ties.
 */
import type { ReferenceModel } from '../model/model';
import type { CandidateSpace } from './candidates';
import { findingsOf } from './credit';
import { releaseSteps, type Finding } from './finding';
import {
  stepKey,
  verbOf,
  walkEvidence,
  type Candidate,
  type CandidateTally,
  type EvidenceStream,
  type Walk,
} from './stepwise';

/**
 * Where the cover leaves commands uncovered, random ties on top of the findings, else on top of two other
 * mistakes. Deletes from `uncovered` what the free choice explains.
 */
export function explainRestByFreeChoice(
  model: ReferenceModel,
  streams: readonly EvidenceStream[],
  space: CandidateSpace,
  singles: Walk,
  findings: Finding[],
  uncovered: Set<string>,
): Finding[] {
  const { mistakeOf } = space;
  // Only the free choices among the mutations walked as singles: past the limit a hostile pack's thousand free
  // choices would each be walked on top of the findings, and in the triples with every pair.
  const free = space.mutations.filter((id) => space.nondeterministic.has(id));
  if (uncovered.size > 0) findings = withFreeChoiceOnTop(model, streams, findings, uncovered, free, mistakeOf);
  if (uncovered.size === 0) return findings;
  // Random ties on top of two other mistakes, where neither pair is left uncontradicted to build on.
  // Those that explain the most first: the walk is bounded to MAX_TRIPLE_MUTATIONS of them.
  // (Of other mistakes than the free choice's: a tie rule under random ties says nothing.)
  const freeMistakes = new Set(free.map((id) => mistakeOf.get(id)));
  const bySupport = singles.tallies
    .filter(
      (t) =>
        (t.supportCount > 0 || t.against > 0) &&
        !t.candidate.nondeterministic &&
        !freeMistakes.has(mistakeOf.get(t.candidate.mutations[0]!)),
    )
    .sort((a, b) => b.supportCount - a.supportCount || a.against - b.against)
    .map((t) => t.candidate.mutations[0]!);
  const triple = freeChoiceTriple(model, streams, bySupport, free, mistakeOf, singles.differingKeys);
  if (!triple) return findings;
  uncovered.clear();
  return findingsOf([triple], mistakeOf, space.nondeterministic, singles.tallies);
}

/**
 * A free-choice finding is dropped when the same kind of command is also left unexplained; so is one whose
 * every step is a free choice too (a fixed rule among equals, such as ties by rotation): a program that
 * rotates whatever the counts (a weighted rotation) meets a tie now and then and rotates through it too.
 * What only the dropped finding explained goes back into `uncovered`.
 */
export function dropDoubtfulFreeChoices(singles: Walk, findings: Finding[], uncovered: Set<string>): Finding[] {
  const uncoveredVerbs = (): Set<string> =>
    new Set(singles.sentences.filter((s) => uncovered.has(stepKey(s.step))).map((s) => verbOf(s.step.command)));
  const freeChoices = new Set(
    singles.tallies.filter((t) => t.candidate.nondeterministic).flatMap((t) => t.support.map(stepKey)),
  );
  const amongEquals = (f: Finding): boolean =>
    f.nondeterministic || (f.steps.length > 0 && f.steps.every((s) => freeChoices.has(stepKey(s))));
  for (;;) {
    const verbs = uncoveredVerbs();
    const doubtful = findings.find((f) => amongEquals(f) && f.steps.some((s) => verbs.has(verbOf(s.command))));
    if (!doubtful) break;
    findings = findings.filter((f) => f !== doubtful);
    releaseSteps(doubtful, findings, uncovered);
  }
  return findings;
}

/**
 * Random ties on top of two other mistakes (Caddy's least_conn: reservoir sampling, no floor, counts kept
 * through a reload): pairs cannot cover what needs three, so the deterministic findings are walked once more
 * together with each free-choice mutation. Where that explains commands left uncovered and is contradicted
 * nowhere, the free choice is named for them.
 */
function withFreeChoiceOnTop(
  model: ReferenceModel,
  streams: readonly EvidenceStream[],
  findings: readonly Finding[],
  uncovered: Set<string>,
  free: readonly string[],
  mistakeOf: ReadonlyMap<string, string>,
): Finding[] {
  const fixed = [
    ...new Set(
      findings.filter((f) => !f.nondeterministic).flatMap((f) => f.mutations.filter((m) => !free.includes(m))),
    ),
  ];
  if (fixed.length === 0 || free.length === 0) return [...findings];
  const walk = walkEvidence(
    model,
    streams,
    free.map((id) => ({ mutations: [...fixed, id], nondeterministic: true })),
  );
  const out = [...findings];
  for (const tally of walk.tallies) {
    if (tally.against > 0) continue;
    const gained = tally.support.filter((s) => uncovered.has(stepKey(s)));
    if (gained.length === 0) continue;
    const mutation = tally.candidate.mutations[tally.candidate.mutations.length - 1]!;
    const mistake = mistakeOf.get(mutation)!;
    for (const s of gained) uncovered.delete(stepKey(s));
    const existing = out.findIndex((f) => f.mistake === mistake);
    const finding: Finding = {
      mistake,
      mutation,
      mutations: tally.candidate.mutations,
      confidence: 'likely',
      nondeterministic: true,
      steps: gained,
      stepCount: gained.length,
    };
    if (existing >= 0) out.splice(existing, 1, finding);
    else out.push(finding);
  }
  return out;
}

/** Deterministic mutations tried two at a time under a free choice: a bound on the walk's cost. */
const MAX_TRIPLE_MUTATIONS = 12;

/**
 * A free choice (ties at random) together with two deterministic mutations of two other mistakes that, walked
 * over all the evidence, explains every differing command and is contradicted nowhere: Caddy's least_conn
 * (reservoir sampling among ties, no floor, counts kept through a reload). Each pair of it is contradicted
 * by what the third does, so neither pairs nor a free choice on top of a pair find it.
 */
function freeChoiceTriple(
  model: ReferenceModel,
  streams: readonly EvidenceStream[],
  fixed: readonly string[],
  free: readonly string[],
  mistakeOf: ReadonlyMap<string, string>,
  differing: ReadonlySet<string>,
): CandidateTally | undefined {
  const pool = fixed.slice(0, MAX_TRIPLE_MUTATIONS);
  const candidates: Candidate[] = [];
  for (const [i, a] of pool.entries()) {
    for (const b of pool.slice(i + 1)) {
      if (mistakeOf.get(a) === mistakeOf.get(b)) continue;
      for (const f of free)
        if (mistakeOf.get(f) !== mistakeOf.get(a) && mistakeOf.get(f) !== mistakeOf.get(b))
          candidates.push({ mutations: [a, b, f], nondeterministic: true });
    }
  }
  if (candidates.length === 0) return undefined;
  const explainsAll = (t: CandidateTally): boolean =>
    t.against === 0 && t.supportCount === differing.size && t.support.every((s) => differing.has(stepKey(s)));
  // Only one that explains every command is wanted: each is followed to its first miss (one that never misses is
  // followed to the end, its tally whole).
  return walkEvidence(model, streams, candidates, true).tallies.find(explainsAll);
}
