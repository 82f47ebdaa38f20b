/** The whole panel, top to bottom, from one PanelState. */
import type { LessonView, PanelState, StepView } from '../shared/messages';
import { button, h, linkButton, section, trustedHtml } from './dom';
import { renderResults } from './renderCheck';
import { renderQuestions } from './renderQuestions';
import type { Ui } from './ui';

const LANGUAGE_NAMES: Record<LessonView['language'], string> = { python: 'Python', javascript: 'JavaScript', typescript: 'TypeScript' };

function stepItem(step: StepView, ui: Ui): HTMLElement {
  const open = h(
    'button',
    { type: 'button', class: 'step-open', 'aria-describedby': step.detailHtml ? `step-${step.index}-detail` : undefined, title: step.target ? `Show ${step.target === '#top' ? 'the top of the file' : step.target} in the editor` : 'Open the file' },
    h('span', { class: 'tick', 'aria-hidden': 'true' }, step.read ? '✓' : String(step.index)),
    h('span', { class: 'visually-hidden' }, step.read ? `Step ${step.index}, read: ` : `Step ${step.index}: `),
    h('span', { class: 'step-title' }, step.title),
  );
  open.addEventListener('click', () => ui.post({ type: 'openStep', index: step.index }));
  return h(
    'li',
    { class: `step${step.read ? ' read' : ''}`, id: `step-${step.index}`, tabindex: '-1' },
    open,
    step.detailHtml ? h('div', { id: `step-${step.index}-detail`, class: 'step-detail' }, trustedHtml('div', step.detailHtml)) : null,
    step.run
      ? h('div', { class: 'step-run' }, button('Run in terminal', () => ui.post({ type: 'runStep', index: step.index }), { class: 'secondary' }), ' ', h('code', {}, step.run))
      : null,
  );
}

function exercise(lesson: LessonView, state: PanelState, ui: Ui): HTMLElement {
  const check = button(state.checking ? 'Checking…' : 'Check', () => ui.post({ type: 'runCheck' }), {
    id: 'check',
    class: 'primary',
    disabled: state.checking || !state.trusted,
    'aria-describedby': state.trusted ? undefined : 'trust-note',
  });
  const trust = state.trusted
    ? null
    : h(
        'div',
        { class: 'notice', id: 'trust-note', role: 'note' },
        h('p', {}, h('strong', {}, 'Check is off in Restricted Mode. '), 'Checking runs your program, and this folder is not trusted. Reading the lesson and answering questions still work.'),
        h('p', {}, 'To check, trust the folder: ', linkButton('Manage Workspace Trust', () => ui.post({ type: 'manageTrust' })), ' (or the “Restricted Mode” item in the status bar).'),
      );
  return section(
    'exercise',
    'Exercise',
    h('p', {}, 'Your file: ', h('code', {}, lesson.mainFile), ` (${LANGUAGE_NAMES[lesson.language]})`),
    trustedHtml('div', lesson.protocolHtml, 'md protocol'),
    h('div', { class: 'check-row' }, check),
    trust,
    renderResults(state.check, state, ui),
  );
}

export function renderLesson(lesson: LessonView, state: PanelState, ui: Ui): HTMLElement[] {
  const parts: HTMLElement[] = [];
  parts.push(
    h('header', {}, h('h1', {}, lesson.title), lesson.summary ? h('p', { class: 'summary' }, lesson.summary) : null),
    section('core', 'Core question', trustedHtml('blockquote', lesson.coreQuestionHtml, 'md core-question')),
    section('outcomes', 'You will be able to', h('ul', {}, ...lesson.outcomesHtml.map((html) => trustedHtml('li', html, 'md-inline')))),
    section(
      'read',
      'Read in this order',
      h('p', { class: 'muted small' }, `${lesson.steps.filter((s) => s.read).length} of ${lesson.steps.length} read. Click a step to see it in your file.`),
      h('ol', { class: 'steps' }, ...lesson.steps.map((s) => stepItem(s, ui))),
    ),
    exercise(lesson, state, ui),
  );
  if (lesson.failureQuestions.length) {
    parts.push(section('failure-questions', 'When it fails: questions', ...renderQuestions(lesson.failureQuestions, ui)));
  }
  if (lesson.quiz.length) parts.push(section('quiz', 'Quiz', ...renderQuestions(lesson.quiz, ui, lesson.failureQuestions.length + 1)));
  parts.push(
    section(
      'done',
      'Done when',
      h(
        'ul',
        { class: 'done-when' },
        ...lesson.doneWhen.map((d) => {
          const li = h('li', { class: d.met ? 'met' : undefined }, h('span', { class: 'tick', 'aria-hidden': 'true' }, d.met ? '✓' : '○'), ' ');
          li.append(trustedHtml('span', d.html, 'md-inline'));
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
    h('p', {}, button('Start Lesson…', () => ui.post({ type: 'startLesson' }), { class: 'primary' })),
  ];
}
