/**
 * One check of a learner program, in phases:
 *   run        every hidden and generated transcript through as few processes as possible (batch.ts);
 *   probe      one failing transcript again, alone and twice, to tell randomness and carried-over state (probe.ts);
 *   diagnose   every process's commands and answers, step by step, against the reference and its mutants (diagnose.ts);
 *   confirm    the smallest transcript that shows each finding, run for real in a fresh process (confirm.ts);
 *   locate     the lines of the learner's file that ran when it went wrong (the Node layer's `locate`).
 * Pure: processes come in as `execute`, tracing as `locate`.
 */
import { resetCarriesOver, runBatch, type AfterCrash, type Stream } from './batch';
import {
  DEFAULT_FUZZ_LENGTH,
  DEFAULT_FUZZ_TRANSCRIPTS,
  generatedCases,
  hiddenCases,
  mapLimit,
  type Case,
} from './cases';
import { assembleProblems, stoppedProblem, unaskedProblem } from '../report/checkProblems';
import { counterexampleForDifference, counterexamplesFor, type ConfirmContext } from './confirm';
import { buildCounterexample } from './counterexample';
import { diagnose, type Diagnosis, type Finding, type MistakeMutants } from '../diagnosis/diagnose';
import type { ReferenceModel } from '../model/model';
import { probeDeterminism, probeMoreFresh, type Probe } from './probe';
import { settleRandomVerdict } from './settle';
import type { Execute } from './process';
import { runProblems, type ProblemContext } from '../report/problems';
import type { CheckReport, Counterexample, Location, NamedMistake, TranscriptVerdict } from '../report/report';
import type { Language, LessonManifest } from '../pack/schema';
import { segmentAnswers } from '../model/segment';
import { sameOutcome, simulate, type Outcome } from '../model/simulate';
import { walkEvidence } from '../diagnosis/stepwise';
import { vetFindings } from '../diagnosis/evidence';
import { LineEndingFilter, lineEndingsProblem, type LineEndings } from './lineEndings';
import { addContradiction, cardText } from '../report/contradiction';
import { locateAttempts, type LocateAttempt } from './locateAttempts';
import { enclosingFunction, locateFunction } from '../text/source';
import type { Transcript } from '../model/transcript';

export { defaultSeed } from './cases';

/** Restarts allowed for the main batch; a program that crashes on every list would otherwise cost one each. */
const MAX_MAIN_RUNS = 10;
/** Stalled runs tried again per check: a real hang costs a second more each time. */
const MAX_STALL_RETRIES = 2;
/**
 * The silence a retry allows a run that printed nothing before it stalled: an interpreter slow to start on a
 * loaded machine (a crashing program was once told it stopped answering while two test suites and a mutation
 * run shared the machine). A run that answered and then fell silent is retried with the usual second.
 */
const SLOW_START_STALL_MS = 3000;
/** Process runs the fallback shrinking may spend per finding, when the program does not follow its mutant. */
const MAX_SHRINK_ROUNDS = 8;

export interface CheckOptions {
  readonly seed: number;
  readonly fuzzTranscripts?: number;
  readonly fuzzLength?: number;
  readonly timeLimitMs: number;
  readonly outputLimitBytes: number;
  readonly interpreter: string;
  /** How many processes may run side by side (the machine's cores). */
  readonly concurrency?: number;
}

export type { LocateAttempt } from './locateAttempts';

export type CheckPhase = 'run' | 'probe' | 'diagnose' | 'confirm' | 'locate';

