/**
 * A lesson pack's folder as it was read, in one pass, by src/node/packs/packFiles.ts: every file's bytes
 * (up to a bound), every folder, and the links it holds (which make it no pack). Core understands a pack
 * from this alone (packRules.ts): the paths a manifest names are looked up here, never on the disk, so
 * nothing a pack says can reach outside the folder that was read.
 */

/** Packs are small text; a bigger file is a mistake or an attack, and is not read. */
export const PACK_FILE_MAX_BYTES = 2 * 1024 * 1024;
/** A pack is a few dozen files; a folder of more is not one, and is read no further. */
export const PACK_MAX_ENTRIES = 5000;
/** All the pack's files read together; past it, no more are read. */
export const PACK_MAX_TOTAL_BYTES = 32 * 1024 * 1024;

export type PackEntry =
  | {
      readonly kind: 'file';
      /** The file's path, as messages name it. */
      readonly file: string;
      readonly size: number;
      /** Undefined when the file was too big to read (larger than PACK_FILE_MAX_BYTES, or past the total). */
      readonly bytes: Uint8Array | undefined;
    }
  | { readonly kind: 'folder'; readonly file: string }
  /** node_modules and .git are not read: a pack's files are never in them. */
  | { readonly kind: 'skipped'; readonly file: string };

export interface PackSnapshot {
  /** The pack's folder, as messages name it, and the separator of this system's paths. */
  readonly dir: string;
  readonly sep: '/' | '\\';
  /** By path relative to the folder, with "/" between names; the folder itself is "". */
  readonly entries: ReadonlyMap<string, PackEntry>;
  /** Symbolic links found, relative to the folder, sorted. */
  readonly links: readonly string[];
  /** True when the folder held more than PACK_MAX_ENTRIES entries, so not all was read. */
  readonly truncated: boolean;
}

export type PackLookup =
  | { readonly inside: false }
  | { readonly inside: true; readonly relative: string; readonly entry: PackEntry | undefined };

/**
 * What `relative` (a path a manifest names) is in the pack: outside it (absolute, or with a `..` step), or
 * the entry it names (undefined when there is none). The lexical test is all there is to it: the snapshot
 * holds no links, so no name inside it leads out.
 */
export function lookUp(snapshot: PackSnapshot, relative: string): PackLookup {
  const names = relative.split(/[\\/]/);
  if (/^([\\/]|[A-Za-z]:)/.test(relative) || names.includes('..')) return { inside: false };
  const parts = names.filter((name) => name !== '' && name !== '.');
  const normal = parts.join('/');
  for (let i = 1; i < parts.length; i++) {
    const above = snapshot.entries.get(parts.slice(0, i).join('/'));
    if (above?.kind === 'skipped') return { inside: true, relative: normal, entry: above };
  }
  return { inside: true, relative: normal, entry: snapshot.entries.get(normal) };
}

/** The path messages give for `relative` (as path.join(dir, relative) would). */
export function pathOf(snapshot: PackSnapshot, relative: string): string {
  const names = relative.split(/[\\/]/).filter((name) => name !== '' && name !== '.');
  return [snapshot.dir, ...names].join(snapshot.sep);
}

/** `dir` and `name` joined as path.posix.join does (a starter's main file in its folder). */
export function joinPosix(dir: string, name: string): string {
  const out: string[] = [];
  for (const part of `${dir}/${name}`.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(part);
  }
  return (dir.startsWith('/') ? '/' : '') + (out.join('/') || '.');
}

export type PackText = { readonly text: string } | { readonly reason: string; readonly line: number };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A file's bytes as text, or why they are not: text that is not UTF-8 is refused with its line (read leniently,
 * each bad byte would become U+FFFD, and a transcript would expect what no program prints).
 */
export function decodeText(bytes: Uint8Array): PackText {
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    // A line feed is never part of a longer UTF-8 sequence, so the text splits into lines before decoding.
    let start = 0;
    for (let line = 1; ; line++) {
      const end = bytes.indexOf(0x0a, start);
      const stop = end < 0 ? bytes.length : end;
      try {
        utf8.decode(bytes.subarray(start, stop));
      } catch {
        return { reason: 'is not UTF-8 text here: save the file as UTF-8', line };
      }
      if (end < 0) return { reason: 'is not UTF-8 text: save the file as UTF-8', line };
      start = end + 1;
    }
  }
}

/** Files a check, an interpreter or the model loader reads as text: a pack's sources. */
const SOURCE_FILE = /\.(?:[cm]?[jt]s|py|json|txt)$/;

/** Every source file of the pack that is not UTF-8, with its line: none may be. */
export function undecodableSources(snapshot: PackSnapshot): { relative: string; file: string; line: number }[] {
  const found: { relative: string; file: string; line: number }[] = [];
  for (const [relative, entry] of snapshot.entries) {
    if (entry.kind !== 'file' || !entry.bytes || !SOURCE_FILE.test(relative)) continue;
    const decoded = decodeText(entry.bytes);
    if ('reason' in decoded) found.push({ relative, file: entry.file, line: decoded.line });
  }
  return found.sort((a, b) => (a.relative < b.relative ? -1 : 1));
}
