/**
 * Sharding a class across machines (`grade --shard i/N`, merged by `grade --merge`). A student's shard
 * depends on their name alone (FNV-1a of the name, mod N), not on who else is in the roster: a job that
 * clones only its shard's repositories and grades them with the same --shard keeps them all, and the N
 * shards of any roster hold each student exactly once.
 */
export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

/** "2/3" → { index: 2, count: 3 }; a sentence saying what is wrong otherwise. */
export function parseShard(text: string): Shard | string {
  const match = /^(\d{1,3})\/(\d{1,3})$/.exec(text.trim());
  const index = match ? Number(match[1]) : NaN;
  const count = match ? Number(match[2]) : NaN;
  if (!match || count < 1 || index < 1 || index > count)
    return `--shard takes i/N with 1 ≤ i ≤ N ≤ 999 (e.g. 2/3), not "${text}"`;
  return { index, count };
}

/** The shard (1-based) of a student among `count`. */
export function shardOfStudent(student: string, count: number): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(student)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return (hash % count) + 1;
}

export function inShard(student: string, shard: Shard | null): boolean {
  return shard === null || shardOfStudent(student, shard.count) === shard.index;
}
