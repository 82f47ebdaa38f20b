/**
 * Delta debugging (Zeller's ddmin) over commands, then over each command's arguments.
 * `holds` tests many candidates at once so that the caller can run them in one process. Only the first candidate
 * that holds is ever taken, so `holds` may say false for every candidate after it (a caller that runs them stops
 * there).
 * `fits` keeps shrinking inside the protocol: an argument is dropped only where the command still fits
 * (model/grammar.ts: `LIMIT 1 5` never becomes `LIMIT 1`). Dropping whole commands keeps every command as it was.
 */
export type BatchPredicate = (candidates: readonly (readonly string[])[]) => Promise<readonly boolean[]>;

function chunksOf<T>(items: readonly T[], n: number): T[][] {
  const chunks: T[][] = [];
  const size = Math.ceil(items.length / n);
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

export type CommandFits = (command: string) => boolean;

/**
 * The shortest list that still holds. With `everySubsetUpTo`, for a caller whose candidates share a process at no
 * cost: every granularity in one call, then every smaller list of a short one in one call (shrinkTogether); `seeds`
 * (shorter lists found otherwise, that may hold) are asked in the first call beside them, and one that holds there is
 * taken as it is: it is as short as its own shrinking made it (the model's, confirm.ts).
 */
export async function shrinkCommands(
  commands: readonly string[],
  holds: BatchPredicate,
  maxRounds = 60,
  fits: CommandFits = () => true,
  everySubsetUpTo = 0,
  seeds: readonly (readonly string[])[] = [],
): Promise<string[]> {
  // Dropping an argument can make a command droppable again (and the other way round): repeat to a fixpoint.
  let current = [...commands];
  // maxRounds bounds every call of `holds`, over all passes: each call may cost a process run.
  let left = maxRounds;
  const counted: BatchPredicate = async (lists) => (left-- > 0 ? holds(lists) : lists.map(() => false));
  if (everySubsetUpTo > 0) {
    // A short list's seeds are asked with its every subset; a longer one's with its every granularity.
    const short = current.length <= everySubsetUpTo;
    const few = short ? current : await dropAtEveryGranularity(current, counted, everySubsetUpTo, seeds);
    if (seeds.includes(few)) return [...few];
    return shrinkTogether(few, counted, fits, everySubsetUpTo, short ? seeds : []);
  }
  for (let pass = 0; pass < 3 && left > 0; pass++) {
    const fewer = await dropCommands(current, counted, left);
    // The same commands as the last pass ended with: their arguments were shrunk to a fixpoint there.
    if (pass > 0 && sameList(fewer, current)) break;
    const next = await shrinkArguments(fewer, counted, left, fits);
    // No argument dropped: the commands are as few as the pass left them.
    const settled = sameList(next, fewer);
    if (sameList(next, current)) break;
    current = next;
    if (settled) break;
  }
  return current;
}

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((c, i) => c === b[i]);

/** ddmin over whole commands, a call per granularity: for a caller whose candidates do not share a process. */
async function dropCommands(commands: readonly string[], holds: BatchPredicate, maxRounds: number): Promise<string[]> {
  let current = [...commands];
  let n = 2;
  let rounds = 0;
  while (current.length >= 2 && rounds++ < maxRounds) {
    const chunks = chunksOf(current, n);
    const complements = chunks.map((_, i) => chunks.filter((__, j) => j !== i).flat());
    const candidates = n === 2 ? chunks : [...chunks, ...complements];
    const verdicts = await holds(candidates);
    const subset = chunks.findIndex((_, i) => verdicts[i]);
    if (subset >= 0) {
      current = chunks[subset]!;
      n = 2;
      continue;
    }
    const complement = n === 2 ? -1 : complements.findIndex((_, i) => verdicts[chunks.length + i]);
    if (complement >= 0) {
      current = complements[complement]!;
      n = Math.max(n - 1, 2);
      continue;
    }
    if (n >= current.length) break;
    n = Math.min(n * 2, current.length);
  }
  return current;
}

/**
 * ddmin's candidates at every granularity at once (halves, quarters, ... single commands, and each one's
 * complement), the shortest first, until the list is `upTo` commands or fewer or none holds: where candidates share
 * a process, one call instead of one per granularity.
 */
async function dropAtEveryGranularity(
  commands: readonly string[],
  holds: BatchPredicate,
  upTo: number,
  seeds: readonly (readonly string[])[],
): Promise<readonly string[]> {
  let current: readonly string[] = [...commands];
  let extra = seeds.filter((seed) => seed.length < commands.length);
  while (current.length > upTo) {
    const seen = new Set<string>();
    const candidates: (readonly string[])[] = [...extra];
    extra = [];
    for (let n = 2; ; n = Math.min(n * 2, current.length)) {
      const chunks = chunksOf(current, n);
      const complements = chunks.map((_, i) => chunks.filter((__, j) => j !== i).flat());
      for (const c of [...chunks, ...complements, ...farApart(chunks)])
        if (c.length > 0 && c.length < current.length && !seen.has(c.join('\n'))) {
          seen.add(c.join('\n'));
          candidates.push(c);
        }
      if (n >= current.length) break;
    }
    candidates.sort((a, b) => a.length - b.length);
    const first = (await holds(candidates)).findIndex(Boolean);
    if (first < 0) break;
    current = candidates[first]!;
    if (seeds.includes(current)) return current;
  }
  return current;
}

/** Chunks few enough that every pair of them is a candidate (120 pairs of 16), and every triple (56 of 8). */
const MAX_CHUNKS_PAIRED = 16;
const MAX_CHUNKS_TRIPLED = 8;

/**
 * For failures that need commands far apart (a pool, a backend taken out, brought back, then the pick): two chunks
 * dropped at once, and two or three chunks kept alone, where there are few enough chunks (triples of more than eight
 * would be hundreds of candidates that a call's pairs mostly reach anyway). One call then reaches a
 * list that ddmin's halves reach only a call or two later.
 */
function farApart(chunks: readonly string[][]): string[][] {
  if (chunks.length > MAX_CHUNKS_PAIRED) return [];
  const [droppedTwo, keptTwo, keptThree]: string[][][] = [[], [], []];
  const n = chunks.length;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      droppedTwo.push(chunks.filter((_, k) => k !== i && k !== j).flat());
      keptTwo.push([...chunks[i]!, ...chunks[j]!]);
      if (n <= MAX_CHUNKS_TRIPLED)
        for (let k = j + 1; k < n; k++) keptThree.push([...chunks[i]!, ...chunks[j]!, ...chunks[k]!]);
    }
  return [...droppedTwo, ...keptTwo, ...keptThree];
}

