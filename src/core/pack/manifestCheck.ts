/**
 * Whether a parsed lesson.json matches LessonManifestSchema. In a bundle, by the checker TypeBox's compiler made
 * from that schema when the bundle was built (esbuild.mjs injects it as `LESSON_COMPANION_MANIFEST_CHECK`,
 * scripts/manifest-check.mjs writes it): straight-line code, compiled into the CLI's code cache with the rest.
 * TypeBox's `Value.Check` walks the schema for each value and makes each `pattern`'s RegExp again at every string:
 * about 5 ms of a `lessons` that lists three packs (3.2 ms for the first). From source (the tests, under tsx)
 * there is no build, and `Value.Check` answers; test/unit/manifestCheck.test.ts holds the two to the same answers.
 */
import { Value } from '@sinclair/typebox/value';
import { LessonManifestSchema, type LessonManifest } from './schema';

/** The built checker; not defined when running from source. */
declare const LESSON_COMPANION_MANIFEST_CHECK: ((value: unknown) => boolean) | undefined;

/** The checker the bundle was built with, if any (for the test that compares it with Value.Check). */
export const builtManifestCheck = (): ((value: unknown) => boolean) | undefined =>
  typeof LESSON_COMPANION_MANIFEST_CHECK === 'function' ? LESSON_COMPANION_MANIFEST_CHECK : undefined;

export function matchesManifestSchema(value: unknown): value is LessonManifest {
  const built = builtManifestCheck();
  return built ? built(value) : Value.Check(LessonManifestSchema, value);
}
