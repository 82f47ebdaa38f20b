/**
 * The check's first phase: every hidden and generated transcript through as few processes as possible
 * (batch.ts), and the verdicts that need nothing more (an interpreter missing, a syntax error, a placeholder,
 * a pass, answers right but for their line endings).
 */
import { runBatch, type AfterCrash, type Stream } from './batch';
import type { Case } from './cases';
import {
  countRuns,
  enterPhase,
  reportOf,
  verdictOf,
  type CheckSession,
  type Finished,
  type RunState,
} from './checkSession';
import { buildCounterexample } from './counterexample';
import { batchOf } from './passingBatch';
import { assembleProblems } from '../report/checkProblems';
import { runProblems } from '../report/problems';
import type { CheckReport, Counterexample } from '../report/report';
import type { MistakeMutants } from '../diagnosis/diagnose';
import { walkEvidence } from '../diagnosis/stepwise';
import type { ReferenceModel } from '../model/model';
import { segmentAnswers } from '../model/segment';
import { sameOutcome, simulate, type Outcome } from '../model/simulate';

/** Restarts allowed for the main batch; a program that crashes on every list would otherwise cost one each. */
const MAX_MAIN_RUNS = 10;
/**
 * Processes in a row that crashed on their first list, after which the main batch stops: the program crashes on
 * whatever it is given (record_counts: a plain object where the driver needs a Map, at every list's first use of
 * the counts), and a failing check has its confirming run still to make within 8.
 */
const MAX_MAIN_CRASHES_AT_ONCE = 7;
/**
 * Crashes after which the random tests not yet run are left out: each that crashes costs a process of its own,
 * and by then the crash has shown itself; the hidden transcripts all run.
 */
const CRASHES_BEFORE_SKIPPING_RANDOM = 3;

export async function runPhase(s: CheckSession): Promise<RunState | Finished> {
  const { model, manifest } = s.input;
  const { cases, hidden, generated } = s;
  // What a passing run of every case looks like, so a host can pass a correct program without the model next time.
  s.input.onBatch?.(batchOf(model, hidden, generated, s.input.options.seed));
  enterPhase(s, 'run');
  const isStub = (problems: ReturnType<typeof runProblems>): boolean =>
    problems.some((p) => p.kind === 'unimplemented');
  const afterCrash = crashPlan(model, manifest.mistakes, cases);
  const main = await runBatch(
    model,
    s.execute,
    cases.map((c) => c.commands),
    {
      maxRuns: MAX_MAIN_RUNS,
      maxCrashesAtOnce: MAX_MAIN_CRASHES_AT_ONCE,
      hopeless: (run) => isStub(runProblems(run, s.problemContext)),
      afterCrash,
    },
  );
  s.strays = main.strays;
  const outcomes = main.outcomes;
  const ran: RunState = {
    main,
    outcomes,
    verdicts: hidden.map((h, i) => verdictOf(model, h, outcomes[i]!)),
    failing: cases.map((_, i) => i).filter((i) => !sameOutcome(outcomes[i]!, cases[i]!.expected)),
  };
  const finished = await finishedByRun(s, ran);
  return finished ? { finished } : ran;
}

/** The verdicts the first run gives alone, at no or one more process run; undefined when there is more to find. */
async function finishedByRun(s: CheckSession, ran: RunState): Promise<CheckReport | undefined> {
  const { model } = s.input;
  const { cases, hidden } = s;
  const { main, outcomes, failing } = ran;
  const firstRunProblems = runProblems(main.runs[0]!, s.problemContext);
  const fatal = firstRunProblems.find((p) => p.kind === 'interpreter-missing' || p.kind === 'syntax');
  if (fatal)
    return reportOf(s, ran, {
      status: 'error',
      problems: [fatal],
      transcripts: hidden.map((h) => ({ name: h.name, description: h.label, passed: false })),
    });
  const stub = firstRunProblems.find((p) => p.kind === 'unimplemented');
  if (stub) {
    // Nothing to diagnose in a placeholder: show where it stopped, at no further cost.
    const first = failing[0];
    const counterexample = first === undefined ? null : stoppedCounterexample(model, cases[first]!, outcomes[first]!);
    return reportOf(s, ran, { status: 'fail', problems: [stub], counterexample });
  }
  if (failing.length === 0 && s.lineEndings.seen())
    return reportOf(s, ran, { status: 'fail', counterexample: await rightButForLineEndings(s) });
  if (failing.length === 0) {
    const problems = assembleProblems({
      model,
      main,
      runProblems: (r) => runProblems(r, s.problemContext),
      findings: [],
      diagnosis: undefined,
      probe: undefined,
      cases,
      counterexample: null,
    });
    return reportOf(s, ran, { status: problems.length === 0 ? 'pass' : 'fail', problems });
  }
  return undefined;
}

