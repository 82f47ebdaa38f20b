/**
 * Spectrum-based fault localisation: which of the learner's lines are to blame for a wrong answer.
 * The lines that ran at the failing command are compared with those that ran at the commands of the
 * same kind (same first word) that were answered right, and ranked by the Ochiai score
 * ef / sqrt((ef + nf) · (ef + ep)): ef/nf = failing commands where the line ran / did not run, ep =
 * right ones where it ran. A line that ran only where the program went wrong scores 1.
 */

export interface SpectrumInput {
  readonly commands: readonly string[];
  /** The learner file's lines that ran at each command; undefined where the trace could not tell. */
  readonly lines: readonly (ReadonlySet<number> | undefined)[];
  /** The first command whose answer was wrong. */
  readonly failingIndex: number;
  /** Further commands whose answers were wrong (they are not counted as right). */
  readonly otherFailing?: readonly number[];
  /** The program's answer at the first failing command; null when it gave none (it crashed or stopped there). */
  readonly failingAnswer: readonly string[] | null;
  /**
   * The failing command's outcome in the lesson's words, to use instead of "when CHOOSE answered alpha",
   * e.g. "when CHOOSE took alpha" (only with a single failing command).
   */
  readonly failingEvent?: string;
  /** How many lines to return at most. */
  readonly limit?: number;
}

export interface SuspiciousLines {
  /**
   * 1-based lines in line order: those with the top score (lines that ran less often where the program
   * was right are weaker evidence and left out, so that `reason` holds for every line given).
   */
  readonly lines: readonly number[];
  /** Their Ochiai score: 1 for lines that ran only where the program went wrong. */
  readonly score: number;
  /** Why these lines, in the learner's words. */
  readonly reason: string;
  /**
   * false when no line told the failing command from the right ones (the same lines ran at all of them):
   * then `lines` are just the lines that ran at this kind of command and at the fewest others, and
   * pointing at the whole function is as good.
   */
  readonly discriminating: boolean;
}

const DEFAULT_LIMIT = 5;
/** Lines that tell nothing apart are a function's body: up to this many of them, so a longer body is not cut at its top. */
const FALLBACK_LIMIT = 10;

const firstWord = (command: string): string => command.trim().split(/\s+/)[0] ?? '';

