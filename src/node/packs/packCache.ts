/**
 * Packs as they were last loaded, kept in this process's memory, so that the check service (which lives as
 * long as the editor window) does not validate a pack again at every check, and sees at once when an author
 * changed it. Never on disk: a kept pack holds the hidden transcripts, and a file in the cache folder is the
 * user's to write (a program checked without the sandbox runs as that user). An entry is used only if every file the load read or looked for is the very file it was then (its real
 * path, size, times and inode; a changed or removed file changes them) and the code that validated it is the
 * same build. A pack that did not load is never kept: its problems are found and said again each time.
 * Only plain loads are kept: the model, and validation's pattern analysis, are always done afresh.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LessonManifest } from '../../core/pack/schema';
import type { Transcript } from '../../core/model/transcript';
import type { LoadedPack } from './loadedPack';
import type { FileStamp, ReadPack } from './packFiles';
import { lookUp } from '../../core/pack/packSnapshot';

interface Entry {
  readonly origin: LoadedPack['origin'];
  readonly stamps: readonly FileStamp[];
  readonly manifest: LessonManifest;
  readonly transcripts: readonly Transcript[];
}

/** Every path whose content or existence decides what loading the pack gives. */
function filesOf(manifest: LessonManifest): string[] {
  const starters = Object.values(manifest.starters).flatMap((s) => [
    s.dir,
    path.posix.join(s.dir, s.main),
    ...(s.driver ? [s.driver] : []),
  ]);
  return ['.', 'lesson.json', manifest.model, ...manifest.transcripts, ...starters];
}

function stampOf(dir: string, relative: string): FileStamp {
  try {
    const real = fs.realpathSync.native(path.resolve(dir, relative));
    const stat = fs.statSync(real);
    return [relative, real, stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino];
  } catch {
    return [relative, null, 0, 0, 0, 0];
  }
}

/** Packs kept at most: built-in and installed ones are a handful; the rest are authors' and tests' folders. */
const MAX_ENTRIES = 100;

/** By the pack's folder. */
const entries = new Map<string, Entry>();

const sameStamp = (a: FileStamp, b: FileStamp): boolean => a.length === b.length && a.every((v, i) => v === b[i]);

/** The pack in `dir` as last loaded, if nothing it was loaded from has changed since. */
export function cachedPack(dir: string, origin: LoadedPack['origin']): LoadedPack | undefined {
  const entry = entries.get(path.resolve(dir));
  if (!entry || entry.origin !== origin) return undefined;
  const files = filesOf(entry.manifest);
  if (files.length !== entry.stamps.length) return undefined;
  for (const [i, relative] of files.entries())
    if (!sameStamp(stampOf(dir, relative), entry.stamps[i]!)) return undefined;
  return { dir, manifest: entry.manifest, transcripts: entry.transcripts, origin };
}

/**
 * The stamps of everything the manifest names, as the snapshot took them before reading each (a path the
 * snapshot has no entry for was missing). A file that changes while the pack loads makes the stamps after
 * disagree with these, and then nothing is kept: what was read may be the old file.
 */
export function packStamps(read: ReadPack, manifest: LessonManifest): FileStamp[] {
  return filesOf(manifest).map((relative) => {
    const found = lookUp(read.snapshot, relative);
    const stamp = found.inside ? read.stamps.get(found.relative) : undefined;
    return stamp ? ([relative, ...stamp.slice(1)] as unknown as FileStamp) : [relative, null, 0, 0, 0, 0];
  });
}

/** Keeps a pack that loaded, if no file it was loaded from changed while it loaded. */
export function keepPack(pack: LoadedPack, before: readonly FileStamp[]): void {
  const stamps = filesOf(pack.manifest).map((relative) => stampOf(pack.dir, relative));
  if (stamps.length !== before.length || stamps.some((s, i) => !sameStamp(s, before[i]!))) return;
  const key = path.resolve(pack.dir);
  entries.delete(key);
  entries.set(key, { origin: pack.origin, stamps, manifest: pack.manifest, transcripts: pack.transcripts });
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
}
