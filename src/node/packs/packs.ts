/**
 * Loads lesson packs from folders. Every path a pack names is resolved inside the pack folder and
 * checked again after following links, so nothing a pack says can reach outside it.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { locate, type ManifestProblem } from '../../core/pack/manifest';
import { parseLessonJson } from '../../worlds/templates/lessonJson';
import type { ReferenceModel } from '../../core/model/model';
import { MISSING_ANSWER_HASHES, questionProblems } from '../../core/quiz/quiz';
import type { LessonManifest } from '../../core/pack/schema';
import { parseTranscripts, TranscriptSyntaxError, type Transcript } from '../../core/model/transcript';
import { loadModel, ModelLoadError } from '../engine/modelLoader';
import { sha256Hex } from '../cache/hash';
import { cachedPack, keepPack, manifestStamp, packStamps } from './packCache';

export const MANIFEST_FILE = 'lesson.json';
/** Packs are small text; a bigger file is a mistake or an attack. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Every check sends every hidden transcript; a long stress transcript is about 1 MB. */
const MAX_TRANSCRIPT_CHARS = 8 * 1024 * 1024;

export type { LoadedPack } from './loadedPack';
import type { LoadedPack } from './loadedPack';

export class PackError extends Error {
  constructor(
    readonly dir: string,
    readonly problems: readonly ManifestProblem[],
  ) {
    // The first reason on the first line: a caller that shows one line (an unexpected error) still says why.
    const first = problems[0]
      ? ` ${problems[0].message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`
      : '';
    super(
      `${dir}: the lesson pack is not valid:${first}\n${problems.map((p) => `  ${p.file}:${p.line}:${p.column} ${p.message}`).join('\n')}`,
    );
    this.name = 'PackError';
  }
}

/** A pack's folder is walked this far for links; a pack is a few dozen files. */
const MAX_WALKED_ENTRIES = 5000;

/**
 * Symbolic links in the pack, as paths relative to it. A link could show the model or a transcript any file
 * of this computer (Node's permission model follows links), so a pack that holds one is not loaded.
 */
export async function linksIn(dir: string): Promise<string[]> {
  const links: string[] = [];
  let walked = 0;
  const walk = async (relative: string): Promise<void> => {
    const entries = await fs.readdir(path.join(dir, relative), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (++walked > MAX_WALKED_ENTRIES) return;
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink()) links.push(rel);
      else if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== '.git') await walk(rel);
    }
  };
  await walk('');
  return links.sort();
}

/** Resolves `relative` inside `root`, following links, or returns undefined if it would leave it. */
export async function resolveInside(root: string, relative: string): Promise<string | undefined> {
  if (path.isAbsolute(relative) || relative.split(/[\\/]/).includes('..')) return undefined;
  const realRoot = await fs.realpath(root);
  const candidate = path.resolve(realRoot, relative);
  let real: string;
  try {
    real = await fs.realpath(candidate);
  } catch {
    real = candidate; // Missing files are reported by the caller; the lexical check above still holds.
  }
  const inside = real === realRoot || real.startsWith(realRoot + path.sep);
  return inside ? real : undefined;
}

export async function readPackFile(root: string, relative: string): Promise<string> {
  const resolved = await resolveInside(root, relative);
  if (!resolved) throw new Error(`"${relative}" points outside the pack folder`);
  const stat = await fs.stat(resolved);
  if (!stat.isFile()) throw new Error(`"${relative}" is not a file`);
  if (stat.size > MAX_FILE_BYTES) throw new Error(`"${relative}" is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`);
  return fs.readFile(resolved, 'utf8');
}

export interface LoadOptions {
  /** Load and check the reference model too (runs pack code). */
  readonly model?: boolean;
  /** Analyse read-order patterns (validate, install): listing a pack does not need to. */
  readonly checkPatterns?: boolean;
  /** The model's files already transpiled (real path → code), by the engine's host. */
  readonly transpiled?: Readonly<Record<string, string>>;
  /** Load questions that have no answer hashes yet (validate reports them as one warning and checks the rest). */
  readonly allowMissingAnswers?: boolean;
}

