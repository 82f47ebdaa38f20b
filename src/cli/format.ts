/** Human-readable check reports for a terminal. */
import { createColors } from 'picocolors';
import type { CheckReport, Counterexample } from '../core/report';
import { checkSummary, fuzzSummary } from '../core/progress';
import { safeText, showInvisibles } from '../core/text';

type Colors = ReturnType<typeof createColors>;

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function cell(lines: readonly string[] | null): string {
  if (lines === null) return '(no answer)';
  if (lines.length === 0) return '(nothing)';
  return lines.map(showInvisibles).join(' / ');
}

function counts(record: Readonly<Record<string, number | string>>): string {
  const entries = Object.entries(record);
  return entries.length === 0 ? '-' : safeText(entries.map(([k, v]) => `${k}:${v}`).join(' '));
}

export function formatTrace(example: Counterexample, c: Colors): string[] {
  const rows = example.trace.map((row, i) => ({
    n: String(i + 1),
    command: showInvisibles(row.command),
    expected: cell(row.expected),
    actual: cell(row.actual),
    counts: counts(row.counts),
    diverges: i === example.divergesAt,
    after: i > example.divergesAt,
  }));
  const head = { n: '#', command: 'command', expected: 'expected', actual: 'yours', counts: 'counts after (reference)' };
  const w = {
    n: Math.max(1, ...rows.map((r) => r.n.length)),
    command: Math.max(head.command.length, ...rows.map((r) => r.command.length)),
    expected: Math.max(head.expected.length, ...rows.map((r) => r.expected.length)),
    actual: Math.max(head.actual.length, ...rows.map((r) => r.actual.length)),
  };
  const line = (mark: string, r: typeof head): string =>
    `  ${mark} ${pad(r.n, w.n)}  ${pad(r.command, w.command)}  ${pad(r.expected, w.expected)}  ${pad(r.actual, w.actual)}  ${r.counts}`;
  const out = [c.dim(line(' ', head))];
  for (const r of rows) {
    const text = line(r.diverges ? '→' : ' ', r);
    out.push(r.diverges ? c.red(c.bold(text)) + c.red('  ← first difference') : r.after ? c.dim(text) : text);
  }
  return out;
}

export function formatReport(report: CheckReport, colour: boolean): string {
  const c = createColors(colour);
  const out: string[] = [];
  out.push(c.bold(`${report.lesson} · ${report.language} · ${safeText(report.file)}`));
  const summary = checkSummary(report);
  const verdict = report.status === 'pass' ? c.green(`✓ ${summary}`) : c.red(`✗ ${summary}`);
  const fuzzText = fuzzSummary(report);
  const fuzz = fuzzText ? (report.fuzz.failed > 0 ? c.red(` · ${fuzzText}`) : c.dim(` · ${fuzzText}`)) : '';
  out.push(`${verdict}${fuzz}`);
  for (const mistake of report.mistakes) {
    out.push('');
    const where = `${safeText(mistake.function)}${mistake.line ? `, line ${mistake.line}` : ''}`;
    const confidence = mistake.confidence === 'exact' ? '' : c.yellow(' (likely: the evidence matches in part)');
    out.push(`${c.red(c.bold(`Mistake: ${safeText(mistake.title)}`))} ${c.dim(`[${mistake.id}] in ${where}`)}${confidence}`);
    out.push(`  ${safeText(mistake.explanation, { multiline: true })}`);
    out.push(`  ${c.cyan('Hint:')} ${safeText(mistake.hint, { multiline: true })}`);
    if (mistake.revealedBy.length) out.push(c.dim(`  Revealed by: ${mistake.revealedBy.join(', ')}`));
    if (mistake.counterexample) {
      const ex = mistake.counterexample;
      out.push(`  Smallest transcript that shows it (${ex.commands.length} of ${ex.shrunkFrom} commands, from ${ex.transcript}):`);
      out.push(...formatTrace(ex, c).map((l) => `  ${l}`));
    }
  }
  if (report.mistakes.length === 0 && report.counterexample) {
    const ex = report.counterexample;
    out.push('');
    out.push(`Smallest failing transcript (${ex.commands.length} of ${ex.shrunkFrom} commands, from ${ex.transcript}):`);
    out.push(...formatTrace(ex, c));
  }
  if (report.problems.length) {
    out.push('');
    for (const p of report.problems) {
      // Learner text (stray lines, stderr, exception messages) can hold terminal control sequences.
      out.push(`${c.yellow(c.bold(p.kind))}: ${safeText(p.message, { multiline: true })}`);
      if (p.advice) out.push(`  ${safeText(p.advice, { multiline: true })}`);
      if (p.details) out.push(...safeText(p.details, { multiline: true }).split('\n').map((l) => c.dim(`  | ${l}`)));
    }
  }
  if (report.status === 'pass') out.push('', c.green('Done: every check passes. Look at the lesson\'s "done when" list next.'));
  return out.join('\n') + '\n';
}