/** An answer as the trace table's cell shows it (lines joined by " / "), so a note and its row read the same. */
function shownAnswer(answer: readonly string[]): string {
  const text = answer.join(' / ');
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** "when CHOOSE answered alpha", "at the CHOOSE where the program stopped". */
function whatHappened(verb: string, answer: readonly string[] | null, failingCount: number): string {
  const single =
    answer === null
      ? `at the ${verb} where the program stopped`
      : answer.length === 0
        ? `when ${verb} answered nothing`
        : `when ${verb} answered ${shownAnswer(answer)}`;
  if (failingCount === 1) return single;
  const first =
    answer === null
      ? 'the first stopped the program'
      : answer.length === 0
        ? 'the first answered nothing'
        : `the first answered ${shownAnswer(answer)}`;
  return `at the ${failingCount} ${verb} commands that went wrong (${first})`;
}

/** "the other 2 CHOOSE commands, which were right" (the command word never takes a plural ending). */
function rightOnes(verb: string, count: number): string {
  return count === 1
    ? `the other ${verb} command, which was right`
    : `the other ${count} ${verb} commands, which were right`;
}

const byScoreThenLine = (a: { line: number; score: number }, b: { line: number; score: number }): number =>
  b.score - a.score || a.line - b.line;

export function rankSuspiciousLines(input: SpectrumInput): SuspiciousLines | undefined {
  const { commands, lines, failingIndex } = input;
  const failingLines = lines[failingIndex];
  if (!failingLines || failingLines.size === 0) return undefined;
  const limit = input.limit ?? DEFAULT_LIMIT;
  const verb = firstWord(commands[failingIndex] ?? '');
  const wrong = new Set([failingIndex, ...(input.otherFailing ?? [])]);
  const sameKind = (i: number): boolean => firstWord(commands[i] ?? '') === verb && lines[i] !== undefined;
  const failing = [...wrong].filter(sameKind);
  const passing = commands.map((_, i) => i).filter((i) => sameKind(i) && !wrong.has(i));
  if (passing.length === 0) return uncompared(input, verb, failing.length);

  const candidates = new Set<number>();
  for (const i of failing) for (const line of lines[i]!) candidates.add(line);
  const ranked = [...candidates].map((line) => {
    const ef = failing.filter((i) => lines[i]!.has(line)).length;
    const ep = passing.filter((i) => lines[i]!.has(line)).length;
    return { line, ef, ep, score: ef / Math.sqrt(failing.length * (ef + ep)) };
  });
  // A line that ran at every command of this kind, right or wrong, tells nothing.
  const everywhere = Math.sqrt(failing.length / (failing.length + passing.length));
  const best = Math.max(...ranked.map((entry) => entry.score));
  const telling =
    best > everywhere + 1e-9
      ? ranked
          .filter((entry) => entry.score >= best - 1e-9)
          .sort(byScoreThenLine)
          .slice(0, limit)
      : [];
  const happened =
    input.failingEvent !== undefined && failing.length === 1
      ? input.failingEvent
      : whatHappened(verb, input.failingAnswer, failing.length);

  if (telling.length > 0) {
    const top = telling[0]!;
    const these = telling.length === 1 ? 'this line ran' : 'these lines ran';
    const elsewhere =
      top.ep === 0
        ? `and not at ${rightOnes(verb, passing.length)}`
        : `and at only ${top.ep} of ${rightOnes(verb, passing.length)}`;
    return {
      lines: telling.map((e) => e.line),
      score: best,
      reason: `${these} ${happened}, ${elsewhere}`,
      discriminating: true,
    };
  }

  // Nothing told them apart: the lines of this command that ran at the fewest other commands of any kind
  // (the learner's function rather than the command loop), said honestly.
  const others = lines
    .map((set, i) => (set && i !== failingIndex ? set : undefined))
    .filter((set): set is ReadonlySet<number> => set !== undefined);
  const least = leastShared(
    failingLines,
    others,
    Math.max(limit, input.limit === undefined ? FALLBACK_LIMIT : limit),
  ).map((line) => ({ line }));
  if (least.length === 0) return undefined;
  const alsoAtRight = ranked.every((entry) => entry.ep === passing.length);
  const same = alsoAtRight ? 'also ran' : 'ran as often';
  const reason = `the lines that ran ${happened} ${same} at ${rightOnes(verb, passing.length)}, so look at the values they compute`;
  return { lines: least.map((e) => e.line), score: everywhere, reason, discriminating: false };
}

/**
 * The lines of this command's own code when no command of its kind was answered right to compare with (a
 * bookkeeping mistake made at the only command of its kind in a shrunk transcript): those that ran at the fewest other commands.
 */
function uncompared(input: SpectrumInput, verb: string, failingCount: number): SuspiciousLines | undefined {
  const failingLines = input.lines[input.failingIndex]!;
  const others = input.lines.filter(
    (set, i): set is ReadonlySet<number> => set !== undefined && i !== input.failingIndex,
  );
  const least = leastShared(failingLines, others, input.limit ?? FALLBACK_LIMIT);
  if (least.length === 0) return undefined;
  const happened =
    input.failingEvent !== undefined && failingCount === 1
      ? input.failingEvent
      : whatHappened(verb, input.failingAnswer, failingCount);
  return {
    lines: least,
    score: 0,
    reason: `these lines ran ${happened}, and no other ${verb} command was answered right to compare with`,
    discriminating: false,
  };
}

/** The lines of `failing` that ran at the fewest of `others` (never those that ran at all of them), in that order. */
function leastShared(failing: ReadonlySet<number>, others: readonly ReadonlySet<number>[], limit: number): number[] {
  return [...failing]
    .map((line) => ({ line, score: -others.filter((set) => set.has(line)).length }))
    .filter((entry) => -entry.score < others.length)
    .sort(byScoreThenLine)
    .slice(0, limit)
    .map((entry) => entry.line);
}
