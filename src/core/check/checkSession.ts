/**
 * What every phase of a check shares (check.ts): the cases, the counted and stall-retried `execute`, the line
 * endings seen so far, and the one place a phase's result becomes the report.
 */
import type { BatchResult } from './batch';
import type { Case } from './cases';
import { checkCases } from './passingBatch';
import type { CheckInput, CheckPhase } from './checkInput';
import { LineEndingFilter, lineEndingsProblem, type LineEndings } from './lineEndings';
import type { Execute, StrayLines } from './process';
import type { ProblemContext } from '../report/problems';
import { CHECK_PHASES, type CheckReport, type TranscriptVerdict } from '../report/report';
import { segmentAnswers } from '../model/segment';
import { sameOutcome, type Outcome } from '../model/simulate';
import type { ReferenceModel } from '../model/model';

/** Stalled runs tried again per check: a real hang costs a second more each time. */
const MAX_STALL_RETRIES = 2;
/**
 * The silence a retry allows a run that printed nothing before it stalled: an interpreter slow to start on a
 * loaded machine (a crashing program was once told it stopped answering while two test suites and a mutation
 * run shared the machine). A run that answered and then fell silent is retried with the usual second.
 */
const SLOW_START_STALL_MS = 3000;

export interface CheckSession {
  readonly input: CheckInput;
  readonly concurrency: number;
  readonly problemContext: ProblemContext;
  readonly lineEndings: LineEndingFilter;
  /** The program run for a phase: counted, a stall run once more before it is believed, line endings cleaned. */
  readonly execute: Execute;
  readonly hidden: readonly Case[];
  readonly generated: readonly Case[];
  /**
   * The hidden cases, then the generated ones: a list's index in every batch and stream. More random tests
   * are appended for a program that chooses at random (settle.ts).
   */
  readonly cases: Case[];
  readonly fuzzLength: number;
  readonly started: number;
  /**
   * What the first run took the program's lines in no answer's form for (prints or answers), once it ran:
   * every later run is read the same way (see `ProcessResult.strays`).
   */
  strays: StrayLines | undefined;
  /** Every process run so far, stall retries and tracing included. */
  processRuns: number;
  /** The process runs by the phase under way when each started. */
  readonly runsByPhase: Partial<Record<CheckPhase, number>>;
  /** Time spent in each phase so far, and the phase under way (see enterPhase). */
  readonly timings: Partial<Record<CheckPhase, number>>;
  phase: { readonly name: CheckPhase; readonly since: number } | undefined;
}

/** The check moves on to `phase`: the one before it is timed, the host told. */
export function enterPhase(s: CheckSession, phase: CheckPhase): void {
  closePhase(s);
  s.phase = { name: phase, since: s.input.clock() };
  s.input.onPhase?.(phase);
}

/** Process runs the check made, counted in all and under the phase under way. */
export function countRuns(s: CheckSession, runs: number, phase: CheckPhase = s.phase?.name ?? 'run'): void {
  s.processRuns += runs;
  if (runs > 0) s.runsByPhase[phase] = (s.runsByPhase[phase] ?? 0) + runs;
}

function closePhase(s: CheckSession): void {
  if (!s.phase) return;
  const { name, since } = s.phase;
  s.timings[name] = (s.timings[name] ?? 0) + s.input.clock() - since;
  s.phase = undefined;
}

/** What the first run left: every case's outcome, and which failed. */
export interface RunState {
  readonly main: BatchResult;
  readonly outcomes: readonly Outcome[];
  readonly verdicts: readonly TranscriptVerdict[];
  /** Indexes into the session's cases. */
  readonly failing: readonly number[];
}

/** A phase that ends the check hands back its report instead of the next phase's state. */
export interface Finished {
  readonly finished: CheckReport;
}

export function isFinished<T extends object>(state: T | Finished): state is Finished {
  return 'finished' in state;
}

