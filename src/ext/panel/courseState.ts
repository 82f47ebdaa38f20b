/**
 * The course outline for the panel: the first course that lists the current lesson, each lesson ticked by its
 * own evidence (a passing check, kept with the lesson's progress in workspaceState, so it survives reloads).
 */
import { courseOutline } from '../../core/course/course';
import type { LoadedCourse } from '../../node/course/courses';
import type { LoadedPack } from '../../node/packs/packs';
import type { CourseView } from '../../shared/courseView';

export function courseView(
  courses: readonly LoadedCourse[],
  packs: readonly LoadedPack[],
  passed: (lessonId: string) => boolean,
  current: string | undefined,
): CourseView | undefined {
  if (!current) return undefined;
  const found = courses.find((c) => c.course.lessons.some((l) => l.lesson === current));
  if (!found) return undefined;
  const titles = new Map(packs.map((p) => [p.manifest.id, p.manifest.title]));
  const done = new Set(found.course.lessons.map((l) => l.lesson).filter(passed));
  const outline = courseOutline(found.course, done, titles, current);
  const next = outline.next ? outline.lessons.find((l) => l.lesson === outline.next) : undefined;
  return {
    id: outline.id,
    title: outline.title,
    lessons: outline.lessons,
    currentDone: done.has(current),
    ...(next ? { next: { lesson: next.lesson, title: next.title } } : {}),
  };
}
