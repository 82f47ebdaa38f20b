/**
 * The smallest transcript that shows a finding, confirmed on the real program.
 *
 * Shrinking first happens on the model, which costs no process: delta debugging keeps the fewest commands
 * on which the finding's mutant still answers differently from the reference (for a free-choice mutant:
 * still offers enough choices that a program choosing at random is very likely to differ). The result is
 * then run for real, in a fresh process, with the lesson's observe command after every step so that the
 * trace can show the learner's own counts; it is shown only if that run shows the finding. Only when the
 * program does not follow its mutant there does shrinking fall back to running the program per round.
 */
import {
  canShare,
  candidatesHoldingWithTwins,
  everySubsetUpTo,
  runCandidates,
  runCandidatesAhead,
  runSharing,
  type ConfirmContext,
  type RunOfCandidate,
} from './confirmRuns';
import type { Case } from './cases';
import { mapLimit } from './cases';
import { buildCounterexample, splitObserved, withObserve, type CounterexampleSource } from './counterexample';
import type { Finding } from '../diagnosis/diagnose';
import type { ReferenceModel } from '../model/model';
import type { Counterexample, Replay } from '../report/report';

export type { ConfirmContext } from './confirmRuns';
export { modelShows } from './confirmPlan';
import { plan, type Planned } from './confirmPlan';
import { commandFits } from '../model/grammar';
import { segmentAnswers } from '../model/segment';
import { shrinkCommands } from './shrink';
import { sameOutcome, simulate, type Outcome } from '../model/simulate';
import { stepKey, walkEvidence, type EvidenceStream } from '../diagnosis/stepwise';
import { checkClaim } from '../diagnosis/evidence';

const RANDOM_TRIES = 3;

function replayOf(ctx: ConfirmContext, commands: readonly string[]): Replay | undefined {
  if (!ctx.replay) return undefined;
  // A fresh process starts from nothing: the reset command would only print one more answer than the
  // table has rows (an extra OK before the first command's).
  const stdin = commands.join('\n') + '\n';
  return { stdin, shell: ctx.replay(stdin) };
}

/**
 * True when the program's run of `commands` shows the finding: a differing command that its mutation
 * explains alone, or that its pair explains and the other half alone does not.
 */
export function programShows(
  model: ReferenceModel,
  finding: Pick<Finding, 'mutation' | 'mutations'>,
  commands: readonly string[],
  learner: Outcome,
): boolean {
  if (sameOutcome(learner, simulate(model, commands).outcome)) return false;
  const stream: EvidenceStream = {
    commands,
    lines: learner.lines,
    ending: learner.ending,
    segments: [{ list: 0, start: 0, length: commands.length }],
  };
  const free = new Set(model.mutations.filter((m) => m.nondeterministic).map((m) => m.id));
  const others = finding.mutations.filter((m) => m !== finding.mutation);
  const sets = [[finding.mutation], ...(others.length > 0 ? [finding.mutations, others] : [])];
  const walk = walkEvidence(
    model,
    [stream],
    sets.map((mutations) => ({ mutations, nondeterministic: mutations.some((id) => free.has(id)) })),
  );
  const [alone, pair, rest] = walk.tallies;
  if (alone!.supportCount > 0) return true;
  if (!pair || !rest) return false;
  const explainedByRest = new Set(rest.support.map(stepKey));
  return pair.support.some((s) => !explainedByRest.has(stepKey(s)));
}

interface Confirmed {
  readonly commands: readonly string[];
  readonly learner: Outcome;
  readonly observed?: readonly (readonly string[] | null)[];
}

function confirmedOf(
  ctx: ConfirmContext,
  commands: readonly string[],
  run: { plain: Outcome; observed: Outcome | undefined },
): Confirmed {
  const observed = run.observed ? splitObserved(ctx.model, commands, run.plain, run.observed) : undefined;
  return { commands, learner: run.plain, ...(observed ? { observed } : {}) };
}

/** Processes a shrinking call may start, where the program ends some before their input ends (crashes). */
const MAX_RUNS_A_CALL_ENDING_EARLY = 2;

