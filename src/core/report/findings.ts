/**
 * A named mistake in the learner's words, the same on every surface: its headline with the confidence
 * ("<title> (likely)"), where it is (the lines that ran when the program went wrong, or the
 * function), what the evidence was, how the program's ties behave, and the transcripts that show it by
 * their descriptions, never by their internal names.
 */
import type { CheckReport, Counterexample, Location, NamedMistake } from './report';
import type { Language } from '../pack/schema';
import { locateFunction } from '../text/source';
import { safeText, showInvisibles } from '../text/text';

/** The title, in the wording of the variant the program shows when the lesson words it apart. */
export function mistakeTitle(m: Pick<NamedMistake, 'title' | 'variant'>): string {
  return m.variant?.title ?? m.title;
}

/** The explanation of the variant the program shows, else the mistake's general one. */
export function mistakeExplanation(m: Pick<NamedMistake, 'explanation' | 'variant'>): string {
  return m.variant?.explanation ?? m.explanation;
}

export function isLikely(m: Pick<NamedMistake, 'confidence'>): boolean {
  return m.confidence !== 'exact';
}

/** "<title>" or "<title> (likely)": what the squiggle, Problems, the CodeLens and the CLI say. */
export function mistakeHeadline(m: Pick<NamedMistake, 'title' | 'variant' | 'confidence'>): string {
  return `${mistakeTitle(m)}${isLikely(m) ? ' (likely)' : ''}`;
}

/** A certain finding is an error; a likely one a warning. */
export function mistakeSeverity(m: Pick<NamedMistake, 'confidence'>): 'error' | 'warning' {
  return isLikely(m) ? 'warning' : 'error';
}

/** The function to point at: where the suspicious lines are (a helper the catalogue function calls), else the catalogue's. */
export function mistakeFunction(m: Pick<NamedMistake, 'function' | 'location'>): string {
  return m.location?.function ?? m.function;
}