/** Every non-empty subset of `items` but itself, in order, the smallest first. */
function properSubsets<T>(items: readonly T[]): T[][] {
  const subsets: T[][] = [];
  for (let mask = 1; mask < (1 << items.length) - 1; mask++) subsets.push(items.filter((_, i) => (mask >> i) & 1));
  return subsets.sort((a, b) => a.length - b.length);
}

/** Candidates one call may carry when they share a process: the smallest first, the rest wait for the next call. */
const MAX_TOGETHER = 1024;

/**
 * Where candidates share a process without cost: every smaller list in one call (every subset of the commands, when
 * there are `upTo` or fewer, and every argument drop; where the call has room, each subset's argument drops too),
 * the smallest first, and again from the first that holds until none does. A list asked once is not asked again: the
 * call after a subset held asks only what was left unasked, often nothing. Each call takes a whole step ddmin and
 * argument drops would take one call each for, and the last call, where nothing holds, shows both that no command and
 * that no argument can go.
 */
async function shrinkTogether(
  commands: readonly string[],
  holds: BatchPredicate,
  fits: CommandFits,
  upTo: number,
  seeds: readonly (readonly string[])[],
): Promise<string[]> {
  let current = [...commands];
  const asked = new Set<string>();
  let extra = seeds.filter((seed) => seed.length < commands.length);
  for (;;) {
    const candidates = unaskedSmaller(current, extra, fits, upTo, asked);
    if (candidates.length === 0) return current;
    for (const list of candidates) asked.add(list.join('\n'));
    const first = (await holds(candidates)).findIndex(Boolean);
    if (first < 0) return current;
    const held = candidates[first]!;
    // A seed that holds is taken as it is (see shrinkCommands).
    if (extra.includes(held)) return [...held];
    extra = [];
    current = [...held];
  }
}

