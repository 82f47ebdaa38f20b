/**
 * The course outline, its own small section of the panel: the course's lessons in order, ✓ for each done by its
 * own evidence (a passing check), where the learner is, what a locked lesson waits for, and "Next lesson" once
 * the current lesson is done. Every string goes in as text (dom.ts).
 */
import type { CourseLessonView, CourseView } from '../shared/courseView';
import { button, h, section } from './dom';
import type { Ui } from './ui';

function lessonItem(lesson: CourseLessonView, index: number): HTMLElement {
  const mark = lesson.done ? '✓' : lesson.status === 'current' ? '▸' : `${index + 1}.`;
  const note =
    lesson.status === 'current'
      ? lesson.done
        ? 'you are here · done'
        : 'you are here'
      : lesson.status === 'locked'
        ? `after ${lesson.waitingFor.join(', ')}`
        : lesson.status === 'missing'
          ? 'not installed'
          : lesson.done
            ? 'done'
            : '';
  return h(
    'li',
    {
      class: `course-lesson ${lesson.status}${lesson.done ? ' done' : ''}`,
      'data-lesson': lesson.lesson,
      ...(lesson.status === 'current' ? { 'aria-current': 'step' } : {}),
    },
    h('span', { class: 'course-mark', 'aria-hidden': 'true' }, mark),
    ' ',
    h('span', { class: 'course-title' }, lesson.title),
    note ? h('span', { class: 'muted small' }, ` — ${note}`) : null,
  );
}

export function renderCourse(course: CourseView, ui: Ui): HTMLElement {
  const done = course.lessons.filter((l) => l.done).length;
  return section(
    'course',
    `Course: ${course.title}`,
    h('p', { class: 'muted small' }, `${done} of ${course.lessons.length} lessons done.`),
    h('ol', { class: 'course-lessons' }, ...course.lessons.map(lessonItem)),
    course.currentDone && course.next
      ? button(
          `Next lesson: ${course.next.title}`,
          () => ui.post({ type: 'nextLesson', lesson: course.next!.lesson }),
          {
            id: 'course-next',
            class: 'primary',
          },
        )
      : course.currentDone
        ? h('p', { class: 'small' }, 'This lesson is done, and so is every lesson it opens.')
        : null,
  );
}
