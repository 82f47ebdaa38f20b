/**
 * What a simulation result means on screen, for the panel's "Under load" chart: one small chart per server
 * and balancer on one shared scale, extra rows for failed and waiting requests when there are any, the
 * health of each server over time, and the same numbers as tables for screen readers. Pure data; the webview
 * draws it. Also the guard for a result read back from `lesson-companion simulate --json`.
 */
import type { BalancerRun } from './simulation';
import { BALANCER_NAMES, BALANCERS, summarize, type BalancerKey, type SimulationResult } from './simulationReport';
import type { Scenario } from './scenarioSchema';
import { totalRequests } from './scenarioRules';
import { safeText } from '../../core/text/text';

export interface ChartCell {
  /** The column: a balancer of a template scenario, or a world scenario's `yours`, `reference`, `baseline1`…. */
  readonly balancer: BalancerKey | ColumnSlot;
  /** One value per tick the balancer completed (fewer than the scenario's ticks when it stopped). */
  readonly values: readonly number[];
  /** "peaked at 3", for the chart's label and its accessible name. */
  readonly label: string;
}

export interface ChartRow {
  /** A server's name, or "failed" / "waiting" for the rows of requests that reached no server. */
  readonly key: string;
  readonly title: string;
  readonly subtitle: string;
  /** `lane` and `total`: a world scenario's series (one per lane, or the total). */
  readonly kind: 'server' | 'failed' | 'waiting' | 'lane' | 'total';
  /** The top of this row's scale, when it is not the view's shared one. */
  readonly scale?: number;
  /** Ticks (1-based, inclusive) the server was down. */
  readonly down: readonly (readonly [number, number])[];
  readonly cells: readonly ChartCell[];
}

export interface SimulationView {
  readonly lesson: string;
  readonly scenarioId: string;
  readonly title: string;
  readonly description: string;
  /** Markdown from the pack, rendered by the extension. */
  readonly explanation?: string;
  readonly sentence: string;
  readonly ticks: number;
  /** The top of the shared scale: the largest value in any server row. */
  readonly scaleMax: number;
  readonly columns: readonly {
    readonly balancer: BalancerKey | ColumnSlot;
    readonly label: string;
    readonly note?: string;
  }[];
  /** What the charts are and their scale, for a world scenario (a template scenario's are fixed words). */
  readonly intro?: string;
  readonly scaleNote?: string;
  readonly rows: readonly ChartRow[];
  /** Peak and final queue per server and balancer. */
  readonly summary: {
    readonly caption: string;
    readonly head: readonly string[];
    readonly rows: readonly (readonly string[])[];
  };
  /** Every number of the chart, tick by tick. */
  readonly perTick: {
    readonly caption: string;
    readonly head: readonly string[];
    readonly rows: readonly (readonly string[])[];
  };
  /** The learner's program stopped: why, and its error output. */
  readonly stopped?: { readonly tick: number; readonly message: string; readonly details?: string };
}

/** A world scenario's columns: the learner's program, the reference, then its baselines in order. */
export type ColumnSlot = 'yours' | 'reference' | 'baseline1' | 'baseline2' | 'baseline3' | 'baseline4';

const COLUMN_LABELS: Record<BalancerKey, string> = {
  yours: 'Your balancer',
  roundRobin: 'Round robin',
  reference: 'Reference',
};

function downRanges(scenario: Scenario, server: string): [number, number][] {
  const ranges: [number, number][] = [];
  let from: number | undefined;
  for (let tick = 1; tick <= scenario.ticks; tick++) {
    for (const e of scenario.events ?? []) {
      if (e.tick !== tick || e.server !== server || !e.health) continue;
      if (e.health === 'down' && from === undefined) from = tick;
      if (e.health === 'up' && from !== undefined) {
        ranges.push([from, tick - 1]);
        from = undefined;
      }
    }
  }
  if (from !== undefined) ranges.push([from, scenario.ticks]);
  return ranges;
}

function extraRow(kind: 'failed' | 'waiting', runs: Readonly<Record<BalancerKey, BalancerRun>>): ChartRow | undefined {
  const values = (b: BalancerKey): number[] => runs[b].ticks.map((t) => t[kind]);
  if (!BALANCERS.some((b) => values(b).some((v) => v > 0))) return undefined;
  const cells = BALANCERS.map((b) => {
    const v = values(b);
    const total = v.reduce((n, x) => n + x, 0);
    return {
      balancer: b,
      values: v,
      // A balancer whose row is all zeros says so, not "up to 0 waiting".
      label:
        kind === 'failed'
          ? `${total} failed`
          : Math.max(0, ...v) === 0
            ? 'none waiting'
            : `up to ${Math.max(0, ...v)} waiting`,
    };
  });
  return kind === 'failed'
    ? { key: 'failed', title: 'Failed', subtitle: 'requests per tick', kind, down: [], cells }
    : { key: 'waiting', title: 'Waiting', subtitle: 'at the balancer', kind, down: [], cells };
}

