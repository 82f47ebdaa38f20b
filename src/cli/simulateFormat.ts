/** `simulate` for a terminal: the sentence, peak and final queues per balancer, and a sparkline per server. */
import { createColors } from 'picocolors';
import { BALANCER_NAMES, BALANCERS, summarize, type SimulationResult } from '../worlds/templates/simulationReport';
import { totalRequests } from '../worlds/templates/scenarioRules';
import { safeText } from '../core/text/text';

const BLOCKS = '▁▂▃▄▅▆▇█';

/** One character per tick on a scale shared by every line: the lowest block for 0, the highest for `max`. */
export function sparkline(values: readonly number[], max: number): string {
  return values
    .map((v) => BLOCKS[max <= 0 ? 0 : Math.min(BLOCKS.length - 1, Math.round((v / max) * (BLOCKS.length - 1)))])
    .join('');
}

const pad = (text: string, width: number): string => text + ' '.repeat(Math.max(0, width - [...text].length));

export function formatSimulation(result: SimulationResult, colour: boolean): string {
  const c = createColors(colour);
  const { scenario, runs } = result;
  const out: string[] = [];
  out.push(
    c.bold(`${result.lesson} · ${scenario.title}`) +
      c.dim(
        ` (${scenario.id}: ${scenario.servers.length} servers, ${scenario.ticks} ticks, ${totalRequests(scenario)} requests)`,
      ),
  );
  out.push(c.dim(scenario.description));
  out.push('');
  out.push(runs.yours.stopped ? c.red(result.sentence) : result.sentence);
  if (runs.yours.stopped?.details) {
    out.push(c.dim('Its error output:'));
    for (const line of safeText(runs.yours.stopped.details, { multiline: true }).split('\n').slice(-15))
      out.push(c.dim(`  ${line}`));
  }
  out.push('');
  const summaries = BALANCERS.map((b) => ({ b, summary: summarize(scenario, runs[b]) }));
  const failures = summaries.some(({ summary }) => summary.failed > 0);
  const waits = BALANCERS.some((b) => runs[b].ticks.some((t) => t.waiting > 0));
  const head = [
    '',
    ...scenario.servers.map((s) => `${s.name} ${s.capacity}/tick`),
    ...(failures ? ['failed'] : []),
    ...(waits ? ['waiting'] : []),
  ];
  const rows = summaries.map(({ b, summary }) => [
    BALANCER_NAMES[b],
    ...summary.servers.map((s) => `${s.peak} / ${s.final}${s.growing ? '↑' : ''}`),
    ...(failures ? [String(summary.failed)] : []),
    ...(waits ? [String(summary.waiting)] : []),
  ]);
  const widths = head.map((h, i) => Math.max([...h].length, ...rows.map((r) => [...r[i]!].length)) + 2);
  out.push(c.dim('Queue: peak / at the end, per server (↑ still growing)'));
  out.push(
    c.dim(
      head
        .map((h, i) => pad(h, widths[i]!))
        .join('')
        .trimEnd(),
    ),
  );
  for (const row of rows)
    out.push(
      row
        .map((cell, i) => pad(cell, widths[i]!))
        .join('')
        .trimEnd(),
    );
  if (runs.yours.stopped) {
    const done = runs.yours.ticks.length;
    out.push(
      c.dim(
        done === 0
          ? '(your balancer: it stopped before the end of the first tick)'
          : `(your balancer: the ${done === 1 ? 'tick' : `${done} ticks`} before it stopped)`,
      ),
    );
  }
  const max = Math.max(0, ...BALANCERS.flatMap((b) => runs[b].ticks.flatMap((t) => t.queues)));
  out.push('');
  out.push(c.dim(`Queue per tick, ticks 1–${scenario.ticks}, one scale for all (▁ 0 … █ ${max})`));
  const nameWidth = Math.max(...BALANCERS.map((b) => BALANCER_NAMES[b].length)) + 2;
  scenario.servers.forEach((server, i) => {
    out.push(c.bold(`${server.name}`));
    for (const b of BALANCERS)
      out.push(
        `  ${pad(BALANCER_NAMES[b], nameWidth)}${sparkline(
          runs[b].ticks.map((t) => t.queues[i]!),
          max,
        )}`,
      );
  });
  return out.join('\n') + '\n';
}
