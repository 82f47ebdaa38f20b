/** The check results: the verdict, a card per named mistake with its trace, a card per problem. */
import type {
  CheckView,
  CountCellView,
  LessonView,
  MistakeView,
  PanelState,
  ProblemView,
  TraceView,
} from '../shared/messages';
import { button, h, infoIcon, linkButton, richText, trustedHtml } from './dom';
import type { Ui } from './ui';

let traceIds = 0;

/** A count longer than this may break inside ("a:18446744073709551615"); a short one never ("a:1"). */
const LONG_COUNT = 12;

function countCells(cells: readonly CountCellView[] | null | undefined): HTMLElement {
  const td = h('td', { class: 'counts' });
  if (cells === null) {
    td.append(h('span', { class: 'count differs' }, '(no answer)'));
    return td;
  }
  if (!cells || cells.length === 0) {
    td.append('–');
    return td;
  }
  cells.forEach((c, i) => {
    if (i > 0) td.append(' ');
    const long = c.text.length > LONG_COUNT ? ' long' : '';
    // The mark is not colour alone: a border and, for screen readers, the words.
    td.append(
      c.differs
        ? h(
            'span',
            { class: `count differs${long}`, title: 'differs from the other column' },
            c.text,
            h('span', { class: 'visually-hidden' }, ' (differs)'),
          )
        : h('span', { class: `count${long}` }, c.text),
    );
  });
  return td;
}

export function renderTrace(trace: TraceView, state: PanelState, lesson: LessonView | null, ui: Ui): HTMLElement {
  const observed = trace.columns === 'observed';
  const th = (text: string, title?: string): HTMLElement => h('th', { scope: 'col', title }, text);
  const head = h(
    'tr',
    {},
    th('#'),
    th('command'),
    th('expected'),
    th('your answer'),
    ...(observed
      ? [
          th('your counts', 'What your program answered to the observe command after this command'),
          th('should be', 'What a correct program answers at the same point'),
        ]
      : [th('reference counts', 'What a correct program has counted after this command')]),
  );
  // Row 0: the reset command every run starts with, so the example reads on its own.
  const zero = (trace.preamble ?? []).map((row) =>
    h(
      'tr',
      { class: 'preamble' },
      h('td', { class: 'num' }, '0'),
      h('td', { class: 'command' }, h('code', {}, row.command)),
      h('td', {}, h('code', {}, row.expected)),
      h('td', {}, row.actual),
      ...(observed ? [h('td', {}, '–'), countCells(row.shouldBe)] : [countCells(row.shouldBe)]),
    ),
  );
  const rows = trace.rows.map((row, i) => {
    const classes = [row.diverges ? 'diverges' : row.after ? 'after' : '', row.countsDiffer ? 'counts-differ' : '']
      .filter(Boolean)
      .join(' ');
    return h(
      'tr',
      { class: classes || undefined, 'aria-current': row.diverges ? 'true' : undefined },
      h('td', { class: 'num' }, row.diverges ? `→ ${i + 1}` : String(i + 1)),
      h('td', { class: 'command' }, h('code', {}, row.command)),
      h('td', {}, h('code', {}, row.expected)),
      h(
        'td',
        { title: row.details },
        h('code', {}, row.actual),
        row.diverges ? h('span', { class: 'diverge-label' }, '← first difference') : null,
      ),
      ...(observed ? [countCells(row.yours), countCells(row.shouldBe)] : [countCells(row.shouldBe)]),
    );
  });
  // The caption sits outside the scrolling box so it wraps with the panel instead of scrolling away.
  const captionId = `trace-${++traceIds}`;
  return h(
    'div',
    { class: `trace-block trace-${trace.columns}` },
    h('p', { class: 'trace-caption', id: captionId }, trace.caption),
    h(
      'div',
      { class: 'trace-wrap' },
      h(
        'table',
        { class: 'trace', 'aria-labelledby': captionId },
        h('thead', {}, head),
        h('tbody', {}, ...zero, ...rows),
      ),
    ),
    h('p', { class: 'trace-note muted small' }, ...richText(trace.note)),
    trace.replay ? traceActions(trace, state, lesson, ui) : null,
  );
}

