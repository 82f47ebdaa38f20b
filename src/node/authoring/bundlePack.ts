/**
 * `lesson-companion bundle`: one `.lessonpack` file (a zip) from a pack folder. It validates the pack
 * first, so an instructor cannot publish a pack that would fail learners, and it is deterministic (fixed
 * times and modes, sorted entries), so the same folder always gives the same bytes.
 */
import { createWriteStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { deflateRawSync } from 'node:zlib';
import { ZipFile } from 'yazl';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_LIMITS,
  ARCHIVE_MANIFEST,
  archivePathProblem,
  bombRatio,
  collisionKey,
  integrityInput,
  isBundledPath,
  pathClash,
  type ArchiveFile,
  type ArchiveManifest,
} from '../../core/pack/archive';
import { fsReason } from '../errors/errors';
import { sha256 } from '../cache/hash';
import { InstallError, readVerifiedArchive } from '../packs/installPack';
import { loadPack } from '../packs/packs';
import { folderLeftOutReason, leftOutReason } from '../../core/pack/bundleSelection';
import type { LessonManifest } from '../../core/pack/schema';
import { validatePack, type PackValidation, type ValidatePackOptions } from './validatePack';

/** DOS timestamps are local time: a Date built from local fields encodes the same in every time zone. */
const FIXED_MTIME = new Date(1980, 0, 1, 0, 0, 0);
const FILE_MODE = 0o100644;

export class BundleError extends Error {
  constructor(
    message: string,
    /** Set when the pack did not validate: the problems to show. */
    readonly validation?: PackValidation,
  ) {
    super(message);
    this.name = 'BundleError';
  }
}

export interface PackFile {
  /** Relative to the pack folder, with "/" separators. */
  readonly path: string;
  readonly absolute: string;
}

/** A file or folder (ending in "/") of the pack folder that the bundle leaves out, and why. */
export interface LeftOut {
  readonly path: string;
  readonly why: string;
}

/**
 * The files that go into a bundle, sorted; refuses symbolic links and anything install would refuse. With
 * `manifest`, only what it names (bundleSelection.ts); what else the folder holds is added to `leftOut`.
 */
export async function listPackFiles(
  dir: string,
  manifest?: Pick<LessonManifest, 'model' | 'transcripts' | 'starters'>,
  leftOut: LeftOut[] = [],
): Promise<PackFile[]> {
  const files: PackFile[] = [];
  const keys = new Set<string>();
  const walk = async (relative: string): Promise<void> => {
    const entries = await fs.readdir(path.join(dir, relative), { withFileTypes: true });
    for (const entry of entries) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (!isBundledPath(rel)) {
        if (entry.name === 'node_modules')
          leftOut.push({ path: `${rel}/`, why: 'installed packages are never bundled' });
        continue;
      }
      const why = !manifest
        ? undefined
        : entry.isDirectory()
          ? folderLeftOutReason(manifest, rel)
          : leftOutReason(manifest, rel);
      if (why) {
        leftOut.push({ path: entry.isDirectory() ? `${rel}/` : rel, why });
        continue;
      }
      if (entry.isSymbolicLink())
        throw new BundleError(
          `${rel} is a symbolic link; packs are installed without links, so replace it with a copy of the file`,
        );
      if (entry.isDirectory()) {
        await walk(rel);
        continue;
      }
      if (!entry.isFile()) throw new BundleError(`${rel} is not a regular file; remove it from the pack folder`);
      const problem = archivePathProblem(rel);
      if (problem) throw new BundleError(`cannot bundle ${rel}: ${problem}; rename it`);
      if (keys.has(collisionKey(rel)))
        throw new BundleError(
          `${rel} differs from another file only in upper/lower case, which Windows and macOS cannot tell apart; rename one`,
        );
      keys.add(collisionKey(rel));
      if (rel === ARCHIVE_MANIFEST)
        throw new BundleError(
          `the pack folder has a file named ${ARCHIVE_MANIFEST}; that name is reserved for the bundle's own manifest, so rename it`,
        );
      files.push({ path: rel, absolute: path.join(dir, relative, entry.name) });
      if (files.length >= ARCHIVE_LIMITS.entries)
        throw new BundleError(
          `the pack has more than ${ARCHIVE_LIMITS.entries} files; packs are installed only up to that many`,
        );
    }
  };
  await walk('');
  const clash = pathClash(files.map((f) => f.path));
  if (clash) throw new BundleError(`cannot bundle: ${clash}; rename one`);
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export interface BundleOptions {
  /** Options for the validation bundle runs first (interpreters for the starter runs). */
  readonly validation?: ValidatePackOptions;
}

