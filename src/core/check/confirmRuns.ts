/**
 * How the confirm phase runs the program (confirm.ts): the shrinker's candidates, together where the program
 * and the pack allow it, and a shown run with its observed twin.
 */
import { allStartClean, leavesStateBehind, runBatch, startsClean, type Stream } from './batch';
import type { Case } from './cases';
import { mapLimit } from './cases';
import { withObserve } from './counterexample';
import type { Finding } from '../diagnosis/diagnose';
import type { ReferenceModel } from '../model/model';
import type { Execute } from './process';
import { segmentAnswers } from '../model/segment';
import { sameOutcome, type Outcome } from '../model/simulate';

export interface ConfirmContext {
  readonly model: ReferenceModel;
  readonly execute: Execute;
  readonly cases: readonly Case[];
  readonly streams: readonly Stream[];
  /** Two fresh runs answered differently: every confirmation is a fresh run, and may need another try. */
  readonly random: boolean;
  /** State carries across the reset command: candidates cannot share a process. */
  readonly leaky: boolean;
  /**
   * The pack's own reset keeps something (batch.ts, `resetCarriesOver`): a candidate after another in one
   * process may differ only by what the one before set. What is shown runs alone, unless every list of its process
   * starts clean in the model and the probe saw the program keep nothing else (canShare); the shrinker still
   * batches its candidates, and confirms alone the one it would take, on the same condition.
   */
  readonly carriesOver?: boolean;
  /**
   * The probe ran a transcript twice in one process and after the others, and the program answered it the same:
   * it keeps nothing across the reset that the model does not. A list the model says starts clean in a shared
   * process then ran as if alone.
   */
  readonly resetKeepsNothingElse?: boolean;
  /**
   * The probe's fresh runs of a transcript answered alike: where the program makes a free choice, it follows a
   * rule of its own (confirm.ts keeps the choice it was seen to make when it shrinks).
   */
  readonly fixedChoices?: boolean;
  readonly concurrency: number;
  readonly replay?: (stdin: string) => string;
  /** Process runs the fallback shrinking may spend per finding. */
  readonly maxShrinkRounds: number;
  /**
   * The program ended a process before its input ended (a crash, an exit): each candidate that ends it costs a
   * process more. Unknown is taken as yes.
   */
  readonly endsEarly?: boolean;
  /**
   * Told of a finding's first candidate as it is run to confirm it, when a core is spare beside that run: the
   * traced run that locates the mistake can go beside it (check.ts `traceAheadFor`).
   */
  readonly beside?: (finding: Finding, commands: readonly string[]) => void;
  /**
   * Candidates the probe's batch replay already ran, each after its observed twin, as if alone (probeCompare.ts
   * `RanAhead`), by their commands joined with newlines: the first tries need no process of their own.
   */
  readonly ranAhead?: ReadonlyMap<string, RunOfCandidate>;
}

/** Commands in a list whose every subset the shrinker tries at once, when they share one process. */
const EVERY_SUBSET_UP_TO = 8;

/** Runs each candidate (and its observed twin) for real; one process for all when the program allows it. */
export async function runCandidates(
  ctx: ConfirmContext,
  candidates: readonly (readonly string[])[],
): Promise<{ plain: Outcome; observed: Outcome | undefined }[]> {
  const observe = ctx.model.observeCommand !== undefined;
  // A random program is run with the observe command in the same run, so the counts shown belong to the very
  // run whose answers are shown.
  if (observe && ctx.random) return mapLimit(candidates, ctx.concurrency, (c) => interleavedAlone(ctx, c));
  const shareAProcess = !ctx.leaky && !ctx.carriesOver;
  // Where the pack's reset keeps a setting, the observed twin and the plain run share a process only when the
  // model says the twin leaves nothing behind; their answers must agree there in any case.
  const twinFirst = (c: readonly string[]): boolean =>
    !ctx.leaky && (!ctx.carriesOver || startsClean(ctx.model, [withObserve(ctx.model, c), c])[1] === true);
  if (observe && candidates.every(twinFirst))
    return mapLimit(candidates, ctx.concurrency, (c) => observedThenPlain(ctx, c));
  if (shareAProcess) {
    const { outcomes } = await runBatch(ctx.model, ctx.execute, candidates);
    return candidates.map((_, i) => ({ plain: outcomes[i]!, observed: undefined }));
  }
  // Fresh processes only, the counts in one of their own.
  return mapLimit(candidates, ctx.concurrency, async (c) => {
    const [plain, observed] = await Promise.all([
      runBatch(ctx.model, ctx.execute, [c]).then((r) => r.outcomes[0]!),
      observe
        ? runBatch(ctx.model, ctx.execute, [withObserve(ctx.model, c)]).then((r) => r.outcomes[0]!)
        : Promise.resolve(undefined),
    ]);
    return { plain, observed };
  });
}

