/**
 * How well a pack's hidden transcripts catch and tell apart its declared mistakes, measured on the
 * reference model's mutants (all in-process, so it costs milliseconds).
 *
 * Definitions (docs/authoring.md explains them to authors):
 * - a mutation is *caught* by a transcript when its outcome there differs from the reference's;
 *   a mistake is caught when at least one of its mutations is;
 * - mistakes A and B are *told apart* when for every mutation a of A and every mutation b of B some
 *   hidden transcript gives a and b different outcomes. Otherwise a program making one of them is
 *   named as both, and the learner is sent to the wrong function;
 * - the pair candidates diagnosis considers ({a, b}: a program making both) should also differ from
 *   {a} alone and from {b} alone, or the diagnosis names only one of the two. That is a warning, given
 *   only when some transcript could separate them (when the model makes a and b alternatives, none can):
 *   the second mistake still surfaces once the first is fixed.
 */
import type { ReferenceModel } from '../model/model';
import { seededRandom } from '../model/random';
import { sameOutcome, simulate, type Outcome } from '../model/simulate';
import { shrinkCommands } from '../check/shrink';
import { commandFits } from '../model/grammar';
import { formatTranscript, type Transcript } from '../model/transcript';
import type { Mistake } from '../pack/schema';

export interface MutationCoverage {
  readonly mutation: string;
  /** Hidden transcripts on which this mutant's outcome differs from the reference's. */
  readonly caughtBy: readonly string[];
}

export interface MistakeCoverage {
  readonly mistake: string;
  readonly mutations: readonly MutationCoverage[];
  readonly caughtBy: readonly string[];
}

export interface PairVerdict {
  readonly mistakes: readonly [string, string];
  /**
   * The fewest hidden transcripts separating any one mutation of A from any one of B; 0 = not told apart.
   * Null when no two mutations were compared by whole outcomes: one mistake only chooses at random (told apart
   * command by command, where it has a choice), or neither is ever caught (reported once, per mistake).
   */
  readonly separatedBy: number | null;
  /** The first mutation pair no hidden transcript separates. */
  readonly unseparated?: readonly [string, string];
  /** Programs making both that look like one making only `looksLike` on every hidden transcript. */
  readonly masked?: readonly { readonly both: readonly [string, string]; readonly looksLike: string }[];
}

export interface Adequacy {
  readonly transcripts: readonly string[];
  readonly mistakes: readonly MistakeCoverage[];
  readonly pairs: readonly PairVerdict[];
  /** matrix[i][j]: `separatedBy` of mistakes i and j (in `mistakes` order); null on the diagonal and where not compared. */
  readonly matrix: readonly (readonly (number | null)[])[];
}

type Mistakes = readonly Pick<Mistake, 'id' | 'mutants'>[];

/** Outcomes of every hidden transcript under a set of mutations, cached by the set. */
export function outcomeTable(
  model: ReferenceModel,
  transcripts: readonly Transcript[],
): (mutations: readonly string[]) => readonly Outcome[] {
  const cache = new Map<string, Outcome[]>();
  return (mutations) => {
    const key = [...mutations].sort().join('+');
    let outcomes = cache.get(key);
    if (!outcomes) {
      outcomes = transcripts.map(
        (t) =>
          simulate(
            model,
            t.steps.map((s) => s.command),
            new Set(mutations),
          ).outcome,
      );
      cache.set(key, outcomes);
    }
    return outcomes;
  };
}

