/**
 * A counterexample as a table, the same for the panel, the CLI and the Test Explorer: one row per command,
 * the expected answer and the program's, and the counts after the command. When the lesson has an observe
 * command, the counts come in two columns, the program's own answer ("your counts") and the
 * reference's ("should be"), with every `name:count` that differs marked on both sides; otherwise one
 * column holds the reference's bookkeeping, labelled as such.
 */
import type { Counterexample, TraceRow } from './report';
import { showInvisibles } from '../text/text';

export interface CountCell {
  readonly text: string;
  readonly differs: boolean;
}

export interface TraceRowCells {
  readonly command: string;
  readonly expected: string;
  readonly actual: string;
  readonly matches: boolean;
  /** The first command whose answer differs. */
  readonly diverges: boolean;
  /** Rows after the first difference: the reference's story, less relevant to the learner. */
  readonly after: boolean;
  /** The program's own counts (two-column traces only); null when it gave no answer to the observe command. */
  readonly yours?: readonly CountCell[] | null;
  /** What the counts should be (two columns), or the reference's counts (one column). */
  readonly shouldBe: readonly CountCell[];
  /** Some count differs in this row (two-column traces only). */
  readonly countsDiffer: boolean;
  /** The program's whole answer when `actual` was cut for display. */
  readonly details?: string;
}

export type CountColumns = 'observed' | 'reference';

export interface TraceCells {
  readonly columns: CountColumns;
  readonly observeCommand?: string;
  readonly commands: number;
  readonly shrunkFrom: number;
  readonly divergesAt: number;
  /** The first row (0-based) whose counts differ, or -1. */
  readonly countsDivergeAt: number;
  readonly rows: readonly TraceRowCells[];
  /** Row 0: what every run sends first (the reset command), so the example reads on its own. */
  readonly preamble: readonly TraceRowCells[];
}

/** Column headings, one wording for every surface. */
export const TRACE_HEADINGS = {
  n: '#',
  command: 'command',
  expected: 'expected',
  actual: 'your answer',
  yours: 'your counts',
  shouldBe: 'should be',
  reference: 'reference counts',
} as const;

/** One answer as a table cell; "a " and "a" must not look the same, nor "no answer" and "empty". */
export function answerCell(lines: readonly string[] | null): string {
  if (lines === null) return '(no answer)';
  if (lines.length === 0) return '(nothing)';
  // An empty line is printed, unlike nothing: a blank cell would look like no answer at all.
  return lines.map((line) => (line === '' ? '(an empty line)' : showInvisibles(line))).join(' / ');
}

/** An observe command's answer as count tokens: one per `name:count`, however the program laid them out. */
function tokens(lines: readonly string[]): string[] {
  return lines.flatMap((line) => showInvisibles(line.trim()).split(/\s+/)).filter((t) => t !== '');
}

/** Marks each token missing from the other side: `web2:-1` against `web2:0` differs on both. */
export function compareCounts(
  yours: readonly string[] | null,
  shouldBe: readonly string[],
): { yours: CountCell[] | null; shouldBe: CountCell[] } {
  const right = tokens(shouldBe);
  if (yours === null) return { yours: null, shouldBe: right.map((text) => ({ text, differs: true })) };
  const left = tokens(yours);
  const leftSet = new Set(left);
  const rightSet = new Set(right);
  return {
    yours: left.map((text) => ({ text, differs: !rightSet.has(text) })),
    shouldBe: right.map((text) => ({ text, differs: !leftSet.has(text) })),
  };
}

function referenceCounts(counts: TraceRow['counts']): CountCell[] {
  return Object.entries(counts).map(([name, value]) => ({ text: showInvisibles(`${name}:${value}`), differs: false }));
}

/** Whether a counterexample's rows carry the program's own counts. */
export function hasObservedCounts(example: Counterexample): boolean {
  return example.observeCommand !== undefined && example.trace.some((row) => row.observed !== undefined);
}

export function traceCells(example: Counterexample): TraceCells {
  const columns: CountColumns = hasObservedCounts(example) ? 'observed' : 'reference';
  const rows = example.trace.map((row, i): TraceRowCells => {
    const base = {
      command: showInvisibles(row.command),
      expected: answerCell(row.expected),
      actual: answerCell(row.actual),
      matches: row.matches,
      diverges: i === example.divergesAt,
      after: i > example.divergesAt,
      ...(row.details ? { details: row.details } : {}),
    };
    if (columns === 'reference') return { ...base, shouldBe: referenceCounts(row.counts), countsDiffer: false };
    // A row without the reference's answer falls back to its bookkeeping, which says the same in other words.
    const shouldBe = row.shouldBe ?? Object.entries(row.counts).map(([name, value]) => `${name}:${value}`);
    const compared = compareCounts(row.observed ?? null, shouldBe);
    const countsDiffer =
      compared.yours === null || compared.yours.some((c) => c.differs) || compared.shouldBe.some((c) => c.differs);
    return { ...base, yours: compared.yours, shouldBe: compared.shouldBe, countsDiffer };
  });
  // The program's answer to the reset is not compared row by row (a wrong one fails every transcript at once).
  const preamble = (example.preamble ?? []).map((row): TraceRowCells => ({
    command: showInvisibles(row.command),
    expected: answerCell(row.expected),
    actual: '–',
    matches: true,
    diverges: false,
    after: false,
    ...(columns === 'observed' ? { yours: [] } : {}),
    shouldBe: columns === 'reference' ? referenceCounts(row.counts) : [],
    countsDiffer: false,
  }));
  return {
    columns,
    preamble,
    ...(columns === 'observed' && example.observeCommand ? { observeCommand: example.observeCommand } : {}),
    commands: example.commands.length,
    shrunkFrom: example.shrunkFrom,
    divergesAt: example.divergesAt,
    countsDivergeAt: rows.findIndex((r) => r.countsDiffer),
    rows,
  };
}

