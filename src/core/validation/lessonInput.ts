/**
 * What `validate` is given about a pack: its manifest, model, transcripts and starters, read by the caller (the
 * core reads no file). Its own file so that each group of checks can take it without importing validate.ts.
 */
import type { ReferenceModel } from '../model/model';
import type { Transcript } from '../model/transcript';
import type { Language, LessonManifest } from '../pack/schema';

export interface ValidateLessonInput {
  readonly manifest: LessonManifest;
  /** lesson.json's text, to point problems at lines, and its name as problems show it. */
  readonly manifestText: string;
  readonly manifestFile: string;
  readonly model: ReferenceModel;
  readonly transcripts: readonly Transcript[];
  /** Each starter's files, path relative to the starter folder → text; the caller reads them. */
  readonly starterFiles: Partial<Record<Language, ReadonlyMap<string, string>>>;
  /** Seeds the search for separating transcripts, so the proposals reproduce. */
  readonly seed: number;
  /**
   * Whether each read-order pattern matched its starter file, keyed by `patternKey`, found by the caller
   * with a time bound (a pack's pattern may be slow); without an entry the pattern is matched here.
   */
  readonly patternMatches?: ReadonlyMap<string, boolean | 'timed-out'>;
  /** The most a program may print in one check (bytes), which the hidden transcripts' answers must fit. */
  readonly outputLimitBytes?: number;
  /** The model file (relative to the pack) and its text, to check the model itself (modelChecks.ts). */
  readonly modelFile?: { readonly path: string; readonly source: string };
  readonly clock?: () => number;
}
