/**
 * Reading a `.lessonpack` (a zip) as install does, with nothing written: the whole archive into memory under
 * hard limits (entries, sizes, compression ratio), refusing entries that could land outside the pack (`../`,
 * absolute paths, backslashes, drive letters), links, duplicates and anything but plain files; then every
 * file checked against `manifest.lessonpack.json` (SHA-256 and size) and the manifest's integrity hash.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import yauzl from 'yauzl';
import {
  ARCHIVE_LIMITS,
  ARCHIVE_MANIFEST,
  archivePathProblem,
  bombRatio,
  collisionKey,
  integrityInput,
  parseArchiveManifest,
  pathClash,
  type ArchiveLimits,
  type ArchiveManifest,
} from '../../core/pack/archive';
import { sha256 } from '../cache/hash';

export type InstallRefusal =
  'unreadable' | 'unsafe' | 'too-large' | 'damaged' | 'invalid' | 'not-newer' | 'declined' | 'unwritable';

export class InstallError extends Error {
  constructor(
    readonly reason: InstallRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'InstallError';
  }
}

export type Limits = ArchiveLimits;

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
export const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(n < 1024 * 1024 ? 2 : 1)} MiB`;
export const DO_NOT_INSTALL =
  'A pack made by `lesson-companion bundle` never looks like this: do not install this file, and ask its author for a fresh copy.';

/** yauzl's own messages for unsafe names, and everything else it throws, in an instructor's words. */
function describeZipError(file: string, error: Error): InstallError {
  const name = /^(absolute path|invalid relative path|invalid characters in fileName): (.*)$/.exec(error.message);
  if (name) {
    const why = archivePathProblem(name[2]!) ?? `"${name[2]}" is not a safe file name`;
    return new InstallError(
      'unsafe',
      `refused ${path.basename(file)}: an entry would be written outside the pack folder: ${why}. ${DO_NOT_INSTALL}`,
    );
  }
  return new InstallError(
    'damaged',
    `refused ${path.basename(file)}: it is not a readable lesson pack (${error.message}). The file may be cut short or damaged: download or copy it again.`,
  );
}

/** Reads every file entry into memory, enforcing the limits before and while reading. */
async function readArchive(file: string, limits: Limits): Promise<Map<string, Buffer>> {
  const shown = path.basename(file);
  const refuse = (reason: InstallRefusal, message: string): InstallError =>
    new InstallError(reason, `refused ${shown}: ${message}`);
  const stat = await fs.stat(file).catch(() => undefined);
  if (!stat?.isFile()) throw new InstallError('unreadable', `cannot read ${file}: no such file`);
  if (stat.size > limits.archiveBytes)
    throw refuse(
      'too-large',
      `the file is ${mib(stat.size)}; a lesson pack may be at most ${mib(limits.archiveBytes)}`,
    );
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, {
      lazyEntries: true,
      autoClose: false,
      strictFileNames: true,
      validateEntrySizes: true,
      decodeStrings: true,
    });
  } catch (error) {
    throw describeZipError(file, error as Error);
  }
  const contents = new Map<string, Buffer>();
  try {
    if (zip.entryCount > limits.entries)
      throw refuse('too-large', `it has ${zip.entryCount} entries; a lesson pack may have at most ${limits.entries}`);
    const seen = new Set<string>();
    const total = { declared: 0 };
    for await (const entry of zip.eachEntry()) {
      if (!checkEntry(entry, seen, total, limits, refuse)) continue;
      contents.set(entry.fileName, await readEntry(zip, entry, limits, refuse));
    }
  } catch (error) {
    if (error instanceof InstallError) throw error;
    throw describeZipError(file, error as Error);
  } finally {
    zip.close();
  }
  return contents;
}

type Refuse = (reason: InstallRefusal, message: string) => InstallError;

/**
 * Whether `entry` is a file to read (false: a folder); throws when it must not be unpacked at all: a name
 * outside the pack, twice, a link or device, encrypted, or bigger than the limits allow.
 */