export async function loadPack(
  dir: string,
  origin: LoadedPack['origin'] = 'folder',
  options: LoadOptions = {},
): Promise<LoadedPack> {
  // A plain load (listing, choosing the lesson of a file) may be the last one's, if no file changed since.
  const keep = !options.model && !options.checkPatterns && !options.transpiled && !options.allowMissingAnswers;
  if (keep) {
    const cached = cachedPack(dir, origin);
    if (cached) return cached;
  }
  const manifestBefore = keep ? manifestStamp(dir, MANIFEST_FILE) : undefined;
  const manifestPath = path.join(dir, MANIFEST_FILE);
  const links = await linksIn(dir);
  if (links.length > 0) {
    const message = (link: string): string =>
      `${link} is a symbolic link, which could point anywhere on this computer: a lesson pack holds no links (replace it with a copy of the file)`;
    throw new PackError(
      dir,
      links
        .slice(0, 10)
        .map((link) => ({ file: path.join(dir, link), line: 1, column: 1, path: '', message: message(link) })),
    );
  }
  let text: string;
  try {
    text = await readPackFile(dir, MANIFEST_FILE);
  } catch (error) {
    throw new PackError(dir, [
      {
        file: manifestPath,
        line: 1,
        column: 1,
        path: '',
        message: `cannot read ${MANIFEST_FILE}: ${(error as Error).message}`,
      },
    ]);
  }
  const parsed = parseLessonJson(text, manifestPath, {
    checkPatterns: options.checkPatterns ?? options.model ?? false,
  });
  if (!parsed.ok) throw new PackError(dir, parsed.problems);
  const manifest = parsed.manifest;
  const stampsBefore = manifestBefore ? packStamps(dir, manifest, manifestBefore) : undefined;
  const problems: ManifestProblem[] = [];
  let model: ReferenceModel | undefined;
  const modelPath = await resolveInside(dir, manifest.model);
  if (!modelPath)
    problems.push(locate(text, manifestPath, '/model', `"${manifest.model}" points outside the pack folder`));
  else if (!options.model) {
    if (
      !(await fs.stat(modelPath).then(
        (st) => st.isFile(),
        () => false,
      ))
    )
      problems.push(locate(text, manifestPath, '/model', `the model file ${manifest.model} does not exist`));
  } else {
    try {
      model = loadModel(dir, modelPath, options.transpiled);
    } catch (error) {
      if (!(error instanceof ModelLoadError)) throw error;
      problems.push({ file: error.file, line: error.line ?? 1, column: 1, path: '/model', message: error.message });
    }
  }
  const transcripts: Transcript[] = [];
  let transcriptChars = 0;
  const sources = await Promise.all(
    manifest.transcripts.map((file) =>
      readPackFile(dir, file).then(
        (text) => ({ text }),
        (error: unknown) => ({ error }),
      ),
    ),
  );
  for (const [index, file] of manifest.transcripts.entries()) {
    try {
      const read = sources[index]!;
      if ('error' in read) throw read.error;
      const source = read.text;
      transcriptChars += source.length;
      if (transcriptChars > MAX_TRANSCRIPT_CHARS)
        throw new Error(
          `the transcript files add up to more than ${MAX_TRANSCRIPT_CHARS / 1024 / 1024} MiB, more than any check can send`,
        );
      transcripts.push(...parseTranscripts(source, file));
    } catch (error) {
      if (error instanceof TranscriptSyntaxError) {
        problems.push({
          file: path.join(dir, error.file),
          line: error.line,
          column: 1,
          path: `/transcripts/${index}`,
          message: error.reason,
        });
      } else {
        problems.push(locate(text, manifestPath, `/transcripts/${index}`, (error as Error).message));
      }
    }
  }
  const names = new Set<string>();
  for (const t of transcripts) {
    if (names.has(t.name))
      problems.push({
        file: path.join(dir, t.file),
        line: t.line,
        column: 1,
        path: '',
        message: `transcript "${t.name}" is defined in more than one file`,
      });
    names.add(t.name);
  }
  const mutationIds = new Set(model?.mutations.map((m) => m.id) ?? []);
  manifest.mistakes.forEach((mistake, i) => {
    mistake.mutants.forEach((mutant, k) => {
      if (model && !mutationIds.has(mutant)) {
        problems.push(
          locate(
            text,
            manifestPath,
            `/mistakes/${i}/mutants/${k}`,
            `model "${model.id}" has no mutation "${mutant}" (it has ${[...mutationIds].join(', ')})`,
          ),
        );
      }
    });
  });
  problems.push(...questionLinkProblems(manifest, model, text, manifestPath, options.allowMissingAnswers ?? false));
  for (const [language, starter] of Object.entries(manifest.starters)) {
    for (const [key, rel] of [
      ['dir', starter.dir],
      ['main', path.posix.join(starter.dir, starter.main)],
      ['driver', starter.driver],
    ] as const) {
      if (rel === undefined) continue;
      const resolved = await resolveInside(dir, rel);
      const exists = resolved
        ? await fs.stat(resolved).then(
            () => true,
            () => false,
          )
        : false;
      if (!resolved)
        problems.push(
          locate(text, manifestPath, `/starters/${language}/${key}`, `"${rel}" points outside the pack folder`),
        );
      else if (!exists)
        problems.push(
          locate(text, manifestPath, `/starters/${language}/${key}`, `"${rel}" does not exist in the pack`),
        );
    }
  }
  if (problems.length > 0 || (options.model && !model)) throw new PackError(dir, problems);
  const pack: LoadedPack = { dir, manifest, ...(model ? { model } : {}), transcripts, origin };
  if (stampsBefore) keepPack(pack, stampsBefore);
  return pack;
}

