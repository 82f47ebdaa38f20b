/**
 * The check's diagnose and probe phases: every process's commands and answers against the reference and its
 * mutants (diagnose.ts), then one failing transcript again, alone and twice, to tell randomness and
 * carried-over state (probe.ts), and the diagnosis again with what the probe saw.
 */
import type { Stream } from './batch';
import type { Case } from './cases';
import { enterPhase, reportOf, type CheckSession, type Finished, type RunState } from './checkSession';
import { buildCounterexample } from './counterexample';
import { probeDeterminism, probeMoreFresh, type MainBatch, type Probe } from './probe';
import { settleRandomVerdict } from './settle';
import { unaskedProblem } from '../report/checkProblems';
import type { CheckReport } from '../report/report';
import type { UnaskedLines } from './unasked';
import { diagnose, type Diagnosis } from '../diagnosis/diagnose';
import type { ReferenceModel } from '../model/model';
import { simulate } from '../model/simulate';

/** The diagnosis of the first run, and the failing transcript a probe would run again. */
export interface FirstLook {
  readonly ran: RunState;
  readonly diagnosis: Diagnosis;
  /** The failing case to probe: the shortest answered to the end with enough free choices (see probeCase). */
  readonly answeredFailure: number | undefined;
}

/** What the diagnosis stands on once the probe (if any) and more random runs (if random) are in. */
export interface Probed {
  readonly ran: RunState;
  readonly streams: readonly Stream[];
  readonly diagnosis: Diagnosis;
  readonly probe: Probe | undefined;
  readonly answeredFailure: number | undefined;
  readonly random: boolean;
}

export function diagnosePhase(s: CheckSession, ran: RunState): FirstLook {
  enterPhase(s, 'diagnose');
  const { model, manifest } = s.input;
  const diagnosis = diagnose(model, manifest.mistakes, [...ran.main.streams]);
  // Probe: the shortest failing transcript that the program answered to the end (a hang or a flood says
  // enough), unless a mutant already answers every command of every transcript exactly as the program did:
  // that leaves no room for randomness, nor for state that survives the reset.
  const answeredFailure = probeCase(
    model,
    ran.failing.filter((i) => ran.outcomes[i]!.ending === 'finished' || ran.outcomes[i]!.ending === 'crashed'),
    s.cases,
    diagnosis.findings.map((f) => f.mutation),
  );
  return { ran, diagnosis, answeredFailure };
}

/**
 * The lists the confirm phase would run first for a diagnosis (confirmPhase.ts `firstTriesToRunAhead`), handed in
 * by the check so that this phase does not import the next one.
 */
export type FirstTries = (
  draft: Pick<Probed, 'ran' | 'streams' | 'probe' | 'diagnosis'>,
) => Promise<readonly (readonly string[])[]>;

export async function probePhase(
  s: CheckSession,
  look: FirstLook,
  firstTries?: FirstTries,
): Promise<Probed | Finished> {
  const { ran, answeredFailure } = look;
  const settled =
    look.diagnosis.findings.length > 0 &&
    look.diagnosis.findings.every((f) => f.confidence === 'exact') &&
    look.diagnosis.unexplained.length === 0;
  const probed =
    answeredFailure !== undefined && !settled && !onlyCrashes(s, ran)
      ? await probeAndDiagnose(s, look, answeredFailure, firstTries)
      : { streams: [...ran.main.streams], diagnosis: look.diagnosis, probe: undefined };
  const { probe } = probed;
  if (probe?.unasked) return { finished: unaskedReport(s, ran, probe, probe.unasked) };
  const random = probe?.determinism.fresh === 'different';
  if (!random) return { ran, ...probed, answeredFailure, random };
  // What one batch of random draws shows is chance; what the verdict names must hold over more of them.
  const more = await settleRandomVerdict({
    model: s.input.model,
    mistakes: s.input.manifest.mistakes,
    execute: s.execute,
    cases: s.cases,
    streams: [...probed.streams],
    diagnosis: probed.diagnosis,
    seed: s.input.options.seed,
    count: s.generated.length,
    length: s.fuzzLength,
  });
  return { ran, streams: more.streams, diagnosis: more.diagnosis, probe, answeredFailure, random };
}

