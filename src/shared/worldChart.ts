/**
 * A world scenario's result as the panel's chart (the same view the template scenarios have): one row per
 * drawn series line (per lane, or the total), a column per program (the learner's, the reference, each
 * baseline), each measure on one scale across its lanes, the figures table the sentence is drawn from.
 */
import type { ChartRow, ColumnSlot, SimulationView } from '../worlds/templates/simulationView';
import { safeText } from '../core/text/text';
import { lineValues, seriesLines, statOf, worldTable, type WorldResult } from '../core/world/worldReport';

function slotOf(key: string, index: number): ColumnSlot {
  if (key === 'yours' || key === 'reference') return key;
  return `baseline${Math.min(4, index - 1)}` as ColumnSlot;
}

export function worldChartView(result: WorldResult): SimulationView {
  const { scenario, runs } = result;
  const contestants = result.contestants.filter((c) => runs[c.key]);
  const lines = seriesLines(scenario.series, result.lanes);
  const scales = new Map<string, number>();
  const rows: ChartRow[] = lines.map((line) => {
    const cells = contestants.map((c, i) => {
      const values = lineValues(runs[c.key]!, line);
      return {
        balancer: slotOf(c.key, i),
        values,
        label: `peak ${statOf(values, 'peak')}, total ${statOf(values, 'total')}`,
      };
    });
    const top = Math.max(1, ...cells.flatMap((c) => c.values));
    scales.set(line.measure, Math.max(scales.get(line.measure) ?? 1, top));
    return {
      key: `${line.measure}/${line.lane ?? 'total'}`,
      title: safeText(line.title),
      subtitle: safeText(line.unit),
      kind: line.lane === undefined ? 'total' : 'lane',
      down: [],
      cells,
    };
  });
  const scaled = rows.map((row, i) => ({ ...row, scale: scales.get(lines[i]!.measure)! }));
  const stopped = runs.yours?.stopped;
  const table = worldTable(result);
  return {
    lesson: result.lesson,
    scenarioId: scenario.id,
    title: scenario.title,
    description: scenario.description,
    ...(scenario.explanation ? { explanation: scenario.explanation } : {}),
    sentence: result.sentence,
    ticks: result.ticks,
    scaleMax: Math.max(1, ...scaled.map((r) => r.scale)),
    columns: contestants.map((c, i) => ({
      balancer: slotOf(c.key, i),
      label: safeText(c.title),
      ...(c.key === 'yours' && stopped ? { note: `stopped at tick ${stopped.tick}` } : {}),
    })),
    rows: scaled,
    intro: `Your program, driven tick by tick through the lesson's scenario, beside ${contestants
      .filter((c) => c.key !== 'yours')
      .map((c) => safeText(c.title))
      .join(', ')}. Each chart is one series the scenario draws, tick by tick.`,
    scaleNote: `Ticks 1–${result.ticks} left to right; the charts of one measure share a scale, 0 at the bottom.`,
    summary: table,
    perTick: {
      caption: "Every tick: each chart's value, for each program",
      head: ['tick', ...rows.flatMap((r) => contestants.map((c) => `${r.title}, ${safeText(c.title)}`))],
      rows: Array.from({ length: result.ticks }, (_, t) => [
        String(t + 1),
        ...rows.flatMap((r) => r.cells.map((c) => (t < c.values.length ? String(c.values[t]) : '–'))),
      ]),
    },
    ...(stopped
      ? {
          stopped: {
            tick: stopped.tick,
            message: safeText(stopped.message),
            ...(stopped.details ? { details: safeText(stopped.details, { multiline: true }) } : {}),
          },
        }
      : {}),
  };
}