export interface BundleResult {
  readonly file: string;
  readonly manifest: ArchiveManifest;
  readonly bytes: number;
  readonly validation: PackValidation;
  /** What the pack folder holds that lesson.json does not name: not in the bundle. */
  readonly leftOut: readonly LeftOut[];
}

export async function bundlePack(dir: string, outFile: string, options: BundleOptions = {}): Promise<BundleResult> {
  const validation = await validatePack(dir, options.validation);
  if (!validation.valid) throw new BundleError(`${dir} is not a valid lesson pack, so it was not bundled`, validation);
  const unhashed = validation.problems.find((p) => p.code === 'missing-answers');
  if (unhashed)
    throw new BundleError(
      `${dir} was not bundled: ${unhashed.message.replace(/, and bundle refuses.*$/, '')}. ${unhashed.advice ?? ''}`.trim(),
    );
  const pack = await loadPack(dir, 'folder', { checkPatterns: true });
  const leftOut: LeftOut[] = [];
  const listed = await listPackFiles(dir, pack.manifest, leftOut);
  const out = path.resolve(outFile);
  const contents = new Map<string, Buffer>();
  const files: ArchiveFile[] = [];
  let total = 0;
  for (const file of listed) {
    if (path.resolve(file.absolute) === out) continue;
    const data = await fs.readFile(file.absolute);
    if (data.length > ARCHIVE_LIMITS.entryBytes)
      throw new BundleError(
        `${file.path} is ${(data.length / 1024 / 1024).toFixed(1)} MiB; a pack file may be at most ${ARCHIVE_LIMITS.entryBytes / 1024 / 1024} MiB`,
      );
    total += data.length;
    if (total > ARCHIVE_LIMITS.totalBytes)
      throw new BundleError(
        `the pack's files add up to more than ${ARCHIVE_LIMITS.totalBytes / 1024 / 1024} MiB, the most a pack may hold`,
      );
    contents.set(file.path, data);
    files.push({ path: file.path, sha256: sha256(data), size: data.length });
  }
  const manifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    id: pack.manifest.id,
    version: pack.manifest.version,
    files,
    integrity: sha256(integrityInput(files)),
  };
  const zip = new ZipFile();
  const entry = { mtime: FIXED_MTIME, mode: FILE_MODE, compress: true, compressionLevel: 9, forceDosTimestamp: true };
  zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2) + '\n'), ARCHIVE_MANIFEST, entry);
  for (const file of files) {
    const data = contents.get(file.path)!;
    // Install takes a large entry compressed beyond its ratio for a zip bomb; a long, repetitive transcript
    // legitimately is one, so such a file is stored as it is (the pack's size limits still bound it).
    const storeAsIs = bombRatio(data.length, deflateRawSync(data, { level: 9 }).length) !== undefined;
    zip.addBuffer(
      data,
      file.path,
      storeAsIs ? { mtime: FIXED_MTIME, mode: FILE_MODE, compress: false, forceDosTimestamp: true } : entry,
    );
  }
  zip.end();
  // Written beside the target and renamed, so a failed bundle never leaves half a file under its name.
  const partial = `${out}.partial-${process.pid}`;
  try {
    await fs.mkdir(path.dirname(out), { recursive: true });
    await pipeline(zip.outputStream, createWriteStream(partial));
    // The same rules install applies, on the very bytes written: a bundle install would refuse is no bundle.
    await readVerifiedArchive(partial).catch((error: unknown) => {
      if (error instanceof InstallError)
        throw new BundleError(
          `the bundle was not written, because install would refuse it: ${error.message.replace(/^refused [^:]*: /, '')}`,
        );
      throw error;
    });
    await fs.rename(partial, out);
  } catch (error) {
    const why = fsReason(error);
    if (!why) throw error;
    throw new BundleError(`cannot write ${out}: ${why}. Choose another place with -o`);
  } finally {
    await fs.rm(partial, { force: true });
  }
  const { size } = await fs.stat(out);
  return { file: out, manifest, bytes: size, validation, leftOut: leftOut.sort((a, b) => (a.path < b.path ? -1 : 1)) };
}
