/**
 * The check's confirm phase: the smallest transcript that shows each finding, run for real in a fresh process
 * (confirm.ts), each finding vetted by the evidence its own trace shows (evidence.ts), and the counterexample the
 * report leads with.
 */
import { resetCarriesOver } from './batch';
import type { Case } from './cases';
import type { CheckInput } from './checkInput';
import { countRuns, enterPhase, type CheckSession } from './checkSession';
import { counterexampleForDifference, counterexamplesFor, firstTriesAhead, type ConfirmContext } from './confirm';
import { runsAhead, type RunOfCandidate } from './confirmRuns';
import { expectedAttempt } from './locateAttempts';
import type { Probed } from './probePhase';
import type { Probe } from './probe';
import { stoppedCounterexample } from './runPhase';
import { vetFindings, type Vetted } from '../diagnosis/evidence';
import type { Finding } from '../diagnosis/diagnose';
import { cardText } from '../report/contradiction';
import type { Counterexample, NamedMistake } from '../report/report';
import { locateFunction } from '../text/source';

/** Process runs the fallback shrinking may spend per finding, when the program does not follow its mutant. */
const MAX_SHRINK_ROUNDS = 8;

export interface Confirmed extends Probed {
  readonly ctx: ConfirmContext;
  readonly mistakes: readonly NamedMistake[];
  /** Findings their own trace contradicts: not named, the first is said as a contradiction. */
  readonly contradicted: readonly Extract<Vetted<Finding>, { kind: 'dropped' }>[];
  readonly counterexample: Counterexample | null;
  /** A case that hung or flooded, if any. */
  readonly stoppedCase: number | undefined;
}

export async function confirmPhase(s: CheckSession, p: Probed): Promise<Confirmed> {
  enterPhase(s, 'confirm');
  const { model, manifest } = s.input;
  const ctx = confirmContext(s, p);
  const examples = await counterexamplesFor(ctx, p.diagnosis.findings);
  // Every finding goes through the evidence its own trace shows before it is named (evidence.ts).
  const vetted = vetFindings({
    model,
    catalogue: manifest.mistakes,
    findings: p.diagnosis.findings,
    examples,
    random: p.random,
    unexplained: p.diagnosis.unexplained.length > 0,
    cardText: (id, mutation) => cardText(manifest, id, mutation),
  });
  const kept = vetted.filter((v) => v.kind === 'kept');
  const contradicted = vetted.filter((v) => v.kind === 'dropped');
  const diagnosis = { ...p.diagnosis, findings: kept.map((v) => v.finding) };
  const settledElsewhere = p.diagnosis.unexplained.length === 0;
  const mistakes = kept.map((v) => namedMistake(s.input, s.cases, v.finding, v.example, p.probe, settledElsewhere));
  const { failing, outcomes } = p.ran;
  const stoppedCase = failing.find(
    (i) => outcomes[i]!.ending === 'timed-out' || outcomes[i]!.ending === 'output-limit',
  );
  const confirmed = { ...p, diagnosis, ctx, mistakes, contradicted, stoppedCase };
  return { ...confirmed, counterexample: await leadingCounterexample(s, confirmed) };
}

/** What the run and probe phases saw that decides how the confirm phase runs the program. */
type ProbedRuns = Pick<Probed, 'ran' | 'streams' | 'probe' | 'random'>;

/** How the confirm phase runs the program, from what the run and probe phases saw. */
function confirmContext(s: CheckSession, p: ProbedRuns): ConfirmContext {
  const { model } = s.input;
  const ctx: ConfirmContext = {
    model,
    execute: s.execute,
    cases: s.cases,
    streams: p.streams,
    random: p.random,
    leaky: p.probe?.determinism.afterReset === 'different',
    // The pack's own reset keeps a setting, so even a right program answers a list otherwise after another.
    carriesOver: resetCarriesOver(
      model,
      s.cases.map((c) => c.commands),
    ),
    concurrency: s.concurrency,
    ...(s.input.replay ? { replay: s.input.replay } : {}),
    maxShrinkRounds: MAX_SHRINK_ROUNDS,
    endsEarly: p.ran.main.streams.length > 1 || p.streams.some((st) => st.ending !== 'finished'),
    resetKeepsNothingElse: p.probe?.determinism.afterReset === 'same',
    fixedChoices: !p.random && p.probe?.determinism.fresh === 'same',
    ...(tracesAhead(s, p) ? { beside: (finding, commands) => traceAhead(s, p, finding, commands) } : {}),
  };
  const ahead = ranAhead(s, p);
  return ahead ? { ...ctx, ranAhead: ahead } : ctx;
}

