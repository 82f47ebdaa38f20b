/**
 * Reading back the artifact a student's `classroom run` uploaded (lesson-companion-report.json). Nothing in
 * it is trusted: the student's own workflow wrote it. What it may give the grade is the source it carries
 * (checked again by the grader) and, shown beside the grade, the verdict it reports. Every field is checked
 * for its type; an artifact that is not what `classroom run` writes is a reason, never an exception.
 */
import { CLASSROOM_RESULT_FORMAT } from './classroom';
import type { ReportedVerdict } from './row';

/** The most source text an artifact may carry, as for any submission (MAX_SUBMISSION_BYTES). */
const MAX_SOURCE_CHARS = 1024 * 1024;

export interface Artifact {
  readonly repository: string | null;
  readonly commit: string | null;
  /** The submitted file: its base name (one of the lesson's starter names) and its text. */
  readonly source: { readonly name: string; readonly text: string } | null;
  readonly reported: ReportedVerdict | null;
}

/** A value as a sentence shows it: JSON, cut short. */
const shown = (value: unknown): string => (JSON.stringify(value) ?? String(value)).slice(0, 60);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function nullableString(data: Record<string, unknown>, field: string): string | null | undefined {
  const value = data[field];
  if (value === undefined || value === null) return null;
  return typeof value === 'string' && value.length <= 512 ? value : undefined;
}

function sourceOf(value: unknown, starterNames: readonly string[]): Artifact['source'] | string {
  if (value === undefined || value === null) return null;
  if (!isObject(value) || typeof value.file !== 'string' || typeof value.text !== 'string')
    return '"source" is not { file, text }';
  const name = value.file.split(/[\\/]/).pop() ?? '';
  if (!starterNames.includes(name)) return `"source" is ${shown(name)}, not ${starterNames.join(' or ')}`;
  if (value.text.length > MAX_SOURCE_CHARS) return '"source" is larger than a program may be (1 MB)';
  if (value.text.includes('\u0000')) return '"source" is not text';
  return { name, text: value.text };
}

function reportedOf(value: unknown): ReportedVerdict | null {
  if (!isObject(value) || typeof value.status !== 'string' || !isObject(value.checks)) return null;
  const { passed, total } = value.checks;
  if (typeof passed !== 'number' || typeof total !== 'number') return null;
  return { status: value.status.slice(0, 40), passed, total };
}

/** The artifact's text (or why it could not be read) → what it carries, or why it is not an artifact. */
export function parseArtifact(text: string | Error, starterNames: readonly string[]): Artifact | string {
  if (text instanceof Error) return `cannot be read: ${text.message.split('\n')[0]}`;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return `not JSON (${(error as Error).message.split('\n')[0]})`;
  }
  if (!isObject(data)) return 'not an object';
  if (data.format !== CLASSROOM_RESULT_FORMAT)
    return `format ${data.format === undefined ? 'missing' : shown(data.format)}, not ${CLASSROOM_RESULT_FORMAT}`;
  const repository = nullableString(data, 'repository');
  if (repository === undefined) return `"repository" is ${shown(data.repository)}, not a repository's name`;
  const commit = nullableString(data, 'commit');
  if (commit === undefined) return `"commit" is ${shown(data.commit)}, not a commit`;
  const source = sourceOf(data.source, starterNames);
  if (typeof source === 'string') return source;
  return { repository, commit, source, reported: reportedOf(data.report) };
}