/** Each candidate's run: the probe's where it ran ahead (ctx.ranAhead), the others run now (runCandidates). */
export async function runCandidatesAhead(
  ctx: ConfirmContext,
  candidates: readonly (readonly string[])[],
): Promise<{ plain: Outcome; observed: Outcome | undefined }[]> {
  const ahead = candidates.map((c) => ctx.ranAhead?.get(c.join('\n')));
  const missing = candidates.filter((_, i) => !ahead[i]);
  const ran = missing.length > 0 ? await runCandidates(ctx, missing) : [];
  let k = 0;
  return candidates.map((_, i) => ahead[i] ?? ran[k++]!);
}

/**
 * The candidates' runs from a process of the probe's (ctx.ranAhead): `ranAhead` pairs each list with the observed
 * twin before it, as `runSharing` runs them. Only the pairs that answered alike are kept.
 */
export function runsAhead(
  model: ReferenceModel,
  lists: readonly (readonly string[])[],
  outcomes: readonly Outcome[],
): Map<string, RunOfCandidate> {
  const runs = new Map<string, RunOfCandidate>();
  for (let k = 0; k + 1 < lists.length; k += 2) {
    const run = twinAndPlain(model, lists[k + 1]!, outcomes[k]!, outcomes[k + 1]!);
    if (run) runs.set(lists[k + 1]!.join('\n'), run);
  }
  return runs;
}

/**
 * Candidates, each with its observed twin, in one process: [twin 1, 1, twin 2, 2, …]. Only where the program keeps
 * nothing across the reset (the probe saw it) and the model says each list starts clean there; undefined where
 * they cannot share one. A candidate whose plain run is not its twin's answers, or was not reached (an earlier one
 * ended the process), gets undefined.
 */
export async function runSharing(
  ctx: ConfirmContext,
  candidates: readonly (readonly string[])[],
): Promise<(RunOfCandidate | undefined)[] | undefined> {
  if (!canShare(ctx, candidates)) return undefined;
  const lists = candidates.flatMap((c) => [withObserve(ctx.model, c), c]);
  const { outcomes } = await runBatch(ctx.model, ctx.execute, lists, { maxRuns: 1 });
  return candidates.map((c, k) => twinAndPlain(ctx.model, c, outcomes[2 * k]!, outcomes[2 * k + 1]!));
}

/**
 * Whether `runSharing` would run these candidates in one process (else it runs nothing). Where the pack's reset
 * keeps a setting, a list the model says starts clean (no setting left, or its first command sets it again) runs
 * there as if alone all the same: the program keeps nothing else (the probe saw it).
 */
export function canShare(ctx: ConfirmContext, candidates: readonly (readonly string[])[]): boolean {
  return runAsIfAlone(
    ctx,
    candidates.flatMap((c) => [withObserve(ctx.model, c), c]),
  );
}

/** Whether each of these lists, run one after another in one process, answers there as it would alone. */
function runAsIfAlone(ctx: ConfirmContext, lists: readonly (readonly string[])[]): boolean {
  if (ctx.model.observeCommand === undefined || ctx.leaky || ctx.random) return false;
  if (!ctx.resetKeepsNothingElse) return false;
  return allStartClean(ctx.model, lists);
}

/**
 * The candidate's run as its twin and plain run in one process showed it. A twin that ended the process at the
 * candidate's first command, before any observe command ran, is the plain run too (as in `observedThenPlain`).
 */
