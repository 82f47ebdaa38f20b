/**
 * Claims against evidence: a finding is shown only where the program's own answers support it.
 *
 * The diagnosis names a mistake when its mutant explains the program's answers; but a mutant can explain the
 * answers for a reason the program does not have. A count that is one too high because the program counts
 * a request when it finishes makes the next choice look like the one a wrapped-around counter would make; a
 * backend chosen because another one is still down looks like a tie broken the other way. The counterexample's trace holds
 * what settles it: the program's own counts (its answer to the lesson's observe command after every
 * command). So the claim is replayed on that trace, with the model's counts set from the program's own
 * after every command:
 *
 * - where the mistake says something about the counts (its mutant's counts differ from those without it),
 *   the program's counts must be the mutant's: a wrap-around card needs the wrapped number in the trace;
 * - where the mistake says something about an answer the program got wrong (a tie broken otherwise), the
 *   program's answer must be one the mutant gives from the program's own counts: a tie broken otherwise only
 *   where the chosen and the expected backend had equal counts by the program's own observe command.
 *
 * A finding that fails is given the form of its mistake that holds (a plain -1 instead of a wrap-around),
 * else it is not named, and the difference it claimed is said as what the counts show. Pure.
 */
import type { ReferenceModel } from '../model/model';
import type { Counterexample } from '../report/report';
import type { Finding, MistakeMutants } from './finding';

export interface ClaimCheck {
  /**
   * False when a row of the trace contradicts the claim: a wrong answer the mistake does not give from the
   * program's own counts, or counts that are not the mistake's where it changes them. A right answer where the
   * mistake would answer otherwise does not count against it: a mistake stands for every program that makes it
   * (ties broken by any rule but the name), and such a program agrees with the reference at some of its ties.
   */
  readonly holds: boolean;
  /** Rows (0-based) where the claim says something and the program's answers bear it out. */
  readonly borneOut: number;
  /** The first row that contradicts the claim, and in words what the program showed there. */
  readonly contradiction?: { readonly row: number; readonly shown: string };
}

const sameLines = (a: readonly string[] | null | undefined, b: readonly string[] | null | undefined): boolean =>
  !!a && !!b && a.length === b.length && a.every((line, i) => line === b[i]);

const allowedAnswers = (result: ReturnType<ReferenceModel['step']>): (readonly string[])[] | null =>
  result.answer.kind === 'crash' ? null : [result.answer.lines, ...(result.alternatives ?? [])];

const sameAllowed = (a: (readonly string[])[] | null, b: (readonly string[])[] | null): boolean =>
  a === null || b === null
    ? a === b
    : a.length === b.length && a.every((lines) => b.some((other) => sameLines(lines, other)));

const shownLines = (lines: readonly string[]): string => (lines.length === 0 ? '(nothing)' : lines.join(' '));

/**
 * Replays `claimed` (mutation ids, with `others` — the program's other named mistakes — on as well) over a
 * counterexample's trace, with the counts taken from the program's own observe answers after every command.
 * A trace without the program's counts, or not reproduced on the real program, holds nothing against it.
 */