/** Run it yourself: the same commands in a terminal (with the learner's own prints), or under the debugger. */
function traceActions(trace: TraceView, state: PanelState, lesson: LessonView | null, ui: Ui): HTMLElement {
  const untrusted = state.trusted ? undefined : 'Runs your program: trust this folder first.';
  const run = button('Run in terminal', () => ui.post({ type: 'runTrace', mistakeId: trace.mistakeId }), {
    class: 'secondary run-trace',
    disabled: !state.trusted,
    title:
      untrusted ??
      'Run your program with exactly these commands in a terminal, so your own prints show beside the answers',
  });
  const debug = lesson?.debug;
  const debugLabel =
    debug && !debug.available && debug.install ? `Debug: install ${debug.install} first` : 'Debug this transcript';
  const dbg = button(debugLabel, () => ui.post({ type: 'debugTrace', mistakeId: trace.mistakeId }), {
    class: 'secondary debug-trace',
    disabled: !state.trusted,
    title:
      untrusted ??
      (debug?.available === false
        ? `Debugging needs ${debug.install ?? 'a debugger extension'}; the button shows it in the Extensions view`
        : 'Start the debugger with these commands as input, stopped where the finding points'),
  });
  return h(
    'div',
    { class: 'trace-actions' },
    run,
    ' ',
    dbg,
    h(
      'p',
      { class: 'replay muted small' },
      "Or in a terminal, from your file's folder: ",
      h('code', { class: 'replay-line' }, trace.replay ?? ''),
    ),
  );
}

/** A named mistake's card: what it is, where, the evidence, the lesson's way back to it, its trace and fix. */
function mistakeCard(m: MistakeView, state: PanelState, ui: Ui): HTMLElement {
  const likely = m.confidence === 'likely';
  const loop = lessonLoop(m, state, ui);
  return h(
    'article',
    {
      class: `card mistake${likely ? ' likely' : ''}`,
      id: `mistake-${m.id}`,
      tabindex: '-1',
      'aria-labelledby': `mistake-${m.id}-title`,
    },
    mistakeHeading(m),
    trustedHtml('div', m.explanationHtml),
    m.behaviour ? h('p', { class: 'behaviour' }, ...richText(m.behaviour)) : null,
    h('p', { class: 'hint' }, h('strong', {}, 'Hint: '), trustedHtml('span', m.hintHtml, 'md-inline')),
    h(
      'p',
      { class: 'where' },
      linkButton(m.where.text, () => ui.post({ type: 'openMistake', id: m.id }), {
        class: 'link function-link',
        title: `Show ${m.where.function}() in the editor`,
      }),
      ...(m.where.reason ? richText(`: ${m.where.reason}.`) : []),
    ),
    m.evidence ? h('p', { class: 'evidence muted small' }, ...richText(m.evidence)) : null,
    m.revealedBy.length
      ? h('p', { class: 'revealed muted small' }, `Shown by: ${m.revealedBy.map((l) => `“${l}”`).join(', ')}`)
      : null,
    loop.length ? h('ul', { class: 'loop' }, ...loop) : null,
    m.trace ? renderTrace(m.trace, state, state.lesson, ui) : null,
    m.fix ? fixButton(m, state, ui) : null,
  );
}

function mistakeHeading(m: MistakeView): HTMLElement {
  const likely = m.confidence === 'likely';
  // The space before the badge is text, so the title and "likely" never read as one word.
  return h(
    'h3',
    { id: `mistake-${m.id}-title` },
    h('span', { class: 'icon', 'aria-hidden': 'true' }, likely ? '⚠ ' : '✗ '),
    m.title,
    likely ? ' ' : null,
    likely
      ? h(
          'span',
          { class: 'badge', title: 'The evidence matches this mistake in part, not the whole program' },
          'likely',
        )
      : null,
  );
}