async function probeAndDiagnose(
  s: CheckSession,
  look: FirstLook,
  probed: number,
  firstTries: FirstTries | undefined,
): Promise<{ streams: readonly Stream[]; diagnosis: Diagnosis; probe: Probe }> {
  enterPhase(s, 'probe');
  const { model, manifest } = s.input;
  const { main, outcomes } = look.ran;
  // The lists its main process ran before it, for a replay of a difference seen there.
  const home = main.streams.find((st) => st.segments.some((seg) => seg.list === probed));
  const before = home?.segments
    .slice(
      0,
      home.segments.findIndex((seg) => seg.list === probed),
    )
    .map((seg) => s.cases[seg.list]!.commands);
  // A first batch that one process answered whole is replayed as the probe's strongest fresh run.
  const mainBatch =
    main.streams.length === 1 && main.streams[0]!.ending === 'finished'
      ? { cases: s.cases.slice(0, outcomes.length), outcomes }
      : undefined;
  let probe = await probeDeterminism(model, s.execute, s.cases[probed]!, outcomes[probed], before, mainBatch);
  const probeStreams = (p: Probe): Stream[] =>
    p.streams.map((st) => ({ ...st, segments: st.segments.map((seg) => ({ ...seg, list: probed })) }));
  let diagnosis = diagnose(model, manifest.mistakes, [...main.streams, ...probeStreams(probe)], {
    random: probe.determinism.fresh === 'different',
  });
  // A free choice found with no sign of randomness, or a finding that holds only for a program that never
  // draws at random: more fresh runs before the verdict says which it is.
  const needsMoreFresh = diagnosis.findings.some((f) => f.nondeterministic) || diagnosis.restsOnDeterminism === true;
  if (needsMoreFresh && probe.determinism.fresh === 'same' && probe.determinism.afterReset !== 'different') {
    const replay = mainBatch ?? answeredStreamReplay(s, look, probed);
    // Where the replay finds no randomness, the confirm phase's first tries ride in its process.
    const streams = [...main.streams, ...probeStreams(probe)];
    const ahead = replay && firstTries ? await firstTries({ ran: look.ran, streams, probe, diagnosis }) : [];
    probe = await probeMoreFresh(model, s.execute, probe, replay, ahead);
    if (probe.determinism.fresh === 'different')
      diagnosis = diagnose(model, manifest.mistakes, [...main.streams, ...probeStreams(probe)], { random: true });
  }
  return { streams: [...main.streams, ...probeStreams(probe)], diagnosis, probe };
}

/** A replay needs this many ways of answering its lists' free choices: a program drawing at random differs somewhere. */
const REPLAY_WAYS = 2 ** 16;

/**
 * Where the main batch took several processes (a crash), the one that answered most lists before it crashed, as a
 * fresh process replays it: those lists from its start, the crashing one left out, so a deterministic program
 * answers them exactly as it did, whatever it keeps across the reset. Only where they hold enough free choices (ties
 * over pools of other names and sizes than T's) to stand for the more fresh runs of T it saves.
 */
function answeredStreamReplay(s: CheckSession, look: FirstLook, probed: number): MainBatch | undefined {
  const { model } = s.input;
  const suspected = look.diagnosis.findings.map((f) => f.mutation);
  const answered = look.ran.main.streams.map((st) => {
    const lists: number[] = [];
    for (const seg of st.segments) {
      if (look.ran.outcomes[seg.list]?.ending !== 'finished') break;
      lists.push(seg.list);
    }
    return lists;
  });
  const most = answered.sort((a, b) => b.length - a.length)[0] ?? [];
  const others = most.filter((i) => i !== probed);
  const ways = others.reduce((n, i) => Math.min(n * choiceWays(model, s.cases[i]!.commands, suspected), 2 ** 32), 1);
  if (others.length < 2 || ways < REPLAY_WAYS) return undefined;
  return { cases: most.map((i) => s.cases[i]!), outcomes: most.map((i) => look.ran.outcomes[i]!) };
}