/** Right once the trailing bytes are off: the shortest hidden transcript as the program printed it. */
async function rightButForLineEndings(s: CheckSession): Promise<Counterexample | null> {
  const { model } = s.input;
  const shortest = [...s.hidden].sort((a, b) => a.commands.length - b.commands.length)[0];
  const raw = shortest ? (await runBatch(model, s.input.execute, [shortest.commands])).outcomes[0] : undefined;
  countRuns(s, raw ? 1 : 0);
  if (!shortest || !raw) return null;
  const stdin = [model.resetCommand, ...shortest.commands].join('\n') + '\n';
  return buildCounterexample(
    model,
    {
      transcript: shortest.name,
      label: shortest.label,
      shrunkFrom: shortest.commands.length,
      reproduced: true,
      ...(s.input.replay ? { replay: { stdin, shell: s.input.replay(stdin) } } : {}),
    },
    shortest.commands,
    raw,
  );
}

/**
 * After a crash: the lists where a mutant that crashes where the program did (and that the program's answers
 * before the crash do not contradict) would crash too. They go last, and generated ones are not run at all:
 * a program that crashes on every stranger would otherwise cost a process per transcript with a stranger.
 */
function crashesLikeThis(
  model: ReferenceModel,
  mistakes: readonly MistakeMutants[],
  crashed: Stream,
  pending: readonly number[],
  cases: readonly Case[],
): AfterCrash {
  const mutations = [...new Set(mistakes.flatMap((m) => m.mutants))].filter(
    (id) => !model.mutations.find((m) => m.id === id)?.nondeterministic,
  );
  const walk = walkEvidence(
    model,
    [crashed],
    mutations.map((m) => ({ mutations: [m], nondeterministic: false })),
  );
  const last = walk.differing[walk.differing.length - 1];
  const crashers = walk.tallies
    .filter((t) => t.against === 0 && last !== undefined && t.support.some((s) => s.index === last.index))
    .map((t) => new Set(t.candidate.mutations));
  const defer = new Set(
    pending.filter((i) => crashers.some((on) => simulate(model, cases[i]!.commands, on).outcome.ending === 'crashed')),
  );
  return { defer, skip: new Set([...defer].filter((i) => !cases[i]!.hidden)) };
}

/**
 * Crashes of lists that were run last because a mutant crashing like the program said they would (see
 * crashesLikeThis), after which the others it says so of are not run, hidden transcripts included: each would
 * cost a process of its own to crash the same way (drain_keyerror.py: a KeyError at every name outside the
 * pool, five hidden transcripts, six processes). Two such predictions come true before any is trusted.
 */
const PREDICTED_CRASHES_BEFORE_SKIPPING = 2;

/** What runBatch does after each crash of the main batch: which lists go last, and which are not run. */
function crashPlan(
  model: ReferenceModel,
  mistakes: readonly MistakeMutants[],
  cases: readonly Case[],
): (crashed: Stream, pending: readonly number[]) => AfterCrash {
  let crashes = 0;
  let cameTrue = 0;
  const predicted = new Set<number>();
  return (crashed, pending) => {
    crashes += 1;
    // The list it crashed on is the one before the first still pending, in the order the process was given.
    const next = crashed.segments.findIndex((segment) => segment.list === pending[0]);
    if (next > 0 && predicted.has(crashed.segments[next - 1]!.list)) cameTrue += 1;
    const like = crashesLikeThis(model, mistakes, crashed, pending, cases);
    for (const i of like.defer) predicted.add(i);
    const trusted =
      cameTrue >= PREDICTED_CRASHES_BEFORE_SKIPPING
        ? { defer: new Set([...like.defer, ...pending.filter((i) => predicted.has(i))]) }
        : undefined;
    const plan = trusted ? { defer: trusted.defer, skip: trusted.defer } : like;
    return skipRandomAfter(
      crashes,
      plan,
      pending.filter((i) => !cases[i]!.hidden),
    );
  };
}

/** After enough crashes, the random tests still waiting are not run, whatever mutant explains the crash. */
function skipRandomAfter(crashes: number, like: AfterCrash, randomLeft: readonly number[]): AfterCrash {
  if (crashes < CRASHES_BEFORE_SKIPPING_RANDOM) return like;
  return { defer: new Set([...like.defer, ...randomLeft]), skip: new Set([...like.skip, ...randomLeft]) };
}

/** A hang, a flood or a placeholder: cut after the command it stopped at. Running it again would only wait. */
export function stoppedCounterexample(model: ReferenceModel, c: Case, outcome: Outcome): Counterexample {
  const answered = segmentAnswers(model, c.commands, outcome.lines, false).length;
  const commands = c.commands.slice(0, Math.min(answered + 1, c.commands.length));
  return buildCounterexample(
    model,
    { transcript: c.name, label: c.label, shrunkFrom: c.commands.length, reproduced: false },
    commands,
    outcome,
  );
}