/** The diagnosis → lesson loop: the step that teaches this mistake and the question that checks it. */
function lessonLoop(m: MistakeView, state: PanelState, ui: Ui): HTMLElement[] {
  const loop: HTMLElement[] = [];
  if (m.step) {
    const index = m.step.index;
    loop.push(
      h(
        'li',
        {},
        h('span', { class: 'label' }, 'Read again: '),
        linkButton(`Step ${index}: ${m.step.title}`, () => ui.post({ type: 'openStep', index }), {
          class: 'link step-link',
        }),
      ),
    );
  }
  const questions = state.lesson ? [...state.lesson.failureQuestions, ...state.lesson.quiz] : [];
  const question = m.question;
  if (question && questions.some((q) => q.id === question.id)) {
    loop.push(
      h(
        'li',
        {},
        h('span', { class: 'label' }, 'Then answer: '),
        linkButton(question.promptText, () => ui.reveal({ kind: 'question', id: question.id }), {
          class: 'link question-link',
        }),
      ),
    );
  }
  return loop;
}

/** Rung 4: a diff of the learner's own file beside a verified fix, opened in the editor. */
function fixButton(m: MistakeView, state: PanelState, ui: Ui): HTMLElement {
  return h(
    'p',
    { class: 'fix' },
    button('Show a fix', () => ui.post({ type: 'showFix', mistakeId: m.id }), {
      class: 'secondary show-fix',
      disabled: !state.trusted,
      title: 'A small edit of your file that passes every hidden transcript and random test, shown as a diff',
    }),
  );
}

function problemCard(p: ProblemView): HTMLElement {
  return h(
    'article',
    { class: `card problem problem-${p.kind}`, role: 'note' },
    h(
      'h3',
      {},
      h('span', { class: 'icon', 'aria-hidden': 'true' }, '⚠ '),
      p.title,
      p.line ? h('span', { class: 'muted' }, ` · line ${p.line}`) : null,
    ),
    h('p', {}, ...richText(p.message)),
    p.advice ? h('p', { class: 'advice' }, ...richText(p.advice)) : null,
    p.details ? h('pre', { class: 'details' }, p.details) : null,
  );
}

/** The count with its icon: the sticky bar's last verdict and the results' heading say the same. */
export function verdictLine(check: CheckView): HTMLElement[] {
  const icon = check.status === 'pass' ? '✓' : '✗';
  return [
    h('span', { class: 'icon', 'aria-hidden': 'true' }, `${icon} `),
    h('span', { class: 'summary' }, check.summary),
  ];
}

export function renderResults(check: CheckView | null, state: PanelState, ui: Ui): HTMLElement {
  const out = h('div', { id: 'results', tabindex: '-1', 'aria-live': 'polite' });
  if (state.checking) out.append(h('p', { class: 'status running', role: 'status' }, 'Checking your program…'));
  if (!check) {
    if (!state.checking) out.append(h('p', { class: 'muted' }, 'No check yet. Write your code, then press Check.'));
    return out;
  }
  out.append(
    h('p', { class: `verdict verdict-${check.status}`, role: 'status' }, h('strong', {}, ...verdictLine(check))),
    h('p', { class: 'sentence' }, check.sentence),
  );
  // No duration here: the Test Explorer's header times the same check, and two timings of one check disagree.
  const when = `Checked ${new Date(check.at).toLocaleTimeString()}`;
  // Quieter: the random tests and the seed, explained in the tooltip.
  out.append(
    h(
      'p',
      {
        class: 'details-line muted small',
        title: check.detailsTooltip || undefined,
        tabindex: check.detailsTooltip ? '0' : undefined,
      },
      check.details ? `${check.details} · ${when}` : when,
      check.detailsTooltip ? h('span', { class: 'info', 'aria-hidden': 'true' }, ' ', infoIcon()) : null,
      check.detailsTooltip ? h('span', { class: 'visually-hidden' }, `. ${check.detailsTooltip}`) : null,
    ),
  );
  if (check.countsLegend) out.append(h('p', { class: 'counts-legend muted small' }, check.countsLegend));
  for (const m of check.mistakes) out.append(mistakeCard(m, state, ui));
  if (check.trace) out.append(h('article', { class: 'card' }, renderTrace(check.trace, state, state.lesson, ui)));
  for (const p of check.problems) out.append(problemCard(p));
  return out;
}