function twinAndPlain(
  model: ReferenceModel,
  c: readonly string[],
  observed: Outcome,
  plain: Outcome,
): RunOfCandidate | undefined {
  if (observed.ending === 'not-run') return undefined;
  const apart = answersApart(model, c, observed);
  if (plain.ending === 'not-run')
    return apart.lines.length === 0 && observed.lines.length === 0 && apart.ending !== 'finished'
      ? { plain: apart, observed }
      : undefined;
  return sameOutcome(plain, apart) ? { plain, observed } : undefined;
}

export type RunOfCandidate = { plain: Outcome; observed: Outcome };

/** One fresh run of the candidate with the observe command after each of its commands, and its answers apart. */
async function interleavedAlone(
  ctx: ConfirmContext,
  c: readonly string[],
): Promise<{ plain: Outcome; observed: Outcome }> {
  const run = (await runBatch(ctx.model, ctx.execute, [withObserve(ctx.model, c)])).outcomes[0]!;
  return { plain: answersApart(ctx.model, c, run), observed: run };
}

/** The candidate's own answers in a run of it with the observe command after each command. */
function answersApart(model: ReferenceModel, c: readonly string[], run: Outcome): Outcome {
  const answers = segmentAnswers(model, withObserve(model, c), run.lines, run.ending === 'finished');
  const complete = answers.length >= 2 * c.length;
  return {
    lines: answers.filter((_, k) => k % 2 === 0).flat(),
    ending: complete ? run.ending : run.ending === 'finished' ? 'crashed' : run.ending,
  };
}

/**
 * The candidate with the observe command after each command, in a fresh process (the counts as a fresh run
 * keeps them), then the candidate alone in the same process: one run. Its answers there are taken for a fresh
 * run's only if they are the observed run's, every one: a program that keeps something across the reset (a
 * registry at module level) or whose observe command changes what it answers (one that sorts the program's own
 * list in place) answers otherwise there, and the candidate is run again in a fresh process of its own.
 */
async function observedThenPlain(
  ctx: ConfirmContext,
  c: readonly string[],
): Promise<{ plain: Outcome; observed: Outcome }> {
  const both = await runBatch(ctx.model, ctx.execute, [withObserve(ctx.model, c), c], { maxRuns: 1 });
  const [observed, plain] = [both.outcomes[0]!, both.outcomes[1]!];
  if (plain.ending === 'not-run') {
    // The observed run ended its process. Where it ended at the candidate's first command, no observe command had
    // run: the plain run's input is the same up to there, and so is its answer (a counterexample of one command that
    // crashes costs one process, not two). Anywhere later, the plain run gets a fresh process of its own.
    const apart = answersApart(ctx.model, c, observed);
    if (apart.lines.length === 0 && observed.lines.length === 0 && apart.ending !== 'finished')
      return { plain: apart, observed };
    return { plain: (await runBatch(ctx.model, ctx.execute, [c])).outcomes[0]!, observed };
  }
  if (sameOutcome(plain, answersApart(ctx.model, c, observed))) return { plain, observed };
  return { plain: (await runBatch(ctx.model, ctx.execute, [c])).outcomes[0]!, observed };
}

/**
 * Which of the shrinker's candidate lists it takes: the first that holds (`holds` on the program's run of each),
 * said to hold, and no other. One process for all when the program allows it. When the pack's reset keeps a
 * setting, a list may hold only after the one before it in that process: the lists that leave a setting behind
 * run last, and those that held together are run alone, the shortest first, until one holds alone; only that one
 * is said to hold.
 */
