/** The transcripts a check runs: the pack's hidden ones and seeded generated ones. */
import { commandFits } from '../model/grammar';
import type { ReferenceModel } from '../model/model';
import { seededRandom } from '../model/random';
import type { LessonManifest } from '../pack/schema';
import { simulate, type Outcome } from '../model/simulate';
import type { Transcript } from '../model/transcript';

export interface Case {
  readonly name: string;
  /** In the learner's words: the hidden transcript's description, or "a random test (#24)". */
  readonly label: string;
  readonly commands: readonly string[];
  readonly expected: Outcome;
  readonly hidden: boolean;
}

export const DEFAULT_FUZZ_TRANSCRIPTS = 40;
export const DEFAULT_FUZZ_LENGTH = 16;

/** A seed that is the same for every check of a pack version, so a report reproduces by default. */
export function defaultSeed(manifest: Pick<LessonManifest, 'id' | 'version'>): number {
  let hash = 2166136261;
  for (const c of `${manifest.id}@${manifest.version}`) hash = Math.imul(hash ^ c.charCodeAt(0), 16777619) >>> 0;
  return hash;
}

export function hiddenCases(transcripts: readonly Transcript[]): Case[] {
  return transcripts.map((t) => ({
    name: t.name,
    label: t.description || t.name,
    commands: t.steps.map((s) => s.command),
    expected: { lines: t.steps.flatMap((s) => s.expected), ending: 'finished' },
    hidden: true,
  }));
}

/** Generated transcripts keep only the commands inside the model's grammar, when it declares one. */
export function generatedCases(model: ReferenceModel, seed: number, count: number, length: number): Case[] {
  const random = seededRandom(seed);
  const fits = commandFits(model);
  return Array.from({ length: count }, (_, i) => {
    const commands = model.generate(random, 2 + random.int(Math.max(length - 1, 1))).filter(fits);
    return {
      name: `generated-${i + 1}`,
      label: `a random test (#${i + 1})`,
      commands,
      expected: simulate(model, commands).outcome,
      hidden: false,
    };
  });
}

/** Runs `fn` over `items`, at most `limit` at a time (the machine's cores), keeping the order of results. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  });
  await Promise.all(workers);
  return results;
}