/**
 * The next call's candidates, less those asked before, the smallest first (fewest commands, then fewest words):
 * `extra`, the subsets of a list of `upTo` commands or fewer, the list's argument drops (at most MAX_TOGETHER of
 * these); then, while there is room, each subset's own argument drops, the shortest subsets first.
 */
function unaskedSmaller(
  current: readonly string[],
  extra: readonly (readonly string[])[],
  fits: CommandFits,
  upTo: number,
  asked: ReadonlySet<string>,
): (readonly string[])[] {
  const seen = new Set(asked);
  const unasked = (list: readonly string[]): boolean => {
    const key = list.join('\n');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  const subsets = current.length <= upTo ? properSubsets(current) : [];
  const chosen = smallestFirst(
    [...extra, ...subsets, ...argumentCandidates(current, fits, true)].filter(unasked),
  ).slice(0, MAX_TOGETHER);
  for (const subset of subsets) {
    const drops = argumentCandidates(subset, fits, true).filter(unasked);
    if (chosen.length + drops.length > MAX_TOGETHER) break;
    chosen.push(...drops);
  }
  return smallestFirst(chosen);
}

function smallestFirst(lists: readonly (readonly string[])[]): (readonly string[])[] {
  const size = (list: readonly string[]): number => list.join(' ').split(/\s+/).length;
  return lists
    .map((list, order) => ({ list, order, size: size(list) }))
    .sort((a, b) => a.list.length - b.list.length || a.size - b.size || a.order - b.order)
    .map((c) => c.list);
}

/**
 * The commands after `index` that name `name`, up to the next command of the same verb (the next list of the
 * pool, which lists its own names): once the pool no longer lists a backend, the commands for it are about a
 * stranger.
 */
function withoutCommandsNaming(commands: readonly string[], index: number, name: string): string[] {
  const verb = commands[index]!.split(/\s+/)[0];
  const next = commands.findIndex((c, k) => k > index && c.split(/\s+/)[0] === verb);
  const end = next < 0 ? commands.length : next;
  return commands.filter((c, k) => k <= index || k >= end || !c.split(/\s+/).slice(1).includes(name));
}

/**
 * Drops single arguments (e.g. one name of a list) while the failure still holds: a pool keeps the fewest
 * backends that still fail. Each name is tried first with the later commands that name it (a finished request for a
 * backend no longer in the pool), then alone.
 */
async function shrinkArguments(
  commands: string[],
  holds: BatchPredicate,
  rounds: number,
  fits: CommandFits,
): Promise<string[]> {
  let current = commands;
  for (let round = 0; round < Math.max(rounds, 1); round++) {
    const candidates = argumentCandidates(current, fits, false);
    if (candidates.length === 0) break;
    const verdicts = await holds(candidates);
    const first = verdicts.findIndex(Boolean);
    if (first < 0) break;
    current = candidates[first]!;
  }
  return current;
}

/** The list with arguments dropped, in order of the commands: each drop with the later commands naming what went, then without. */
function argumentCandidates(current: readonly string[], fits: CommandFits, several: boolean): string[][] {
  const candidates: string[][] = [];
  current.forEach((command, index) => {
    const [verb, ...args] = command.split(/\s+/);
    if (args.length < 2) return;
    for (const dropped of argumentDrops(args.length, several)) {
      const shorter = [verb, ...args.filter((__, k) => !dropped.includes(k))].join(' ');
      if (!fits(shorter)) continue;
      const next = [...current];
      next[index] = shorter;
      const alsoNaming = dropped.reduce((list, k) => withoutCommandsNaming(list, index, args[k]!), next);
      if (alsoNaming.length < next.length) candidates.push(alsoNaming);
      candidates.push(next);
    }
  });
  return candidates;
}

/**
 * Which arguments of a command to try without, each a list of indexes: one at a time, or (`several`, where the
 * candidates share a process) every proper subset of up to eight, the most dropped first.
 */
function argumentDrops(count: number, several: boolean): number[][] {
  const singles = Array.from({ length: count }, (_, k) => [k]);
  if (!several || count > 8) return singles;
  const drops: number[][] = [];
  for (let mask = 1; mask < (1 << count) - 1; mask++)
    drops.push(Array.from({ length: count }, (_, k) => k).filter((k) => (mask >> k) & 1));
  return drops.sort((a, b) => b.length - a.length);
}
