/**
 * What a world scenario's run means: the learner's program beside the reference and the scenario's
 * baselines, the series the scenario draws (one chart per lane, or one for the total), a table of the
 * figures the charts show, and the pack's sentence filled from those same figures.
 */
import { safeText } from '../text/text';
import { fillSentence, type Placeholder, type Stat } from './sentence';
import type { WorldRun } from './worldRun';
import type { SeriesSpec, WorldScenario } from './worldScenarioSchema';

export interface Contestant {
  /** `yours`, `reference`, or `baseline.<id>`. */
  readonly key: string;
  readonly title: string;
}

export interface WorldResult {
  readonly lesson: string;
  readonly scenario: WorldScenario;
  readonly lanes: readonly string[];
  /** The ticks a run lasts. */
  readonly ticks: number;
  /** In the order they are drawn: the learner's program, the reference, then the baselines. */
  readonly contestants: readonly Contestant[];
  readonly runs: Readonly<Record<string, WorldRun>>;
  readonly mistake?: { readonly id: string; readonly title: string };
  readonly sentence: string;
}

/** A world scenario's result, told from a template scenario's (which has no lanes). */
export function isWorldResult(result: object): result is WorldResult {
  return 'lanes' in result;
}

/** One drawn series: a lane of a measure, or its total. */
export interface SeriesLine {
  readonly measure: string;
  /** The lane's index, or undefined for the total. */
  readonly lane?: number;
  readonly title: string;
  readonly unit: string;
}

/** The series a scenario draws, in order: per-lane measures one line per lane. */
export function seriesLines(series: readonly SeriesSpec[], lanes: readonly string[]): SeriesLine[] {
  return series.flatMap((s) =>
    s.per === 'lane'
      ? lanes.map((lane, i) => ({ measure: s.measure, lane: i, title: `${s.title}: ${lane}`, unit: s.unit }))
      : [{ measure: s.measure, title: s.title, unit: s.unit }],
  );
}

/** The values a run drew for one line, tick by tick (fewer than the scenario's ticks when it stopped). */
export function lineValues(run: WorldRun, line: { measure: string; lane?: number }): number[] {
  return run.ticks.map((t) => {
    const value = t.measures[line.measure];
    if (value === undefined) return 0;
    if (typeof value === 'number') return value;
    return line.lane === undefined ? value.reduce((sum, v) => sum + v, 0) : (value[line.lane] ?? 0);
  });
}

export function statOf(values: readonly number[], stat: Stat): number {
  if (stat === 'peak') return Math.max(0, ...values);
  if (stat === 'final') return values[values.length - 1] ?? 0;
  return values.reduce((sum, v) => sum + v, 0);
}

/** The lane where the learner's program let `measure` peak highest: the first such lane in lane order. */
export function worstLane(run: WorldRun, measure: string, lanes: readonly string[]): number {
  let best = 0;
  let peak = -Infinity;
  lanes.forEach((_, i) => {
    const p = statOf(lineValues(run, { measure, lane: i }), 'peak');
    if (p > peak) {
      peak = p;
      best = i;
    }
  });
  return best;
}

const keyOf = (p: Extract<Placeholder, { kind: 'number' }>): string =>
  p.who.kind === 'baseline' ? `baseline.${p.who.id}` : p.who.kind;

export function worldSentence(
  scenario: WorldScenario,
  lanes: readonly string[],
  ticks: number,
  runs: Readonly<Record<string, WorldRun>>,
  mistake?: { title: string },
): string {
  const yours = runs.yours;
  if (yours?.stopped)
    return `Your program stopped at tick ${yours.stopped.tick} of ${ticks}, so its part of the chart ends there: ${yours.stopped.message}.`;
  const filled = fillSentence(scenario.sentence, scenario.series, scenario.baselines ?? [], (p) => {
    if (p.kind === 'worst') return lanes[worstLane(yours!, p.measure, lanes)] ?? '';
    const run = runs[keyOf(p)];
    if (!run) return '?';
    const lane =
      p.lane === undefined
        ? undefined
        : p.lane === 'worst'
          ? worstLane(yours!, p.measure, lanes)
          : lanes.indexOf(p.lane);
    if (lane === -1) return '?';
    return String(statOf(lineValues(run, { measure: p.measure, ...(lane !== undefined ? { lane } : {}) }), p.stat));
  });
  return mistake ? `Your check found “${mistake.title}”. Under load: ${filled}` : filled;
}

/** Peak, value at the end and total of every drawn line, per contestant: the figures the sentence may state. */
export function worldTable(result: Pick<WorldResult, 'scenario' | 'lanes' | 'contestants' | 'runs'>): {
  caption: string;
  head: string[];
  rows: string[][];
} {
  const lines = seriesLines(result.scenario.series, result.lanes);
  return {
    caption: 'Each chart: peak / at the end / total over the ticks',
    head: ['', ...result.contestants.map((c) => safeText(c.title))],
    rows: lines.map((line) => [
      `${safeText(line.title)} (${safeText(line.unit)})`,
      ...result.contestants.map((c) => {
        const values = lineValues(result.runs[c.key] ?? { ticks: [] }, line);
        return `${statOf(values, 'peak')} / ${statOf(values, 'final')} / ${statOf(values, 'total')}`;
      }),
    ]),
  };
}