/** Delta debugging with real runs, for a program that does not follow its mutant on the model's candidate. */
async function shrinkOnProgram(
  ctx: ConfirmContext,
  plan: Planned,
  others: readonly Planned[],
): Promise<{ commands: readonly string[]; from: Planned; run?: RunOfCandidate }> {
  let rounds = 0;
  // The model's other candidates (from other steps of the finding) are asked in the first round: where the program
  // does not follow its mutant on the shortest, it often does on another. What is shown names its transcript.
  const seeds = others.map((o) => o.commands!);
  let from = plan;
  const shown = new Map<string, RunOfCandidate>();
  // A program seen to end processes early (crashes) whose finding is exact (it answered every command of the
  // evidence as the program did, its crashes included): a crash of a candidate is most likely the finding's, so
  // every smaller list goes in one call, the shortest first, as for a program that never crashes, where ddmin's
  // granularities cost a call each (19 runs for a crash on an all-down pool in the corpus). A crash that does not
  // show it costs a process more: at most MAX_RUNS_A_CALL_ENDING_EARLY a call.
  const crashesAsFound = plan.finding.confidence === 'exact' && ctx.endsEarly === true;
  const together = crashesAsFound ? everySubsetUpTo(ctx, true, true) : everySubsetUpTo(ctx);
  const maxRuns = crashesAsFound && together > 0 ? MAX_RUNS_A_CALL_ENDING_EARLY : undefined;
  const commands = await shrinkCommands(
    plan.start,
    async (lists) => {
      if (rounds++ >= ctx.maxShrinkRounds) return lists.map(() => false);
      const held = await candidatesHoldingWithTwins(
        ctx,
        lists,
        (l, run) => programShows(ctx.model, plan.finding, l, run),
        maxRuns,
      );
      held.shown.forEach((run, key) => shown.set(key, run));
      const seed = seeds.indexOf(lists[held.verdicts.indexOf(true)]!);
      if (seed >= 0) from = others[seed]!;
      return held.verdicts;
    },
    ctx.maxShrinkRounds,
    commandFits(ctx.model),
    together,
    seeds,
  );
  const run = shown.get(commands.join('\n'));
  return { commands, from, ...(run ? { run } : {}) };
}

/**
 * The run, confirmed, when it shows the finding. A random program's run of a free choice (ties at random) must
 * show a choice of its own, by the program's own counts: a run whose only differences come from the other
 * findings' counts (a tie that a kept count had already settled) would have the vetting call the finding
 * contradicted and say the difference has no name, though the other findings name it. It is drawn again.
 */
export function shownBy(
  ctx: ConfirmContext,
  findings: readonly Finding[],
  finding: Finding,
  commands: readonly string[],
  run: { plain: Outcome; observed: Outcome | undefined },
): Confirmed | null {
  if (!programShows(ctx.model, finding, commands, run.plain)) return null;
  const confirmed = confirmedOf(ctx, commands, run);
  if (!ctx.random || !finding.nondeterministic || !confirmed.observed) return confirmed;
  const source = { transcript: '', label: '', shrunkFrom: commands.length, reproduced: true };
  const example = buildCounterexample(ctx.model, source, commands, confirmed.learner, confirmed.observed);
  // The others as the vetting (evidence.ts vetFindings) puts them on while it replays this finding.
  const others = [
    ...findings.filter((f) => f !== finding && !f.nondeterministic).map((f) => f.mutation),
    ...finding.mutations.filter((m) => m !== finding.mutation),
  ];
  const claim = checkClaim(ctx.model, [finding.mutation], [...new Set(others)], example);
  return claim.holds && claim.borneOut === 0 ? null : confirmed;
}

/**
 * Every finding's first candidate, and for one whose candidates include one keeping the choice seen (plan) that one
 * too, each with its observed twin, in one process where they can share it (runSharing): one process where each
 * would take one of its own. Candidates the findings' mutants crash on go last, since a crash ends the process; a
 * candidate not reached is left to a fresh run. The first candidate of a finding that shows it is taken. Returns
 * the findings so tried.
 */
