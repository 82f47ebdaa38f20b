/** Human-readable check reports for a terminal: the same words and numbers as the editor, in colour. */
import { createColors } from 'picocolors';
import { cardTable, FAILING_TABLE, mistakeCard, type CardTable } from '../core/report/card';
import { checkDetails, checkSummary, problemTitle, verdictSentence } from '../core/report/progress';
import type { CheckReport } from '../core/report/report';
import { safeText } from '../core/text/text';
import { traceTextLines, type TracePaint } from '../core/report/traceView';

type Colors = ReturnType<typeof createColors>;

function paint(c: Colors): TracePaint {
  return { head: c.dim, diverge: (t) => c.red(c.bold(t)), differ: (t) => c.red(c.bold(t)), dim: c.dim };
}

/** The trace table, its note on the count columns, and the shell line that replays it. */
export function formatTrace(table: CardTable, c: Colors): string[] {
  const out = traceTextLines(table.cells, paint(c));
  out.push(c.dim(table.note));
  if (table.replay) out.push(`${c.cyan('Replay it yourself:')} ${table.replay}`);
  return out;
}

/** `maxRung`: the pack's `hints.maxRung`, which the cards obey (src/core/report/card.ts). */
export function formatReport(report: CheckReport, colour: boolean, maxRung?: number): string {
  const c = createColors(colour);
  const out: string[] = [];
  out.push(c.bold(`${report.lesson} · ${report.language} · ${safeText(report.file)}`));
  const verdict = `${report.status === 'pass' ? '✓' : '✗'} ${checkSummary(report)}`;
  out.push(report.status === 'pass' ? c.green(verdict) : c.red(verdict));
  out.push(verdictSentence(report));
  const details = checkDetails(report);
  if (details) out.push(c.dim(details));
  for (const mistake of report.mistakes) {
    out.push('');
    // The same view model as the panel's card (src/core/report/card.ts): its sentences point into its table.
    const card = mistakeCard(mistake, report, maxRung);
    const headline = `Mistake: ${card.headline}`;
    out.push(card.likely ? c.yellow(c.bold(headline)) : c.red(c.bold(headline)));
    out.push(`  ${card.where.text}${card.where.reason ? `: ${card.where.reason}` : ''}`);
    out.push(`  ${safeText(card.explanation, { multiline: true })}`);
    out.push(`  ${c.cyan('Hint:')} ${safeText(card.hint, { multiline: true })}`);
    if (card.behaviour) out.push(`  ${card.behaviour}`);
    if (card.evidence) out.push(c.dim(`  ${card.evidence}`));
    if (card.revealedBy.length) out.push(c.dim(`  Shown by: ${card.revealedBy.map((l) => `“${l}”`).join(', ')}`));
    if (card.table) {
      out.push(`  ${card.table.caption}:`);
      out.push(...formatTrace(card.table, c).map((l) => `  ${l}`));
    }
  }
  if (report.mistakes.length === 0 && report.counterexample) {
    const table = cardTable(report.counterexample, report, FAILING_TABLE);
    out.push('');
    out.push(`${table.caption}:`);
    out.push(...formatTrace(table, c));
  }
  if (report.problems.length) {
    out.push('');
    for (const p of report.problems) {
      // Learner text (stray lines, stderr, exception messages) can hold terminal control sequences.
      // A message that already opens with the title ("Your program stopped answering at …") is not led by it twice.
      const title = problemTitle(p.kind);
      const message = safeText(p.message, { multiline: true });
      const led = message.startsWith(title);
      // A message that already names its line ("crashed at line 9") is not followed by "(line 9)".
      const namesLine = p.line !== undefined && new RegExp(`\\bline ${p.line}\\b`).test(message);
      const at = p.line && !namesLine ? c.dim(` (line ${p.line})`) : '';
      out.push(
        led
          ? `${c.yellow(c.bold(title))}${message.slice(title.length)}${at}`
          : `${c.yellow(c.bold(title))}${at}: ${message}`,
      );
      if (p.advice) out.push(`  ${safeText(p.advice, { multiline: true })}`);
      if (p.details)
        out.push(
          ...safeText(p.details, { multiline: true })
            .split('\n')
            .map((l) => c.dim(`  | ${l}`)),
        );
    }
  }
  return out.join('\n') + '\n';
}
