/**
 * A course: lessons in order (`course.json`). One TypeBox schema is the type (Static), the validator and the
 * JSON schema authors get in the editor (media/course.schema.json, written by scripts/write-course-schema.mjs),
 * as lesson.json's is. A course names lesson packs by id; the packs are built in, installed beside it, or in
 * folders beside the course's own. Pure: reading files is the caller's.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export const COURSE_FILE = 'course.json';
export const COURSE_SCHEMA_FILE = 'media/course.schema.json';
const MAX_LESSONS = 100;

const PackId = Type.String({
  pattern: '^[a-z0-9][a-z0-9-]*$',
  minLength: 1,
  maxLength: 64,
  description: 'A lesson pack id (the "id" of its lesson.json): lower-case letters, digits and dashes.',
});

export const CourseLessonSchema = Type.Object(
  {
    lesson: PackId,
    needs: Type.Optional(
      Type.Array(PackId, {
        maxItems: MAX_LESSONS,
        description:
          'Lessons earlier in the course this one builds on: it is offered once they are done (a passing check).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CourseSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String({ maxLength: 500 })),
    id: PackId,
    title: Type.String({ minLength: 1, maxLength: 120 }),
    summary: Type.Optional(Type.String({ maxLength: 500 })),
    lessons: Type.Array(CourseLessonSchema, {
      minItems: 1,
      maxItems: MAX_LESSONS,
      description: 'The lessons in the order learners take them.',
    }),
  },
  { additionalProperties: false },
);

export type Course = Static<typeof CourseSchema>;
export type CourseLesson = Static<typeof CourseLessonSchema>;

/** The JSON schema for editors, with an id and a title of its own. */
export function courseJsonSchemaText(): string {
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Lesson Companion course (course.json)',
    ...JSON.parse(JSON.stringify(CourseSchema)),
  };
  return JSON.stringify(schema, null, 2) + '\n';
}

export type CourseParse = { ok: true; course: Course } | { ok: false; problems: string[] };

/** course.json's text as a course, or every problem with it in words (where, what, and what to do). */
export function parseCourse(text: string, file = COURSE_FILE): CourseParse {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`${file} is not JSON: ${(error as Error).message}`] };
  }
  if (!Value.Check(CourseSchema, data)) {
    const problems = [...Value.Errors(CourseSchema, data)]
      .slice(0, 10)
      .map((e) => `${file}${e.path ? ` at ${e.path}` : ''}: ${e.message}`);
    return { ok: false, problems };
  }
  const problems: string[] = [];
  const seen = new Set<string>();
  data.lessons.forEach((entry, i) => {
    if (seen.has(entry.lesson)) problems.push(`${file}: lesson "${entry.lesson}" is listed twice (/lessons/${i})`);
    for (const need of entry.needs ?? []) {
      if (!seen.has(need))
        problems.push(
          `${file}: lesson "${entry.lesson}" needs "${need}", which is not ${need === entry.lesson ? 'another lesson' : 'earlier in the course'} (/lessons/${i}/needs); a lesson can only need lessons listed before it`,
        );
    }
    seen.add(entry.lesson);
  });
  return problems.length ? { ok: false, problems } : { ok: true, course: data };
}

/** Where a lesson of a course stands for one learner. */
export type OutlineStatus = 'done' | 'current' | 'open' | 'locked' | 'missing';

export interface OutlineEntry {
  readonly lesson: string;
  readonly title: string;
  readonly status: OutlineStatus;
  /** Done by its own evidence (a passing check), also when it is the current lesson. */
  readonly done: boolean;
  /** Earlier lessons it needs that are not done yet (for `locked`). */
  readonly waitingFor: readonly string[];
}

export interface CourseOutline {
  readonly id: string;
  readonly title: string;
  readonly lessons: readonly OutlineEntry[];
  /** The lesson "Next lesson" opens: after the current one, the first not done whose needs are done. */
  readonly next?: string;
}

/**
 * The course as the learner sees it. `done`: lessons whose own evidence says so (a passing check);
 * `titles`: the lessons available (absent: `missing`, not installed); `current`: the lesson open now.
 */
export function courseOutline(
  course: Course,
  done: ReadonlySet<string>,
  titles: ReadonlyMap<string, string>,
  current?: string,
): CourseOutline {
  const lessons = course.lessons.map((entry): OutlineEntry => {
    const waitingFor = (entry.needs ?? []).filter((n) => !done.has(n));
    const title = titles.get(entry.lesson) ?? entry.lesson;
    const status: OutlineStatus = !titles.has(entry.lesson)
      ? 'missing'
      : entry.lesson === current
        ? 'current'
        : done.has(entry.lesson)
          ? 'done'
          : waitingFor.length > 0
            ? 'locked'
            : 'open';
    return { lesson: entry.lesson, title, status, done: done.has(entry.lesson), waitingFor };
  });
  const from = Math.max(0, lessons.findIndex((l) => l.lesson === current) + 1);
  const offered = (l: OutlineEntry): boolean => l.status === 'open';
  const next = lessons.slice(from).find(offered) ?? lessons.slice(0, from).find(offered);
  return { id: course.id, title: course.title, lessons, ...(next ? { next: next.lesson } : {}) };
}