/** A server chart's label: its peak, or where the learner's program stopped (its empty chart is not "never queued"). */
function serverLabel(
  s: { readonly peak: number; readonly growing: boolean; readonly final: number },
  stopped: { readonly tick: number } | undefined,
): string {
  if (stopped) return `${s.peak === 0 ? '' : `peaked at ${s.peak}, `}stopped at tick ${stopped.tick}`;
  if (s.peak === 0) return 'never queued';
  return s.growing && s.final === s.peak ? `reached ${s.peak}, growing` : `peaked at ${s.peak}`;
}

export function simulationView(result: SimulationResult): SimulationView {
  const { scenario, runs } = result;
  const summaries = Object.fromEntries(BALANCERS.map((b) => [b, summarize(scenario, runs[b])])) as Record<
    BalancerKey,
    ReturnType<typeof summarize>
  >;
  const stopped = runs.yours.stopped;
  const serverRows: ChartRow[] = scenario.servers.map((server, i) => ({
    key: server.name,
    title: server.name,
    subtitle: `${server.capacity} per tick`,
    kind: 'server',
    down: downRanges(scenario, server.name),
    cells: BALANCERS.map((b) => {
      const s = summaries[b].servers[i]!;
      const label = serverLabel(s, b === 'yours' ? stopped : undefined);
      return { balancer: b, values: runs[b].ticks.map((t) => t.queues[i]!), label };
    }),
  }));
  const rows = [
    ...serverRows,
    ...[extraRow('failed', runs), extraRow('waiting', runs)].filter((r): r is ChartRow => r !== undefined),
  ];
  const scaleMax = Math.max(1, ...serverRows.flatMap((r) => r.cells.flatMap((c) => c.values)));
  const columns = BALANCERS.map((b) => ({
    balancer: b,
    label: COLUMN_LABELS[b],
    ...(b === 'yours' && stopped ? { note: `stopped at tick ${stopped.tick}` } : {}),
  }));
  const extras = rows.filter((r) => r.kind !== 'server');
  const summary = {
    // Requests sent per server too: the sentence beside the chart ("b got 139 of 240 requests") cites them.
    caption: `Per server: requests sent (of ${totalRequests(scenario)}) · queue peak / at the end (↑ still growing)`,
    head: [
      '',
      ...scenario.servers.map((s) => `${s.name} (${s.capacity} per tick)`),
      ...extras.map((r) => (r.kind === 'failed' ? 'failed' : 'waiting at the end')),
    ],
    rows: BALANCERS.map((b) => [
      COLUMN_LABELS[b],
      ...summaries[b].servers.map((s) => `${s.sent} sent · ${s.peak} / ${s.final}${s.growing ? ' ↑' : ''}`),
      ...extras.map((r) => (r.kind === 'failed' ? String(summaries[b].failed) : String(summaries[b].waiting))),
    ]),
  };
  const perTick = {
    caption: "Every tick: requests on each server after the tick's work, for each balancer",
    head: ['tick', ...rows.flatMap((r) => BALANCERS.map((b) => `${r.title}, ${BALANCER_NAMES[b]}`))],
    rows: Array.from({ length: scenario.ticks }, (_, t) => [
      String(t + 1),
      ...rows.flatMap((r) => r.cells.map((c) => (t < c.values.length ? String(c.values[t]) : '–'))),
    ]),
  };
  return {
    lesson: result.lesson,
    scenarioId: scenario.id,
    title: scenario.title,
    description: scenario.description,
    ...(scenario.explanation ? { explanation: scenario.explanation } : {}),
    sentence: result.sentence,
    ticks: scenario.ticks,
    scaleMax,
    columns,
    rows,
    summary,
    perTick,
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

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isRun = (v: unknown, width: number, ticks: number): v is BalancerRun =>
  isObj(v) &&
  Array.isArray(v.ticks) &&
  v.ticks.length <= ticks &&
  v.ticks.every(
    (t) =>
      isObj(t) &&
      Array.isArray(t.queues) &&
      t.queues.length === width &&
      t.queues.every((q) => Number.isInteger(q) && q >= 0) &&
      Array.isArray(t.sent) &&
      typeof t.failed === 'number' &&
      typeof t.waiting === 'number',
  ) &&
  (v.stopped === undefined ||
    (isObj(v.stopped) && typeof v.stopped.message === 'string' && typeof v.stopped.tick === 'number'));

/** A result read back from `simulate --json`, checked in outline (the fields the view reads), or undefined. */
export function parseSimulationResult(raw: unknown): SimulationResult | undefined {
  if (
    !isObj(raw) ||
    typeof raw.lesson !== 'string' ||
    typeof raw.sentence !== 'string' ||
    !isObj(raw.scenario) ||
    !isObj(raw.runs)
  )
    return undefined;
  const scenario = raw.scenario;
  if (
    typeof scenario.id !== 'string' ||
    typeof scenario.title !== 'string' ||
    typeof scenario.ticks !== 'number' ||
    !Array.isArray(scenario.servers)
  )
    return undefined;
  const width = scenario.servers.length;
  const runs = raw.runs;
  if (!BALANCERS.every((b) => isRun(runs[b], width, scenario.ticks as number))) return undefined;
  return raw as unknown as SimulationResult;
}
