/**
 * The JSON Schema authors get in the editor for lesson.json. TypeBox schemas already are JSON Schema;
 * JSON.stringify drops TypeBox's symbol keys, so the file cannot drift from the runtime validator.
 * scripts/write-schema.mjs writes this text to media/lesson.schema.json on every build.
 */
import { LessonManifestSchema } from './schema';

export const LESSON_SCHEMA_FILE = 'media/lesson.schema.json';

export function lessonJsonSchema(): Record<string, unknown> {
  const body = JSON.parse(JSON.stringify(LessonManifestSchema)) as Record<string, unknown>;
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $comment: 'Generated from src/core/pack/schema.ts by scripts/write-schema.mjs (npm run build). Do not edit by hand.',
    title: 'Lesson Companion lesson pack (lesson.json)',
    ...body,
  };
}

/** The exact bytes of media/lesson.schema.json. */
export function lessonJsonSchemaText(): string {
  return JSON.stringify(lessonJsonSchema(), null, 2) + '\n';
}