export function measureAdequacy(
  model: ReferenceModel,
  mistakes: Mistakes,
  transcripts: readonly Transcript[],
): Adequacy {
  const outcomes = outcomeTable(model, transcripts);
  const names = transcripts.map((t) => t.name);
  const differing = (x: readonly string[], y: readonly string[]): string[] => {
    const ox = outcomes(x);
    const oy = outcomes(y);
    return names.filter((_, i) => !sameOutcome(ox[i]!, oy[i]!));
  };
  // A free-choice mutation (ties at random) answers like the reference: it is caught where it has a choice.
  const free = new Set(model.mutations.filter((m) => m.nondeterministic).map((m) => m.id));
  const choices = (mutation: string): string[] =>
    transcripts
      .filter((t) =>
        simulate(
          model,
          t.steps.map((s) => s.command),
          new Set([mutation]),
        ).steps.some((step) => step.alternatives > 0),
      )
      .map((t) => t.name);
  const coverage: MistakeCoverage[] = mistakes.map((m) => {
    const mutations = m.mutants.map((mutation) => ({
      mutation,
      caughtBy: free.has(mutation) ? choices(mutation) : differing([mutation], []),
    }));
    const caughtBy = names.filter((n) => mutations.some((c) => c.caughtBy.includes(n)));
    return { mistake: m.id, mutations, caughtBy };
  });
  const caught = new Set(
    coverage.flatMap((c) => c.mutations.filter((m) => m.caughtBy.length > 0).map((m) => m.mutation)),
  );
  const pairs: PairVerdict[] = [];
  const matrix: (number | null)[][] = mistakes.map(() => mistakes.map(() => null));
  mistakes.forEach((a, i) =>
    mistakes.slice(i + 1).forEach((b, k) => {
      const j = i + 1 + k;
      let separatedBy = Number.POSITIVE_INFINITY;
      let unseparated: [string, string] | undefined;
      const masked: { both: [string, string]; looksLike: string }[] = [];
      // Free-choice mutations are told apart step by step, not by whole outcomes.
      for (const ma of a.mutants.filter((m) => !free.has(m))) {
        for (const mb of b.mutants.filter((m) => !free.has(m))) {
          // Two mutants that are both never caught look like the reference, and that is reported once, per mistake.
          if (!caught.has(ma) && !caught.has(mb)) continue;
          const count = differing([ma], [mb]).length;
          if (count < separatedBy) separatedBy = count;
          if (count === 0 && !unseparated) unseparated = [ma, mb];
          if (caught.has(ma) && caught.has(mb) && ma !== mb) {
            for (const single of [ma, mb]) {
              if (differing([ma, mb], [single]).length === 0) masked.push({ both: [ma, mb], looksLike: single });
            }
          }
        }
      }
      const n = Number.isFinite(separatedBy) ? separatedBy : null;
      matrix[i]![j] = n;
      matrix[j]![i] = n;
      pairs.push({
        mistakes: [a.id, b.id],
        separatedBy: n,
        ...(unseparated ? { unseparated } : {}),
        ...(masked.length > 0 ? { masked } : {}),
      });
    }),
  );
  return { transcripts: names, mistakes: coverage, pairs, matrix };
}

export interface SearchOptions {
  readonly seed: number;
  /** How many generated transcripts to try. */
  readonly tries?: number;
  readonly maxLength?: number;
}

/**
 * A transcript that makes `differ` true, found by seeded search over the model's generated transcripts
 * and shrunk with ddmin, printed in the transcript file format with the reference's answers so that
 * the author can paste it. Undefined when no generated transcript works.
 */
export async function proposeTranscript(
  model: ReferenceModel,
  differ: (commands: readonly string[]) => boolean,
  name: string,
  description: string,
  options: SearchOptions,
): Promise<string | undefined> {
  const random = seededRandom(options.seed);
  const tries = options.tries ?? 3000;
  const maxLength = options.maxLength ?? 24;
  for (let i = 0; i < tries; i++) {
    const commands = model.generate(random, 2 + random.int(maxLength - 1));
    if (!differ(commands)) continue;
    const shrunk = await shrinkCommands(
      commands,
      async (lists) => lists.map((list) => list.length > 0 && differ(list)),
      undefined,
      commandFits(model),
    );
    const reference = simulate(model, shrunk);
    return formatTranscript({
      name,
      description,
      steps: reference.steps.map((s, k) => ({ command: s.command, expected: s.answer, line: k + 1 })),
    });
  }
  return undefined;
}

/** `differ` for "these two mutation sets give different outcomes". */
export function separates(
  model: ReferenceModel,
  x: readonly string[],
  y: readonly string[],
): (commands: readonly string[]) => boolean {
  return (commands) =>
    !sameOutcome(simulate(model, commands, new Set(x)).outcome, simulate(model, commands, new Set(y)).outcome);
}

/** A transcript name not already used in the pack. */
export function freshName(base: string, taken: readonly string[]): string {
  const clean =
    base
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^-+/, '')
      .slice(0, 60) || 'proposed';
  if (!taken.includes(clean)) return clean;
  for (let i = 2; ; i++) if (!taken.includes(`${clean}-${i}`)) return `${clean}-${i}`;
}
