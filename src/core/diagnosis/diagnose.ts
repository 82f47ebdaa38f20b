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
 */
import type { ReferenceModel } from '../model/model';
import { simulatesAs } from '../model/simulate';
import {
  stepKey,
  walkEvidence,
  type Candidate,
  type CandidateTally,
  type EvidenceStream,
  type StepRef,
  type UnexplainedStep,
  type Walk,
} from './stepwise';

export interface MistakeMutants {
  readonly id: string;
  readonly mutants: readonly string[];
}

export interface Finding {
  readonly mistake: string;
  /** The mutation of this mistake that explains the evidence. */
  readonly mutation: string;
  /** Every mutation of the candidate it was found with (itself, or a pair), for finding a counterexample. */
  readonly mutations: readonly string[];
  readonly confidence: 'exact' | 'likely';
  /** Named through a nondeterministic mutation: the program's choice at those commands is free (e.g. random ties). */
  readonly nondeterministic: boolean;
  /** Differing commands this mistake explains (at most a few hundred kept; `stepCount` has them all). */
  readonly steps: readonly StepRef[];
  readonly stepCount: number;
}

export interface Diagnosis {
  readonly findings: readonly Finding[];
  /** Differing commands no named mistake explains, with a sentence each (evidence order). */
  readonly unexplained: readonly UnexplainedStep[];
  readonly unexplainedCount: number;
  readonly differingCount: number;
  /**
   * A finding is named only because the program looked deterministic (two fresh runs agreed): it is
   * contradicted at a command or two, which a fixed rule allows and a random choice would explain. Two runs
   * that agree are weak evidence for a program that draws at random, so the check runs it fresh a few more
   * times before it trusts the verdict.
   */
  readonly restsOnDeterminism?: boolean;
}

export interface DiagnoseOptions {
  /** The program answers differently on two fresh runs: prefer the nondeterministic form of a mistake. */
  readonly random?: boolean;
}

/** Bounds that keep a hostile or oversized pack from making a diagnosis run out of memory or time. */
export const MAX_SINGLE_CANDIDATES = 64;
export const MAX_PAIR_CANDIDATES = 400;

const verbOf = (command: string): string => command.trim().split(/\s+/)[0] ?? '';

