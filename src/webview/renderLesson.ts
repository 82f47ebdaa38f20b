/** The whole panel, top to bottom, from one PanelState. */
import type { LessonView, PanelState, StepView } from '../shared/messages';
import { button, foldSection, h, linkButton, trustedHtml, type Child } from './dom';
import { renderResults, verdictLine } from './renderCheck';
import { renderQuestions } from './renderQuestions';
import { renderUnderLoad } from './renderUnderLoad';
import type { Ui } from './ui';

const LANGUAGE_NAMES: Record<LessonView['language'], string> = {
  python: 'Python',
  javascript: 'JavaScript',
  typescript: 'TypeScript',
};

function stepItem(step: StepView, ui: Ui): HTMLElement {
  const open = h(
    'button',
    {
      type: 'button',
      class: 'step-open',
      'aria-describedby': step.detailHtml ? `step-${step.index}-detail` : undefined,
      title: step.target
        ? `Show ${step.target === '#top' ? 'the top of the file' : step.target} in the editor`
        : 'Open the file',
    },
    h('span', { class: 'tick', 'aria-hidden': 'true' }, step.read ? '✓' : String(step.index)),
    h('span', { class: 'visually-hidden' }, step.read ? `Step ${step.index}, read: ` : `Step ${step.index}: `),
    h('span', { class: 'step-title' }, step.title),
  );
  open.addEventListener('click', () => ui.post({ type: 'openStep', index: step.index }));
  return h(
    'li',
    { class: `step${step.read ? ' read' : ''}`, id: `step-${step.index}`, tabindex: '-1' },
    open,
    step.detailHtml
      ? h('div', { id: `step-${step.index}-detail`, class: 'step-detail' }, trustedHtml('div', step.detailHtml))
      : null,
    step.run
      ? h(
          'div',
          { class: 'step-run' },
          button('Run in terminal', () => ui.post({ type: 'runStep', index: step.index }), { class: 'secondary' }),
          ' ',
          h('code', {}, step.run),
        )
      : null,
  );
}

/**
 * The compact bar that stays at the top: Check, how far the learner is, and the last verdict. It keeps
 * Check in reach however long the lesson text is.
 */
function topBar(lesson: LessonView, state: PanelState, ui: Ui): HTMLElement {
  const check = button(state.checking ? 'Checking…' : 'Check', () => ui.post({ type: 'runCheck' }), {
    id: 'check',
    class: 'primary',
    disabled: state.checking || !state.trusted,
    'aria-describedby': state.trusted ? undefined : 'trust-note',
  });
  const verdict = state.check
    ? linkButton('', () => ui.reveal({ kind: 'results' }), {
        class: `link last-verdict verdict-${state.check.status}`,
        // The bar may cut the verdict with an ellipsis: the whole of it is here.
        title: `${state.check.summary}. Show the results`,
      })
    : h('span', { class: 'last-verdict muted' }, state.checking ? '' : 'Not checked yet');
  if (state.check) verdict.append(...verdictLine(state.check));
  return h(
    'div',
    { class: 'topbar', role: 'region', 'aria-label': 'Check and progress' },
    check,
    // One span per part ("2 of 6 read", "1 of 5 answered"): where the bar is short, a part that does not fit
    // leaves whole (CSS wraps it out of sight) instead of being cut mid-number into "1 of 1…".
    h(
      'span',
      { class: 'progress', id: 'progress', title: lesson.progress },
      ...lesson.progress.split(' · ').map((part) => h('span', { class: 'progress-part' }, part)),
    ),
    verdict,
  );
}

function trustNote(state: PanelState, ui: Ui): HTMLElement | null {
  if (state.trusted) return null;
  return h(
    'div',
    { class: 'notice', id: 'trust-note', role: 'note' },
    h(
      'p',
      {},
      h('strong', {}, 'Check is off in Restricted Mode. '),
      'Checking runs your program, and this folder is not trusted. Reading the lesson and answering questions still work.',
    ),
    h(
      'p',
      {},
      'To check, trust the folder: ',
      linkButton('Manage Workspace Trust', () => ui.post({ type: 'manageTrust' })),
      ' (or the “Restricted Mode” item in the status bar).',
    ),
  );
}