function checkEntry(
  entry: yauzl.Entry,
  seen: Set<string>,
  total: { declared: number },
  limits: Limits,
  refuse: Refuse,
): boolean {
  const name = entry.fileName;
  const problem = archivePathProblem(name);
  if (problem)
    throw refuse('unsafe', `an entry would be written outside the pack folder: ${problem}. ${DO_NOT_INSTALL}`);
  const key = collisionKey(name);
  if (seen.has(key))
    throw refuse(
      'unsafe',
      `"${name}" appears twice (or twice in different upper/lower case), so one copy would silently overwrite the other. ${DO_NOT_INSTALL}`,
    );
  seen.add(key);
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  const isDir = name.endsWith('/');
  if (type === S_IFLNK)
    throw refuse(
      'unsafe',
      `"${name}" is a symbolic link, which could point anywhere on this computer. ${DO_NOT_INSTALL}`,
    );
  if (type !== 0 && type !== S_IFREG && !(isDir && type === S_IFDIR))
    throw refuse('unsafe', `"${name}" is not a plain file or folder. ${DO_NOT_INSTALL}`);
  if (isDir) return false;
  if (entry.isEncrypted()) throw refuse('unsafe', `"${name}" is encrypted; lesson packs never are`);
  if (!entry.canDecodeFileData())
    throw refuse(
      'damaged',
      `"${name}" uses a compression method this installer does not read (${entry.compressionMethod})`,
    );
  if (entry.uncompressedSize > limits.entryBytes)
    throw refuse(
      'too-large',
      `"${name}" would unpack to ${mib(entry.uncompressedSize)}; one pack file may be at most ${mib(limits.entryBytes)}`,
    );
  total.declared += entry.uncompressedSize;
  if (total.declared > limits.totalBytes)
    throw refuse(
      'too-large',
      `its files would unpack to more than ${mib(limits.totalBytes)}, the most a lesson pack may hold`,
    );
  const ratio = bombRatio(entry.uncompressedSize, entry.compressedSize, limits);
  if (ratio !== undefined)
    throw refuse(
      'too-large',
      `"${name}" is compressed ${Math.round(ratio)} to 1, which only a zip bomb does. ${DO_NOT_INSTALL}`,
    );
  return true;
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, limits: Limits, refuse: Refuse): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let bytes = 0;
  // yauzl stops at the declared size (validateEntrySizes); this is the same bound, independent of it.
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > Math.min(entry.uncompressedSize, limits.entryBytes)) {
      stream.destroy();
      throw refuse('damaged', `"${entry.fileName}" holds more data than its header says. ${DO_NOT_INSTALL}`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, bytes);
}

/** The archive's files, checked against its manifest. */
function verify(shown: string, contents: Map<string, Buffer>): ArchiveManifest {
  const refuse = (message: string): InstallError => new InstallError('damaged', `refused ${shown}: ${message}`);
  const manifestBytes = contents.get(ARCHIVE_MANIFEST);
  if (!manifestBytes) throw refuse(`it has no ${ARCHIVE_MANIFEST}, so it was not made by \`lesson-companion bundle\``);
  const parsed = parseArchiveManifest(manifestBytes.toString('utf8'));
  if (!parsed.ok) throw refuse(parsed.reason);
  const { manifest } = parsed;
  if (sha256(integrityInput(manifest.files)) !== manifest.integrity)
    throw refuse(
      `the file list in ${ARCHIVE_MANIFEST} does not match its integrity hash: the archive was edited or damaged. Download it again.`,
    );
  const clash = pathClash(manifest.files.map((f) => f.path));
  if (clash)
    throw new InstallError(
      'unsafe',
      `refused ${shown}: its ${ARCHIVE_MANIFEST} cannot be installed as it is: ${clash}. ${DO_NOT_INSTALL}`,
    );
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const name of contents.keys()) {
    if (name !== ARCHIVE_MANIFEST && !listed.has(name))
      throw refuse(`"${name}" is in the archive but not in its manifest: the archive was edited after it was bundled`);
  }
  for (const f of manifest.files) {
    const data = contents.get(f.path);
    if (!data) throw refuse(`"${f.path}" is listed in the manifest but missing from the archive`);
    if (data.length !== f.size || sha256(data) !== f.sha256)
      throw refuse(
        `"${f.path}" does not match its SHA-256 in the manifest: the file was changed or damaged after bundling. Download the pack again.`,
      );
  }
  return manifest;
}

/**
 * Reads an archive under install's limits and checks it against its manifest, writing nothing: what
 * install does first, and what bundle does to the archive it has just written.
 */
export async function readVerifiedArchive(
  file: string,
  limits: Limits = ARCHIVE_LIMITS,
): Promise<{ manifest: ArchiveManifest; contents: Map<string, Buffer> }> {
  const contents = await readArchive(file, limits);
  return { manifest: verify(path.basename(file), contents), contents };
}