/**
 * The links that make diagnosis lead to a question: a mistake's `question` must name a question of this
 * pack, every `step` must be a read-order step, and each question must be answerable as authored.
 */
function questionLinkProblems(
  manifest: LessonManifest,
  model: ReferenceModel | undefined,
  text: string,
  file: string,
  allowMissingAnswers: boolean,
): ManifestProblem[] {
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
      problems.push(
        locate(
          text,
          file,
          `/mistakes/${i}/question`,
          `no question "${mistake.question}" in this pack (questions: ${known})`,
        ),
      );
    }
    if (mistake.step !== undefined && mistake.step > steps)
      problems.push(locate(text, file, `/mistakes/${i}/step`, `there are only ${steps} read-order steps`));
  });
  for (const [section, questions] of sections) {
    questions.forEach((question, i) => {
      if (question.step !== undefined && question.step > steps)
        problems.push(locate(text, file, `/${section}/${i}/step`, `there are only ${steps} read-order steps`));
      for (const message of questionProblems(question, { sha256: sha256Hex, ...(model ? { model } : {}) })) {
        if (allowMissingAnswers && message === MISSING_ANSWER_HASHES) continue;
        problems.push(locate(text, file, `/${section}/${i}`, `question "${question.id}": ${message}`));
      }
    });
  }
  return problems;
}

export interface PackListing {
  readonly packs: LoadedPack[];
  /** Folders that look like packs but did not load, with why. */
  readonly broken: { dir: string; error: string }[];
}

/** Every pack directly inside each root; a later root's pack replaces an earlier one with the same id. */
export async function discoverPacks(
  roots: readonly { dir: string; origin: LoadedPack['origin'] }[],
): Promise<PackListing> {
  const byId = new Map<string, LoadedPack>();
  const broken: PackListing['broken'] = [];
  for (const root of roots) {
    let entries: string[];
    try {
      entries = (await fs.readdir(root.dir, { withFileTypes: true }))
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort();
    } catch {
      continue;
    }
    // Side by side: loading is mostly waiting for the file system. Results keep the folders' order.
    const loaded = await Promise.all(
      entries.map(async (name) => {
        const dir = path.join(root.dir, name);
        if (
          !(await fs.stat(path.join(dir, MANIFEST_FILE)).then(
            () => true,
            () => false,
          ))
        )
          return undefined;
        return loadPack(dir, root.origin).then(
          (pack) => ({ dir, pack }),
          (error: unknown) => ({ dir, error: (error as Error).message }),
        );
      }),
    );
    for (const result of loaded) {
      if (!result) continue;
      if ('pack' in result) byId.set(result.pack.manifest.id, result.pack);
      else broken.push(result);
    }
  }
  // Ids are lower-case ASCII (the schema's pattern), so code-unit order is their order; localeCompare would
  // start ICU's collator, which costs more than the rest of listing the packs.
  return {
    packs: [...byId.values()].sort((a, b) =>
      a.manifest.id < b.manifest.id ? -1 : a.manifest.id > b.manifest.id ? 1 : 0,
    ),
    broken,
  };
}
