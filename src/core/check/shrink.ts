/**
 * Delta debugging (Zeller's ddmin) over commands, then over each command's arguments.
 * `holds` tests many candidates at once so that the caller can run them in one process.
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

export async function shrinkCommands(
  commands: readonly string[],
  holds: BatchPredicate,
  maxRounds = 60,
  fits: CommandFits = () => true,
): Promise<string[]> {
  // Dropping an argument can make a command droppable again (and the other way round): repeat to a fixpoint.
  let current = [...commands];
  // maxRounds bounds every call of `holds`, over all passes: each call may cost a process run.
  let left = maxRounds;
  const counted: BatchPredicate = async (lists) => (left-- > 0 ? holds(lists) : lists.map(() => false));
  for (let pass = 0; pass < 3 && left > 0; pass++) {
    const next = await shrinkOnce(current, counted, left, fits);
    if (next.length === current.length && next.every((c, i) => c === current[i])) break;
    current = next;
  }
  return current;
}

async function shrinkOnce(
  commands: readonly string[],
  holds: BatchPredicate,
  maxRounds: number,
  fits: CommandFits,
): Promise<string[]> {
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
  return shrinkArguments(current, holds, maxRounds - rounds, fits);
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
    const candidates: string[][] = [];
    current.forEach((command, index) => {
      const [verb, ...args] = command.split(/\s+/);
      if (args.length < 2) return;
      args.forEach((name, drop) => {
        const shorter = [verb, ...args.filter((__, k) => k !== drop)].join(' ');
        if (!fits(shorter)) return;
        const next = [...current];
        next[index] = shorter;
        const alsoNaming = withoutCommandsNaming(next, index, name);
        if (alsoNaming.length < next.length) candidates.push(alsoNaming);
        candidates.push(next);
      });
    });
    if (candidates.length === 0) break;
    const verdicts = await holds(candidates);
    const first = verdicts.findIndex(Boolean);
    if (first < 0) break;
    current = candidates[first]!;
  }
  return current;
}
