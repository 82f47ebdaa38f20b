/**
 * Small multiples in plain SVG: one tiny chart per server and balancer, all on one scale, so a queue that
 * runs away stands out against the ones that stay flat. Colours come from panel.css (--vscode-* variables);
 * nothing here sets a style, so the panel's CSP needs no inline styles. Every number is also in the tables.
 */
import type { ChartRow, SimulationChartView } from '../shared/messages';
import { h } from './dom';

const SVG = 'http://www.w3.org/2000/svg';
/** The chart's own coordinates; the SVG scales to its cell's width. */
const WIDTH = 200;
const HEIGHT = 56;
/** Room above the highest value, under the cell's label (which has a line of its own above the chart). */
const TOP = 4;

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number> = {},
  ...children: (SVGElement | string)[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  for (const c of children) el.append(c);
  return el;
}

/** x of the middle of tick `t` (1-based). */
const xOf = (t: number, ticks: number): number => ((t - 0.5) / ticks) * WIDTH;

function cellChart(
  row: ChartRow,
  cell: ChartRow['cells'][number],
  view: SimulationChartView,
  max: number,
  label: string,
): SVGSVGElement {
  const { ticks } = view;
  const y = (v: number): number => HEIGHT - ((HEIGHT - TOP) * Math.min(v, max)) / max;
  const chart = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    preserveAspectRatio: 'none',
    class: `chart chart-${cell.balancer} chart-${row.kind}`,
    role: 'img',
    'aria-label': label,
  });
  for (const [from, to] of row.down) {
    chart.append(
      svg('rect', {
        class: 'down-band',
        x: ((from - 1) / ticks) * WIDTH,
        y: 0,
        width: ((to - from + 1) / ticks) * WIDTH,
        height: HEIGHT,
      }),
    );
  }
  const done = cell.values.length;
  if (done < ticks) {
    // The ticks the learner's program did not reach, and where it stopped.
    const stop = (done / ticks) * WIDTH;
    chart.append(svg('rect', { class: 'missing', x: stop, y: 0, width: WIDTH - stop, height: HEIGHT }));
    chart.append(
      svg('line', { class: 'stop-line', x1: stop, x2: stop, y1: 0, y2: HEIGHT, 'vector-effect': 'non-scaling-stroke' }),
    );
  }
  chart.append(svg('line', { class: 'baseline', x1: 0, x2: WIDTH, y1: HEIGHT - 0.5, y2: HEIGHT - 0.5 }));
  if (row.kind === 'server' || row.kind === 'lane' || row.kind === 'total') {
    if (done > 0) {
      // One tick alone is a point: drawn across its tick, so it shows.
      const coords =
        done === 1
          ? [
              [0, y(cell.values[0]!)],
              [WIDTH / ticks, y(cell.values[0]!)],
            ]
          : cell.values.map((v, i) => [xOf(i + 1, ticks), y(v)]);
      const points = coords.map(([px, py]) => `${px!.toFixed(2)},${py!.toFixed(2)}`);
      const first = coords[0]![0]!.toFixed(2);
      const last = coords[coords.length - 1]![0]!.toFixed(2);
      chart.append(svg('path', { class: 'area', d: `M${first},${HEIGHT} L${points.join(' L')} L${last},${HEIGHT} Z` }));
      chart.append(svg('polyline', { class: 'line', points: points.join(' '), 'vector-effect': 'non-scaling-stroke' }));
    }
  } else {
    // Failed and waiting requests: a bar per tick.
    const bar = WIDTH / ticks;
    cell.values.forEach((v, i) => {
      if (v > 0)
        chart.append(
          svg('rect', { class: 'bar', x: i * bar + bar * 0.15, y: y(v), width: bar * 0.7, height: HEIGHT - y(v) }),
        );
    });
  }
  return chart;
}

/** The grid: a heading row (the balancers), then a row per server (and for failed or waiting requests). */
export function smallMultiples(view: SimulationChartView): HTMLElement {
  // One grid column per program (three for a template scenario, up to six for a world scenario's baselines):
  // a class, not a style attribute, which the panel's CSP would block.
  const grid = h('div', {
    class: `multiples columns-${Math.min(Math.max(view.columns.length, 1), 6)}`,
    role: 'group',
    'aria-label': `Queue per server and tick, ${view.columns.map((c) => c.label).join(', ')}`,
  });
  grid.append(h('div', { class: 'corner' }));
  for (const column of view.columns) {
    grid.append(
      h(
        'div',
        { class: `column-head column-${column.balancer}` },
        column.label,
        column.note ? h('span', { class: 'column-note' }, ` (${column.note})`) : null,
      ),
    );
  }
  for (const row of view.rows) {
    // Failed and waiting requests have a scale of their own, shared along their row.
    const max =
      row.scale ?? (row.kind === 'server' ? view.scaleMax : Math.max(1, ...row.cells.flatMap((c) => c.values)));
    grid.append(
      h(
        'div',
        { class: `row-head row-${row.kind}` },
        h('span', { class: 'row-title' }, row.title),
        h('span', { class: 'row-subtitle muted small' }, row.subtitle),
        // The note under the chart is the server charts' scale; a row on its own scale says its own.
        max !== view.scaleMax || row.kind !== 'server'
          ? h('span', { class: 'row-scale muted small' }, `its own scale: 0 to ${max}`)
          : null,
        row.down.length
          ? h(
              'span',
              { class: 'row-down small' },
              row.down.map(([a, b]) => (a === b ? `down at tick ${a}` : `down ticks ${a}–${b}`)).join(', '),
            )
          : null,
      ),
    );
    for (const cell of row.cells) {
      const column = view.columns.find((c) => c.balancer === cell.balancer);
      const label = `${row.title}, ${column?.label ?? cell.balancer}: ${cell.label}`;
      grid.append(
        h(
          'div',
          { class: `cell cell-${cell.balancer}` },
          cellChart(row, cell, view, max, label),
          h('span', { class: 'cell-label small' }, cell.label),
        ),
      );
    }
  }
  return grid;
}

/**
 * "40 / 40 ↑" (a peak and the last queue) never breaks inside: a narrow cell wraps only between its parts
 * ("139 sent · 40 / 40 ↑"), so "0 /" never ends a line with its "0" on the next.
 */
const keepTogether = (cell: string): string => cell.replace(/ (\/|↑)/g, '\u00a0$1').replace(/\/ /g, '/\u00a0');

export function dataTable(table: SimulationChartView['summary'], className: string): HTMLElement {
  return h(
    'table',
    { class: className },
    h('caption', {}, table.caption),
    h('thead', {}, h('tr', {}, ...table.head.map((cell) => h('th', { scope: 'col' }, cell)))),
    h(
      'tbody',
      {},
      ...table.rows.map((row) =>
        h(
          'tr',
          {},
          ...row.map((cell, i) => (i === 0 ? h('th', { scope: 'row' }, cell) : h('td', {}, keepTogether(cell)))),
        ),
      ),
    ),
  );
}
