/**
 * lesson.json as an instructor edits it, for the pack mutant tests: the built-in least-connections manifest with
 * one change, the problems parseManifest gives it, and where in the text a problem should point. Shared by
 * packManifestMutants.test.ts and packMessagesMutants.test.ts. Everything is read or built when a test calls it,
 * so mutation coverage (perTest) credits the parsing to that test.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseManifest, type ManifestProblem } from '../../src/core/pack/manifest';
import { friendlyManifestMessage } from '../../src/core/pack/manifestMessages';

export const LESSON_FILE = 'lessons/least-connections/lesson.json';

/** The built-in least-connections lesson.json as it is on disk. */
export function lessonText(): string {
  return fs.readFileSync(path.join(__dirname, '..', '..', LESSON_FILE), 'utf8');
}

/** The lesson's manifest as a plain object to change, then to print with `lessonJson`. */
export function lessonObject(): Record<string, any> {
  return JSON.parse(lessonText()) as Record<string, any>;
}

/** lesson.json as an editor saves it: two-space indent, one field a line. */
export const lessonJson = (manifest: unknown): string => JSON.stringify(manifest, null, 2);

/** The least-connections lesson.json after `edit`. */
export function editedLesson(edit: (manifest: Record<string, any>) => void): string {
  const manifest = lessonObject();
  edit(manifest);
  return lessonJson(manifest);
}

/** The problems parseManifest gives `text`, which it must refuse. */
export function problemsOf(text: string): ManifestProblem[] {
  const result = parseManifest(text, LESSON_FILE);
  assert.equal(result.ok, false, 'the manifest should be refused');
  return result.ok ? [] : result.problems;
}

/** What validate and install show for each problem of `text`: its pointer and the friendly message. */
export function friendlyProblems(text: string): { path: string; message: string }[] {
  return problemsOf(text).map((p) => ({ path: p.path, message: friendlyManifestMessage(p.message, p.path, text) }));
}

/** 1-based line and column just after the first `needle` in `text` (where its value starts), counted without the parser. */
export function positionAfter(text: string, needle: string): { line: number; column: number } {
  const offset = text.indexOf(needle);
  assert.ok(offset >= 0, `"${needle}" is in the text`);
  const lines = text.slice(0, offset + needle.length).split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/**
 * A fresh copy of a module, as a new process first loads it: its module-level caches empty. The copy the other
 * tests share stays in the require cache.
 */
export function freshModule<T>(resolved: string): T {
  const shared = require.cache[resolved];
  delete require.cache[resolved];
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(resolved) as T;
  } finally {
    if (shared) require.cache[resolved] = shared;
    else delete require.cache[resolved];
  }
}
