/** What a search for a fix found: a verified fix, or a plain no. The CLI's `--json` `repair` field. */

export interface Verified {
  /** Hidden transcripts the fixed file passes: all of them. */
  readonly hidden: number;
  /** Generated (random) transcripts it passes, over both seeds. */
  readonly generated: number;
  readonly seeds: readonly number[];
}

export interface RepairFound {
  /** The mistake ids the fix is for, as the report named them. */
  readonly mistake: string;
  /** A unified diff against the learner's file (`patch -p0` and `git apply -p0` take it from the file's folder). */
  readonly patch: string;
  /** 1-based lines of the learner's file the fix changes. */
  readonly changedLines: readonly number[];
  readonly verified: Verified;
  /** What the edits do, in words. */
  readonly edit: string;
  readonly searchMs: number;
  /** Candidates run (each one process run on every transcript). */
  readonly candidates: number;
}

export interface RepairNotFound {
  readonly mistake: string;
  readonly patch: null;
  /** Why there is no fix to show, in words. */
  readonly reason: string;
  readonly searchMs: number;
  readonly candidates: number;
}

export type RepairResult = RepairFound | RepairNotFound;

export function isFound(result: RepairResult): result is RepairFound {
  return result.patch !== null;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** "passes all 16 hidden transcripts and 80 random tests (seeds 1 and 2)". */
export function verifiedText(verified: Verified): string {
  const hidden = verified.hidden === 1 ? 'the hidden transcript' : `all ${verified.hidden} hidden transcripts`;
  const seeds = verified.seeds.length ? ` (seeds ${verified.seeds.join(' and ')})` : '';
  return `passes ${hidden} and ${plural(verified.generated, 'random test')}${seeds}`;
}

/** The sentence above the diff, or the plain no. */
export function repairSentence(result: RepairResult): string {
  if (!isFound(result)) return `No fix found that passes every test: ${result.reason}`;
  const lines = result.changedLines;
  const where = lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.join(', ')}`;
  return `A fix to your file (${where}) that ${verifiedText(result.verified)}, checked in the sandbox:`;
}
