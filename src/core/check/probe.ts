/**
 * Is the program a function of its input? One failing transcript is run alone in two fresh processes, and
 * twice in one of them (each time after the reset command). Fresh runs that differ mean randomness (an
 * unseeded generator); fresh runs that agree while the second run in one process differs mean something
 * carries across the reset (counts, a rotation cursor, a seeded generator). Before saying so, one more fresh
 * look: a program that chooses at random among few options agrees with itself by chance often enough (about one
 * check in fifteen for power-of-two-choices on three backends, one in sixteen for a walk over a Python set) that
 * two or three runs of T called it leaky. The check's whole first batch again in a fresh process (many
 * transcripts, pools of every size) answers otherwise somewhere for such a program; where that batch took more
 * than one process (a crash), up to four more fresh runs of T. The runs of T are evidence too.
 */
import { runBatch, type BatchResult } from './batch';
import type { Case } from './cases';
import type { ReferenceModel } from '../model/model';
import type { Execute } from './process';
import { outputLines } from '../model/segment';
import type { Outcome } from '../model/simulate';
import { lineForm, possibleAnswerForms, unaskedAcrossRepeat, unaskedLines, type UnaskedLines } from './unasked';
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

export type { AnswerDifference, MainBatch, Probe } from './probeCompare';
export { probeMoreFresh } from './probeMore';

/** The probe's runs: T twice in one process and once in another, and what the later steps ran besides. */
interface ProbeRuns {
  readonly twice: BatchRun;
  readonly again: BatchRun;
  /** T's first and second run in the `twice` process, and T alone in the other. */
  readonly first: Outcome;
  readonly second: Outcome;
  readonly fresh: Outcome;
  /** Runs that are T's evidence, added to by the steps: more fresh runs of T alone, a replay of T and T. */
  readonly more: BatchRun[];
  /** Replays with the other lists before T: their runs are counted, their streams are not T's. */
  readonly replays: BatchRun[];
}

/** What the runs say: a difference between fresh runs, one across the reset (confirmed by a replay). */
interface ProbeDifferences {
  readonly freshDifference: AnswerDifference | undefined;
  readonly resetDifference: AnswerDifference | undefined;
  /** A difference across the reset was seen, but its replay did not show it again. */
  readonly unconfirmed: boolean;
}

interface ProbeUnasked {
  readonly unasked?: UnaskedLines | undefined;
  readonly unaskedShown?: Outcome | undefined;
}

/**
 * Two processes, started side by side: [T, T] in one, [T] in the other; a third, [T], only when the first
 * two agree and yet something looks carried across the reset. `inBatch` is how T fared after the other
 * transcripts in the check's main process (`before`: the lists it ran after there): another look at state
 * that survives the reset.
 *
 * A difference across the reset is called carried-over state only when a replay shows it again: the same
 * input in a fresh process ([T, T], or the lists before T and T) answers exactly as before. A program whose
 * output depends on timing (a thread that prints, a timer) differs across the reset by chance; its replay
 * answers otherwise, and that is said as what it is: two runs of the same input that answer differently.
 */
export async function probeDeterminism(
  model: ReferenceModel,
  execute: Execute,
  probed: Case,
  inBatch?: Outcome,
  before?: readonly (readonly string[])[],
  main?: MainBatch,
): Promise<Probe> {
  const runs = await runTwiceAndAlone(model, execute, probed);
  const differences = await differencesOf(model, execute, probed, runs, inBatch, before, main);
  const unasked = await unaskedOf(model, execute, probed, runs);
  return probeOf(probed, runs, differences, unasked);
}

async function runTwiceAndAlone(model: ReferenceModel, execute: Execute, probed: Case): Promise<ProbeRuns> {
  const twiceLists = [probed.commands, probed.commands];
  let [twice, again] = await Promise.all([
    runBatch(model, execute, twiceLists),
    runBatch(model, execute, [probed.commands]),
  ]);
  // A process that ended without a word for T where the other answered it is run once more before it is believed:
  // a fresh run once gave nothing after the reset, and a program with one steady answer was told it stopped
  // answering on one of two runs. (The cause found since was the machine's: a sandbox that could not set up over a
  // global copy of the tool removed meanwhile; contain.ts looks again at each run now.)
  if (answeredNothing(twice.outcomes[0]!) && !answeredNothing(again.outcomes[0]!))
    twice = await runBatch(model, execute, twiceLists);
  else if (answeredNothing(again.outcomes[0]!) && !answeredNothing(twice.outcomes[0]!))
    again = await runBatch(model, execute, [probed.commands]);
  const [first, second] = [twice.outcomes[0]!, twice.outcomes[1]!];
  return { twice, again, first, second, fresh: again.outcomes[0]!, more: [], replays: [] };
}

/** A run of T that ended (crashed, or finished) with no answer to any of its commands. */
const answeredNothing = (o: Outcome): boolean => usableOutcome(o) && o.lines.length === 0;

