/**
 * One check of a learner program: run every hidden and generated transcript (batched), localise
 * failures, name the mistakes, and shrink a counterexample. Pure: processes come in as `execute`.
 */
import { runBatch } from './batch';
import { buildCounterexample } from './counterexample';
import { diagnose, type Diagnosis, type Evidence, type Finding } from './diagnose';
import type { ReferenceModel } from './model';
import type { Execute } from './process';
import { runProblems, type ProblemContext } from './problems';
import { seededRandom } from './random';
import type { CheckReport, Counterexample, NamedMistake, Problem, TranscriptVerdict } from './report';
import type { Language, LessonManifest } from './schema';
import { sameOutcome, simulate, firstDifferentLine, type Outcome } from './simulate';
import { locateFunction } from './source';
import { shrinkCommands } from './shrink';
import type { Transcript } from './transcript';
import { segmentAnswers } from './segment';

/** Restarts allowed for the main batch; a program that crashes on every list would otherwise cost one each. */
const MAX_MAIN_RUNS = 10;

export interface CheckOptions {
  readonly seed: number;
  readonly fuzzTranscripts?: number;
  readonly fuzzLength?: number;
  readonly timeLimitMs: number;
  readonly outputLimitBytes: number;
  readonly interpreter: string;
}

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
}

interface Case {
  readonly name: string;
  readonly description: string;
  readonly commands: readonly string[];
  readonly expected: Outcome;
  readonly hidden: boolean;
}

/** A seed that is the same for every check of a pack version, so a report reproduces by default. */
export function defaultSeed(manifest: Pick<LessonManifest, 'id' | 'version'>): number {
  let hash = 2166136261;
  for (const c of `${manifest.id}@${manifest.version}`) hash = Math.imul(hash ^ c.charCodeAt(0), 16777619) >>> 0;
  return hash;
}

function fuzzCases(input: CheckInput): Case[] {
  const count = input.options.fuzzTranscripts ?? input.manifest.fuzz?.transcripts ?? 40;
  const length = input.options.fuzzLength ?? input.manifest.fuzz?.length ?? 16;
  const random = seededRandom(input.options.seed);
  return Array.from({ length: count }, (_, i) => {
    const commands = input.model.generate(random, 2 + random.int(Math.max(length - 1, 1)));
    return { name: `generated-${i + 1}`, description: `a random test (#${i + 1})`, commands, expected: simulate(input.model, commands).outcome, hidden: false };
  });
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  });
  await Promise.all(workers);
  return results;
}