export function diagnose(
  model: ReferenceModel,
  mistakes: readonly MistakeMutants[],
  streams: readonly EvidenceStream[],
  options: DiagnoseOptions = {},
): Diagnosis {
  const nondeterministic = new Set(model.mutations.filter((m) => m.nondeterministic).map((m) => m.id));
  const mistakeOf = new Map<string, string>();
  for (const mistake of mistakes)
    for (const mutation of mistake.mutants) if (!mistakeOf.has(mutation)) mistakeOf.set(mutation, mistake.id);
  const mutations = [...mistakeOf.keys()].slice(0, MAX_SINGLE_CANDIDATES);
  const candidate = (ids: readonly string[]): Candidate => ({
    mutations: ids,
    nondeterministic: ids.some((id) => nondeterministic.has(id)),
  });

  const singles = walkEvidence(
    model,
    streams,
    mutations.map((m) => candidate([m])),
  );
  if (singles.differingCount === 0) return { findings: [], unexplained: [], unexplainedCount: 0, differingCount: 0 };

  const exactSingles = singles.tallies.filter((t) => t.exact);
  if (exactSingles.length > 0) return exactDiagnosis(exactSingles, mistakeOf, nondeterministic, singles);

  // Pairs only where singles leave something. First the cheap question: does a pair answer everything exactly?
  // A plain simulation tells (no following, no tallies); only its winner is walked, for its steps.
  const active = singles.tallies
    .filter((t) => t.supportCount > 0 || t.against > 0)
    .map((t) => t.candidate.mutations[0]!);
  const supported = singles.tallies.filter((t) => t.supportCount > 0).map((t) => t.candidate.mutations[0]!);
  const pairsOf = (left: readonly string[], right: readonly string[]): Candidate[] => {
    const out: Candidate[] = [];
    const seen = new Set<string>();
    for (const a of left) {
      for (const b of right) {
        if (out.length >= MAX_PAIR_CANDIDATES) return out;
        const key = [a, b].sort().join('+');
        if (a === b || mistakeOf.get(a) === mistakeOf.get(b) || seen.has(key)) continue;
        seen.add(key);
        out.push(candidate([a, b]));
      }
    }
    return out;
  };
  const exactPair = pairsOf(active, mutations).find(
    (c) => !c.nondeterministic && answersExactly(model, streams, c.mutations),
  );
  if (exactPair)
    return exactDiagnosis(walkEvidence(model, streams, [exactPair]).tallies, mistakeOf, nondeterministic, singles);
  // Covering what singles leave: pairs of mutations that each explain something.
  const pairs = pairsOf(supported, supported);
  const paired = pairs.length > 0 ? walkEvidence(model, streams, pairs) : undefined;

  // A kind of command where the program does something no candidate explains (power-of-two-choices picks) is
  // weak evidence against a mistake: agreeing with the reference there can be coincidence. So a candidate
  // with support at a well-understood kind of command is not ruled out by disagreements at such a kind;
  // one seen only where the program is not understood must not be contradicted anywhere.
  const all = [...singles.tallies, ...(paired?.tallies ?? [])];
  const explainedSomehow = new Set(all.flatMap((t) => t.support.map(stepKey)));
  const unreliable = new Set(
    singles.sentences.filter((s) => !explainedSomehow.has(stepKey(s.step))).map((s) => verbOf(s.step.command)),
  );
  // A program seen to answer differently on two runs chooses at random where a free choice explains it: there
  // a fixed rule's agreement, or disagreement, is chance too. (Otherwise one batch in twelve had every random
  // pick of a power-of-two-choices program agree with some fixed tie rule by chance, and the count that goes
  // below zero, plain in the counts it printed, was not named.)
  if (options.random)
    for (const t of singles.tallies)
      if (t.candidate.nondeterministic) for (const s of t.support) unreliable.add(verbOf(s.command));
  const admittedAsDeterministic = new Set<CandidateTally>();
  const admissible = all.filter((t) => {
    if (t.supportCount === 0) return false;
    const firm = t.support.some((s) => !unreliable.has(verbOf(s.command)));
    if ([...t.againstByVerb].every(([verb, n]) => n === 0 || (firm && unreliable.has(verb)))) return true;
    // Only once the probe has shown two fresh runs agree: before it, a random program may look deterministic.
    if (!rarelyContradicted(t, options.random !== false)) return false;
    admittedAsDeterministic.add(t);
    return true;
  });
  const { chosen, uncovered } = cover(admissible, singles.differingKeys, options.random === true);
  let findings = findingsOf(chosen, mistakeOf, nondeterministic, singles.tallies);
  // Only the free choices among the mutations walked as singles: past the limit a hostile pack's thousand free
  // choices would each be walked on top of the findings, and in the triples with every pair.
  const free = mutations.filter((id) => nondeterministic.has(id));
  if (uncovered.size > 0) findings = withFreeChoiceOnTop(model, streams, findings, uncovered, free, mistakeOf);
  if (uncovered.size > 0) {
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
    if (triple) {
      uncovered.clear();
      findings = findingsOf([triple], mistakeOf, nondeterministic, singles.tallies);
    }
  }

  // A free-choice finding is dropped when the same kind of command is also left unexplained; so is one whose
  // every step is a free choice too (a fixed rule among equals, such as ties by rotation): a program that
  // rotates whatever the counts (a weighted rotation) meets a tie now and then and rotates through it too.
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
    for (const s of doubtful.steps)
      if (!findings.some((f) => f !== doubtful && f.steps.some((o) => stepKey(o) === stepKey(s))))
        uncovered.add(stepKey(s));
    findings = findings.filter((f) => f !== doubtful);
  }
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
  return walkEvidence(model, streams, candidates).tallies.find(explainsAll);
}

/** True when the model with these mutations answers every stream exactly as the program did. */
function answersExactly(
  model: ReferenceModel,
  streams: readonly EvidenceStream[],
  mutations: readonly string[],
): boolean {
  const on = new Set(mutations);
  return streams.every((stream) => simulatesAs(model, stream.commands, on, stream));
}

function exactDiagnosis(
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

/**
 * Greedy set cover of the differing commands: each round takes the candidate that explains the most
 * commands not yet explained; on a tie a deterministic one (a random program: a nondeterministic one),
 * then a single before a pair.
 */
function cover(
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

/**
 * One finding per mistake. A mutation found as half of a pair is credited only with the commands the
 * other half does not explain alone: those are where this mistake shows.
 */
function findingsOf(
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
