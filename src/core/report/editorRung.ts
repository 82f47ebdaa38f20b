/**
 * What the editor may point at for a named mistake, within the pack's `hints.maxRung`, by the card's rule
 * (card.ts): at rung 1 no lines, so the squiggle, the lens and the inline message fall back to the function's
 * name, and the hover says the lesson keeps the lines for later; at rung 2 the lines, without the sentences that
 * point into the smallest transcript (the panel then shows none); from rung 3, everything. The editor renders
 * what this decides (src/ext/editor/diagnostics.ts).
 */
import { diagnosticMessage, mistakeFunction, mistakeHeadline, mistakeWhere } from './findings';
import type { CheckReport, NamedMistake } from './report';

/** True when a pack's cap lets the editor show a mistake's lines (rung 2). */
export function editorShowsLines(maxRung: number | undefined): boolean {
  return maxRung === undefined || maxRung >= 2;
}

/** The mistake as the editor may place it: at rung 1 its traced lines taken away, its function kept. */
export function editorMistake(m: NamedMistake, maxRung: number | undefined): NamedMistake {
  if (editorShowsLines(maxRung) || !m.location?.lines.length) return m;
  return { ...m, location: { ...m.location, lines: [] } };
}

/** The squiggle's hover (and Problems' line): the card's words at the same rung. */
export function editorMessage(m: NamedMistake, maxRung: number | undefined): string {
  if (maxRung === undefined || maxRung >= 3) return diagnosticMessage(m);
  const said = `${mistakeHeadline(m)}: ${m.hint}`;
  if (!m.line && !m.location?.function) return said;
  const fn = mistakeFunction(m);
  if (!editorShowsLines(maxRung))
    return `${said} (Only the name ${fn} is underlined: this lesson keeps the lines to itself for now, so that you find them. Read all of ${fn}().)`;
  const where = mistakeWhere(m, 'panel');
  if (where.lines.length) return `${said} (${where.text}.)`;
  return `${said} (Only the name ${fn} is underlined: the check found no line of ${fn}() that ran only where your program went wrong, so read all of it.)`;
}

/**
 * The report as the Test Explorer may tell it within the cap: below rung 3 no mistake's smallest transcript
 * (the card shows none either), at rung 1 no mistake's lines. Each transcript's own answers stay: they are
 * the check's result, not a hint.
 */
export function editorReport(report: CheckReport, maxRung: number | undefined): CheckReport {
  if (maxRung === undefined || maxRung >= 3) return report;
  return { ...report, mistakes: report.mistakes.map((m) => ({ ...editorMistake(m, maxRung), counterexample: null })) };
}