/** "line 74", "lines 74–75", "lines 74–75 and 80". */
export function linesText(lines: readonly number[]): string {
  const sorted = [...new Set(lines)].filter((n) => Number.isInteger(n) && n > 0).sort((a, b) => a - b);
  if (sorted.length === 0) return '';
  const runs: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    runs.push(j === i ? String(sorted[i]) : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  const list = runs.length === 1 ? runs[0]! : `${runs.slice(0, -1).join(', ')} and ${runs[runs.length - 1]}`;
  return `${sorted.length === 1 ? 'line' : 'lines'} ${list}`;
}

export interface Where {
  /** The function the card links to. */
  readonly function: string;
  /** 1-based, most suspicious first; empty when only the function is known. */
  readonly lines: readonly number[];
  /** "Lines 74–75 of select()" / "In pick()". */
  readonly text: string;
  /** Why these lines, when the program was traced. */
  readonly reason?: string;
}

/** Which table a sentence's "command N" points into: the one under it (a card), or the panel's (a hover). */
export type TablePlace = 'below' | 'panel';

const TABLE_WORDS: Record<TablePlace, string> = { below: 'the table below', panel: "the lesson panel's table" };

/**
 * "command 3 (GET)": row `row` (1-based) of a counterexample's table, with the command that row holds, so
 * the number and the command cannot disagree; undefined when the table has no such row.
 */
export function commandRef(example: Pick<Counterexample, 'trace'> | null | undefined, row: number): string | undefined {
  const command = example?.trace[row - 1]?.command;
  return command === undefined || row < 1 ? undefined : `command ${row} (${showInvisibles(command)})`;
}

/**
 * Which run a location's reason is about, put before the reason: "at command 3 (GET) in the table below, "
 * or "in “…”, not the table below, ". A row number is given only for a row of the card's own table.
 */
function locationRun(
  at: Location['at'],
  example: Pick<Counterexample, 'trace' | 'transcript' | 'shrunkFrom'> | null | undefined,
  place: TablePlace,
): string {
  if (!at) return '';
  if (at.table) {
    const ref = commandRef(example, at.row);
    return ref ? `at ${ref} in ${TABLE_WORDS[place]}, ` : '';
  }
  // The table may be a shortened copy of the same transcript: its rows are not the ones the note counts.
  const same = example?.transcript === at.transcript;
  const shortened = same && example.shrunkFrom > example.trace.length && place === 'below';
  return `in ${same ? 'the whole of ' : ''}${quotedTranscript(at.transcript, at.label)}, not ${shortened ? 'the shortened table below' : TABLE_WORDS[place]}, `;
}

export function mistakeWhere(
  m: Pick<NamedMistake, 'function' | 'line' | 'location'> & Partial<Pick<NamedMistake, 'counterexample'>>,
  place: TablePlace = 'below',
): Where {
  const loc = m.location;
  if (loc && loc.lines.length > 0) {
    // The function's name comes from the learner's file and the reason quotes the program's answers.
    const fn = safeText(loc.function ?? m.function);
    const lines = linesText(loc.lines);
    return {
      function: fn,
      lines: loc.lines,
      text: `${lines.charAt(0).toUpperCase()}${lines.slice(1)}${loc.function ? ` of ${fn}()` : ''}`,
      reason: `${locationRun(loc.at, m.counterexample, place)}${safeText(loc.reason)}`,
    };
  }
  // No line: the program has no function of that name (it does the job elsewhere), so say so rather than "In take()".
  if (!m.line)
    return {
      function: m.function,
      lines: [],
      text: `Your program has no function named ${m.function}(): look for the code that does its job`,
    };
  // The def's own line is not where the mistake is: no line number that reads as if it were.
  return { function: m.function, lines: [], text: `In ${m.function}()` };
}

/** A transcript by its description: hidden ones as the lesson describes them, generated ones as "a random test (#24)". */
export function transcriptLabel(report: Pick<CheckReport, 'transcripts'> | null | undefined, name: string): string {
  const described = report?.transcripts.find((t) => t.name === name)?.description;
  if (described) return described;
  const generated = /^generated-(\d+)$/.exec(name);
  if (generated) return `a random test (#${generated[1]})`;
  return name.replace(/-/g, ' ');
}

/** Where a counterexample came from, in words. */
export function counterexampleLabel(
  example: Pick<Counterexample, 'label' | 'transcript'>,
  report?: Pick<CheckReport, 'transcripts'> | null,
): string {
  // Reports of the first version put the transcript's name in `label` too.
  return example.label && example.label !== example.transcript
    ? example.label
    : transcriptLabel(report, example.transcript);
}

/** "from a random test (#24)" / "from the transcript “ties follow pool order”": where a trace came from, as a caption says it. */
export function counterexampleSource(
  example: Pick<Counterexample, 'label' | 'transcript'>,
  report?: Pick<CheckReport, 'transcripts'> | null,
): string {
  const label = counterexampleLabel(example, report);
  return /^generated-\d+$/.test(example.transcript) ? label : `the transcript “${label}”`;
}

/** The hidden transcripts that show a mistake, by their descriptions. */
export function revealedByLabels(
  report: Pick<CheckReport, 'transcripts'>,
  m: Pick<NamedMistake, 'revealedBy'>,
): string[] {
  // Several transcripts can share one description ("40 mixed commands"): say it once, with how many, so the list
  // counts as many as the evidence's "3 of 18 hidden transcripts" beside it.
  const counts = new Map<string, number>();
  for (const name of new Set(m.revealedBy)) {
    const label = transcriptLabel(report, name);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts].map(([label, n]) => (n > 1 ? `${label} (${n} transcripts)` : label));
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** Where the commands were counted: "4 of 15 hidden transcripts and 13 of 40 random tests", from the report's own totals. */
function evidenceScope(
  m: Pick<NamedMistake, 'evidence' | 'revealedBy'>,
  report: Pick<CheckReport, 'transcripts' | 'fuzz'>,
): string | undefined {
  const hidden = new Set(m.revealedBy).size;
  const random = m.evidence.transcripts - hidden;
  const hiddenTotal = report.transcripts.length;
  const randomTotal = report.fuzz.transcripts;
  const settling = report.fuzz.settling ?? 0;
  if (random < 0 || random > randomTotal + settling || hidden > hiddenTotal) return undefined;
  // A random program's evidence counts the draws made to settle its verdict too; the panel's total does not.
  const randomPart =
    settling > 0
      ? `${plural(random, 'random test', 'random tests')} (of the ${randomTotal} and ${settling} more drawn because your program chooses at random)`
      : `${random} of ${plural(randomTotal, 'random test', 'random tests')}`;
  const parts = [
    ...(hidden > 0 ? [`${hidden} of ${plural(hiddenTotal, 'hidden transcript', 'hidden transcripts')}`] : []),
    ...(random > 0 ? [randomPart] : []),
  ];
  return parts.length > 0 ? parts.join(' and ') : undefined;
}

/** A transcript as a sentence names it: a hidden one by its description in quotes, a random one as "a random test (#24)". */
function quotedTranscript(name: string, label: string): string {
  return /^generated-\d+$/.test(name) ? safeText(label) : `“${safeText(label)}”`;
}

/**
 * ", first at command 4 (GET) in the table below" when the first sighting is a row of the card's own table
 * (the same transcript, not shrunk, the same command at that row); else ", first at GET in “ties follow pool
 * order”": another transcript's fact names the transcript, never a row number the table does not share.
 */
function firstSeen(
  first: NonNullable<NamedMistake['evidence']['first']>,
  example: Counterexample | null | undefined,
  place: TablePlace,
): string {
  const sameTable =
    example &&
    example.transcript === first.transcript &&
    example.shrunkFrom <= example.commands.length &&
    example.commands[first.index] === first.command;
  const ref = sameTable ? commandRef(example, first.index + 1) : undefined;
  if (ref) return `, first at ${ref} in ${TABLE_WORDS[place]}`;
  return `, first at ${safeText(first.command)} in ${quotedTranscript(first.transcript, first.label)}`;
}

/**
 * "Seen at 7 commands in 2 of 15 hidden transcripts and 1 of 40 random tests, first at GET in “ties follow
 * pool order”." With the report, the counts say where they come from.
 */
export function evidenceText(
  m: Pick<NamedMistake, 'evidence'> & Partial<Pick<NamedMistake, 'revealedBy' | 'counterexample'>>,
  report?: Pick<CheckReport, 'transcripts' | 'fuzz'>,
  place: TablePlace = 'below',
): string {
  const e = m.evidence;
  if (!e || e.steps === 0) return '';
  const first = e.first ? firstSeen(e.first, m.counterexample, place) : '';
  const scope = report && m.revealedBy ? evidenceScope({ evidence: e, revealedBy: m.revealedBy }, report) : undefined;
  return `Seen at ${plural(e.steps, 'command', 'commands')} in ${scope ?? plural(e.transcripts, 'transcript', 'transcripts')}${first}.`;
}

/** How the program's ties behave, when the check saw it. */
export function behaviourText(m: Pick<NamedMistake, 'behaviour'>): string | undefined {
  switch (m.behaviour) {
    case 'random':
      return 'Your ties are broken at random: two runs of the same commands gave different answers.';
    case 'rotating':
      return 'Your ties rotate: the same commands after a reset gave a different answer, so something carries over between picks.';
    default:
      return undefined;
  }
}

/**
 * The diagnostic's message (Problems, hover): the headline, the hint and, when traced, why these lines;
 * when no line was found, why only the function's name is underlined.
 */
export function diagnosticMessage(m: NamedMistake): string {
  const where = mistakeWhere(m, 'panel');
  if (where.reason) return `${mistakeHeadline(m)}: ${m.hint} (${where.text}: ${where.reason}.)`;
  if (!m.line && !m.location?.function) return `${mistakeHeadline(m)}: ${m.hint}`;
  const fn = mistakeFunction(m);
  return `${mistakeHeadline(m)}: ${m.hint} (Only the name ${fn} is underlined: the check found no line of ${fn}() that ran only where your program went wrong, so read all of it, with the table in the lesson panel.)`;
}

/** At most `max` characters, cut at a word. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

/**
 * Room for the one-line message the editor shows after the failing line (Test Explorer's inline message): an
 * 80-column editor with the minimap on leaves about this much after a short line of code (the line is the
 * shortest of the squiggled ones); the whole message is in its hover and in Problems.
 */
export const INLINE_MESSAGE_MAX = 26;

export function inlineMessage(m: Pick<NamedMistake, 'title' | 'variant' | 'confidence'>): string {
  return shorten(`${isLikely(m) ? '⚠' : '✗'} ${mistakeHeadline(m)}`, INLINE_MESSAGE_MAX);
}

/**
 * Columns of code the editor shows beside the Explorer and the lesson panel in a 1440×900 window with the
 * minimap on (measured in the browser test: about 48). The one-line message goes after a line only where the line, the
 * badge's icon and arrow and the message end within them; elsewhere it would run under the minimap, cut ("✗ A
 * count goes below ze…"), and the squiggle, its CodeLens and its hover say it whole.
 */
export const INLINE_ROOM_COLUMNS = 48;
/** The badge's own room besides its words: the gap after the line, its arrow and its icon. */
const INLINE_BADGE_COLUMNS = 4;

/** Whether `message` fits after `line` (tabs as 4 columns) within INLINE_ROOM_COLUMNS. */
export function inlineMessageFits(line: string, message: string): boolean {
  const width = line.trimEnd().replace(/\t/g, '    ').length;
  return width + INLINE_BADGE_COLUMNS + [...message].length <= INLINE_ROOM_COLUMNS;
}

const NOT_CODE = /^(#|\/\/|\/\*|\*|"""|''')/;

/**
 * The line (1-based) the editor's one-line message goes after: on the squiggle, so the two read as one
 * finding. With traced lines, the shortest line of code in the block the squiggle covers (the lines that
 * ran at the failing command, so the message has the most room beside it); else the function's own line,
 * where the squiggle is too.
 */
export function inlineMessageLine(
  m: NamedMistake,
  source: string,
  language: Language,
  anchors: FunctionAnchors | undefined,
): number | null {
  const text = source.split(/\r?\n/);
  const block = squiggleBlock(m, source, language, anchors);
  const def = locateFunction(source, language, mistakeFunction(m));
  if (!block) return def;
  const candidates = Array.from({ length: block.last - block.first + 1 }, (_, k) => block.first + k);
  const code = candidates.filter(
    (l) => text[l - 1] !== undefined && text[l - 1]!.trim() !== '' && !NOT_CODE.test(text[l - 1]!.trim()),
  );
  if (code.length === 0) return block.first;
  return code.reduce((best, l) => (text[l - 1]!.trimEnd().length < text[best - 1]!.trimEnd().length ? l : best));
}

/** Where each traced mistake's function was in the checked source (1-based), to move its lines with later edits. */
export type FunctionAnchors = Readonly<Record<string, number | null>>;

export function functionAnchors(
  report: Pick<CheckReport, 'mistakes'>,
  source: string,
  language: Language,
): FunctionAnchors {
  const out: Record<string, number | null> = {};
  for (const m of report.mistakes)
    if (m.location?.lines.length) out[m.id] = locateFunction(source, language, mistakeFunction(m));
  return out;
}

/**
 * A mistake's traced lines (1-based) in the current source: shifted by as much as their function moved
 * since the check (lines added above it), and dropped when they fall outside the file.
 */
export function currentLines(
  m: Pick<NamedMistake, 'id' | 'function' | 'location'>,
  source: string,
  language: Language,
  anchors: FunctionAnchors | undefined,
): number[] {
  const lines = m.location?.lines ?? [];
  if (lines.length === 0) return [];
  const anchor = anchors?.[m.id];
  const now = anchor ? locateFunction(source, language, mistakeFunction(m)) : null;
  const delta = anchor && now ? now - anchor : 0;
  const count = source.split(/\r?\n/).length;
  return lines.map((l) => l + delta).filter((l) => l >= 1 && l <= count);
}

/**
 * What a mistake's one squiggle covers (1-based, in the current source), or null with no traced lines: the block
 * around the first of its lines, over short gaps (a blank line, a comment, a branch not taken). Its lines are equally
 * suspect: those that ran only where the program went wrong all have the top score (`return self.backends[0]` two
 * lines under the `if not self.backends:` that led to it: "Lines 48, 50 and 53" squiggled 48 alone), and those that
 * tell nothing apart (`telling: false`) are its function's lines that ran at that kind of command. A jump to other
 * code (the command loop far below) ends it.
 */
export function squiggleBlock(
  m: Pick<NamedMistake, 'id' | 'function' | 'location'>,
  source: string,
  language: Language,
  anchors: FunctionAnchors | undefined,
): { first: number; last: number } | null {
  const lines = currentLines(m, source, language, anchors);
  if (lines.length === 0) return null;
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  let first = lines[0]!;
  let last = lines[0]!;
  for (const l of sorted.filter((l) => l < lines[0]!).reverse()) if (first - l <= SHORT_GAP) first = l;
  for (const l of sorted.filter((l) => l > lines[0]!)) if (l - last <= SHORT_GAP) last = l;
  return { first, last };
}

/** Lines apart that still make one squiggled block (two lines between: a blank line and a comment). */
const SHORT_GAP = 3;
