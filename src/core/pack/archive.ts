/**
 * The `.lessonpack` format: a zip of the pack's files plus `manifest.lessonpack.json`, which lists every
 * file with its SHA-256 and size. The rules that both `bundle` and `install` must agree on live here,
 * so that a bundle never produces something install would refuse. Pure: hashing comes in from Node.
 *
 * The integrity hash detects damaged or edited archives; it is not a signature, so it says nothing
 * about who made the pack.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export const ARCHIVE_FORMAT = 1;
export const ARCHIVE_MANIFEST = 'manifest.lessonpack.json';
export const ARCHIVE_EXTENSION = '.lessonpack';

const MiB = 1024 * 1024;
/** Lesson packs are small text. These bound what a hostile archive can make us read or write. */
export const ARCHIVE_LIMITS = {
  archiveBytes: 20 * MiB,
  totalBytes: 20 * MiB,
  entryBytes: 5 * MiB,
  entries: 2000,
  /** Text compresses about 3-10x; a much higher ratio on a large entry is a zip bomb. */
  compressionRatio: 100,
  ratioCheckedFromBytes: 1 * MiB,
} as const;

const ArchiveFileSchema = Type.Object(
  {
    path: Type.String({ minLength: 1, maxLength: 260 }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    size: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
const ArchiveManifestSchema = Type.Object(
  {
    format: Type.Integer({ minimum: 1 }),
    id: Type.String({ pattern: '^[a-z0-9][a-z0-9-]*$', maxLength: 64 }),
    version: Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+$' }),
    files: Type.Array(ArchiveFileSchema, { maxItems: ARCHIVE_LIMITS.entries }),
    integrity: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  },
  { additionalProperties: false },
);
export type ArchiveFile = Static<typeof ArchiveFileSchema>;
export type ArchiveManifest = Static<typeof ArchiveManifestSchema>;

/**
 * The text the integrity hash is taken over: one `sha256 size path` line per file, sorted by path in
 * code-point order, so the hash does not depend on JSON formatting or on the order entries were zipped.
 */
export function integrityInput(files: readonly ArchiveFile[]): string {
  return [...files]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((f) => `${f.sha256} ${f.size} ${f.path}\n`)
    .join('');
}

export function parseArchiveManifest(
  text: string,
): { ok: true; manifest: ArchiveManifest } | { ok: false; reason: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `${ARCHIVE_MANIFEST} is not JSON (${(error as Error).message})` };
  }
  if (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { format?: unknown }).format === 'number' &&
    (data as { format: number }).format > ARCHIVE_FORMAT
  ) {
    return {
      ok: false,
      reason: `this pack uses archive format ${(data as { format: number }).format}, made by a newer Lesson Companion; update the extension or CLI and try again`,
    };
  }
  if (!Value.Check(ArchiveManifestSchema, data)) {
    const first = [...Value.Errors(ArchiveManifestSchema, data)][0];
    return {
      ok: false,
      reason: `${ARCHIVE_MANIFEST} is malformed${first ? ` at ${first.path || '/'}: ${first.message}` : ''}`,
    };
  }
  return { ok: true, manifest: data };
}

/**
 * Why an archive entry name is unsafe to extract, or undefined when it is a plain relative path.
 * Stricter than the manifest's PackPath: extraction must be safe on Windows and macOS too.
 */
export function archivePathProblem(name: string): string | undefined {
  if (name.length === 0) return 'an entry has an empty name';
  if (name.length > 260) return `"${name.slice(0, 40)}…" is longer than 260 characters`;
  if (name.includes('\\')) return `"${name}" contains a backslash, which Windows would read as a folder separator`;
  if (name.startsWith('/')) return `"${name}" is an absolute path`;
  if (/^[A-Za-z]:/.test(name)) return `"${name}" starts with a drive letter`;
  if (/[\u0000-\u001f\u007f]/.test(name))
    return `"${name.replace(/[\u0000-\u001f\u007f]/g, '?')}" contains control characters`;
  if (name.includes(':')) return `"${name}" contains ":", which Windows reads as a drive or a hidden stream`;
  const segments = (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
  if (segments.some((s) => s === '..')) return `"${name}" climbs out of the pack folder with ".."`;
  if (segments.some((s) => s === '' || s === '.')) return `"${name}" has an empty or "." path segment`;
  return undefined;
}

/** Two names that would land on the same file on a case-insensitive disk (Windows, macOS). */
export function collisionKey(name: string): string {
  return name.normalize('NFC').toLowerCase().replace(/\/$/, '');
}

/**
 * Why these file paths cannot all be written into one folder, or undefined: the same path twice (also in
 * different upper/lower case, which Windows and macOS cannot tell apart), or a file whose name another
 * path needs as a folder (`data` and `data/x.txt`).
 */
export function pathClash(paths: readonly string[]): string | undefined {
  const files = new Map<string, string>();
  for (const p of paths) {
    const key = collisionKey(p);
    const other = files.get(key);
    if (other !== undefined)
      return other === p
        ? `"${p}" is listed twice`
        : `"${other}" and "${p}" differ only in upper/lower case, which Windows and macOS cannot tell apart`;
    files.set(key, p);
  }
  for (const p of paths) {
    const segments = p.split('/');
    for (let i = 1; i < segments.length; i++) {
      const file = files.get(collisionKey(segments.slice(0, i).join('/')));
      if (file !== undefined) return `"${file}" is a file, but "${p}" needs a folder of that name`;
    }
  }
  return undefined;
}

export type ArchiveLimits = { readonly [K in keyof typeof ARCHIVE_LIMITS]: number };

/**
 * The compression ratio of an entry when it is high enough that install refuses it as a zip bomb, else
 * undefined. Bundle asks the same question before it compresses a file, so that it never writes an
 * archive install would refuse (a long, repetitive transcript compresses that well legitimately).
 */
export function bombRatio(
  size: number,
  compressedSize: number,
  limits: ArchiveLimits = ARCHIVE_LIMITS,
): number | undefined {
  const ratio = size / Math.max(compressedSize, 1);
  return size >= limits.ratioCheckedFromBytes && ratio > limits.compressionRatio ? ratio : undefined;
}

const SKIPPED_NAMES = new Set(['Thumbs.db', 'desktop.ini', 'node_modules', '__pycache__']);

/**
 * Whether a pack file goes into the bundle. Left out: dotfiles and dot-folders (.git, .DS_Store,
 * .vscode), `authoring/` (the instructor's notes and solutions, which must not reach learners),
 * caches, editor backups and earlier bundles.
 */
export function isBundledPath(relative: string): boolean {
  const segments = relative.split('/');
  if (segments[0] === 'authoring') return false;
  if (segments.some((s) => s.startsWith('.') || SKIPPED_NAMES.has(s))) return false;
  const base = segments[segments.length - 1]!;
  return !(
    base.endsWith(ARCHIVE_EXTENSION) ||
    base.endsWith('.pyc') ||
    base.endsWith('~') ||
    base.endsWith('.swp') ||
    base.endsWith('.orig')
  );
}

/** Compares two `major.minor.patch` versions: negative when a is older, 0 when equal, positive when newer. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