export async function check(input: CheckInput): Promise<CheckReport> {
  const started = input.clock();
  const { model } = input;
  const problemContext: ProblemContext = {
    language: input.language,
    fileName: input.fileName,
    interpreter: input.options.interpreter,
    timeLimitMs: input.options.timeLimitMs,
    outputLimitBytes: input.options.outputLimitBytes,
  };
  let processRuns = 0;
  const execute: Execute = async (stdin) => {
    processRuns += 1;
    return input.execute(stdin);
  };
  const hidden: Case[] = input.transcripts.map((t) => ({
    name: t.name,
    description: t.description || t.name,
    commands: t.steps.map((s) => s.command),
    expected: { lines: t.steps.flatMap((s) => s.expected), ending: 'finished' },
    hidden: true,
  }));
  const generated = fuzzCases(input);
  const cases = [...hidden, ...generated];

  // A stub fails every list the same way, and each restart after a crash costs a process start.
  const batch = await runBatch(
    model,
    execute,
    cases.map((c) => c.commands),
    { maxRuns: MAX_MAIN_RUNS, hopeless: (run) => runProblems(run, problemContext).some((p) => p.kind === 'unimplemented') },
  );
  const problems: Problem[] = [];
  const firstRunProblems = runProblems(batch.runs[0]!, problemContext);
  const fatal = firstRunProblems.find((p) => p.kind === 'interpreter-missing' || p.kind === 'syntax');
  const report = (partial: Partial<CheckReport> & Pick<CheckReport, 'status' | 'transcripts'>): CheckReport => {
    const passed = partial.transcripts.filter((t) => t.passed).length;
    return {
      lesson: input.manifest.id,
      language: input.language,
      file: input.file,
      checks: { total: hidden.length, passed, failed: hidden.length - passed, notRun: partial.transcripts.filter((t) => t.notRun).length },
      mistakes: [],
      problems,
      counterexample: null,
      fuzz: { seed: input.options.seed, transcripts: generated.length, failed: 0, notRun: 0 },
      ...partial,
      durationMs: Math.round(input.clock() - started),
      processRuns,
    };
  };
  if (fatal) {
    problems.push(fatal);
    return report({ status: 'error', transcripts: hidden.map((h) => ({ name: h.name, description: h.description, passed: false })) });
  }

  const outcomes = [...batch.outcomes];
  // Localise: a failing case is run again alone. Two tries tell whether state leaks between cases; only
  // then is every failing case re-run alone, since each costs a process start.
  const failedInBatch = cases.map((_, i) => i).filter((i) => !sameOutcome(outcomes[i]!, cases[i]!.expected));
  const stub = runProblems(batch.runs[0]!, problemContext).some((p) => p.kind === 'unimplemented');
  const probe = failedInBatch
    .filter(() => !stub)
    .filter((i) => outcomes[i]!.ending !== 'timed-out' && outcomes[i]!.ending !== 'not-run')
    .sort((a, b) => cases[a]!.commands.length - cases[b]!.commands.length).slice(0, 2);
  const runAlone = async (i: number): Promise<Outcome> => (await runBatch(model, execute, [cases[i]!.commands])).outcomes[0]!;
  const leaked: string[] = [];
  const ranAlone = new Set<number>();
  let aloneDiffers = false;
  // Passing alone but failing in the shared process means either leaked state or answers misaligned by an
  // earlier case's output. Running the case twice in one process tells the two apart.
  const leaksAcrossReset = async (i: number): Promise<boolean> => {
    const twice = await runBatch(model, execute, [cases[i]!.commands, cases[i]!.commands]);
    return !sameOutcome(twice.outcomes[1]!, cases[i]!.expected);
  };
  const adopt = async (indexes: readonly number[], results: readonly Outcome[]): Promise<void> => {
    for (const [k, caseIndex] of indexes.entries()) {
      outcomes[caseIndex] = results[k]!;
      ranAlone.add(caseIndex);
      if (sameOutcome(results[k]!, cases[caseIndex]!.expected)) {
        aloneDiffers = true;
        if (await leaksAcrossReset(caseIndex)) leaked.push(cases[caseIndex]!.name);
      }
    }
  };
  await adopt(probe, await mapLimit(probe, 2, runAlone));
  if (aloneDiffers) {
    const rest = failedInBatch.filter((i) => !probe.includes(i) && (cases[i]!.hidden || i < hidden.length + 10));
    await adopt(rest, await mapLimit(rest, 2, runAlone));
  }
  const passes = (i: number): boolean => sameOutcome(outcomes[i]!, cases[i]!.expected);
  const verdicts: TranscriptVerdict[] = hidden.map((h, i) => verdictOf(model, h, outcomes[i]!));

  const unimplemented = firstRunProblems.find((p) => p.kind === 'unimplemented');
  if (unimplemented) problems.push(unimplemented);
  if (leaked.length > 0) {
    problems.push({
      kind: 'stale-state',
      message: `State leaks from one transcript to the next: ${leaked.slice(0, 3).join(', ')} pass${leaked.length === 1 ? 'es' : ''} when run alone but fail after other commands.`,
      advice: `\`${model.resetCommand}\` must start from scratch: clear every count and list, not just add to them.`,
    });
  }
  if (batch.strayLines.length > 0) {
    problems.push({
      kind: 'stray-output',
      message: `Your program printed lines that are not answers, e.g. "${batch.strayLines[0]}". They were ignored for the checks below.`,
      advice: 'Print debugging to stderr instead (Python: print(..., file=sys.stderr); JavaScript: console.error).',
    });
  }
  const runIssues = [...batch.runs].map((r) => runProblems(r, problemContext)).flat();
  for (const kind of ['crash', 'timeout', 'output-limit'] as const) {
    const found = runIssues.find((p) => p.kind === kind);
    if (found) problems.push(found);
  }

  const failingCases = cases.map((_, i) => i).filter((i) => !passes(i));
  const fuzzNotRun = generated.filter((_, k) => outcomes[hidden.length + k]!.ending === 'not-run').length;
  const fuzzFailed = failingCases.filter((i) => !cases[i]!.hidden && outcomes[i]!.ending !== 'not-run').length;
  if (failingCases.length === 0) {
    const clean = problems.length === 0;
    return report({ status: clean ? 'pass' : 'fail', transcripts: verdicts });
  }

  // Once state is known to leak, a failure seen only in the shared process says more about the cases
  // before it than about its own commands: it is no evidence, or it would name mistakes the program lacks.
  const contaminated = (i: number): boolean => aloneDiffers && !passes(i) && !ranAlone.has(i);
  const evidence: Evidence[] = cases
    .map((c, i) => ({ name: c.name, commands: c.commands, learner: outcomes[i]!, hidden: c.hidden, failing: !passes(i), index: i }))
    .filter((e) => (e.hidden || e.failing) && e.learner.ending !== 'not-run' && !contaminated(e.index));
  const diagnosis: Diagnosis = unimplemented
    ? { kind: 'unrecognised', findings: [], mutations: [], failing: [] }
    : diagnose(model, input.manifest.mistakes, evidence);
  const shrinkCtx = { model, execute, evidence, batching: !aloneDiffers, cutOnly: unimplemented !== undefined };
  // Each finding's counterexample is shrunk independently, so they run side by side.
  const mistakes: NamedMistake[] = await Promise.all(
    diagnosis.findings.map(async (finding): Promise<NamedMistake> => {
      const spec = input.manifest.mistakes.find((m) => m.id === finding.mistake)!;
      const counterexample = await counterexampleFor(shrinkCtx, finding.revealedBy, (c, learner) => revealsFinding(model, finding, diagnosis, c, learner));
      return {
        id: spec.id,
        title: spec.title,
        function: spec.function,
        line: locateFunction(input.source, input.language, spec.function),
        confidence: finding.confidence === 'exact' ? 'exact' : 'likely',
        evidence: { steps: 0, transcripts: finding.revealedBy.length, first: null },
        explanation: spec.explanation,
        hint: spec.hint,
        mutants: [finding.mutation],
        revealedBy: finding.revealedBy.filter((n) => hidden.some((h) => h.name === n)),
        ...(spec.question ? { question: spec.question } : {}),
        ...(spec.step ? { step: spec.step } : {}),
        counterexample,
      };
    }),
  );
  let counterexample = mistakes.find((m) => m.counterexample)?.counterexample ?? null;
  if (!counterexample) {
    const failingNames = failingCases.map((i) => cases[i]!.name);
    counterexample = await counterexampleFor(shrinkCtx, failingNames, (c, learner) => !sameOutcome(learner, simulate(model, c).outcome));
  }
  const stopped = problems.some((p) => p.kind === 'timeout' || p.kind === 'crash' || p.kind === 'output-limit');
  const unanswered = counterexample?.trace[counterexample.divergesAt]?.actual === null;
  // A crash or hang already says why the answer is missing; "no name for it" would only add noise.
  // Leaked state is its own finding; the difference it causes needs no second, vaguer name.
  if (diagnosis.kind === 'unrecognised' && !unimplemented && leaked.length === 0 && counterexample && !(stopped && unanswered)) {
    const row = counterexample.trace[counterexample.divergesAt];
    problems.push({
      kind: 'unrecognised-difference',
      message:
        `Your program differs from the reference in a way this lesson has no name for. ` +
        `At command ${counterexample.divergesAt + 1} (\`${row?.command ?? '?'}\`) the reference answers ` +
        `"${(row?.expected ?? []).join(' / ') || '(nothing)'}" but your program ${row?.actual ? `answered "${row.actual.join(' / ') || '(nothing)'}"` : 'gave no answer'}.`,
      advice: 'Walk through the trace below by hand, keeping the counts on paper.',
    });
  }
  return report({
    status: 'fail',
    transcripts: verdicts,
    mistakes,
    counterexample,
    fuzz: { seed: input.options.seed, transcripts: generated.length, failed: fuzzFailed, notRun: fuzzNotRun },
  });
}

