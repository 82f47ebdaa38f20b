/**
 * The course outline the lesson panel shows (its own section, src/webview/renderCourse.ts): the course's
 * lessons in order, where the learner is, which are done by their own evidence (a passing check), and the
 * lesson "Next lesson" opens once the current one is done.
 */
export type CourseLessonStatus = 'done' | 'current' | 'open' | 'locked' | 'missing';

export interface CourseLessonView {
  readonly lesson: string;
  readonly title: string;
  readonly status: CourseLessonStatus;
  readonly done: boolean;
  /** Earlier lessons it still waits for (a locked lesson). */
  readonly waitingFor: readonly string[];
}

export interface CourseView {
  readonly id: string;
  readonly title: string;
  readonly lessons: readonly CourseLessonView[];
  /** Offered as "Next lesson" when the current lesson is done. */
  readonly next?: { readonly lesson: string; readonly title: string };
  readonly currentDone: boolean;
}

const STATUSES: readonly string[] = ['done', 'current', 'open', 'locked', 'missing'];
const isStr = (v: unknown): v is string => typeof v === 'string' && v.length <= 1000;

function isCourseLessonView(v: unknown): v is CourseLessonView {
  if (typeof v !== 'object' || v === null) return false;
  const l = v as Record<string, unknown>;
  return (
    isStr(l.lesson) &&
    isStr(l.title) &&
    typeof l.status === 'string' &&
    STATUSES.includes(l.status) &&
    typeof l.done === 'boolean' &&
    Array.isArray(l.waitingFor) &&
    l.waitingFor.every(isStr)
  );
}

/** The outline's shape, checked where the webview receives it. */
export function isCourseView(v: unknown): v is CourseView {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  const next = c.next as Record<string, unknown> | undefined;
  return (
    isStr(c.id) &&
    isStr(c.title) &&
    typeof c.currentDone === 'boolean' &&
    Array.isArray(c.lessons) &&
    c.lessons.length <= 100 &&
    c.lessons.every(isCourseLessonView) &&
    (next === undefined || (typeof next === 'object' && next !== null && isStr(next.lesson) && isStr(next.title)))
  );
}
