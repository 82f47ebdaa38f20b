/** Human-readable check reports for a terminal: the same words and numbers as the editor, in colour. */
import { createColors } from 'picocolors';
import {
  behaviourText,
  counterexampleSource,
  evidenceText,
  isLikely,
  mistakeExplanation,
  mistakeHeadline,
  mistakeWhere,
  revealedByLabels,
} from '../core/report/findings';
import { checkDetails, checkSummary, problemTitle, verdictSentence } from '../core/report/progress';
import type { CheckReport, Counterexample } from '../core/report/report';
import { safeText } from '../core/text/text';
import { countsNote, traceCells, traceLength, traceTextLines, type TracePaint } from '../core/report/traceView';

type Colors = ReturnType<typeof createColors>;

function paint(c: Colors): TracePaint {
  return { head: c.dim, diverge: (t) => c.red(c.bold(t)), differ: (t) => c.red(c.bold(t)), dim: c.dim };
}

/** The trace table, its note on the count columns, and the shell line that replays it. */
export function formatTrace(example: Counterexample, c: Colors): string[] {
  const cells = traceCells(example);
  const out = traceTextLines(cells, paint(c));
  out.push(c.dim(countsNote(cells)));
  if (example.replay) out.push(`${c.cyan('Replay it yourself:')} ${safeText(example.replay.shell)}`);
  return out;
}

function traceCaption(example: Counterexample, report: CheckReport, what: string): string {
  return `${what} (${traceLength(traceCells(example))}, from ${counterexampleSource(example, report)}):`;
}

export function formatReport(report: CheckReport, colour: boolean): string {
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
    const where = mistakeWhere(mistake);
    const headline = `Mistake: ${mistakeHeadline(mistake)}`;
    out.push(isLikely(mistake) ? c.yellow(c.bold(headline)) : c.red(c.bold(headline)));
    out.push(`  ${where.text}${where.reason ? `: ${where.reason}` : ''}`);
    out.push(`  ${safeText(mistakeExplanation(mistake), { multiline: true })}`);
    out.push(`  ${c.cyan('Hint:')} ${safeText(mistake.hint, { multiline: true })}`);
    const behaviour = behaviourText(mistake);
    if (behaviour) out.push(`  ${behaviour}`);
    const evidence = evidenceText(mistake, report);
    if (evidence) out.push(c.dim(`  ${evidence}`));
    if (mistake.revealedBy.length)
      out.push(
        c.dim(
          `  Shown by: ${revealedByLabels(report, mistake)
            .map((l) => `“${l}”`)
            .join(', ')}`,
        ),
      );
    if (mistake.counterexample) {
      out.push(`  ${traceCaption(mistake.counterexample, report, 'Smallest transcript that shows it')}`);
      out.push(...formatTrace(mistake.counterexample, c).map((l) => `  ${l}`));
    }
  }
  if (report.mistakes.length === 0 && report.counterexample) {
    out.push('');
    out.push(traceCaption(report.counterexample, report, 'Smallest failing transcript'));
    out.push(...formatTrace(report.counterexample, c));
  }
  if (report.problems.length) {
    out.push('');
    for (const p of report.problems) {
      // Learner text (stray lines, stderr, exception messages) can hold terminal control sequences.
      // A message that already opens with the title ("Your program stopped answering at …") is not led by it twice.
      const title = problemTitle(p.kind);
      const message = safeText(p.message, { multiline: true });
      const led = message.startsWith(title);
      const at = p.line ? c.dim(` (line ${p.line})`) : '';
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