function verdictOf(model: ReferenceModel, c: Case, outcome: Outcome): TranscriptVerdict {
  if (sameOutcome(outcome, c.expected)) return { name: c.name, description: c.description, passed: true };
  if (outcome.ending === 'not-run') return { name: c.name, description: c.description, passed: false, notRun: true };
  const expectedAnswers = segmentAnswers(model, c.commands, c.expected.lines);
  const actualAnswers = segmentAnswers(model, c.commands, outcome.lines, outcome.ending === 'finished');
  let divergesAt = expectedAnswers.findIndex((answer, i) => {
    const actual = actualAnswers[i];
    return !actual || actual.length !== answer.length || actual.some((line, k) => line !== answer[k]);
  });
  if (divergesAt < 0) divergesAt = Math.min(actualAnswers.length, c.commands.length - 1);
  return { name: c.name, description: c.description, passed: false, divergesAt, expected: c.expected.lines, actual: outcome.lines };
}

function revealsFinding(model: ReferenceModel, finding: Finding, diagnosis: Diagnosis, commands: readonly string[], learner: Outcome): boolean {
  const reference = simulate(model, commands).outcome;
  if (sameOutcome(learner, reference)) return false;
  const alone = simulate(model, commands, new Set([finding.mutation])).outcome;
  if (sameOutcome(alone, reference)) return false;
  if (finding.confidence === 'exact') {
    return sameOutcome(learner, simulate(model, commands, new Set(diagnosis.mutations)).outcome) || sameOutcome(learner, alone);
  }
  const d = firstDifferentLine(learner, alone);
  return d < 0 || d > firstDifferentLine(learner, reference);
}

