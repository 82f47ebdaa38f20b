/** Whether a parsed lesson.json matches LessonManifestSchema, by the checker built from it (builtCheck.ts). */
import { schemaCheck, type BuiltCheck } from './builtCheck';
import { LessonManifestSchema } from './schema';

/** Injected by esbuild (scripts/schema-checks.mjs); not defined when running from source. */
declare const LESSON_COMPANION_MANIFEST_CHECK: BuiltCheck | undefined;

/** The checker the bundle was built with, if any (for the test that compares it with Value.Check). */
export const builtManifestCheck = (): BuiltCheck | undefined =>
  typeof LESSON_COMPANION_MANIFEST_CHECK === 'function' ? LESSON_COMPANION_MANIFEST_CHECK : undefined;

export const matchesManifestSchema = schemaCheck(LessonManifestSchema, builtManifestCheck());