export function checkClaim(
  model: ReferenceModel,
  claimed: readonly string[],
  others: readonly string[],
  example: Counterexample,
  choicesCount = true,
): ClaimCheck {
  if (!example.reproduced) return { holds: true, borneOut: 0 };
  const on = new Set([...others, ...claimed]);
  const without = new Set(others.filter((id) => !claimed.includes(id)));
  const observe = example.observeCommand ?? model.observeCommand;
  // Two lines of state, with and without the claim, both set to the program's own counts after every
  // command: what the claim changes that the counts do not show (a cap forgotten by the reset) shows later.
  let state = model.initial();
  let baseState = model.initial();
  let borneOut = 0;
  for (const [i, row] of example.trace.entries()) {
    if (row.actual === null) {
      // The program stopped here: a mistake that says it crashes here is borne out.
      if (
        model.step(state, row.command, on).answer.kind === 'crash' &&
        model.step(baseState, row.command, without).answer.kind !== 'crash'
      )
        borneOut += 1;
      break;
    }
    const mutant = model.step(state, row.command, on, row.actual);
    const base = model.step(baseState, row.command, without, row.actual);
    const mutantAnswers = allowedAnswers(mutant);
    const claimsAnswer = !sameAllowed(mutantAnswers, allowedAnswers(base));
    if (!row.matches && claimsAnswer) {
      if (mutantAnswers?.some((lines) => sameLines(lines, row.actual))) {
        borneOut += 1;
      } else if (choicesCount) {
        // (A random program's choices say nothing against a mistake in its counts: it may have drawn another.)
        const counts =
          i > 0 && example.trace[i - 1]!.observed
            ? ` while your counts were ${shownLines(example.trace[i - 1]!.observed!)}`
            : '';
        return {
          holds: false,
          borneOut,
          contradiction: { row: i, shown: `\`${row.command}\` answered ${shownLines(row.actual)}${counts}` },
        };
      }
    }
    state = mutant.state;
    baseState = base.state;
    if (!observe || !row.observed || example.observeCommand === undefined) continue;
    const mutantCounts = model.step(state, observe, on);
    const baseCounts = model.step(base.state, observe, without);
    const mutantLines = mutantCounts.answer.kind === 'lines' ? mutantCounts.answer.lines : null;
    const baseLines = baseCounts.answer.kind === 'lines' ? baseCounts.answer.lines : null;
    if (!sameLines(mutantLines, baseLines) && mutantLines !== null) {
      if (!sameLines(mutantLines, row.observed)) {
        // Counts as they should be contradict the mistake but are no difference to show the learner ("your
        // counts were a:0 where they should be a:0"): the difference is the first wrong answer.
        if (row.shouldBe && sameLines(row.observed, row.shouldBe))
          return { holds: false, borneOut, contradiction: { row: i, shown: firstDifference(example) } };
        const should = row.shouldBe ? ` where they should be ${shownLines(row.shouldBe)}` : '';
        return {
          holds: false,
          borneOut,
          contradiction: {
            row: i,
            shown: `after \`${row.command}\` your counts were ${shownLines(row.observed)}${should}`,
          },
        };
      }
      borneOut += 1;
    }
    // From here on the counts are the program's own, as it printed them.
    state = model.step(state, observe, on, row.observed).state;
    baseState = model.step(baseState, observe, without, row.observed).state;
  }
  return { holds: true, borneOut };
}

/**
 * Numbers a text states as counts: negative ones, and those too large to be anything but a count gone wrong
 * (an unsigned wrap-around). Small positive numbers in a lesson's prose are examples or bit widths.
 */
export function statedCounts(text: string): string[] {
  const found = text.match(/(?<![\w.])-?\d+(?![\w.])/g) ?? [];
  return [...new Set(found.filter((n) => n.startsWith('-') || n.replace(/^-/, '').length >= 5))];
}

/** Every number the program printed in a trace: its answers and its own counts. */
export function traceNumbers(example: Counterexample): Set<string> {
  const numbers = new Set<string>();
  for (const row of example.trace) {
    for (const line of [...(row.actual ?? []), ...(row.observed ?? [])])
      for (const n of line.match(/-?\d+/g) ?? []) numbers.add(n);
  }
  return numbers;
}

/** The counts a text states that its trace does not show. */
export function unsupportedCounts(text: string, example: Counterexample): string[] {
  const shown = traceNumbers(example);
  return statedCounts(text).filter((n) => !shown.has(n));
}

export interface VetInput<
  F extends Pick<Finding, 'mistake' | 'mutation' | 'mutations' | 'nondeterministic' | 'confidence'>,
> {
  readonly model: ReferenceModel;
  readonly catalogue: readonly MistakeMutants[];
  readonly findings: readonly F[];
  /** Each finding's counterexample, in the same order (null when none was confirmed). */
  readonly examples: readonly (Counterexample | null)[];
  /** What the card of this mistake says in this form (title, explanation, hint): its stated counts must be in the trace. */
  readonly cardText: (mistake: string, mutation: string) => string;
  /** Two fresh runs of the program answered differently. */
  readonly random?: boolean;
  /** The program also differs in ways no named mistake explains. */
  readonly unexplained?: boolean;
}

export type Vetted<F> =
  | { readonly kind: 'kept'; readonly finding: F; readonly example: Counterexample | null }
  /** Not named: the program's own answers contradict it. `shown` says what they show instead. */
  | { readonly kind: 'dropped'; readonly finding: F; readonly example: Counterexample; readonly shown: string };

/**
 * Every finding through the evidence of its own counterexample: kept, given the form of its mistake that the
 * program's answers bear out, or dropped. The other findings' mutations stay on while one is replayed, so
 * that a second mistake's effect on the counts is not held against the first.
 */
export function vetFindings<
  F extends Pick<Finding, 'mistake' | 'mutation' | 'mutations' | 'nondeterministic' | 'confidence'>,