export interface CheckInput {
  readonly manifest: LessonManifest;
  readonly model: ReferenceModel;
  readonly transcripts: readonly Transcript[];
  readonly language: Language;
  /** The learner file as shown to the learner, and its base name as tracebacks show it. */
  readonly file: string;
  readonly fileName: string;
  readonly source: string;
  readonly execute: Execute;
  readonly options: CheckOptions;
  readonly clock: () => number;
  /** One shell line that replays this standard input from the learner file's folder. */
  readonly replay?: (stdin: string) => string;
  /**
   * Traces the learner's program on the commands (reset first) and names the lines that ran at the failing
   * command and not at the right ones of its kind; each attempt costs a process run, and the next is tried
   * only while no line stands out. Undefined when tracing is not possible.
   */
  readonly locate?: (
    attempts: readonly LocateAttempt[],
  ) => Promise<{ readonly location?: Location; readonly runs: number }>;
  readonly onPhase?: (phase: CheckPhase) => void;
  /** The whole first run's input and the exact stdout of a program that passes it (see src/node/check/fastPass.ts). */
  readonly onBatch?: (batch: PassingBatch) => void;
}

export interface PassingBatch {
  readonly input: string;
  readonly expectedStdout: string;
  readonly transcripts: readonly { readonly name: string; readonly description: string }[];
  readonly fuzz: { readonly seed: number; readonly transcripts: number };
}