/**
 * Every failing transcript answered right up to where the program crashed (an error exit), and no mistake of the lesson
 * crashes there: nothing in its answers is a choice that chance or a leftover could have made, so a probe would
 * only run the crash again. The counterexample is still run fresh, alone, before it is said to reproduce.
 */
function onlyCrashes(s: CheckSession, ran: RunState): boolean {
  const { streams, runs } = ran.main;
  // The process each list ended in: a crash is an error exit; a program that ended quietly (exit code 0) after so
  // many lines may end elsewhere on a fresh run, which only the probe can tell.
  const runOf = (list: number) => runs[streams.findIndex((st) => st.segments.some((seg) => seg.list === list))];
  // A list left out after the crashes (runPhase.ts) showed nothing.
  const shown = ran.failing.filter((i) => ran.outcomes[i]!.ending !== 'not-run');
  return shown.every((i) => {
    const outcome = ran.outcomes[i]!;
    const expected = s.cases[i]!.expected.lines;
    const exit = runOf(i)?.exitCode;
    const errorExit = (exit !== null && exit !== undefined && exit !== 0) || runOf(i)?.signal != null;
    return outcome.ending === 'crashed' && errorExit && outcome.lines.every((line, k) => line === expected[k]);
  });
}

/** Its answers do not follow the commands: whatever a mutant explains in them is timing, so no mistake is named. */
function unaskedReport(s: CheckSession, ran: RunState, probe: Probe, unasked: UnaskedLines): CheckReport {
  const shown = buildCounterexample(
    s.input.model,
    {
      transcript: probe.probed.name,
      label: probe.probed.label,
      shrunkFrom: probe.probed.commands.length,
      reproduced: false,
    },
    probe.probed.commands,
    probe.unaskedShown ?? probe.alone,
  );
  return reportOf(s, ran, {
    status: 'fail',
    problems: [unaskedProblem(unasked, probe.probed.label)],
    counterexample: shown,
    determinism: probe.determinism,
  });
}

/**
 * The failing transcript to probe with. Two runs of a program that chooses at random may still agree when
 * it has few choices to make, so the shortest transcript with enough free choices (ties, under the
 * model's nondeterministic mutations) to make agreement by chance unlikely; else the one with most choices.
 */
function probeCase(
  model: ReferenceModel,
  indexes: readonly number[],
  cases: readonly Case[],
  suspected: readonly string[],
): number | undefined {
  const ranked = indexes.map((i) => ({
    i,
    ways: choiceWays(model, cases[i]!.commands, suspected),
    length: cases[i]!.commands.length,
  }));
  const enough = ranked.filter((r) => r.ways >= 256).sort((a, b) => a.length - b.length)[0];
  return enough?.i ?? [...ranked].sort((a, b) => b.ways - a.ways || a.length - b.length)[0]?.i;
}

/**
 * How many ways the free choices (ties, under the model's nondeterministic mutations) of these commands can go, at
 * most a million; 1 for a model with no free choice. Counted under the mistakes already suspected: a count that goes
 * negative, say, breaks ties the reference would have.
 */
function choiceWays(model: ReferenceModel, commands: readonly string[], suspected: readonly string[]): number {
  const free = model.mutations.filter((m) => m.nondeterministic).map((m) => m.id);
  if (free.length === 0) return 1;
  let ways = 1;
  for (const step of simulate(model, commands, new Set([...free, ...suspected])).steps) ways *= 1 + step.alternatives;
  return Math.min(ways, 1e6);
}