/** The protocol's table scrolls sideways in a narrow panel: focusable, so a keyboard can scroll it too. */
function protocolBlock(html: string): HTMLElement {
  const block = trustedHtml('div', html, 'md protocol');
  block.tabIndex = 0;
  block.setAttribute('role', 'region');
  block.setAttribute('aria-label', 'The protocol, scrollable');
  return block;
}

/** A section folded as the learner left it; until they choose, `byDefault`. */
function fold(id: string, title: string, byDefault: boolean, ui: Ui, ...children: Child[]): HTMLElement {
  const folded = ui.folded(id) ?? !byDefault;
  return foldSection(id, title, !folded, (open) => ui.setFolded(id, !open), ...children);
}

export function renderLesson(lesson: LessonView, state: PanelState, ui: Ui): HTMLElement[] {
  // Once every step is read, the lesson text folds away by default and the exercise comes first.
  const allRead = lesson.steps.length > 0 && lesson.steps.every((s) => s.read);
  const parts: HTMLElement[] = [
    topBar(lesson, state, ui),
    h('header', {}, h('h1', {}, lesson.title), lesson.summary ? h('p', { class: 'summary' }, lesson.summary) : null),
  ];
  const note = trustNote(state, ui);
  if (note) parts.push(note);
  parts.push(
    fold('core', 'Core question', !allRead, ui, trustedHtml('blockquote', lesson.coreQuestionHtml, 'md core-question')),
    fold(
      'outcomes',
      'You will be able to',
      !allRead,
      ui,
      h('ul', {}, ...lesson.outcomesHtml.map((html) => trustedHtml('li', html, 'md-inline'))),
    ),
    fold(
      'read',
      'Read in this order',
      !allRead,
      ui,
      h(
        'p',
        { class: 'muted small' },
        `${lesson.steps.filter((s) => s.read).length} of ${lesson.steps.length} read. Click a step to see it in your file.`,
      ),
      h('ol', { class: 'steps' }, ...lesson.steps.map((s) => stepItem(s, ui))),
    ),
    fold(
      'protocol',
      'The protocol',
      true,
      ui,
      h('p', {}, 'Your file: ', h('code', {}, lesson.mainFile), ` (${LANGUAGE_NAMES[lesson.language]})`),
      protocolBlock(lesson.protocolHtml),
    ),
    fold('check-results', 'Results', true, ui, renderResults(state.check, state, ui)),
  );
  if (state.underLoad)
    parts.push(fold('under-load', 'Under load', true, ui, ...renderUnderLoad(state.underLoad, state, ui)));
  if (lesson.failureQuestions.length) {
    parts.push(
      fold('failure-questions', 'When it fails: questions', true, ui, ...renderQuestions(lesson.failureQuestions, ui)),
    );
  }
  if (lesson.quiz.length)
    parts.push(fold('quiz', 'Quiz', true, ui, ...renderQuestions(lesson.quiz, ui, lesson.failureQuestions.length + 1)));
  parts.push(
    fold(
      'done',
      'Done when',
      true,
      ui,
      h(
        'ul',
        { class: 'done-when' },
        ...lesson.doneWhen.map((d) => {
          const li = h(
            'li',
            { class: d.met ? 'met' : undefined },
            h('span', { class: 'tick', 'aria-hidden': 'true' }, d.met ? '✓' : '○'),
            ' ',
          );
          li.append(
            h(
              'span',
              {},
              trustedHtml('span', d.html, 'md-inline'),
              ' ',
              h('span', { class: 'done-evidence muted small' }, `(${d.evidence})`),
            ),
          );
          return li;
        }),
      ),
    ),
  );
  return parts;
}

export function renderEmpty(state: PanelState, ui: Ui): HTMLElement[] {
  return [
    h('header', {}, h('h1', {}, 'Lesson Companion')),
    h('p', {}, state.notice ?? 'No lesson started yet.'),
    h(
      'p',
      {},
      button('Start Lesson…', () => ui.post({ type: 'startLesson' }), { class: 'primary' }),
    ),
  ];
}