async function confirmTogether(
  ctx: ConfirmContext,
  findings: readonly Finding[],
  planned: readonly (readonly Planned[])[],
  plans: Planned[],
  results: (Confirmed | null)[],
): Promise<Set<number>> {
  const tried = new Set<number>();
  const entries = findings.flatMap((_, i) => {
    const candidates = firstTries(planned[i]!);
    return candidates.length > 0 ? [{ i, candidates }] : [];
  });
  if (entries.length < 2 && !entries.some((e) => e.candidates.length > 1)) return tried;
  const crashes = (e: (typeof entries)[number]): boolean =>
    simulate(ctx.model, e.candidates.at(-1)!.commands!, new Set(e.candidates[0]!.finding.mutations)).outcome.ending ===
    'crashed';
  const ordered = [...entries].sort((a, b) => Number(crashes(a)) - Number(crashes(b)));
  const lists = ordered.flatMap((e) => e.candidates.map((p) => p.commands!));
  if (!canShare(ctx, lists)) return tried;
  const ahead = lists.map((c) => ctx.ranAhead?.get(c.join('\n')));
  // The traced run that locates the first finding can start beside this one (as the first try's would).
  if (!ahead.every(Boolean)) ctx.beside?.(entries[0]!.candidates[0]!.finding, entries[0]!.candidates[0]!.commands!);
  const runs = ahead.every(Boolean) ? ahead : await runSharing(ctx, lists);
  if (!runs) return tried;
  let k = 0;
  for (const { i, candidates } of ordered) {
    const shown = candidates.map((p) => ({ p, run: runs[k++] }));
    const first = shown.find(({ p, run }) => run && shownBy(ctx, findings, findings[i]!, p.commands!, run));
    if (first) [results[i], plans[i]] = [shownBy(ctx, findings, findings[i]!, first.p.commands!, first.run!), first.p];
    if (first || shown.every(({ run }) => run)) tried.add(i);
  }
  return tried;
}

/** A finding's first candidate, and the one keeping the choice seen where there is one: what is run first. */
function firstTries(planned: readonly Planned[]): Planned[] {
  const first = planned[0];
  if (!first?.commands) return [];
  const other = planned.find((p) => p !== first && p.commands && (p.keepsChoice || first.keepsChoice));
  return other ? [first, other] : [first];
}

/**
 * What the confirm phase will run first, each candidate after its observed twin: for the probe to run ahead in a
 * process it starts anyway (probeMore.ts). Candidates a finding's mutants crash on are left to the confirm phase:
 * a crash there would cost the probe's process a restart.
 */
export async function firstTriesAhead(ctx: ConfirmContext, findings: readonly Finding[]): Promise<string[][]> {
  const planned = await Promise.all(findings.map((f) => plan(ctx, f)));
  const tries = planned.flatMap((p) =>
    firstTries(p).filter(
      (c) => simulate(ctx.model, c.commands!, new Set(c.finding.mutations)).outcome.ending !== 'crashed',
    ),
  );
  const lists = [...new Map(tries.map((c) => [c.commands!.join('\n'), c.commands!])).values()];
  return lists.flatMap((c) => [withObserve(ctx.model, c), [...c]]);
}

/** A counterexample per finding (null where no run of the program could be shown to reveal it). */
export async function counterexamplesFor(
  ctx: ConfirmContext,
  findings: readonly Finding[],
): Promise<(Counterexample | null)[]> {
  const planned = await Promise.all(findings.map((f) => plan(ctx, f)));
  const plans = planned.map((p) => p[0]!);
  const results: (Confirmed | null)[] = findings.map(() => null);
  const paired = await confirmTogether(ctx, findings, planned, plans, results);
  const tries = ctx.random ? RANDOM_TRIES : 1;
  for (let attempt = 0; attempt < tries; attempt++) {
    const open = plans
      .map((p, i) => ({ p, i }))
      .filter(({ p, i }) => results[i] === null && p.commands !== undefined && !paired.has(i));
    if (open.length === 0) break;
    // The first try's candidates are most often confirmed: their traced runs may start beside them, on spare cores.
    if (attempt === 0) for (const { p } of open.slice(0, ctx.concurrency - 1)) ctx.beside?.(p.finding, p.commands!);
    const runs = await runCandidatesAhead(
      ctx,
      open.map(({ p }) => p.commands!),
    );
    open.forEach(({ p, i }, k) => {
      results[i] = shownBy(ctx, findings, p.finding, p.commands!, runs[k]!);
    });
  }
  // The program does not behave like its mutant on the model's candidate: shrink on the program itself.
  await mapLimit(
    plans.map((p, i) => ({ p, i })).filter(({ i }) => results[i] === null),
    ctx.concurrency,
    async ({ p, i }) => {
      if (p.start.length === 0) return;
      let commands = p.start;
      if (!ctx.random) {
        const shrunk = await shrinkOnProgram(ctx, p, planned[i]!.slice(1));
        // What is shown names the transcript its commands came from.
        plans[i] = shrunk.from;
        commands = shrunk.commands;
        // Its twin ran beside it in the shrinking's own process: no fresh run is needed to show it.
        if (shrunk.run) results[i] = shownBy(ctx, findings, p.finding, commands, shrunk.run);
      }
      for (let attempt = 0; attempt < tries && results[i] === null; attempt++) {
        const [run] = await runCandidates(ctx, [commands]);
        results[i] = shownBy(ctx, findings, p.finding, commands, run!);
      }
    },
  );
  return results.map((confirmed, i) => {
    if (!confirmed) return null;
    const source = plans[i]!.source;
    const origin: CounterexampleSource = {
      transcript: source?.name ?? 'evidence',
      label: source?.label ?? 'the evidence',
      // From the transcript the caption names, not from the prefix of it the shrinking began with.
      shrunkFrom: Math.max(source?.commands.length ?? 0, plans[i]!.start.length),
      reproduced: true,
      ...(replayOf(ctx, confirmed.commands) ? { replay: replayOf(ctx, confirmed.commands)! } : {}),
    };
    return buildCounterexample(ctx.model, origin, confirmed.commands, confirmed.learner, confirmed.observed);
  });
}