export async function candidatesHolding(
  ctx: ConfirmContext,
  lists: readonly (readonly string[])[],
  holds: (list: readonly string[], run: Outcome) => boolean,
  maxRuns?: number,
): Promise<boolean[]> {
  const alone = async (list: readonly string[]): Promise<Outcome> =>
    (await runBatch(ctx.model, ctx.execute, [list])).outcomes[0]!;
  if (ctx.leaky) return untilFirstHolding(lists, ctx.concurrency, async (l) => holds(l, await alone(l)));
  // Where the pack's reset keeps a setting, the lists that leave one behind run last, so the others start as if alone.
  // (Each list stepped through the model once, not at every comparison of the sort.)
  const leaves = lists.map((list) => ctx.carriesOver === true && leavesStateBehind(ctx.model, list));
  const order = lists.map((_, i) => i).sort((a, b) => Number(leaves[a]) - Number(leaves[b]) || a - b);
  // Each list judged once (a judgement walks the model through the list): the batch's stop asks first.
  const judgedAlready = new Map<number, boolean>();
  const judged = (i: number, outcome: Outcome): boolean => {
    if (!judgedAlready.has(i)) judgedAlready.set(i, holds(lists[i]!, outcome));
    return judgedAlready.get(i)!;
  };
  // The shrinker takes the first list that holds (shrink.ts): where lists are taken in their own order, none
  // after it is run, so each candidate that crashes after it costs no process. Where the pack's reset keeps a
  // setting, one that held after others may have held by what they set, and the shortest that holds alone is
  // taken below: every list runs, unless `maxRuns` caps the call (a program that ends processes early, whose every
  // candidate goes in one call), which stops at the first that held and runs it alone. A list that ran first in
  // its process (a fresh one: a program that crashes starts one after each crash) ran as if alone.
  const ranFirst = new Set<number>();
  const stop = (k: number, outcome: Outcome, first: boolean): boolean => {
    if (first) ranFirst.add(order[k]!);
    return (!ctx.carriesOver || maxRuns !== undefined) && judged(order[k]!, outcome);
  };
  const ran = (
    await runBatch(
      ctx.model,
      ctx.execute,
      order.map((i) => lists[i]!),
      { until: stop, ...(maxRuns ? { maxRuns } : {}) },
    )
  ).outcomes;
  const together: Outcome[] = [];
  order.forEach((i, k) => (together[i] = ran[k]!));
  // A list not run showed nothing. Judged in the order they are taken in, up to the first taken: a judgement walks
  // the model through the list, and the lists after it are never asked about (hundreds in a round of shrinking).
  const shows = (i: number): boolean => together[i]!.ending !== 'not-run' && judged(i, together[i]!);
  if (!ctx.carriesOver)
    return onlyFirst(
      lists,
      lists.findIndex((_, i) => shows(i)),
    );
  // One that holds must hold alone too before it is taken, unless the model says it started clean there and the
  // probe saw the program keep nothing else across the reset. Of two as short, the clean one goes first.
  const clean: boolean[] = [];
  startsClean(
    ctx.model,
    order.map((i) => lists[i]!),
  ).forEach((c, k) => (clean[order[k]!] = c));
  const shortestFirst = lists
    .map((_, i) => i)
    .sort((a, b) => lists[a]!.length - lists[b]!.length || Number(clean[b]) - Number(clean[a]) || a - b);
  // With `maxRuns`, one run alone at most: the batch stopped at the first that held.
  let runsAlone = 0;
  for (const i of shortestFirst) {
    if (!shows(i)) continue;
    const asIfAlone = ranFirst.has(i) || (clean[i] === true && ctx.resetKeepsNothingElse === true);
    if (asIfAlone) return onlyFirst(lists, i);
    if (maxRuns !== undefined && runsAlone++ > 0) break;
    if (holds(lists[i]!, await alone(lists[i]!))) return onlyFirst(lists, i);
  }
  return onlyFirst(lists, -1);
}

/** The verdicts the shrinker reads: the list it takes holds, no other (shrink.ts takes the first that holds). */
const onlyFirst = (lists: readonly unknown[], taken: number): boolean[] => lists.map((_, k) => k === taken);

/** What a shrinking call found, and the shown runs (with the observed twin) of the short lists that held. */
export interface HoldingWithTwins {
  readonly verdicts: boolean[];
  /** By the list's commands joined with newlines. */
  readonly shown: ReadonlyMap<string, RunOfCandidate>;
}

