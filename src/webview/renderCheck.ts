/** The check results: the verdict, a card per named mistake with its trace, a card per problem. */
import type { CheckView, MistakeView, PanelState, ProblemView, TraceView } from '../shared/messages';
import { h, linkButton, richText, trustedHtml } from './dom';
import type { Ui } from './ui';

let traceIds = 0;

export function renderTrace(trace: TraceView, caption: string): HTMLElement {
  const head = h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, 'command'), h('th', { scope: 'col' }, 'expected'), h('th', { scope: 'col' }, 'yours'), h('th', { scope: 'col', title: 'What the reference program counts after this command' }, 'counts after'));
  const rows = trace.rows.map((row, i) =>
    h(
      'tr',
      { class: row.diverges ? 'diverges' : row.after ? 'after' : undefined, 'aria-current': row.diverges ? 'true' : undefined },
      h('td', { class: 'num' }, row.diverges ? `→ ${i + 1}` : String(i + 1)),
      h('td', {}, h('code', {}, row.command)),
      h('td', {}, h('code', {}, row.expected)),
      h('td', {}, h('code', {}, row.actual), row.diverges ? h('span', { class: 'diverge-label' }, '← first difference') : null),
      h('td', { class: 'counts' }, row.counts),
    ),
  );
  // The caption sits outside the scrolling box so it wraps with the panel instead of scrolling away.
  const captionId = `trace-${++traceIds}`;
  return h(
    'div',
    { class: 'trace-block' },
    h('p', { class: 'trace-caption', id: captionId }, caption),
    h('div', { class: 'trace-wrap' }, h('table', { class: 'trace', 'aria-labelledby': captionId }, h('thead', {}, head), h('tbody', {}, ...rows))),
  );
}

function traceCaption(trace: TraceView, what: string): string {
  const from = trace.shrunkFrom > trace.commands ? `${trace.commands} of ${trace.shrunkFrom} commands` : `${trace.commands} commands`;
  return `${what} (${from}, from ${trace.transcript})`;
}

function mistakeCard(m: MistakeView, state: PanelState, ui: Ui): HTMLElement {
  // The diagnosis → lesson loop: the step that teaches this mistake and the question that checks it.
  const loop: HTMLElement[] = [];
  if (m.step) {
    const index = m.step.index;
    loop.push(h('li', {}, h('span', { class: 'label' }, 'Read again: '), linkButton(`Step ${index}: ${m.step.title}`, () => ui.post({ type: 'openStep', index }), { class: 'link step-link' })));
  }
  const questions = state.lesson ? [...state.lesson.failureQuestions, ...state.lesson.quiz] : [];
  const question = m.question;
  if (question && questions.some((q) => q.id === question.id)) {
    loop.push(h('li', {}, h('span', { class: 'label' }, 'Then answer: '), linkButton(question.promptText, () => ui.reveal({ kind: 'question', id: question.id }), { class: 'link question-link' })));
  }
  return h(
    'article',
    { class: 'card mistake', id: `mistake-${m.id}`, tabindex: '-1', 'aria-labelledby': `mistake-${m.id}-title` },
    h('h3', { id: `mistake-${m.id}-title` }, h('span', { class: 'icon', 'aria-hidden': 'true' }, '✗ '), m.title, m.confidence === 'likely' ? h('span', { class: 'badge' }, 'likely') : null),
    trustedHtml('div', m.explanationHtml),
    h('p', { class: 'hint' }, h('strong', {}, 'Hint: '), trustedHtml('span', m.hintHtml, 'md-inline')),
    h('p', { class: 'where' }, 'In ', linkButton(`${m.function}()`, () => ui.post({ type: 'openMistake', id: m.id }), { class: 'link function-link' }), m.line ? `, line ${m.line}` : ''),
    m.revealedBy.length ? h('p', { class: 'revealed muted' }, `Revealed by: ${m.revealedBy.join(', ')}`) : null,
    loop.length ? h('ul', { class: 'loop' }, ...loop) : null,
    m.trace ? renderTrace(m.trace, traceCaption(m.trace, 'Smallest transcript that shows it')) : null,
  );
}

function problemCard(p: ProblemView): HTMLElement {
  return h(
    'article',
    { class: `card problem problem-${p.kind}`, role: 'note' },
    h('h3', {}, h('span', { class: 'icon', 'aria-hidden': 'true' }, '⚠ '), p.title, p.line ? h('span', { class: 'muted' }, ` · line ${p.line}`) : null),
    h('p', {}, ...richText(p.message)),
    p.advice ? h('p', { class: 'advice' }, ...richText(p.advice)) : null,
    p.details ? h('pre', { class: 'details' }, p.details) : null,
  );
}

export function renderResults(check: CheckView | null, state: PanelState, ui: Ui): HTMLElement {
  const out = h('div', { id: 'results', tabindex: '-1', 'aria-live': 'polite' });
  if (state.checking) out.append(h('p', { class: 'status running', role: 'status' }, 'Checking your program…'));
  if (!check) {
    if (!state.checking) out.append(h('p', { class: 'muted' }, 'No check yet. Write your code, then press Check.'));
    return out;
  }
  const icon = check.status === 'pass' ? '✓' : '✗';
  out.append(
    h(
      'p',
      { class: `verdict verdict-${check.status}`, role: 'status' },
      h('span', { class: 'icon', 'aria-hidden': 'true' }, `${icon} `),
      h('strong', { class: 'summary' }, check.summary),
      check.fuzz ? h('span', { class: 'muted' }, ` · ${check.fuzz}`) : null,
    ),
    h('p', { class: 'muted small' }, `Checked ${new Date(check.at).toLocaleTimeString()} in ${(check.durationMs / 1000).toFixed(1)} s`),
  );
  for (const m of check.mistakes) out.append(mistakeCard(m, state, ui));
  if (check.trace) out.append(h('article', { class: 'card' }, renderTrace(check.trace, traceCaption(check.trace, 'Smallest failing transcript'))));
  for (const p of check.problems) out.append(problemCard(p));
  return out;
}
