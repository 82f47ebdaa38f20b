/**
 * A pack understood from its snapshot (packSnapshot.ts), purely: the texts decoded, the paths lesson.json
 * names looked up in what was read, the transcripts parsed, and the links between the manifest, the model
 * and the questions checked. Each problem has a file and a line; nothing here reads a file.
 */
import { locate, type ManifestProblem } from './manifest';
import type { LessonManifest } from './schema';
import {
  decodeText,
  joinPosix,
  lookUp,
  pathOf,
  PACK_FILE_MAX_BYTES,
  PACK_MAX_ENTRIES,
  PACK_MAX_TOTAL_BYTES,
  undecodableSources,
  type PackSnapshot,
} from './packSnapshot';
import type { ReferenceModel } from '../model/model';
import { parseTranscripts, TranscriptSyntaxError, type Transcript } from '../model/transcript';
import { MISSING_ANSWER_HASHES, questionProblems, type Sha256 } from '../quiz/quiz';

export const MANIFEST_FILE = 'lesson.json';
/** Every check sends every hidden transcript; a long stress transcript is about 1 MB. */
const MAX_TRANSCRIPT_CHARS = 8 * 1024 * 1024;
const MIB = 1024 * 1024;

const wholeFile = (file: string, message: string): ManifestProblem => ({ file, line: 1, column: 1, path: '', message });

/** The folder as read: links (which could show a model any file of this computer), or too much to be a pack. */
export function folderProblems(snapshot: PackSnapshot): ManifestProblem[] {
  const problems = snapshot.links
    .slice(0, 10)
    .map((link) =>
      wholeFile(
        pathOf(snapshot, link),
        `${link} is a symbolic link, which could point anywhere on this computer: a lesson pack holds no links (replace it with a copy of the file)`,
      ),
    );
  if (snapshot.truncated)
    problems.push(
      wholeFile(
        snapshot.dir,
        `the folder holds more than ${PACK_MAX_ENTRIES} files and folders, and a lesson pack is a few dozen: this is not a pack folder (or it holds something that belongs elsewhere)`,
      ),
    );
  for (const bad of undecodableSources(snapshot))
    problems.push({
      file: bad.file,
      line: bad.line,
      column: 1,
      path: '',
      message: `${bad.relative} is not UTF-8 text at line ${bad.line}: save the file as UTF-8`,
    });
  return problems;
}

/** A file's text, or why it cannot be had, as a sentence that starts with the path. */
function textOf(snapshot: PackSnapshot, relative: string): { text: string } | { reason: string; line?: number } {
  const found = lookUp(snapshot, relative);
  if (!found.inside) return { reason: `"${relative}" points outside the pack folder` };
  const entry = found.entry;
  if (!entry || entry.kind === 'skipped') return { reason: `"${relative}" does not exist in the pack` };
  if (entry.kind !== 'file') return { reason: `"${relative}" is not a file` };
  if (!entry.bytes)
    return entry.size > PACK_FILE_MAX_BYTES
      ? { reason: `"${relative}" is larger than ${PACK_FILE_MAX_BYTES / MIB} MiB` }
      : {
          reason: `"${relative}" was not read: the pack's files add up to more than ${PACK_MAX_TOTAL_BYTES / MIB} MiB`,
        };
  const decoded = decodeText(entry.bytes);
  return 'text' in decoded ? decoded : { reason: `"${relative}" ${decoded.reason}`, line: decoded.line };
}

/** lesson.json's text, or the one problem that stops the load. */
export function manifestText(snapshot: PackSnapshot): { text: string; file: string } | { problem: ManifestProblem } {
  const file = pathOf(snapshot, MANIFEST_FILE);
  const read = textOf(snapshot, MANIFEST_FILE);
  if ('text' in read) return { text: read.text, file };
  return {
    problem: {
      file,
      line: read.line ?? 1,
      column: 1,
      path: '',
      message: `cannot read ${MANIFEST_FILE}: ${read.reason}`,
    },
  };
}

/** Where the model file is, if it is in the pack (the model loader reads it and what it imports). */
export function modelPlace(snapshot: PackSnapshot, manifest: LessonManifest): string | undefined {
  const found = lookUp(snapshot, manifest.model);
  return found.inside ? found.relative : undefined;
}

export interface PackUnderstanding {
  readonly snapshot: PackSnapshot;
  readonly manifest: LessonManifest;
  /** lesson.json as read, and its path, to locate problems in. */
  readonly text: string;
  readonly file: string;
  /** The model, when it was loaded (it runs pack code, so only where that may happen); or why it did not load. */
  readonly model?: { readonly model: ReferenceModel } | { readonly problem: ManifestProblem };
  readonly sha256: Sha256;
  /** Questions with no answer hashes yet are let through (validate reports them as one warning). */
  readonly allowMissingAnswers?: boolean;
}

/** Everything wrong with a parsed pack, in the order an author reads lesson.json; and its transcripts. */
export function packProblems(input: PackUnderstanding): { problems: ManifestProblem[]; transcripts: Transcript[] } {
  const { snapshot, manifest, text, file } = input;
  const problems: ManifestProblem[] = [];
  const model = input.model && 'model' in input.model ? input.model.model : undefined;
  const modelFound = lookUp(snapshot, manifest.model);
  if (!modelFound.inside)
    problems.push(locate(text, file, '/model', `"${manifest.model}" points outside the pack folder`));
  else if (!input.model) {
    if (modelFound.entry?.kind !== 'file')
      problems.push(locate(text, file, '/model', `the model file ${manifest.model} does not exist`));
  } else if ('problem' in input.model) problems.push(input.model.problem);
  const transcripts = transcriptsOf(input, problems);
  problems.push(...mutantProblems(manifest, model, text, file));
  problems.push(...questionLinkProblems(input, model));
  problems.push(...starterProblems(snapshot, manifest, text, file));
  return { problems, transcripts };
}