/**
 * `candidatesHolding`, where the lists can share a process with their observed twins (canShare): each list of
 * EVERY_SUBSET_UP_TO commands or fewer runs just after its twin, in the same process. The list the shrinker ends
 * with is most often one of those, and its shown run is then already made: the fresh run that would show it (its
 * twin and itself, as `runSharing` runs them) is spared. Elsewhere, `candidatesHolding` as it is.
 */
export async function candidatesHoldingWithTwins(
  ctx: ConfirmContext,
  lists: readonly (readonly string[])[],
  holds: (list: readonly string[], run: Outcome) => boolean,
  maxRuns?: number,
): Promise<HoldingWithTwins> {
  const batch: (readonly string[])[] = [];
  const plainAt: number[] = [];
  const twinAt: (number | undefined)[] = [];
  const listAt = new Map<number, number>();
  lists.forEach((list, i) => {
    twinAt.push(list.length <= EVERY_SUBSET_UP_TO ? batch.push(withObserve(ctx.model, list)) - 1 : undefined);
    plainAt.push(batch.push(list) - 1);
    listAt.set(plainAt[i]!, i);
  });
  if (batch.length === lists.length || !runAsIfAlone(ctx, batch))
    return { verdicts: await candidatesHolding(ctx, lists, holds, maxRuns), shown: new Map() };
  const judgedAlready = new Map<number, boolean>();
  const judged = (i: number, outcome: Outcome): boolean => {
    if (!judgedAlready.has(i)) judgedAlready.set(i, holds(lists[i]!, outcome));
    return judgedAlready.get(i)!;
  };
  const { outcomes } = await runBatch(ctx.model, ctx.execute, batch, {
    until: (k, outcome) => listAt.has(k) && judged(listAt.get(k)!, outcome),
    ...(maxRuns ? { maxRuns } : {}),
  });
  // Judged in order up to the first that holds, the one the shrinker takes (as candidatesHolding).
  const verdicts = onlyFirst(
    lists,
    lists.findIndex((_, i) => outcomes[plainAt[i]!]!.ending !== 'not-run' && judged(i, outcomes[plainAt[i]!]!)),
  );
  const shown = new Map<string, RunOfCandidate>();
  lists.forEach((list, i) => {
    const twin = twinAt[i];
    const run =
      verdicts[i] && twin !== undefined && twinAndPlain(ctx.model, list, outcomes[twin]!, outcomes[plainAt[i]!]!);
    if (run) shown.set(list.join('\n'), run);
  });
  return { verdicts, shown };
}

/**
 * Each list judged in a process of its own, `limit` at a time, in order, none started after one has held: the
 * shrinker takes the first that holds (shrink.ts), so a round whose first candidate holds costs one run, not one
 * per candidate. Every list before the first that held is judged, so that one is the first.
 */
async function untilFirstHolding(
  lists: readonly (readonly string[])[],
  limit: number,
  judge: (list: readonly string[]) => Promise<boolean>,
): Promise<boolean[]> {
  const verdicts = lists.map(() => false);
  let firstHeld = lists.length;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < firstHeld) {
      const i = next++;
      if (await judge(lists[i]!)) {
        verdicts[i] = true;
        firstHeld = Math.min(firstHeld, i);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, lists.length)) }, worker));
  return verdicts.map((held, i) => held && i === firstHeld);
}

/**
 * How short a list must be for the shrinker to try all of its subsets in one process (shrink.ts): 255 short
 * lists cost one run where ddmin's granularities cost one each. Only where the candidates share one process
 * and none ends it: a program that crashed in the check restarts once per crashing candidate. Unless
 * `everyEndHolds`: any candidate that ends the process early holds, and the batch stops at the first that holds
 * (`candidatesHolding`), so no candidate costs a restart. Where the pack's reset keeps a setting, only for a caller
 * that caps the runs of a call (`capped`): there the first that held is run alone too.
 */
export function everySubsetUpTo(ctx: ConfirmContext, everyEndHolds = false, capped = false): number {
  const shareAProcess = !ctx.leaky && !ctx.random;
  const noRestarts = ctx.endsEarly === false || (everyEndHolds && (capped || !ctx.carriesOver));
  return shareAProcess && noRestarts ? EVERY_SUBSET_UP_TO : 0;
}