/**
 * Fresh runs compared first; only where they agree, T's second run in its process, then T after the others.
 * A difference across the reset sends for more fresh runs, then a replay that must show it again.
 */
async function differencesOf(
  model: ReferenceModel,
  execute: Execute,
  probed: Case,
  runs: ProbeRuns,
  inBatch: Outcome | undefined,
  before: readonly (readonly string[])[] | undefined,
  main: MainBatch | undefined,
): Promise<ProbeDifferences> {
  const { first, second, fresh } = runs;
  let freshDifference =
    usableOutcome(first) && usableOutcome(fresh) ? firstDifference(model, probed.commands, first, fresh) : undefined;
  const twiceDifference =
    !freshDifference && usableOutcome(first) && usableOutcome(second)
      ? firstDifference(model, probed.commands, first, second)
      : undefined;
  // T after the others in the check's own process, against T alone.
  const shownAfterOthers =
    !freshDifference && inBatch && usableOutcome(first) && usableOutcome(inBatch)
      ? firstDifference(model, probed.commands, first, inBatch)
      : undefined;
  const batchDifference = twiceDifference ? undefined : shownAfterOthers;
  // The check's whole batch replayed in a fresh process: also T after the others again, exactly as it ran. Where
  // it answers as before, the program keeps to its answers from a fresh start, T's among them: a difference T
  // showed after the others, or on its second run after itself, is state that outlived the reset, not a draw.
  // No replay of T and T is needed (one run less for a rotation that outlives the reset, whichever it showed).
  let confirmedByReplay = false;
  if ((twiceDifference || batchDifference) && main) {
    // Many transcripts over pools of every size: a program that draws at random answers some otherwise.
    const again = await runBatch(
      model,
      execute,
      main.cases.map((c) => c.commands),
    );
    runs.replays.push(again);
    freshDifference = wholeBatchDifference(model, main, again.outcomes);
    confirmedByReplay = !freshDifference;
  } else if (twiceDifference || batchDifference) {
    // A program that walks a set in hash order (a new order per process) agrees with itself by chance often
    // enough on a few backends that one more run called it leaky about one check in sixteen.
    const extra = await freshRunsUntilOneDiffers(model, execute, probed, first);
    runs.more.push(...extra.runs);
    freshDifference = extra.difference;
  }
  const confirmedAfterOthers = confirmedByReplay && shownAfterOthers !== undefined;
  const resetDifference: AnswerDifference | undefined = freshDifference
    ? undefined
    : confirmedAfterOthers
      ? { ...shownAfterOthers!, seen: 'after-others' }
      : twiceDifference
        ? { ...twiceDifference, seen: 'twice' }
        : batchDifference
          ? { ...batchDifference, seen: 'after-others' }
          : undefined;
  if (!resetDifference || confirmedByReplay) return { freshDifference, resetDifference, unconfirmed: false };
  const twiceOver = resetDifference.seen === 'twice';
  const replayed = await replayAcrossReset(
    model,
    execute,
    probed,
    twiceOver ? [first, second] : [inBatch!],
    twiceOver ? [probed.commands, probed.commands] : before,
  );
  // Only a replay of T and T is T's evidence; one with the other lists before it would need their names.
  if (replayed.run) (twiceOver ? runs.more : runs.replays).push(replayed.run);
  if (replayed.difference) freshDifference = replayed.difference;
  return replayed.confirmed
    ? { freshDifference, resetDifference, unconfirmed: false }
    : { freshDifference, resetDifference: undefined, unconfirmed: true };
}

/** Lines no command asks for, printed a different number of times by two runs: a writer of its own on stdout. */
async function unaskedOf(
  model: ReferenceModel,
  execute: Execute,
  probed: Case,
  runs: ProbeRuns,
): Promise<ProbeUnasked> {
  const { twice, again, first, fresh, more } = runs;
  const fresher = [fresh, ...more.map((run) => run.outcomes[0]!)];
  // Also T once and twice in one process, whole: a line printed once at the start (a timer's first tick) is not doubled.
  // (Both to the end of their input: a crash in the first T leaves the second unanswered, and that halves nothing.)
  const wholeRuns =
    twice.streams[0]?.ending === 'finished' &&
    again.streams[0]?.ending === 'finished' &&
    twice.streams.length === 1 &&
    again.streams.length === 1;
  const seen = firstUnasked(model, probed.commands, first, fresher);
  const unaskedShown = seen.unaskedShown;
  const unasked =
    seen.unasked ??
    (wholeRuns
      ? unaskedAcrossRepeat(model, probed.commands, again.streams[0]!.lines, twice.streams[0]!.lines)
      : undefined);
  if (unasked || !wholeRuns || !printsUnaskedLines(model, probed.commands, [again, twice]))
    return { unasked, unaskedShown };
  // The outcomes above are what the batch kept: a writer's lines that fell after the last answer, or that
  // are not answer lines at all (an empty line two writers' halves left), are not in them. The whole output
  // of fresh runs of the same input is: a banner or a debug print that follows the commands prints the same
  // lines at the same places on each, a thread or a timer does not.
  // One list in its process: a replay of T and T is one process too, and its doubled lines are not a thread's.
  const alone = more.filter((run) => run.outcomes.length === 1);
  if (alone.length === 0) {
    const extra = await runBatch(model, execute, [probed.commands]);
    more.push(extra);
    alone.push(extra);
  }
  const whole = wholeOutput(model, again);
  if (!whole) return { unasked, unaskedShown };
  return firstUnasked(
    model,
    probed.commands,
    whole,
    alone.map((run) => wholeOutput(model, run)),
  );
}