export function openSession(input: CheckInput): CheckSession {
  const { hidden, generated, fuzzLength } = checkCases(input);
  const lineEndings = new LineEndingFilter();
  let stallRetries = 0;
  const session: CheckSession = {
    input,
    concurrency: Math.max(1, input.options.concurrency ?? 2),
    problemContext: {
      language: input.language,
      fileName: input.fileName,
      shownName: input.file.split(/[\\/]/).pop() || input.fileName,
      interpreter: input.options.interpreter,
      timeLimitMs: input.options.timeLimitMs,
      outputLimitBytes: input.options.outputLimitBytes,
    },
    lineEndings,
    execute: async (stdin, limits) => {
      countRuns(session, 1);
      let result = await input.execute(stdin, limits);
      // A second of silence can be a loaded machine rather than the program: a stall is run once more before it
      // is believed, so a deterministic program gets the same verdict whatever else the machine is doing. One
      // proven by CPU time (a second of computing without a word) is a hang on any machine: no second run.
      if (result.stalled && !result.stalledOnCpu && stallRetries < MAX_STALL_RETRIES) {
        stallRetries += 1;
        countRuns(session, 1);
        const again = await input.execute(
          stdin,
          result.stdout === '' ? { ...limits, stallMs: SLOW_START_STALL_MS } : limits,
        );
        if (!again.stalled) result = again;
      }
      return lineEndings.clean(session.strays ? { ...result, strays: session.strays } : result);
    },
    hidden,
    generated,
    cases: [...hidden, ...generated],
    fuzzLength,
    started: input.clock(),
    strays: undefined,
    processRuns: 0,
    runsByPhase: {},
    timings: {},
    phase: undefined,
  };
  return session;
}

export type ReportParts = Partial<CheckReport> & Pick<CheckReport, 'status'>;

/** The report of a check that ran its cases, from what its last phase found. */
export function reportOf(s: CheckSession, ran: RunState, given: ReportParts): CheckReport {
  closePhase(s);
  const seen = s.lineEndings.seen();
  const partial = withLineEndings(given, seen);
  // When every answer had the byte, no hidden transcript passed as the program printed it.
  const transcripts = (partial.transcripts ?? ran.verdicts).map((t) =>
    seen && seen.endedOdd === seen.lines && partial.status !== 'error' ? { ...t, passed: false } : t,
  );
  const passed = transcripts.filter((t) => t.passed).length;
  const { hidden, generated, cases } = s;
  const failingGenerated = generated.filter(
    (_, k) => !sameOutcome(ran.outcomes[hidden.length + k]!, generated[k]!.expected),
  );
  return {
    lesson: s.input.manifest.id,
    language: s.input.language,
    file: s.input.file,
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
      seed: s.input.options.seed,
      transcripts: generated.length,
      failed: failingGenerated.filter((c) => ran.outcomes[cases.indexOf(c)]!.ending !== 'not-run').length,
      notRun: failingGenerated.filter((c) => ran.outcomes[cases.indexOf(c)]!.ending === 'not-run').length,
      // settle.ts appends its draws to the session's cases.
      ...(cases.length > hidden.length + generated.length
        ? { settling: cases.length - hidden.length - generated.length }
        : {}),
    },
    ...(partial.determinism ? { determinism: partial.determinism } : {}),
    durationMs: Math.round(s.input.clock() - s.started),
    timings: Object.fromEntries(Object.entries(s.timings).map(([phase, ms]) => [phase, Math.round(ms)])),
    processRuns: s.processRuns,
    // In the order of the phases (a traced run started ahead during the confirm phase is counted as the locate's).
    runsByPhase: Object.fromEntries(
      CHECK_PHASES.filter((phase) => s.runsByPhase[phase]).map((p) => [p, s.runsByPhase[p]]),
    ),
  };
}

export function verdictOf(model: ReferenceModel, c: Case, outcome: Outcome): TranscriptVerdict {
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

/** Answers with a trailing byte fail, whatever else is right: the problem comes first. */
function withLineEndings(partial: ReportParts, seen: LineEndings | undefined): ReportParts {
  if (!seen || partial.status === 'error') return partial;
  const restRight = (partial.mistakes ?? []).length === 0 && (partial.problems ?? []).length === 0;
  return { ...partial, status: 'fail', problems: [lineEndingsProblem(seen, restRight), ...(partial.problems ?? [])] };
}
