/** The "Under load" section: pick a scenario, run it, and see the learner's queues beside round robin's and the reference's. */
import type { PanelState, UnderLoadView } from '../shared/messages';
import { dataTable, smallMultiples } from './chart';
import { button, h, richText, trustedHtml } from './dom';
import type { Ui } from './ui';

function controls(view: UnderLoadView, state: PanelState, ui: Ui): HTMLElement {
  const select = h('select', { id: 'scenario-select', 'aria-label': 'Scenario', disabled: view.running });
  for (const s of view.scenarios) {
    const option = h('option', { value: s.id, title: s.description }, s.title);
    option.selected = s.id === view.selected;
    select.append(option);
  }
  const run = button(
    view.running ? 'Running…' : 'Run under load',
    () => ui.post({ type: 'runSimulation', scenario: select.value }),
    {
      id: 'run-simulation',
      class: 'secondary',
      disabled: view.running || !state.trusted,
      title: state.trusted
        ? 'Drive your program through the scenario, request by request, beside round robin and the reference'
        : 'Runs your program: trust this folder first.',
    },
  );
  const chosen = view.scenarios.find((s) => s.id === view.selected);
  return h(
    'div',
    { class: 'simulation-controls' },
    h('label', { for: 'scenario-select', class: 'label' }, 'Scenario: '),
    select,
    ' ',
    run,
    chosen ? h('p', { class: 'muted small scenario-description' }, chosen.description) : null,
  );
}

export function renderUnderLoad(view: UnderLoadView, state: PanelState, ui: Ui): HTMLElement[] {
  const parts: HTMLElement[] = [
    h(
      'p',
      { class: 'muted small' },
      view.result?.intro ??
        "Your program, driven request by request through a simulated cluster, beside round robin and the lesson's reference. Each chart is the requests a server holds after each tick, on one scale for all.",
    ),
    controls(view, state, ui),
  ];
  const status = h('div', { id: 'under-load-status', 'aria-live': 'polite' });
  if (view.running)
    status.append(h('p', { class: 'status running', role: 'status' }, 'Running your program through the scenario…'));
  if (view.error) status.append(h('p', { class: 'notice', role: 'note' }, ...richText(view.error)));
  parts.push(status);
  const result = view.result;
  if (!result) {
    if (!view.running && !view.error)
      parts.push(
        h(
          'p',
          { class: 'muted' },
          'Not run yet. Press “Run under load”, or Check: a check that finds a mistake shows what it does here.',
        ),
      );
    return parts;
  }
  const chart = h(
    'figure',
    { class: `simulation${view.running ? ' stale' : ''}`, id: 'simulation', 'aria-labelledby': 'simulation-sentence' },
    h('h3', {}, result.title),
    h('p', { class: 'simulation-sentence sentence', id: 'simulation-sentence' }, result.sentence),
    result.stopped?.details
      ? h(
          'details',
          { class: 'stopped-details' },
          h('summary', {}, 'Its error output'),
          h('pre', { class: 'details' }, result.stopped.details),
        )
      : null,
    h(
      'p',
      { class: 'muted small scale-note' },
      result.scaleNote ??
        `Ticks 1–${result.ticks} left to right; one scale for every server chart: 0 at the bottom, ${result.scaleMax} at the top.`,
    ),
    smallMultiples(result),
    dataTable(result.summary, 'simulation-summary'),
    h(
      'details',
      { class: 'every-number' },
      h('summary', {}, 'Every number, tick by tick'),
      h('div', { class: 'table-wrap' }, dataTable(result.perTick, 'simulation-ticks')),
    ),
    result.explanationHtml ? trustedHtml('div', result.explanationHtml, 'md simulation-explanation') : null,
    h('p', { class: 'muted small' }, `Ran ${new Date(result.at).toLocaleTimeString()}.`),
  );
  parts.push(chart);
  return parts;
}