function transcriptsOf(input: PackUnderstanding, problems: ManifestProblem[]): Transcript[] {
  const { snapshot, manifest, text, file } = input;
  const transcripts: Transcript[] = [];
  let chars = 0;
  for (const [index, relative] of manifest.transcripts.entries()) {
    const read = textOf(snapshot, relative);
    if (!('text' in read)) {
      problems.push(
        read.line !== undefined
          ? {
              file: pathOf(snapshot, relative),
              line: read.line,
              column: 1,
              path: `/transcripts/${index}`,
              message: read.reason,
            }
          : locate(text, file, `/transcripts/${index}`, read.reason),
      );
      continue;
    }
    chars += read.text.length;
    if (chars > MAX_TRANSCRIPT_CHARS) {
      const message = `the transcript files add up to more than ${MAX_TRANSCRIPT_CHARS / MIB} MiB, more than any check can send`;
      problems.push(locate(text, file, `/transcripts/${index}`, message));
      continue;
    }
    try {
      transcripts.push(...parseTranscripts(read.text, relative));
    } catch (error) {
      if (!(error instanceof TranscriptSyntaxError)) throw error;
      const at = { file: pathOf(snapshot, error.file), line: error.line, column: 1, path: `/transcripts/${index}` };
      problems.push({ ...at, message: error.reason });
    }
  }
  const names = new Set<string>();
  for (const t of transcripts) {
    if (names.has(t.name))
      problems.push({
        ...wholeFile(pathOf(snapshot, t.file), `transcript "${t.name}" is defined in more than one file`),
        line: t.line,
      });
    names.add(t.name);
  }
  return transcripts;
}

/** Every mistake's mutants must be mutations the model has (known only once the model is loaded). */
function mutantProblems(
  manifest: LessonManifest,
  model: ReferenceModel | undefined,
  text: string,
  file: string,
): ManifestProblem[] {
  if (!model) return [];
  const ids = new Set(model.mutations.map((m) => m.id));
  return manifest.mistakes.flatMap((mistake, i) =>
    mistake.mutants.flatMap((mutant, k) =>
      ids.has(mutant)
        ? []
        : [
            locate(
              text,
              file,
              `/mistakes/${i}/mutants/${k}`,
              `model "${model.id}" has no mutation "${mutant}" (it has ${[...ids].join(', ')})`,
            ),
          ],
    ),
  );
}

/**
 * The links that make diagnosis lead to a question: a mistake's `question` must name a question of this
 * pack, every `step` must be a read-order step, and each question must be answerable as authored.
 */
function questionLinkProblems(input: PackUnderstanding, model: ReferenceModel | undefined): ManifestProblem[] {
  const { manifest, text, file } = input;
  const problems: ManifestProblem[] = [];
  const steps = manifest.readOrder.length;
  const sections = [
    ['failureQuestions', manifest.failureQuestions],
    ['quiz', manifest.quiz ?? []],
  ] as const;
  const ids = new Set(sections.flatMap(([, questions]) => questions.map((q) => q.id)));
  manifest.mistakes.forEach((mistake, i) => {
    if (mistake.question !== undefined && !ids.has(mistake.question)) {
      const known = [...ids].join(', ') || 'none';
      const message = `no question "${mistake.question}" in this pack (questions: ${known})`;
      problems.push(locate(text, file, `/mistakes/${i}/question`, message));
    }
    if (mistake.step !== undefined && mistake.step > steps)
      problems.push(locate(text, file, `/mistakes/${i}/step`, `there are only ${steps} read-order steps`));
  });
  for (const [section, questions] of sections) {
    questions.forEach((question, i) => {
      if (question.step !== undefined && question.step > steps)
        problems.push(locate(text, file, `/${section}/${i}/step`, `there are only ${steps} read-order steps`));
      for (const message of questionProblems(question, { sha256: input.sha256, ...(model ? { model } : {}) })) {
        if (input.allowMissingAnswers && message === MISSING_ANSWER_HASHES) continue;
        problems.push(locate(text, file, `/${section}/${i}`, `question "${question.id}": ${message}`));
      }
    });
  }
  return problems;
}

/** Each starter's folder, main file and driver must be in the pack. */
function starterProblems(
  snapshot: PackSnapshot,
  manifest: LessonManifest,
  text: string,
  file: string,
): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  for (const [language, starter] of Object.entries(manifest.starters)) {
    const main = joinPosix(starter.dir, starter.main);
    for (const [key, relative] of [
      ['dir', starter.dir],
      ['main', main],
      ['driver', starter.driver],
    ] as const) {
      if (relative === undefined) continue;
      const found = lookUp(snapshot, relative);
      const pointer = `/starters/${language}/${key}`;
      if (!found.inside) problems.push(locate(text, file, pointer, `"${relative}" points outside the pack folder`));
      else if (!found.entry || found.entry.kind === 'skipped')
        problems.push(locate(text, file, pointer, `"${relative}" does not exist in the pack`));
    }
  }
  return problems;
}
