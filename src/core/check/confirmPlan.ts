/**
 * What the confirm phase runs first for a finding (confirm.ts): candidates shrunk on the model, which costs no
 * process. For a plain mutant, the fewest commands on which it still answers otherwise than the reference; for a
 * free choice, still enough choices that a program choosing at random is very likely to differ, and, for a
 * program that chooses by a rule of its own, the very choice it was seen to make.
 */
import type { Stream } from './batch';
import type { Case } from './cases';
import type { ConfirmContext } from './confirmRuns';
import { shrinkCommands } from './shrink';
import type { Finding } from '../diagnosis/diagnose';
import { commandFits } from '../model/grammar';
import type { ReferenceModel } from '../model/model';
import { segmentAnswers } from '../model/segment';
import { sameOutcome, simulate } from '../model/simulate';

/** A program that chooses at random among the offered answers shows the difference with at least this chance. */
const FREE_CHOICE_MISS = 1 / 8;
/** How many earlier transcripts of a stream a finding may need (state that survives a reset). */
const MAX_CONTEXT_SEGMENTS = 3;

export interface Planned {
  readonly finding: Finding;
  readonly source: Case | undefined;
  readonly start: readonly string[];
  /** The model-guided smallest transcript, or undefined when the model cannot show the finding alone. */
  readonly commands: readonly string[] | undefined;
  /** Shrunk to keep the choice the program was seen to make (a free choice of a program with a rule of its own). */
  readonly keepsChoice?: boolean;
}

/** True when the finding's mutant alone makes `commands` show the finding (see the module comment). */
export function modelShows(
  model: ReferenceModel,
  finding: Pick<Finding, 'mutation' | 'nondeterministic'>,
  commands: readonly string[],
): boolean {
  const mutant = simulate(model, commands, new Set([finding.mutation]));
  if (!finding.nondeterministic) return !sameOutcome(mutant.outcome, simulate(model, commands).outcome);
  let chance = 1;
  for (const step of mutant.steps) chance /= 1 + step.alternatives;
  return chance <= FREE_CHOICE_MISS;
}

/** The commands of the stream up to a step, from the start of its transcript (or a few earlier ones). */
function prefixes(stream: Stream, index: number): (readonly string[])[] {
  const at = stream.segments.findIndex((s) => index >= s.start && index < s.start + s.length);
  if (at < 0) return [];
  const out: (readonly string[])[] = [];
  for (let back = 0; back < MAX_CONTEXT_SEGMENTS && at - back >= 0; back++) {
    out.push(stream.commands.slice(stream.segments[at - back]!.start + 1, index + 1));
  }
  return out;
}

/**
 * Candidates from the first few commands that show the finding, each shrunk on the model, the shortest first
 * (distinct lists only); when none shows it on the model, one without commands, from the finding's first list.
 * A free choice of a program that chose the same on fresh runs (a fixed rule the lesson has no mutant for) is also
 * shrunk to keep the very choice it was seen to make: the same answers on offer, its own among them. "Enough
 * choices" alone can drop what its rule looks at (names that sort otherwise by locale), and the program does not
 * differ there; keeping the choice can drop what a rule of history looks at (a rotation, weights), where "enough
 * choices" may still catch it. Both are run at once (counterexamplesFor).
 */
export async function plan(ctx: ConfirmContext, finding: Finding): Promise<Planned[]> {
  const planned: Planned[] = [];
  const add = (start: readonly string[], commands: readonly string[], list: number, keepsChoice = false): void => {
    if (!planned.some((p) => p.commands!.join('\n') === commands.join('\n')))
      planned.push({ finding, source: ctx.cases[list], start, commands, ...(keepsChoice ? { keepsChoice } : {}) });
  };
  for (const step of finding.steps.slice(0, 5)) {
    const stream = ctx.streams[step.stream];
    if (!stream) continue;
    const starts = prefixes(stream, step.index);
    const kept =
      ctx.fixedChoices && finding.nondeterministic
        ? await keepingChoice(ctx, finding, stream, step.index, starts)
        : undefined;
    if (kept) add(kept.start, kept.commands, step.list, true);
    const start = starts.find((p) => modelShows(ctx.model, finding, p));
    if (!start) continue;
    const commands = await shrinkCommands(
      start,
      async (lists) => lists.map((list) => modelShows(ctx.model, finding, list)),
      undefined,
      commandFits(ctx.model),
    );
    add(start, commands, step.list);
  }
  // The shortest first (of those the model shows, where there are any); of two as short, the earlier step's.
  const rank = (p: Planned): number => (p.keepsChoice && planned.some((o) => !o.keepsChoice) ? 1 : 0);
  if (planned.length > 0) return planned.sort((a, b) => rank(a) - rank(b) || a.commands!.length - b.commands!.length);
  const first = finding.steps[0];
  return [
    {
      finding,
      source: first ? ctx.cases[first.list] : undefined,
      start: first ? (ctx.cases[first.list]?.commands ?? []) : [],
      commands: undefined,
    },
  ];
}

/** The answers a free choice offers at the last of `commands` (its mutation on), sorted; undefined for no choice. */
function choicesAtEnd(model: ReferenceModel, mutation: string, commands: readonly string[]): string[] | undefined {
  const on = new Set([mutation]);
  let state = model.initial();
  for (const [k, command] of commands.entries()) {
    const result = model.step(state, command, on);
    if (result.answer.kind === 'crash') return undefined;
    if (k === commands.length - 1) {
      const offered = [result.answer.lines, ...(result.alternatives ?? [])];
      return offered.length > 1 ? offered.map((lines) => lines.join('\n')).sort() : undefined;
    }
    state = result.state;
  }
  return undefined;
}

/**
 * The prefix of the step's transcript where the same choice is offered as the program was seen to make, shrunk
 * on the model while it still offers exactly those answers; undefined when the model offers no such choice there.
 */
async function keepingChoice(
  ctx: ConfirmContext,
  finding: Finding,
  stream: Stream,
  index: number,
  starts: readonly (readonly string[])[],
): Promise<{ start: readonly string[]; commands: readonly string[] } | undefined> {
  const answers = segmentAnswers(ctx.model, stream.commands, stream.lines, stream.ending === 'finished');
  const chosen = answers[index]?.join('\n');
  const start = starts[0];
  if (chosen === undefined || !start) return undefined;
  const offered = choicesAtEnd(ctx.model, finding.mutation, start);
  if (!offered?.includes(chosen)) return undefined;
  const same = (list: readonly string[]): boolean =>
    choicesAtEnd(ctx.model, finding.mutation, list)?.join('\0') === offered.join('\0');
  const commands = await shrinkCommands(start, async (lists) => lists.map(same), undefined, commandFits(ctx.model));
  return { start, commands };
}