interface ShrinkContext {
  readonly model: ReferenceModel;
  readonly execute: Execute;
  readonly evidence: readonly Evidence[];
  readonly batching: boolean;
  /** Cut failures after the first unanswered command instead of shrinking them (stubs: nothing to learn). */
  readonly cutOnly: boolean;
}

/** Shrinks the shortest of `names` that satisfies `reveals` into a counterexample. */
async function counterexampleFor(
  ctx: ShrinkContext,
  names: readonly string[],
  reveals: (commands: readonly string[], learner: Outcome) => boolean,
): Promise<Counterexample | null> {
  const start = ctx.evidence
    .filter((e) => names.includes(e.name) && reveals(e.commands, e.learner))
    .sort((a, b) => a.commands.length - b.commands.length)[0];
  if (!start) return null;
  const runAll = async (lists: readonly (readonly string[])[]): Promise<readonly Outcome[]> =>
    ctx.batching
      ? (await runBatch(ctx.model, ctx.execute, lists)).outcomes
      : mapLimit(lists, 2, async (list) => (await runBatch(ctx.model, ctx.execute, [list])).outcomes[0]!);
  let commands: readonly string[] = start.commands;
  const stopped = ctx.cutOnly || start.learner.ending === 'timed-out' || start.learner.ending === 'output-limit';
  if (stopped) {
    // Shrinking a hang (or a flood) costs a whole limit per try; cut it after the last answered command instead.
    const answered = segmentAnswers(ctx.model, start.commands, start.learner.lines, false).length;
    commands = start.commands.slice(0, Math.min(answered + 1, start.commands.length));
  } else {
    commands = await shrinkCommands(start.commands, async (lists) => {
      const outcomes = await runAll(lists);
      return lists.map((list, i) => reveals(list, outcomes[i]!));
    });
  }
  // A cut hang answers exactly as before up to the hang; running it again would only wait out the limit.
  const final = commands === start.commands || stopped ? start.learner : (await runAll([commands]))[0]!;
  return buildCounterexample(ctx.model, start.name, commands, final, start.commands.length);
}
