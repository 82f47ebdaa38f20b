/** Failure questions and quiz questions: prompt, an answer box of the right kind, the engine's feedback. */
import type { AnswerView, QuestionView } from '../shared/messages';
import { h, linkButton, richText, trustedHtml } from './dom';
import type { Ui } from './ui';

function answerInput(q: QuestionView, ui: Ui): { el: HTMLElement; value: () => string } {
  const draft = ui.draft(q.id);
  const inputId = `answer-${q.id}`;
  if ((q.kind === 'single' || q.kind === 'multiple') && q.choices) {
    // The quiz checker reads choices by number ("2", or "1, 3" for several), whatever their text.
    const chosen = new Set(draft.split(/[,\s]+/).filter(Boolean));
    const type = q.kind === 'single' ? 'radio' : 'checkbox';
    const boxes = q.choices.map((choice, i) => {
      const box = h('input', {
        type,
        name: inputId,
        value: String(i + 1),
        id: `${inputId}-${i + 1}`,
        checked: chosen.has(String(i + 1)),
      });
      box.addEventListener('change', () => ui.setDraft(q.id, read()));
      return { box, label: h('label', { for: `${inputId}-${i + 1}`, class: 'choice' }, box, ' ', ...richText(choice)) };
    });
    const read = (): string =>
      boxes
        .filter((b) => b.box.checked)
        .map((b) => b.box.value)
        .join(', ');
    return {
      el: h(
        'fieldset',
        { class: 'choices' },
        h('legend', { class: 'visually-hidden' }, 'Choices'),
        ...boxes.map((b) => b.label),
      ),
      value: read,
    };
  }
  if (q.kind === 'predict') {
    const area = h('textarea', {
      id: inputId,
      rows: String(Math.min(Math.max(q.commands?.length ?? 3, 3), 12)),
      'aria-label': 'Your prediction, one answer per line',
      spellcheck: 'false',
    });
    area.value = draft;
    area.addEventListener('input', () => ui.setDraft(q.id, area.value));
    return { el: area, value: () => area.value };
  }
  const input = h('input', {
    type: 'text',
    id: inputId,
    'aria-label': 'Your answer',
    inputmode: q.kind === 'number' ? 'decimal' : undefined,
    autocomplete: 'off',
    spellcheck: 'false',
  });
  input.value = draft;
  input.addEventListener('input', () => ui.setDraft(q.id, input.value));
  return { el: input, value: () => input.value };
}

function feedback(result: AnswerView, q: QuestionView, ui: Ui): HTMLElement {
  const step = result.step ?? q.step;
  if (result.revealed) {
    return h(
      'div',
      { class: 'feedback revealed', role: 'status' },
      h('p', {}, h('strong', {}, 'The answer: '), ...richText(result.explanation ?? result.feedback)),
      result.expectedOutput
        ? h(
            'pre',
            { class: 'expected-output', 'aria-label': 'What the program prints' },
            result.expectedOutput.join('\n'),
          )
        : null,
    );
  }
  return h(
    'div',
    { class: `feedback ${result.correct ? 'correct' : 'wrong'}`, role: 'status' },
    h(
      'p',
      {},
      h('span', { class: 'icon', 'aria-hidden': 'true' }, result.correct ? '✓ ' : '✗ '),
      h('span', { class: 'feedback-text' }, ...richText(result.feedback)),
    ),
    result.explanation ? h('p', { class: 'explanation' }, ...richText(result.explanation)) : null,
    !result.correct
      ? h(
          'p',
          { class: 'feedback-actions' },
          step
            ? linkButton(`Read step ${step} again`, () => ui.post({ type: 'openStep', index: step }), {
                class: 'link step-link',
              })
            : null,
          step ? ' · ' : null,
          // The answer is there when the learner asks for it, not in the feedback on a wrong one.
          linkButton('Show answer', () => ui.post({ type: 'showAnswer', questionId: q.id }), {
            class: 'link show-answer',
          }),
        )
      : null,
  );
}

function question(q: QuestionView, n: number, ui: Ui): HTMLElement {
  const input = answerInput(q, ui);
  const form = h('form', { class: 'answer', autocomplete: 'off' });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const answer = input.value().trim();
    if (answer) ui.post({ type: 'answer', questionId: q.id, answer });
  });
  form.append(input.el, h('button', { type: 'submit' }, 'Check answer'));
  return h(
    'article',
    { class: `card question${q.last?.correct ? ' answered' : ''}`, id: `question-${q.id}`, tabindex: '-1' },
    h('div', { class: 'question-head' }, h('span', { class: 'qnum' }, `${n}.`), trustedHtml('div', q.promptHtml)),
    q.commands ? h('pre', { class: 'commands', 'aria-label': 'Commands' }, q.commands.join('\n')) : null,
    form,
    q.last ? feedback(q.last, q, ui) : null,
  );
}

export function renderQuestions(questions: readonly QuestionView[], ui: Ui, start = 1): HTMLElement[] {
  return questions.map((q, i) => question(q, start + i, ui));
}
