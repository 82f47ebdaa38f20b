/** `simulate` for a terminal, on a world scenario: the sentence, the figures of every chart, a sparkline per chart and program. */
import { createColors } from 'picocolors';
import { safeText } from '../core/text/text';
import { lineValues, seriesLines, worldTable, type WorldResult } from '../core/world/worldReport';
import { sparkline } from './simulateFormat';

const pad = (text: string, width: number): string => text + ' '.repeat(Math.max(0, width - [...text].length));

export function formatWorldSimulation(result: WorldResult, colour: boolean): string {
  const c = createColors(colour);
  const { scenario, runs } = result;
  const yours = runs.yours;
  const out: string[] = [];
  out.push(
    c.bold(`${result.lesson} · ${safeText(scenario.title)}`) + c.dim(` (${scenario.id}: ${result.ticks} ticks)`),
  );
  out.push(c.dim(safeText(scenario.description)));
  out.push('');
  out.push(yours?.stopped ? c.red(result.sentence) : result.sentence);
  if (yours?.stopped?.details) {
    out.push(c.dim('Its error output:'));
    for (const line of safeText(yours.stopped.details, { multiline: true }).split('\n').slice(-15))
      out.push(c.dim(`  ${line}`));
  }
  out.push('');
  const table = worldTable(result);
  const widths = table.head.map((h, i) => Math.max([...h].length, ...table.rows.map((r) => [...r[i]!].length)) + 2);
  out.push(c.dim(table.caption));
  out.push(
    c.dim(
      table.head
        .map((h, i) => pad(h, widths[i]!))
        .join('')
        .trimEnd(),
    ),
  );
  for (const row of table.rows)
    out.push(
      row
        .map((cell, i) => pad(cell, widths[i]!))
        .join('')
        .trimEnd(),
    );
  out.push('');
  const nameWidth = Math.max(...result.contestants.map((k) => k.title.length)) + 2;
  for (const line of seriesLines(scenario.series, result.lanes)) {
    const values = result.contestants.map((k) => lineValues(runs[k.key] ?? { ticks: [] }, line));
    const max = Math.max(0, ...values.flat());
    out.push(
      c.bold(safeText(line.title)) + c.dim(` (${safeText(line.unit)}; ticks 1–${result.ticks}; ▁ 0 … █ ${max})`),
    );
    result.contestants.forEach((k, i) =>
      out.push(`  ${pad(safeText(k.title), nameWidth)}${sparkline(values[i]!, max)}`),
    );
  }
  return out.join('\n') + '\n';
}