export async function check(input: CheckInput): Promise<CheckReport> {
  const started = input.clock();
  const { model, manifest } = input;
  const concurrency = Math.max(1, input.options.concurrency ?? 2);
  const problemContext: ProblemContext = {
    language: input.language,
    fileName: input.fileName,
    interpreter: input.options.interpreter,
    timeLimitMs: input.options.timeLimitMs,
    outputLimitBytes: input.options.outputLimitBytes,
  };
  let processRuns = 0;
  const lineEndings = new LineEndingFilter();
  let stallRetries = 0;
  const execute: Execute = async (stdin, limits) => {
    processRuns += 1;
    let result = await input.execute(stdin, limits);
    // A second of silence can be a loaded machine rather than the program: a stall is run once more before it
    // is believed, so a deterministic program gets the same verdict whatever else the machine is doing.
    if (result.stalled && stallRetries < MAX_STALL_RETRIES) {
      stallRetries += 1;
      processRuns += 1;
      const again = await input.execute(
        stdin,
        result.stdout === '' ? { ...limits, stallMs: SLOW_START_STALL_MS } : limits,
      );
      if (!again.stalled) result = again;
    }
    return lineEndings.clean(result);
  };
  const hidden = hiddenCases(input.transcripts);
  const fuzzLength = input.options.fuzzLength ?? manifest.fuzz?.length ?? DEFAULT_FUZZ_LENGTH;
  const generated = generatedCases(
    model,
    input.options.seed,
    input.options.fuzzTranscripts ?? manifest.fuzz?.transcripts ?? DEFAULT_FUZZ_TRANSCRIPTS,
    fuzzLength,
  );
  const cases = [...hidden, ...generated];

  // What a passing run of every case looks like, so a host can pass a correct program without the model next time.
  input.onBatch?.({
    input: cases.map((c) => [model.resetCommand, ...c.commands].join('\n')).join('\n') + '\n',
    expectedStdout: cases
      .map((c) => [...model.resetAnswer, ...c.expected.lines].map((line) => `${line}\n`).join(''))
      .join(''),
    transcripts: hidden.map((h) => ({ name: h.name, description: h.label })),
    fuzz: { seed: input.options.seed, transcripts: generated.length },
  });
  input.onPhase?.('run');
  const isStub = (problems: ReturnType<typeof runProblems>): boolean =>
    problems.some((p) => p.kind === 'unimplemented');
  const main = await runBatch(
    model,
    execute,
    cases.map((c) => c.commands),
    {
      maxRuns: MAX_MAIN_RUNS,
      hopeless: (run) => isStub(runProblems(run, problemContext)),
      afterCrash: (crashed, pending) => crashesLikeThis(model, manifest.mistakes, crashed, pending, cases),
    },
  );
  const firstRunProblems = runProblems(main.runs[0]!, problemContext);
  const outcomes = main.outcomes;
  const passes = (i: number): boolean => sameOutcome(outcomes[i]!, cases[i]!.expected);
  const verdicts: TranscriptVerdict[] = hidden.map((h, i) => verdictOf(model, h, outcomes[i]!));
  const report = (given: Partial<CheckReport> & Pick<CheckReport, 'status'>): CheckReport => {
    const seen = lineEndings.seen();
    const partial = withLineEndings(given, seen);
    // When every answer had the byte, no hidden transcript passed as the program printed it.
    const transcripts = (partial.transcripts ?? verdicts).map((t) =>
      seen && seen.endedOdd === seen.lines && partial.status !== 'error' ? { ...t, passed: false } : t,
    );
    const passed = transcripts.filter((t) => t.passed).length;
    const failingGenerated = generated.filter((_, k) => !passes(hidden.length + k));
    return {
      lesson: manifest.id,
      language: input.language,
      file: input.file,
      status: partial.status,
      checks: {
        total: hidden.length,
        passed,
        failed: hidden.length - passed,
        notRun: transcripts.filter((t) => t.notRun).length,
      },
      transcripts,
      mistakes: partial.mistakes ?? [],
      problems: partial.problems ?? [],
      counterexample: partial.counterexample ?? null,
      fuzz: {
        seed: input.options.seed,
        transcripts: generated.length,
        failed: failingGenerated.filter((c) => outcomes[cases.indexOf(c)]!.ending !== 'not-run').length,
        notRun: failingGenerated.filter((c) => outcomes[cases.indexOf(c)]!.ending === 'not-run').length,
      },
      ...(partial.determinism ? { determinism: partial.determinism } : {}),
      durationMs: Math.round(input.clock() - started),
      processRuns,
    };
  };

  const fatal = firstRunProblems.find((p) => p.kind === 'interpreter-missing' || p.kind === 'syntax');
  if (fatal)
    return report({
      status: 'error',
      problems: [fatal],
      transcripts: hidden.map((h) => ({ name: h.name, description: h.label, passed: false })),
    });

  const failing = cases.map((_, i) => i).filter((i) => !passes(i));
  const stub = firstRunProblems.find((p) => p.kind === 'unimplemented');
  if (stub) {
    // Nothing to diagnose in a placeholder: show where it stopped, at no further cost.
    const first = failing[0];
    const counterexample = first === undefined ? null : stoppedCounterexample(model, cases[first]!, outcomes[first]!);
    return report({ status: 'fail', problems: [stub], counterexample });
  }
  if (failing.length === 0 && lineEndings.seen()) {
    // Right once the trailing bytes are off: show the shortest hidden transcript as the program printed it.
    const shortest = [...hidden].sort((a, b) => a.commands.length - b.commands.length)[0];
    const raw = shortest ? (await runBatch(model, input.execute, [shortest.commands])).outcomes[0] : undefined;
    processRuns += raw ? 1 : 0;
    const counterexample =
      shortest && raw
        ? buildCounterexample(
            model,
            {
              transcript: shortest.name,
              label: shortest.label,
              shrunkFrom: shortest.commands.length,
              reproduced: true,
              ...(input.replay
                ? {
                    replay: {
                      stdin: [model.resetCommand, ...shortest.commands].join('\n') + '\n',
                      shell: input.replay([model.resetCommand, ...shortest.commands].join('\n') + '\n'),
                    },
                  }
                : {}),
            },
            shortest.commands,
            raw,
          )
        : null;
    return report({ status: 'fail', counterexample });
  }
  if (failing.length === 0) {
    const problems = assembleProblems({
      model,
      main,
      runProblems: (r) => runProblems(r, problemContext),
      findings: [],
      diagnosis: undefined,
      probe: undefined,
      cases,
      counterexample: null,
    });
    return report({ status: problems.length === 0 ? 'pass' : 'fail', problems });
  }

  input.onPhase?.('diagnose');
  let streams: Stream[] = [...main.streams];
  let diagnosis = diagnose(model, manifest.mistakes, streams);
  // Probe: the shortest failing transcript that the program answered to the end (a hang or a flood says
  // enough), unless a mutant already answers every command of every transcript exactly as the program did:
  // that leaves no room for randomness, nor for state that survives the reset.
  const answeredFailure = probeCase(
    model,
    failing.filter((i) => outcomes[i]!.ending === 'finished' || outcomes[i]!.ending === 'crashed'),
    cases,
    diagnosis.findings.map((f) => f.mutation),
  );
  const settled =
    diagnosis.findings.length > 0 &&
    diagnosis.findings.every((f) => f.confidence === 'exact') &&
    diagnosis.unexplained.length === 0;
  let probe: Probe | undefined;
  if (answeredFailure !== undefined && !settled) {
    input.onPhase?.('probe');
    // The lists its main process ran before it, for a replay of a difference seen there.
    const home = main.streams.find((s) => s.segments.some((seg) => seg.list === answeredFailure));
    const before = home?.segments
      .slice(
        0,
        home.segments.findIndex((seg) => seg.list === answeredFailure),
      )
      .map((seg) => cases[seg.list]!.commands);
    probe = await probeDeterminism(model, execute, cases[answeredFailure]!, outcomes[answeredFailure], before);
    const probeStreams = (p: Probe): Stream[] =>
      p.streams.map((s) => ({ ...s, segments: s.segments.map((seg) => ({ ...seg, list: answeredFailure })) }));
    diagnosis = diagnose(model, manifest.mistakes, [...streams, ...probeStreams(probe)], {
      random: probe.determinism.fresh === 'different',
    });
    // A free choice found with no sign of randomness, or a finding that holds only for a program that never
    // draws at random: more fresh runs before the verdict says which it is.
    const needsMoreFresh = diagnosis.findings.some((f) => f.nondeterministic) || diagnosis.restsOnDeterminism === true;
    if (needsMoreFresh && probe.determinism.fresh === 'same' && probe.determinism.afterReset !== 'different') {
      probe = await probeMoreFresh(model, execute, probe);
      if (probe.determinism.fresh === 'different')
        diagnosis = diagnose(model, manifest.mistakes, [...streams, ...probeStreams(probe)], { random: true });
    }
    streams = [...streams, ...probeStreams(probe)];
  }
  if (probe?.unasked) {
    // Its answers do not follow the commands: whatever a mutant explains in them is timing, so no mistake is named.
    const shown = buildCounterexample(
      model,
      {
        transcript: probe.probed.name,
        label: probe.probed.label,
        shrunkFrom: probe.probed.commands.length,
        reproduced: false,
      },
      probe.probed.commands,
      probe.unaskedShown ?? probe.alone,
    );
    return report({
      status: 'fail',
      problems: [unaskedProblem(probe.unasked, probe.probed.label)],
      counterexample: shown,
      determinism: probe.determinism,
    });
  }
  const random = probe?.determinism.fresh === 'different';
  if (random) {
    // What one batch of random draws shows is chance; what the verdict names must hold over more of them.
    const more = await settleRandomVerdict({
      model,
      mistakes: manifest.mistakes,
      execute,
      cases,
      streams,
      diagnosis,
      seed: input.options.seed,
      count: generated.length,
      length: fuzzLength,
    });
    streams = more.streams;
    diagnosis = more.diagnosis;
  }

  input.onPhase?.('confirm');
  const ctx: ConfirmContext = {
    model,
    execute,
    cases,
    streams,
    random,
    leaky: probe?.determinism.afterReset === 'different',
    // The pack's own reset keeps a setting, so even a right program answers a list otherwise after another.
    carriesOver: resetCarriesOver(
      model,
      cases.map((c) => c.commands),
    ),
    concurrency,
    ...(input.replay ? { replay: input.replay } : {}),
    maxShrinkRounds: MAX_SHRINK_ROUNDS,
  };
  const examples = await counterexamplesFor(ctx, diagnosis.findings);
  // Every finding goes through the evidence its own trace shows before it is named (evidence.ts).
  const vetted = vetFindings({
    model,
    catalogue: manifest.mistakes,
    findings: diagnosis.findings,
    examples,
    random,
    unexplained: diagnosis.unexplained.length > 0,
    cardText: (id, mutation) => cardText(manifest, id, mutation),
  });
  const kept = vetted.filter((v) => v.kind === 'kept');
  const contradicted = vetted.filter((v) => v.kind === 'dropped');
  diagnosis = { ...diagnosis, findings: kept.map((v) => v.finding) };
  let mistakes = kept.map((v) => namedMistake(input, cases, v.finding, v.example, probe));

  let counterexample: Counterexample | null =
    mistakes.find((m) => m.counterexample)?.counterexample ?? contradicted[0]?.example ?? null;
  const stoppedCase = failing.find(
    (i) => outcomes[i]!.ending === 'timed-out' || outcomes[i]!.ending === 'output-limit',
  );
  if (
    !counterexample &&
    (diagnosis.unexplained.length > 0 || diagnosis.findings.length === 0) &&
    answeredFailure !== undefined
  ) {
    const lists = new Set(diagnosis.unexplained.map((u) => u.step.list));
    const around = failing.filter(
      (i) => lists.has(i) && (outcomes[i]!.ending === 'finished' || outcomes[i]!.ending === 'crashed'),
    );
    const pool = (around.length > 0 ? around : [answeredFailure]).map((i) => cases[i]!);
    counterexample = await counterexampleForDifference(
      ctx,
      pool,
      new Map(pool.map((c) => [c, outcomes[cases.indexOf(c)]!])),
    );
  }
  if (!counterexample && stoppedCase !== undefined)
    counterexample = stoppedCounterexample(model, cases[stoppedCase]!, outcomes[stoppedCase]!);

  if (input.locate) {
    input.onPhase?.('locate');
    mistakes = await mapLimit(mistakes, concurrency, async (mistake, i) => {
      const attempts = locateAttempts(model, mistake.counterexample, diagnosis.findings[i], streams, cases);
      if (attempts.length === 0) return mistake;
      // One attempt at a time, so the location knows which run its reason is about.
      for (const attempt of attempts) {
        const { location, runs } = await input.locate!([attempt]).catch(() => ({ location: undefined, runs: 1 }));
        processRuns += runs;
        if (!location) continue;
        const fn =
          location.function ??
          (location.lines[0] ? enclosingFunction(input.source, input.language, location.lines[0]) : null);
        return {
          ...mistake,
          location: { ...location, function: fn, ...(attempt.origin ? { at: attempt.origin } : {}) },
        };
      }
      return mistake;
    });
  }

  const problems = assembleProblems({
    model,
    main,
    runProblems: (r) => runProblems(r, problemContext),
    findings: diagnosis.findings,
    diagnosis,
    probe,
    cases,
    counterexample,
  });
  const unnamed = contradicted[0];
  if (unnamed?.kind === 'dropped')
    addContradiction(problems, manifest, unnamed.finding.mistake, unnamed.shown, unnamed.example === counterexample);
  if (stoppedCase !== undefined) {
    const stopped = stoppedProblem(model, cases[stoppedCase]!, outcomes[stoppedCase]!, problems);
    if (stopped)
      problems.splice(
        problems.findIndex((p) => p.kind === stopped.kind),
        1,
        stopped,
      );
  }
  return report({
    status: 'fail',
    mistakes,
    counterexample,
    problems,
    ...(probe ? { determinism: probe.determinism } : {}),
  });
}