/** "3 of 12 commands" or "3 commands". */
export function traceLength(cells: Pick<TraceCells, 'commands' | 'shrunkFrom'>): string {
  return cells.shrunkFrom > cells.commands
    ? `${cells.commands} of ${cells.shrunkFrom} commands`
    : `${cells.commands} command${cells.commands === 1 ? '' : 's'}`;
}

/** What the count columns are, in one sentence under the table. */
export function countsNote(cells: TraceCells): string {
  const zero = preambleNote(cells);
  if (cells.columns === 'reference')
    return `Reference counts: what a correct program has counted after each command.${zero}`;
  const at = cells.countsDivergeAt;
  const row = cells.rows[at];
  const observe = cells.observeCommand ?? 'the observe command';
  // No answer to the observe command (it crashed or stopped there) says nothing of the counts being wrong.
  const first =
    !row || at >= cells.divergesAt
      ? ''
      : row.yours === null
        ? ` Asked ${observe} after command ${at + 1} (${row.command}), your program gave no answer, so its counts from there on are not known.`
        : ` Your counts go wrong at command ${at + 1} (${row.command}), before the first wrong answer.`;
  return `Your counts are your program's answer to ${observe} after each command.${first}${zero}`;
}

/** " Row 0, `SETUP`, is sent before every transcript, to start from scratch." */
function preambleNote(cells: Pick<TraceCells, 'preamble'>): string {
  if (cells.preamble.length === 0) return '';
  const commands = cells.preamble.map((r) => `\`${r.command}\``).join(', then ');
  return ` Row 0, ${commands}, is sent before every transcript, to start from scratch.`;
}

/** Paint for a plain-text table: identity for plain text, colours for a terminal. */
export interface TracePaint {
  head(text: string): string;
  diverge(text: string): string;
  differ(text: string): string;
  dim(text: string): string;
}

export const PLAIN_PAINT: TracePaint = { head: (t) => t, diverge: (t) => t, differ: (t) => t, dim: (t) => t };

function countsText(
  cells: readonly CountCell[] | null | undefined,
  paint: TracePaint,
): { plain: string; painted: string } {
  if (cells === null) return { plain: '(no answer)', painted: paint.differ('(no answer)') };
  if (!cells || cells.length === 0) return { plain: '–', painted: '–' };
  // Differing counts carry a marker that survives without colour (a log, NO_COLOR, a screen reader).
  const shown = cells.map((c) => (c.differs ? `*${c.text}*` : c.text));
  return {
    plain: shown.join(' '),
    painted: cells.map((c, i) => (c.differs ? paint.differ(shown[i]!) : shown[i]!)).join(' '),
  };
}

/** The trace as aligned text lines (CLI, Test Results output). Differing counts are marked `*web2:-1*`. */
export function traceTextLines(cells: TraceCells, paint: TracePaint = PLAIN_PAINT): string[] {
  const observed = cells.columns === 'observed';
  type Line = { mark: string; cols: { plain: string; painted: string }[]; kind: 'head' | 'diverge' | 'after' | 'row' };
  const plain = (text: string): { plain: string; painted: string } => ({ plain: text, painted: text });
  const head: Line = {
    mark: ' ',
    kind: 'head',
    cols: [
      TRACE_HEADINGS.n,
      TRACE_HEADINGS.command,
      TRACE_HEADINGS.expected,
      TRACE_HEADINGS.actual,
      ...(observed ? [TRACE_HEADINGS.yours, TRACE_HEADINGS.shouldBe] : [TRACE_HEADINGS.reference]),
    ].map(plain),
  };
  const zero: Line[] = cells.preamble.map((row) => ({
    mark: ' ',
    kind: 'row',
    cols: [
      plain('0'),
      plain(row.command),
      plain(row.expected),
      plain(row.actual),
      ...(observed ? [plain('–'), countsText(row.shouldBe, PLAIN_PAINT)] : [countsText(row.shouldBe, PLAIN_PAINT)]),
    ],
  }));
  const lines: Line[] = cells.rows.map((row, i) => ({
    mark: row.diverges ? '→' : ' ',
    kind: row.diverges ? 'diverge' : row.after ? 'after' : 'row',
    cols: [
      plain(String(i + 1)),
      plain(row.command),
      plain(row.expected),
      plain(row.actual),
      ...(observed
        ? [countsText(row.yours, paint), countsText(row.shouldBe, paint)]
        : [countsText(row.shouldBe, PLAIN_PAINT)]),
    ],
  }));
  const all = [head, ...zero, ...lines];
  const widths = head.cols.map((_, c) => Math.max(...all.map((l) => [...l.cols[c]!.plain].length)));
  return all.map((l) => {
    const text = l.cols
      .map((col, c) =>
        c === l.cols.length - 1 ? col.painted : col.painted + ' '.repeat(widths[c]! - [...col.plain].length),
      )
      .join('  ');
    const line = `${l.mark} ${text}`;
    if (l.kind === 'head') return paint.head(line);
    if (l.kind === 'diverge') return `${paint.diverge(line)}${paint.diverge('  ← first difference')}`;
    return l.kind === 'after' ? paint.dim(line) : line;
  });
}
