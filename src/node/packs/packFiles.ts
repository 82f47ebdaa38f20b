/**
 * A pack's folder read into memory in one pass (core/pack/packSnapshot.ts says what the snapshot holds):
 * every folder walked once, links noted and never followed, every file up to a bound read once. With each
 * entry, its stamp as it was before it was read (packCache.ts keeps a pack while the stamps still hold).
 */
import * as fs from 'node:fs';
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

const stampOf = (relative: string, real: string, stat: fs.Stats): FileStamp => [
  relative,
  real,
  stat.size,
  stat.mtimeMs,
  stat.ctimeMs,
  stat.ino,
];

/** What reading a pack's folder asks of the file system: each answer now (synchronous) or later (a promise). */
interface FolderReads {
  realpath(file: string): string | Promise<string>;
  stat(file: string): fs.Stats | Promise<fs.Stats>;
  readdir(dir: string): string[] | Promise<string[]>;
  lstat(file: string): fs.Stats | undefined | Promise<fs.Stats | undefined>;
  /** The file's bytes, opened with O_NOFOLLOW (a file swapped for a link after the walk saw it is not followed). */
  readFile(file: string): Uint8Array | undefined | Promise<Uint8Array | undefined>;
}

const NO_FOLLOW = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0);

/** Through libuv's threadpool: the event loop goes on meanwhile (the extension host, the check service). */
const asyncReads: FolderReads = {
  realpath: (file) => fs.promises.realpath(file),
  stat: (file) => fs.promises.stat(file),
  readdir: (dir) => fs.promises.readdir(dir).catch(() => []),
  lstat: (file) => fs.promises.lstat(file).catch(() => undefined),
  readFile: async (file) => {
    const handle = await fs.promises.open(file, NO_FOLLOW).catch(() => undefined);
    if (!handle) return undefined;
    try {
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  },
};

/**
 * Each answer at once: for the command line, which has nothing else to do meanwhile. A pack's forty files
 * read through the threadpool (lstat, open, stat, read, close, each a trip there and back) were about 4 ms of a
 * `lessons` whose own work is 35.
 */
const syncReads: FolderReads = {
  realpath: (file) => fs.realpathSync(file),
  stat: (file) => fs.statSync(file),
  readdir: (dir) => {
    try {
      return fs.readdirSync(dir);
    } catch {
      return [];
    }
  },
  lstat: (file) => {
    try {
      return fs.lstatSync(file);
    } catch {
      return undefined;
    }
  },
  readFile: (file) => {
    let fd: number;
    try {
      fd = fs.openSync(file, NO_FOLLOW);
    } catch {
      return undefined;
    }
    try {
      return fs.readFileSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  },
};

let reads: FolderReads = asyncReads;

/** From now on, this process reads pack folders synchronously (the command line's choice, at its start). */
export function readPackFoldersSynchronously(): void {
  reads = syncReads;
}

/** Reads the pack in `dir`. Throws only if the folder itself cannot be read. */
export async function readPackFolder(dir: string): Promise<ReadPack> {
  const io = reads;
  const root = path.normalize(dir).replace(/(.)[\\/]+$/, '$1');
  const realRoot = await io.realpath(root);
  const entries = new Map<string, PackEntry>();
  const stamps = new Map<string, FileStamp>();
  const links: string[] = [];
  stamps.set('', stampOf('.', realRoot, await io.stat(realRoot)));
  entries.set('', { kind: 'folder', file: root });
  let count = 0;
  let total = 0;
  let truncated = false;
  const readFile = async (real: string, size: number): Promise<Uint8Array | undefined> => {
    if (size > PACK_FILE_MAX_BYTES || total + size > PACK_MAX_TOTAL_BYTES) return undefined;
    total += size;
    const bytes = await io.readFile(real);
    return bytes && bytes.length <= PACK_FILE_MAX_BYTES ? bytes : undefined;
  };
  const walk = async (relative: string): Promise<void> => {
    const names = await io.readdir(path.join(realRoot, relative));
    names.sort();
    const folders: string[] = [];
    await Promise.all(
      names.map(async (name) => {
        if (++count > PACK_MAX_ENTRIES) return void (truncated = true);
        const rel = relative ? `${relative}/${name}` : name;
        const real = path.join(realRoot, rel);
        const file = path.join(root, rel);
        const stat = await io.lstat(real);
        if (!stat) return;
        if (stat.isSymbolicLink()) return void links.push(rel);
        stamps.set(rel, stampOf(rel, real, stat));
        if (stat.isDirectory()) {
          entries.set(rel, SKIPPED.has(name) ? { kind: 'skipped', file } : { kind: 'folder', file });
          if (!SKIPPED.has(name)) folders.push(rel);
        } else if (stat.isFile())
          entries.set(rel, { kind: 'file', file, size: stat.size, bytes: await readFile(real, stat.size) });
      }),
    );
    for (const folder of folders.sort()) await walk(folder);
  };
  await walk('');
  const snapshot: PackSnapshot = { dir: root, sep: path.sep as '/' | '\\', entries, links: links.sort(), truncated };
  return { snapshot, stamps };
}