/**
 * The lists the confirm phase would run first, were the probe's batch replay to find the program deterministic and
 * keeping nothing else across the reset (as its first runs did): the replay runs them ahead (probeMore.ts).
 */
export function firstTriesToRunAhead(
  s: CheckSession,
  p: Pick<Probed, 'ran' | 'streams' | 'probe' | 'diagnosis'>,
): Promise<string[][]> {
  return firstTriesAhead(confirmContext(s, { ...p, random: false }), p.diagnosis.findings);
}

/** What the probe's replay ran ahead, where it ran as if alone and the probe found nothing against it. */
function ranAhead(s: CheckSession, p: ProbedRuns): ReadonlyMap<string, RunOfCandidate> | undefined {
  const ahead = p.probe?.ahead;
  const { fresh, afterReset } = p.probe?.determinism ?? {};
  if (!ahead?.asIfAlone || p.random || fresh !== 'same' || afterReset !== 'same') return undefined;
  return runsAhead(s.input.model, ahead.lists, ahead.outcomes);
}

/**
 * A traced run may go beside a confirming run when the locate phase will ask for it alone: a program the probe
 * did not look at (a probed one's traced runs are asked for together or tried more than once), that answers the
 * same on every run as far as the check knows.
 */
function tracesAhead(s: CheckSession, p: ProbedRuns): boolean {
  return s.input.locate !== undefined && s.input.traceAhead !== undefined && !p.probe && !p.random;
}

/** The traced run of the attempt the locate phase asks for first if the program answers as the finding's mutant. */
function traceAhead(s: CheckSession, p: ProbedRuns, finding: Finding, commands: readonly string[]): void {
  if (finding.nondeterministic) return;
  const attempt = expectedAttempt(s.input.model, finding, commands, p.streams, s.cases);
  if (!attempt) return;
  // Counted now, under the phase it is for: it is a run whether or not the locate phase takes it.
  countRuns(s, 1, 'locate');
  s.input.traceAhead!(attempt);
}

/** A named mistake's, else a contradicted finding's, else a difference shrunk for itself, else where it stopped. */
async function leadingCounterexample(
  s: CheckSession,
  c: Omit<Confirmed, 'counterexample'>,
): Promise<Counterexample | null> {
  const { diagnosis, answeredFailure } = c;
  const { failing, outcomes } = c.ran;
  let counterexample: Counterexample | null =
    c.mistakes.find((m) => m.counterexample)?.counterexample ?? c.contradicted[0]?.example ?? null;
  if (
    !counterexample &&
    (diagnosis.unexplained.length > 0 || diagnosis.findings.length === 0) &&
    answeredFailure !== undefined
  ) {
    const lists = new Set(diagnosis.unexplained.map((u) => u.step.list));
    const around = failing.filter(
      (i) => lists.has(i) && (outcomes[i]!.ending === 'finished' || outcomes[i]!.ending === 'crashed'),
    );
    const pool = (around.length > 0 ? around : [answeredFailure]).map((i) => s.cases[i]!);
    counterexample = await counterexampleForDifference(
      c.ctx,
      pool,
      new Map(pool.map((k) => [k, outcomes[s.cases.indexOf(k)]!])),
    );
  }
  if (!counterexample && c.stoppedCase !== undefined)
    counterexample = stoppedCounterexample(s.input.model, s.cases[c.stoppedCase]!, outcomes[c.stoppedCase]!);
  return counterexample;
}

function namedMistake(
  input: CheckInput,
  cases: readonly Case[],
  finding: Finding,
  counterexample: Counterexample | null,
  probe: Probe | undefined,
  nothingUnexplained: boolean,
): NamedMistake {
  const spec = input.manifest.mistakes.find((m) => m.id === finding.mistake)!;
  const fixed = fixedRule(finding, probe);
  // A free choice's wording says how the program chooses: only a rule shown fixed has one of its own.
  const variant =
    !finding.nondeterministic || fixed ? spec.variants?.find((v) => v.mutant === finding.mutation) : undefined;
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
    // Every difference it is credited with is a choice among equals, made the same way on every run: as certain as
    // a rule the lesson names (ties to the second tied backend, to the largest name), never "likely".
    confidence: fixed && nothingUnexplained ? 'exact' : finding.confidence,
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
 * A free choice (a tie may go to any of the tied) that the program made the same way on every fresh run and again
 * after a reset: a fixed rule of its own, not chance. Only the probe's runs can say so; without them it is unknown.
 */
function fixedRule(finding: Finding, probe: Probe | undefined): boolean {
  return finding.nondeterministic && probe?.determinism.fresh === 'same' && probe.determinism.afterReset === 'same';
}