>(input: VetInput<F>): Vetted<F>[] {
  const { model, findings, examples } = input;
  const free = new Set(model.mutations.filter((m) => m.nondeterministic).map((m) => m.id));
  return findings.map((finding, i): Vetted<F> => {
    const example = examples[i] ?? null;
    if (!example || !example.reproduced) return { kind: 'kept', finding, example };
    const others = findings.filter((f) => f !== finding && !f.nondeterministic).map((f) => f.mutation);
    const partners = finding.mutations.filter((m) => m !== finding.mutation);
    const supports = (mutation: string): ClaimCheck & { readonly stated: boolean } => {
      const check = checkClaim(
        model,
        [mutation],
        [...new Set([...others, ...partners])],
        example,
        !input.random || free.has(mutation),
      );
      const stated =
        example.observeCommand === undefined ||
        unsupportedCounts(input.cardText(finding.mistake, mutation), example).length === 0;
      return { ...check, stated };
    };
    const own = supports(finding.mutation);
    const forms = input.catalogue.find((m) => m.id === finding.mistake)?.mutants ?? [];
    const replaced = (mutation: string): F => ({
      ...finding,
      mutation,
      mutations: finding.mutations.map((m) => (m === finding.mutation ? mutation : m)),
      nondeterministic: free.has(mutation),
      confidence: 'likely' as const,
    });
    if (own.holds && own.stated && own.borneOut > 0) {
      // A likely finding in a special form (a count ranked as unsigned) whose trace the plain form explains as
      // well, where its extra claim is only about choices (the counts are the plain form's): in a random
      // program, or one that also chooses in ways no mistake explains, those choices can look like the special
      // form's by chance, so the plain one is named.
      const plain = forms[0];
      const doubtfulChoices =
        input.random ||
        (input.unexplained === true &&
          plain !== undefined &&
          sameCounts(model, [finding.mutation], [plain], [...others, ...partners], example));
      if (
        doubtfulChoices &&
        !finding.nondeterministic &&
        finding.confidence === 'likely' &&
        plain &&
        plain !== finding.mutation &&
        !free.has(plain)
      ) {
        const other = supports(plain);
        if (other.holds && other.stated && other.borneOut > 0)
          return { kind: 'kept', finding: replaced(plain), example };
      }
      return { kind: 'kept', finding, example };
    }
    for (const mutation of forms) {
      if (mutation === finding.mutation) continue;
      const other = supports(mutation);
      if (!other.holds || !other.stated || other.borneOut === 0) continue;
      return { kind: 'kept', finding: replaced(mutation), example };
    }
    const unstated = unsupportedCounts(input.cardText(finding.mistake, finding.mutation), example);
    const shown =
      own.contradiction?.shown ??
      (unstated.length > 0 ? `your counts never show ${unstated.join(' or ')}` : firstDifference(example));
    return { kind: 'dropped', finding, example, shown };
  });
}

/** The first wrong answer of a trace, with the program's own counts just before it. */
function firstDifference(example: Counterexample): string {
  const i = Math.max(
    0,
    example.trace.findIndex((row) => !row.matches),
  );
  const row = example.trace[i]!;
  const before = i > 0 ? example.trace[i - 1]!.observed : undefined;
  return `\`${row.command}\` answered ${row.actual === null ? 'nothing' : shownLines(row.actual)} where the reference answers ${shownLines(row.expected)}${before ? ` while your counts were ${shownLines(before)}` : ''}`;
}

/** True when two forms of a mistake give the same counts at every row of the trace (they differ only in choices). */
function sameCounts(
  model: ReferenceModel,
  a: readonly string[],
  b: readonly string[],
  others: readonly string[],
  example: Counterexample,
): boolean {
  const observe = example.observeCommand;
  if (!observe) return false;
  const onA = new Set([...others, ...a]);
  const onB = new Set([...others, ...b]);
  let stateA = model.initial();
  let stateB = model.initial();
  for (const row of example.trace) {
    if (row.actual === null || !row.observed) break;
    stateA = model.step(stateA, row.command, onA, row.actual).state;
    stateB = model.step(stateB, row.command, onB, row.actual).state;
    const countsA = model.step(stateA, observe, onA).answer;
    const countsB = model.step(stateB, observe, onB).answer;
    if (countsA.kind !== 'lines' || countsB.kind !== 'lines' || !sameLines(countsA.lines, countsB.lines)) return false;
    stateA = model.step(stateA, observe, onA, row.observed).state;
    stateB = model.step(stateB, observe, onB, row.observed).state;
  }
  return true;
}