function probeOf(probed: Case, runs: ProbeRuns, differences: ProbeDifferences, found: ProbeUnasked): Probe {
  const { twice, again, first, second, fresh, more, replays } = runs;
  const { freshDifference, resetDifference, unconfirmed } = differences;
  const { unasked, unaskedShown } = found;
  return {
    probed,
    determinism: {
      fresh: !usableOutcome(first) || !usableOutcome(fresh) ? 'unknown' : freshDifference ? 'different' : 'same',
      afterReset: resetDifference
        ? 'different'
        : !usableOutcome(first) || !usableOutcome(second) || freshDifference || unconfirmed
          ? 'unknown'
          : 'same',
      runs: twice.runs.length + again.runs.length + [...more, ...replays].reduce((n, run) => n + run.runs.length, 0),
    },
    streams: [...twice.streams, ...again.streams, ...more.flatMap((run) => run.streams)],
    alone: first,
    ...(freshDifference ? { freshDifference } : {}),
    ...(resetDifference ? { resetDifference } : {}),
    ...(unasked ? { unasked } : {}),
    ...(unasked && unaskedShown ? { unaskedShown } : {}),
  };
}

/** The first of `others` whose unasked lines differ from `base`'s, and of the two the run that printed more of them. */
function firstUnasked(
  model: ReferenceModel,
  commands: readonly string[],
  base: Outcome,
  others: readonly (Outcome | undefined)[],
): { unasked?: UnaskedLines; unaskedShown?: Outcome } {
  for (const o of others) {
    const unasked = o ? unaskedLines(model, commands, base, o) : undefined;
    if (unasked) return { unasked, unaskedShown: unasked.counts[1] > unasked.counts[0] ? o : base };
  }
  return {};
}

/**
 * Every line a batch's only process printed after its answer to the reset, strays included, when it ran to the
 * end (a line printed before that answer stays, where it came).
 */
function wholeOutput(model: ReferenceModel, batch: BatchResult): Outcome | undefined {
  const run = batch.runs[0];
  if (batch.runs.length !== 1 || !run || batch.streams[0]?.ending !== 'finished') return undefined;
  const lines = outputLines(run.stdout);
  const reset = model.resetAnswer;
  const afterReset = reset.every((line, i) => lines[i] === line) ? lines.slice(reset.length) : lines;
  return { lines: afterReset, ending: 'finished' };
}

/** Whether any of these whole outputs has a line that no answer to the commands could be. */
function printsUnaskedLines(
  model: ReferenceModel,
  commands: readonly string[],
  batches: readonly BatchResult[],
): boolean {
  const possible = possibleAnswerForms(model, commands);
  return batches.some(
    (batch) => wholeOutput(model, batch)?.lines.some((line) => !possible.has(lineForm(line))) === true,
  );
}

/**
 * The input that showed a difference across the reset, once more in a fresh process: `shown` are the outcomes
 * of its last lists as first seen (T and T again, or T after the others). Without the lists that came before
 * (`lists` undefined) nothing can be replayed, and the difference is not confirmed. A replay that answers
 * otherwise than the first time is two runs of the same input that differ: `difference` says where.
 */
async function replayAcrossReset(
  model: ReferenceModel,
  execute: Execute,
  probed: Case,
  shown: readonly Outcome[],
  lists: readonly (readonly string[])[] | undefined,
): Promise<{ confirmed: boolean; run?: Awaited<ReturnType<typeof runBatch>>; difference?: AnswerDifference }> {
  if (!lists) return { confirmed: false };
  const all = shown.length === 2 ? lists : [...lists, probed.commands];
  const run = await runBatch(model, execute, all);
  const replayed = run.outcomes.slice(all.length - shown.length);
  for (const [k, outcome] of shown.entries()) {
    const difference = firstDifference(model, probed.commands, outcome, replayed[k]!);
    // The first T of a replayed T-and-T ran first in its process: a difference there is one between two fresh runs.
    const seen = shown.length === 1 ? 'after-others' : k === 1 ? 'twice' : undefined;
    if (difference) return { confirmed: false, run, difference: seen ? { ...difference, seen } : difference };
  }
  return { confirmed: true, run };
}