function namedMistake(
  input: CheckInput,
  cases: readonly Case[],
  finding: Finding,
  counterexample: Counterexample | null,
  probe: Probe | undefined,
): NamedMistake {
  const spec = input.manifest.mistakes.find((m) => m.id === finding.mistake)!;
  const variant = spec.variants?.find((v) => v.mutant === finding.mutation);
  const lists = [...new Set(finding.steps.map((s) => s.list))];
  const first = finding.steps[0];
  const firstCase = first ? cases[first.list] : undefined;
  const behaviour = !finding.nondeterministic
    ? undefined
    : probe?.determinism.fresh === 'different'
      ? 'random'
      : probe?.determinism.afterReset === 'different'
        ? 'rotating'
        : undefined;
  return {
    id: spec.id,
    title: variant?.title ?? spec.title,
    function: spec.function,
    line: locateFunction(input.source, input.language, spec.function),
    confidence: finding.confidence,
    explanation: spec.explanation,
    hint: variant?.hint ?? spec.hint,
    mutants: [finding.mutation],
    ...(variant
      ? {
          variant: {
            mutant: variant.mutant,
            ...(variant.title ? { title: variant.title } : {}),
            explanation: variant.explanation,
          },
        }
      : {}),
    ...(behaviour ? { behaviour } : {}),
    evidence: {
      steps: finding.stepCount,
      transcripts: lists.length,
      first:
        first && firstCase
          ? { transcript: firstCase.name, label: firstCase.label, index: first.listIndex, command: first.command }
          : null,
    },
    revealedBy: lists
      .map((l) => cases[l])
      .filter((c): c is Case => c !== undefined && c.hidden)
      .map((c) => c.name),
    ...(spec.question ? { question: spec.question } : {}),
    ...(spec.step ? { step: spec.step } : {}),
    counterexample,
  };
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
  const free = new Set(model.mutations.filter((m) => m.nondeterministic).map((m) => m.id));
  // Choices counted under the mistakes already suspected: a count that goes negative, say, breaks ties the reference would have.
  const on = new Set([...free, ...suspected]);
  const ranked = indexes.map((i) => {
    let ways = 1;
    if (free.size > 0) for (const step of simulate(model, cases[i]!.commands, on).steps) ways *= 1 + step.alternatives;
    return { i, ways: Math.min(ways, 1e6), length: cases[i]!.commands.length };
  });
  const enough = ranked.filter((r) => r.ways >= 256).sort((a, b) => a.length - b.length)[0];
  return enough?.i ?? [...ranked].sort((a, b) => b.ways - a.ways || a.length - b.length)[0]?.i;
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

/** A hang, a flood or a placeholder: cut after the command it stopped at. Running it again would only wait. */
function stoppedCounterexample(model: ReferenceModel, c: Case, outcome: Outcome): Counterexample {
  const answered = segmentAnswers(model, c.commands, outcome.lines, false).length;
  const commands = c.commands.slice(0, Math.min(answered + 1, c.commands.length));
  return buildCounterexample(
    model,
    { transcript: c.name, label: c.label, shrunkFrom: c.commands.length, reproduced: false },
    commands,
    outcome,
  );
}

function verdictOf(model: ReferenceModel, c: Case, outcome: Outcome): TranscriptVerdict {
  if (sameOutcome(outcome, c.expected)) return { name: c.name, description: c.label, passed: true };
  if (outcome.ending === 'not-run') return { name: c.name, description: c.label, passed: false, notRun: true };
  const expectedAnswers = segmentAnswers(model, c.commands, c.expected.lines);
  const actualAnswers = segmentAnswers(model, c.commands, outcome.lines, outcome.ending === 'finished');
  let divergesAt = expectedAnswers.findIndex((answer, i) => {
    const actual = actualAnswers[i];
    return !actual || actual.length !== answer.length || actual.some((line, k) => line !== answer[k]);
  });
  if (divergesAt < 0) divergesAt = Math.min(actualAnswers.length, c.commands.length - 1);
  return {
    name: c.name,
    description: c.label,
    passed: false,
    divergesAt,
    expected: c.expected.lines,
    actual: outcome.lines,
  };
}

export type { Diagnosis };

/** Answers with a trailing byte fail, whatever else is right: the problem comes first. */
function withLineEndings(
  partial: Partial<CheckReport> & Pick<CheckReport, 'status'>,
  seen: LineEndings | undefined,
): Partial<CheckReport> & Pick<CheckReport, 'status'> {
  if (!seen || partial.status === 'error') return partial;
  const restRight = (partial.mistakes ?? []).length === 0 && (partial.problems ?? []).length === 0;
  return { ...partial, status: 'fail', problems: [lineEndingsProblem(seen, restRight), ...(partial.problems ?? [])] };
}
