/**
 * A pack's folder read into memory in one pass (core/pack/packSnapshot.ts says what the snapshot holds):
 * every folder walked once, links noted and never followed, every file up to a bound read once. With each
 * entry, its stamp as it was before it was read (packCache.ts keeps a pack while the stamps still hold).
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import {
  PACK_FILE_MAX_BYTES,
  PACK_MAX_ENTRIES,
  PACK_MAX_TOTAL_BYTES,
  type PackEntry,
  type PackSnapshot,
} from '../../core/pack/packSnapshot';

/** One file as it was: its path in the pack, where it really is (null when missing), and its identity. */
export type FileStamp = readonly [
  relative: string,
  real: string | null,
  size: number,
  mtimeMs: number,
  ctimeMs: number,
  ino: number,
];

export interface ReadPack {
  readonly snapshot: PackSnapshot;
  /** Each entry's stamp (the folder's own is ""), taken before the entry was read. */
  readonly stamps: ReadonlyMap<string, FileStamp>;
}

/** Folders a pack's files are never in; not read (a model's editor setup may put thousands of files there). */
const SKIPPED = new Set(['node_modules', '.git']);

const stampOf = (relative: string, real: string, stat: import('node:fs').Stats): FileStamp => [
  relative,
  real,
  stat.size,
  stat.mtimeMs,
  stat.ctimeMs,
  stat.ino,
];

/** Reads the pack in `dir`. Throws only if the folder itself cannot be read. */
export async function readPackFolder(dir: string): Promise<ReadPack> {
  const root = path.normalize(dir).replace(/(.)[\\/]+$/, '$1');
  const realRoot = await fs.realpath(root);
  const entries = new Map<string, PackEntry>();
  const stamps = new Map<string, FileStamp>();
  const links: string[] = [];
  stamps.set('', stampOf('.', realRoot, await fs.stat(realRoot)));
  entries.set('', { kind: 'folder', file: root });
  let count = 0;
  let total = 0;
  let truncated = false;
  const readFile = async (relative: string, real: string, size: number): Promise<Uint8Array | undefined> => {
    if (size > PACK_FILE_MAX_BYTES || total + size > PACK_MAX_TOTAL_BYTES) return undefined;
    total += size;
    // Read with O_NOFOLLOW: a file swapped for a link after the walk saw it is not followed.
    const handle = await fs.open(real, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0)).catch(() => undefined);
    if (!handle) return undefined;
    try {
      const bytes = await handle.readFile();
      return bytes.length <= PACK_FILE_MAX_BYTES ? bytes : undefined;
    } finally {
      await handle.close();
    }
  };
  const walk = async (relative: string): Promise<void> => {
    const names = await fs.readdir(path.join(realRoot, relative)).catch(() => [] as string[]);
    names.sort();
    const folders: string[] = [];
    await Promise.all(
      names.map(async (name) => {
        if (++count > PACK_MAX_ENTRIES) return void (truncated = true);
        const rel = relative ? `${relative}/${name}` : name;
        const real = path.join(realRoot, rel);
        const file = path.join(root, rel);
        const stat = await fs.lstat(real).catch(() => undefined);
        if (!stat) return;
        if (stat.isSymbolicLink()) return void links.push(rel);
        stamps.set(rel, stampOf(rel, real, stat));
        if (stat.isDirectory()) {
          entries.set(rel, SKIPPED.has(name) ? { kind: 'skipped', file } : { kind: 'folder', file });
          if (!SKIPPED.has(name)) folders.push(rel);
        } else if (stat.isFile())
          entries.set(rel, { kind: 'file', file, size: stat.size, bytes: await readFile(rel, real, stat.size) });
      }),
    );
    for (const folder of folders.sort()) await walk(folder);
  };
  await walk('');
  const snapshot: PackSnapshot = { dir: root, sep: path.sep as '/' | '\\', entries, links: links.sort(), truncated };
  return { snapshot, stamps };
}