/**
 * A counterexample for a failure no mistake names: the shortest failing transcript, shrunk on the program
 * while it still differs from the reference, then confirmed in a fresh process.
 */
export async function counterexampleForDifference(
  ctx: ConfirmContext,
  failing: readonly Case[],
  outcomes: ReadonlyMap<Case, Outcome>,
): Promise<Counterexample | null> {
  const upTo = (c: Case): readonly string[] => upToCrash(ctx.model, c.commands, outcomes.get(c));
  const start = [...failing].sort(
    (a, b) => upTo(a).length - upTo(b).length || a.commands.length - b.commands.length,
  )[0];
  if (!start) return null;
  const differs = (commands: readonly string[], learner: Outcome): boolean =>
    !sameOutcome(learner, simulate(ctx.model, commands).outcome);
  let rounds = 0;
  const shown = new Map<string, RunOfCandidate>();
  const commands = ctx.random
    ? start.commands
    : await shrinkCommands(
        upTo(start),
        async (lists) => {
          if (rounds++ >= ctx.maxShrinkRounds) return lists.map(() => false);
          const held = await candidatesHoldingWithTwins(ctx, lists, differs);
          held.shown.forEach((run, key) => shown.set(key, run));
          return held.verdicts;
        },
        ctx.maxShrinkRounds,
        commandFits(ctx.model),
        // A run that crashes, hangs or floods differs from the model's, which always finishes.
        everySubsetUpTo(ctx, true),
      );
  const tries = ctx.random ? RANDOM_TRIES : 1;
  for (let attempt = 0; attempt < tries; attempt++) {
    // Where the shrinking ran its last list beside its twin, that run shows it.
    const [run] =
      attempt === 0 && shown.has(commands.join('\n'))
        ? [shown.get(commands.join('\n'))!]
        : await runCandidates(ctx, [commands]);
    if (!differs(commands, run!.plain)) continue;
    const confirmed = confirmedOf(ctx, commands, run!);
    return buildCounterexample(
      ctx.model,
      {
        transcript: start.name,
        label: start.label,
        shrunkFrom: start.commands.length,
        reproduced: true,
        ...(replayOf(ctx, commands) ? { replay: replayOf(ctx, commands)! } : {}),
      },
      commands,
      confirmed.learner,
      confirmed.observed,
    );
  }
  // It failed in the check but not again alone: show the check's own run, and say it did not reproduce.
  const seen = outcomes.get(start);
  if (!seen) return null;
  return buildCounterexample(
    ctx.model,
    { transcript: start.name, label: start.label, shrunkFrom: start.commands.length, reproduced: false },
    start.commands,
    seen,
  );
}

/**
 * A crashed list's commands up to the one it crashed at: the commands after it were never answered, so shrinking
 * need not spend a run to drop them. Any other list whole. A program that does not crash there again alone is
 * still caught: what is shown is run fresh first.
 */
function upToCrash(
  model: ReferenceModel,
  commands: readonly string[],
  outcome: Outcome | undefined,
): readonly string[] {
  if (outcome?.ending !== 'crashed') return commands;
  const answered = segmentAnswers(model, commands, outcome.lines, false).length;
  return commands.slice(0, Math.min(answered + 1, commands.length));
}
