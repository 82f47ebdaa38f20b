/**
 * A named mistake's card as one view model, the same for the lesson panel and the CLI's text report: its
 * sentences and the table under them are built together, from the one counterexample the table shows, so a
 * sentence's "command N (X)" is a reference into the rows it renders (row N holds X) and an answer it quotes
 * is that row's. A fact about another transcript names that transcript and gives no row number.
 */
import type { CheckReport, Counterexample, NamedMistake } from './report';
import {
  behaviourText,
  counterexampleSource,
  evidenceText,
  isLikely,
  mistakeExplanation,
  mistakeHeadline,
  mistakeTitle,
  mistakeWhere,
  revealedByLabels,
  type Where,
} from './findings';
import { countsNote, traceCells, traceLength, type TraceCells } from './traceView';
import { safeText } from '../text/text';

/** A counterexample as a card shows it: the caption, the rows, the note on the count columns, the replay line. */
export interface CardTable {
  /** "Smallest transcript that shows it (3 of 12 commands, from a random test (#24))". */
  readonly caption: string;
  readonly cells: TraceCells;
  readonly note: string;
  readonly replay?: string;
}

export interface MistakeCard {
  readonly id: string;
  /** The title in the variant's wording, without "(likely)": the panel shows that as a badge. */
  readonly title: string;
  /** "<title>" or "<title> (likely)", as the CLI and the editor say it. */
  readonly headline: string;
  readonly likely: boolean;
  /** Markdown, from the pack. */
  readonly explanation: string;
  /** Markdown, from the pack. */
  readonly hint: string;
  readonly behaviour?: string;
  /** Where in the code; its reason's "command N (X)" is a row of `table`. */
  readonly where: Where;
  /** "Seen at 7 commands in …"; its "command N (X)", if any, is a row of `table`. */
  readonly evidence: string;
  /** The hidden transcripts that show it, by description. */
  readonly revealedBy: readonly string[];
  readonly table: CardTable | null;
}

export const MISTAKE_TABLE = 'Smallest transcript that shows it';
export const FAILING_TABLE = 'Smallest failing transcript';

export function cardTable(example: Counterexample, report: Pick<CheckReport, 'transcripts'>, what: string): CardTable {
  const cells = traceCells(example);
  return {
    caption: `${what} (${traceLength(cells)}, from ${counterexampleSource(example, report)})`,
    cells,
    note: countsNote(cells),
    ...(example.replay ? { replay: safeText(example.replay.shell) } : {}),
  };
}

/**
 * `maxRung` is the pack's `hints.maxRung`: the card shows no rung above it (src/core/repair/ladder.ts numbers
 * them), so a lesson that wants the learner to find the lines themselves can say so.
 */
export function mistakeCard(m: NamedMistake, report: CheckReport, maxRung?: number): MistakeCard {
  // The one counterexample every sentence and the table are built from.
  const example = m.counterexample;
  const behaviour = behaviourText(m);
  return withinRung(
    {
      id: m.id,
      title: mistakeTitle(m),
      headline: mistakeHeadline(m),
      likely: isLikely(m),
      explanation: mistakeExplanation(m),
      hint: m.hint,
      ...(behaviour ? { behaviour } : {}),
      where: mistakeWhere({ ...m, counterexample: example }, 'below'),
      evidence: evidenceText({ ...m, counterexample: example }, report, 'below'),
      revealedBy: revealedByLabels(report, m),
      table: example ? cardTable(example, report, MISTAKE_TABLE) : null,
    },
    maxRung,
  );
}

/**
 * Below rung 3 the card has no smallest transcript, nor the sentences that point into it (the evidence and why
 * these lines, both "command N" of that table); below rung 2 no lines either, only the function to read.
 */
function withinRung(card: MistakeCard, maxRung: number | undefined): MistakeCard {
  if (maxRung === undefined || maxRung >= 3) return card;
  const where: Where =
    maxRung >= 2 || card.where.lines.length === 0
      ? { function: card.where.function, lines: card.where.lines, text: card.where.text }
      : { function: card.where.function, lines: [], text: `In ${card.where.function}()` };
  return { ...card, where, evidence: '', table: null };
}

/** The card's own sentences, in the order it shows them (for tests that read them against the table). */
export function cardSentences(card: MistakeCard): string[] {
  return [
    `${card.where.text}${card.where.reason ? `: ${card.where.reason}` : ''}`,
    card.evidence,
    card.behaviour ?? '',
    card.table?.note ?? '',
  ].filter((s) => s !== '');
}

/** Every "command N (X)" a text says, in order: N and the command X it names. */
export function commandRefsIn(text: string): { row: number; command: string }[] {
  const out: { row: number; command: string }[] = [];
  // The command may itself hold parentheses ("GET (a)") only as far as one level; commands rarely do.
  for (const match of text.matchAll(/\bcommand (\d+) \(((?:[^()]|\([^()]*\))*)\)/g))
    out.push({ row: Number(match[1]), command: match[2]! });
  return out;
}

/** Every "command N" a text says, with or without the command after it. */
export function commandNumbersIn(text: string): number[] {
  return [...text.matchAll(/\bcommand (\d+)\b/g)].map((match) => Number(match[1]));
}
