/**
 * The candidates a diagnosis weighs: each mutation of the lesson's mistakes alone, then pairs of two mistakes'
 * mutations. Bounded, so that a hostile or oversized pack cannot make a diagnosis run out of memory or time.
 */
import type { ReferenceModel } from '../model/model';
import { simulatesAs } from '../model/simulate';
import type { MistakeMutants } from './finding';
import type { Candidate, EvidenceStream } from './stepwise';

/** Bounds that keep a hostile or oversized pack from making a diagnosis run out of memory or time. */
export const MAX_SINGLE_CANDIDATES = 64;
export const MAX_PAIR_CANDIDATES = 400;

/** The mutations a diagnosis may name, and what each belongs to. */
export interface CandidateSpace {
  /** Each mutation's mistake: the first mistake that lists it. */
  readonly mistakeOf: ReadonlyMap<string, string>;
  /** The mutations walked as singles (at most `MAX_SINGLE_CANDIDATES`). */
  readonly mutations: readonly string[];
  /** Every nondeterministic mutation of the model (a free choice, such as ties at random). */
  readonly nondeterministic: ReadonlySet<string>;
}

export function candidateSpace(model: ReferenceModel, mistakes: readonly MistakeMutants[]): CandidateSpace {
  const nondeterministic = new Set(model.mutations.filter((m) => m.nondeterministic).map((m) => m.id));
  const mistakeOf = new Map<string, string>();
  for (const mistake of mistakes)
    for (const mutation of mistake.mutants) if (!mistakeOf.has(mutation)) mistakeOf.set(mutation, mistake.id);
  const mutations = [...mistakeOf.keys()].slice(0, MAX_SINGLE_CANDIDATES);
  return { mistakeOf, mutations, nondeterministic };
}

/** These mutations switched on together, nondeterministic when any of them is. */
export function candidateOf(space: CandidateSpace, ids: readonly string[]): Candidate {
  return { mutations: ids, nondeterministic: ids.some((id) => space.nondeterministic.has(id)) };
}

/** Pairs of a mutation of `left` and one of `right`, of two different mistakes, each pair once, bounded. */
export function pairsOf(space: CandidateSpace, left: readonly string[], right: readonly string[]): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  for (const a of left) {
    for (const b of right) {
      if (out.length >= MAX_PAIR_CANDIDATES) return out;
      const key = [a, b].sort().join('+');
      if (a === b || space.mistakeOf.get(a) === space.mistakeOf.get(b) || seen.has(key)) continue;
      seen.add(key);
      out.push(candidateOf(space, [a, b]));
    }
  }
  return out;
}

/**
 * Whether a stream was answered exactly, by model, stream and mutations: the diagnosis after the probe asks again
 * about every stream the first one asked about (the check's own), most of its evidence.
 */
const exactly = new WeakMap<ReferenceModel, WeakMap<EvidenceStream, Map<string, boolean>>>();

/** True when the model with these mutations answers every stream exactly as the program did. */
export function answersExactly(
  model: ReferenceModel,
  streams: readonly EvidenceStream[],
  mutations: readonly string[],
): boolean {
  const on = new Set(mutations);
  const key = [...on].sort().join('+');
  const byStream = exactly.get(model) ?? new WeakMap<EvidenceStream, Map<string, boolean>>();
  exactly.set(model, byStream);
  return streams.every((stream) => {
    const known = byStream.get(stream) ?? new Map<string, boolean>();
    byStream.set(stream, known);
    if (!known.has(key)) known.set(key, simulatesAs(model, stream.commands, on, stream));
    return known.get(key)!;
  });
}
