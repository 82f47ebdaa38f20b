/**
 * The probe's second look (probe.ts), where the diagnosis needs to know whether a choice it cannot name is a rule
 * of the program's own: more fresh runs, and T after prefixes of itself.
 */
import { runBatch, startsAlike } from './batch';
import type { ReferenceModel } from '../model/model';
import type { Execute } from './process';
import type { Outcome } from '../model/simulate';
import {
  firstDifference,
  freshRunsUntilOneDiffers,
  usableOutcome,
  wholeBatchDifference,
  type AnswerDifference,
  type BatchRun,
  type MainBatch,
  type Probe,
} from './probeCompare';

/**
 * A probe that saw no randomness, looked at again where the diagnosis needs it (a tie broken some other way
 * whose rule it could not name): more fresh runs, so that a walk over a set is not taken for a fixed rule;
 * then T after part of itself in one process. A rotation cursor that outlives the reset can come back to where
 * it started after T and after the lists before T in the main process alike (T made a multiple of the tied
 * backends' number of choices); after a prefix of another length it is somewhere else. A difference there
 * that a replay of the same input shows again is state carried across the reset.
 */
export async function probeMoreFresh(
  model: ReferenceModel,
  execute: Execute,
  probe: Probe,
  main?: MainBatch,
  ahead: readonly (readonly string[])[] = [],
): Promise<Probe> {
  if (probe.determinism.fresh !== 'same' || probe.determinism.afterReset === 'different') return probe;
  if (main) return probeByBatchReplay(model, execute, probe, main, ahead);
  const extra = await freshRunsUntilOneDiffers(model, execute, probe.probed, probe.alone);
  const runs = extra.runs.reduce((n, run) => n + run.runs.length, 0);
  const after = extra.difference ? { runs: 0, carried: false } : await afterPrefixes(model, execute, probe);
  return moreFreshProbe(probe, extra.difference, after.carried, runs + after.runs, extra.runs);
}

/**
 * T after each prefix of itself. T answered to the end alone, so each prefix and T follow one another in one
 * process; a T that crashed alone ends its process, so each prefix gets a process of its own. A difference from T
 * alone is replayed (the same input, fresh): state carried across the reset only if it shows again.
 */
async function afterPrefixes(
  model: ReferenceModel,
  execute: Execute,
  probe: Probe,
): Promise<{ runs: number; carried: boolean }> {
  const commands = probe.probed.commands;
  const cuts = prefixCuts(commands);
  const inputs =
    probe.alone.ending === 'finished'
      ? [cuts.flatMap((cut) => [commands.slice(0, cut), commands])]
      : cuts.map((cut) => [commands.slice(0, cut), commands]);
  let runs = 0;
  for (const input of inputs.filter((lists) => lists.length > 0)) {
    const run = await runBatch(model, execute, input);
    runs += run.runs.length;
    const afterCuts = (r: BatchRun): Outcome[] => r.outcomes.filter((_, k) => k % 2 === 1);
    if (!afterCuts(run).some((o) => usableOutcome(o) && firstDifference(model, commands, probe.alone, o))) continue;
    const replay = await runBatch(model, execute, input);
    runs += replay.runs.length;
    const again = afterCuts(replay);
    return { runs, carried: afterCuts(run).every((o, k) => !firstDifference(model, commands, o, again[k]!)) };
  }
  return { runs, carried: false };
}

/**
 * Prefixes of a few lengths: a cursor moved by some commands only (picks) is moved by one of them a number of
 * times that does not bring it back to its start.
 */
function prefixCuts(commands: readonly string[]): number[] {
  return [...new Set([2, 3, 4, Math.ceil(commands.length / 2), commands.length - 1])].filter(
    (n) => n > 0 && n < commands.length,
  );
}

/**
 * The same two questions in one fresh process: the check's whole first batch again, then each prefix of T and T.
 * A program that draws at random (a coin per tie, a walk over a set in this process's hash order) answers some of
 * the batch's many transcripts, over pools of every size, otherwise; a fixed rule answers all of them alike, as
 * it did T. After the batch, T follows each prefix in turn: a cursor that outlives the reset stands somewhere
 * else before each of them unless every prefix moved it a whole turn. A difference in those is replayed, the
 * same input in another fresh process, and is state carried across the reset only if it shows again.
 */
async function probeByBatchReplay(
  model: ReferenceModel,
  execute: Execute,
  probe: Probe,
  main: MainBatch,
  ahead: readonly (readonly string[])[],
): Promise<Probe> {
  const commands = probe.probed.commands;
  const cuts = prefixCuts(commands).flatMap((cut) => [commands.slice(0, cut), commands]);
  const own = [...main.cases.map((c) => c.commands), ...cuts];
  // Lists asked ahead ride along only where each answers there as it would alone, in the model.
  const asked = startsAlike(model, [...own, ...ahead])
    .slice(own.length)
    .every((alike) => alike)
    ? ahead
    : [];
  const run = await runBatch(model, execute, [...own, ...asked]);
  let runs = run.runs.length;
  const afterCuts = (r: BatchRun): Outcome[] =>
    r.outcomes.slice(main.cases.length, own.length).filter((_, k) => k % 2 === 1);
  const freshDifference = wholeBatchDifference(model, main, run.outcomes);
  let carried = false;
  if (
    !freshDifference &&
    afterCuts(run).some((o) => usableOutcome(o) && firstDifference(model, commands, probe.alone, o))
  ) {
    const replay = await runBatch(model, execute, own);
    runs += replay.runs.length;
    const [shown, again] = [afterCuts(run), afterCuts(replay)];
    carried = shown.every((o, k) => !firstDifference(model, commands, o, again[k]!));
  }
  const more = moreFreshProbe(probe, freshDifference, carried, runs, []);
  if (asked.length === 0) return more;
  const outcomes = run.outcomes.slice(own.length);
  return { ...more, ahead: { lists: asked, outcomes, asIfAlone: run.runs.length === 1 } };
}

function moreFreshProbe(
  probe: Probe,
  freshDifference: AnswerDifference | undefined,
  carried: boolean,
  runs: number,
  evidence: readonly BatchRun[],
): Probe {
  return {
    ...probe,
    determinism: {
      ...probe.determinism,
      fresh: freshDifference ? 'different' : 'same',
      ...(freshDifference ? { afterReset: 'unknown' as const } : carried ? { afterReset: 'different' as const } : {}),
      runs: probe.determinism.runs + runs,
    },
    streams: [...probe.streams, ...evidence.flatMap((run) => run.streams)],
    ...(freshDifference ? { freshDifference } : {}),
  };
}
