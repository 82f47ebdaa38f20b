/**
 * The bounded search: single edits cheapest first, run two at a time, in rounds: after each round's singles,
 * edits on top of the ones that brought the answers closest (a compound mistake: a tie and a floor). Stops at
 * the first candidate that passes the batch and that the verifier accepts, or at the time or candidate bound.
 */
import type { Language } from '../../core/pack/schema';
import { combine, localPairs, singleEdits, type Candidate, type RepairTarget } from '../../core/repair/plan';
import { applyEdits, type ParsedFile } from '../../core/repair/tree';
import type { CandidateRun, CandidateRunner } from './candidateRunner';
import { parsesCleanly } from './parser';

export interface SearchBounds {
  readonly timeMs: number;
  readonly candidates: number;
  /**
   * Candidates run with none of them bringing the answers closer than the learner's own program: then the search
   * stops. Once one has come closer (half of a compound fix, say), the other bounds hold.
   */
  readonly stall: number;
  /** Candidates run at once (the machine's cores, at most 2). */
  readonly concurrency: number;
}

export const DEFAULT_BOUNDS: SearchBounds = { timeMs: 20_000, candidates: 200, stall: 80, concurrency: 2 };

/**
 * The search goes in rounds: the next singles, cheapest first, then edits on top of the candidates that brought
 * the answers closest so far (a compound mistake: a tie and a floor; on top of a pair, a third edit). Short
 * rounds put a compound fix's pairs early, instead of after every one of the many singles.
 */
const SINGLES_PER_ROUND = 16;
const BASES = 3;
const PAIRS_PER_BASE = 16;
const LOCAL_PAIRS = 6;
/** The most single edits that came closer merged into one candidate. */
const MERGED = 4;

export interface Searched {
  readonly found?: { readonly candidate: Candidate; readonly source: string };
  readonly runs: number;
  readonly stoppedBy?: 'time' | 'candidates' | 'stalled';
}

interface Tried {
  readonly candidate: Candidate;
  readonly run: CandidateRun;
}

export async function searchFix(
  file: ParsedFile,
  targets: readonly RepairTarget[],
  runner: Pick<CandidateRunner, 'run'>,
  /** The learner file's own wrong lines: a promise, so its run goes beside the first candidates' (fewer waits). */
  baselineWrong: number | Promise<number>,
  verify: (source: string, run: CandidateRun) => Promise<boolean>,
  bounds: SearchBounds,
  clock: () => number = () => performance.now(),
): Promise<Searched> {
  const started = clock();
  const singles = singleEdits(file, targets);
  const seen = new Set<string>([file.source]);
  const tried: Tried[] = [];
  let runs = 0;
  let stoppedBy: Searched['stoppedBy'];
  // Whether any candidate has come closer (fewer wrong answer lines) than the learner's own program.
  let cameCloser = false;

  const runAll = async (candidates: readonly Candidate[]): Promise<Searched['found']> => {
    const queue = [...candidates];
    while (queue.length) {
      if (runs >= bounds.candidates) return void (stoppedBy = 'candidates');
      if (clock() - started > bounds.timeMs) return void (stoppedBy = 'time');
      if (!cameCloser && runs >= bounds.stall) return void (stoppedBy = 'stalled');
      const chunk = await nextChunk(queue, file.language, file.source, seen, bounds.concurrency);
      const results = await Promise.all(chunk.map(async (c) => ({ ...c, run: await runner.run(c.source) })));
      runs += results.length;
      const baseline = await baselineWrong;
      for (const result of results) {
        tried.push(result);
        cameCloser ||= result.run.wrongLines < baseline;
        if (result.run.passes && (await verify(result.source, result.run)))
          return { candidate: result.candidate, source: result.source };
      }
    }
    return undefined;
  };

  const extended = new Set<Candidate>();
  const result = (found: Searched['found']): Searched => ({
    ...(found ? { found } : {}),
    runs,
    ...(stoppedBy ? { stoppedBy } : {}),
  });
  for (let offset = 0; ; offset += SINGLES_PER_ROUND) {
    const round = singles.slice(offset, offset + SINGLES_PER_ROUND);
    const single = await runAll(round);
    if (single || stoppedBy) return result(single);
    // Every edit that came closer, merged (each may undo one of several mistakes): two, three and four of them.
    const merged = await runAll(mergedImprovements(tried, await baselineWrong));
    if (merged || stoppedBy) return result(merged);
    const bases = closest(tried, await baselineWrong, extended);
    for (const base of bases) extended.add(base);
    const pairs = bases
      .flatMap((base) => singles.slice(0, PAIRS_PER_BASE).flatMap((next) => combine(base, next) ?? []))
      .sort((a, b) => a.cost - b.cost);
    // In the first round, pairs of the cheapest edits too, whose halves may each change nothing alone.
    const local = offset === 0 ? localPairs(singles, LOCAL_PAIRS) : [];
    const paired = await runAll([...pairs, ...local].sort((a, b) => a.cost - b.cost));
    if (paired || stoppedBy) return result(paired);
    if (round.length === 0 && pairs.length === 0) return result(undefined);
  }
}

/**
 * The single edits that brought the answers closer, best first, merged greedily where they do not overlap: the
 * first two, three and four of them. A program with three mistakes (a tie, a floor, a reset) has its three halves
 * tried as one candidate as soon as each has come closer alone, not after every pair.
 */
function mergedImprovements(tried: readonly Tried[], baselineWrong: number): Candidate[] {
  const better = tried
    .filter((t) => t.candidate.operators.length === 1 && t.run.wrongLines < baselineWrong)
    .sort((a, b) => a.run.wrongLines - b.run.wrongLines || a.candidate.cost - b.candidate.cost);
  const out: Candidate[] = [];
  let merged: Candidate | undefined;
  for (const { candidate } of better) {
    const next: Candidate | undefined = merged ? combine(merged, candidate) : candidate;
    if (!next) continue;
    merged = next;
    if (merged.operators.length >= 2) out.push(merged);
    if (merged.operators.length === MERGED) break;
  }
  return out;
}

/** The candidates that brought the answers closest to a passing run's, best first, not yet built on. */
function closest(tried: readonly Tried[], baselineWrong: number, extended: ReadonlySet<Candidate>): Candidate[] {
  return tried
    .filter((t) => t.run.wrongLines < baselineWrong && !extended.has(t.candidate))
    .sort((a, b) => a.run.wrongLines - b.run.wrongLines || a.candidate.cost - b.candidate.cost)
    .slice(0, BASES)
    .map((t) => t.candidate);
}

/** The next candidates to run: each edit applied, new, and parsing cleanly (a candidate that does not is never run). */
async function nextChunk(
  queue: Candidate[],
  language: Language,
  source: string,
  seen: Set<string>,
  size: number,
): Promise<{ candidate: Candidate; source: string }[]> {
  const chunk: { candidate: Candidate; source: string }[] = [];
  while (queue.length && chunk.length < size) {
    const candidate = queue.shift()!;
    const edited = applyEdits(source, candidate.edits);
    if (edited === undefined || seen.has(edited)) continue;
    seen.add(edited);
    if (!(await parsesCleanly(language, edited))) continue;
    chunk.push({ candidate, source: edited });
  }
  return chunk;
}
