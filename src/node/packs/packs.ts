/**
 * Loads lesson packs from folders: each read once (packFiles.ts), then understood from what was read, so
 * nothing a pack says can reach outside the folder. resolveInside and readPackFile serve the code that runs
 * a pack's starters and drivers later: a path is resolved inside the folder and checked again after links.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { ManifestProblem } from '../../core/pack/manifest';
import { friendlyManifestMessage } from '../../core/pack/manifestMessages';
import { safeText } from '../../core/text/text';
import { folderProblems, MANIFEST_FILE, manifestText, modelPlace, packProblems } from '../../core/pack/packRules';
import { PACK_FILE_MAX_BYTES } from '../../core/pack/packSnapshot';
import { parseLessonJson } from '../../worlds/templates/lessonJson';
import type { ReferenceModel } from '../../core/model/model';
import type { LessonManifest } from '../../core/pack/schema';
import { loadModel, ModelLoadError } from '../engine/modelLoader';
import { sha256Hex } from '../cache/hash';
import { fsReason } from '../errors/errors';
import { cachedPack, keepPack, packStamps } from './packCache';
import { readPackFolder, type ReadPack } from './packFiles';

export { MANIFEST_FILE };

export type { LoadedPack } from './loadedPack';
import type { LoadedPack } from './loadedPack';

export class PackError extends Error {
  readonly problems: readonly ManifestProblem[];

  constructor(
    readonly dir: string,
    problems: readonly ManifestProblem[],
  ) {
    // Pack text (a path, a model's error) may hold a line break or a control character: written out, so that
    // it never starts a line of its own in what a command prints ("FAKE: ✓ All hidden transcripts pass.").
    const shown = problems.map((p) => ({ ...p, file: safeText(p.file), message: safeText(p.message) }));
    // The first reason on the first line: a caller that shows one line (an unexpected error) still says why.
    const first = shown[0] ? ` ${shown[0].message}${shown.length > 1 ? ` (and ${shown.length - 1} more)` : ''}` : '';
    const lines = shown.map((p) => `  ${p.file}:${p.line}:${p.column} ${p.message}`);
    super(`${safeText(dir)}: the lesson pack is not valid:${first}\n${lines.join('\n')}`);
    this.problems = shown;
    this.name = 'PackError';
  }
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
  if (stat.size > PACK_FILE_MAX_BYTES)
    throw new Error(`"${relative}" is larger than ${PACK_FILE_MAX_BYTES / 1024 / 1024} MiB`);
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

/**
 * The pack in `dir`: read in one pass (packFiles.ts), then understood without touching the disk again
 * (lesson.json parsed by parseLessonJson, the rest by core/pack/packRules.ts). Only a model load goes back to
 * the folder, through the model loader, which runs the model's code where pack code may run.
 */
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
  const read = await readPack(dir);
  const folder = folderProblems(read.snapshot);
  if (folder.length > 0) throw new PackError(dir, folder);
  const manifestRead = manifestText(read.snapshot);
  if ('problem' in manifestRead) throw new PackError(dir, [manifestRead.problem]);
  const { text, file } = manifestRead;
  const parsed = parseLessonJson(text, file, { checkPatterns: options.checkPatterns ?? options.model ?? false });
  if (!parsed.ok) {
    const worded = parsed.problems.map((p) => ({ ...p, message: friendlyManifestMessage(p.message, p.path, text) }));
    throw new PackError(dir, worded);
  }
  const manifest = parsed.manifest;
  const model = options.model ? modelOf(read, manifest, options.transpiled) : undefined;
  const { problems, transcripts } = packProblems({
    snapshot: read.snapshot,
    manifest,
    text,
    file,
    ...(model ? { model } : {}),
    sha256: sha256Hex,
    ...(options.allowMissingAnswers ? { allowMissingAnswers: true } : {}),
  });
  const loaded = model && 'model' in model ? model.model : undefined;
  if (problems.length > 0 || (options.model && !loaded)) throw new PackError(dir, problems);
  const pack: LoadedPack = { dir, manifest, ...(loaded ? { model: loaded } : {}), transcripts, origin };
  if (keep) keepPack(pack, packStamps(read, manifest));
  return pack;
}

/** The folder read, or a PackError that says why it could not be. */
async function readPack(dir: string): Promise<ReadPack> {
  try {
    return await readPackFolder(dir);
  } catch (error) {
    const why = fsReason(error) ?? (error as Error).message;
    const file = path.join(dir, MANIFEST_FILE);
    throw new PackError(dir, [{ file, line: 1, column: 1, path: '', message: `cannot read ${MANIFEST_FILE}: ${why}` }]);
  }
}

/** The pack's model (pack code, run by the model loader), or the problem that stopped it loading. */
function modelOf(
  read: ReadPack,
  manifest: LessonManifest,
  transpiled: LoadOptions['transpiled'],
): { model: ReferenceModel } | { problem: ManifestProblem } | undefined {
  const place = modelPlace(read.snapshot, manifest);
  if (place === undefined) return undefined; // outside the pack: packProblems says so
  const dir = read.snapshot.dir;
  try {
    return { model: loadModel(dir, path.join(read.stamps.get('')![1]!, place), transpiled) };
  } catch (error) {
    if (!(error instanceof ModelLoadError)) throw error;
    return { problem: { file: error.file, line: error.line ?? 1, column: 1, path: '/model', message: error.message } };
  }
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
