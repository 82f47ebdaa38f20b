/**
 * Installs a `.lessonpack` into a packs folder, for the CLI and the extension alike. A pack file comes
 * from someone else, so it is treated as hostile until proven otherwise:
 *
 * 1. read the whole archive into memory under hard limits (entries, sizes, compression ratio), refusing
 *    entries that could land outside the pack (`../`, absolute paths, backslashes, drive letters),
 *    links, duplicates and anything but plain files; nothing touches the disk in this phase;
 * 2. check every file against `manifest.lessonpack.json` (SHA-256 and size) and the manifest's integrity
 *    hash, with no file missing and none extra;
 * 3. write the files into a fresh folder inside the packs folder and load it as a pack (loadPack),
 *    which also proves every path the pack names stays inside it; pack code is never run; the archive's
 *    manifest goes in too, so each check can verify the installed files (packIntegrity.ts);
 * 4. replace an installed older version only after `confirmReplace`, and hide a built-in lesson of the
 *    same id only after `confirmShadow`, by renames, so a failure at any step leaves the installed pack
 *    as it was.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import yauzl from 'yauzl';
import {
  ARCHIVE_LIMITS,
  ARCHIVE_MANIFEST,
  archivePathProblem,
  bombRatio,
  collisionKey,
  compareVersions,
  integrityInput,
  parseArchiveManifest,
  pathClash,
  type ArchiveLimits,
  type ArchiveManifest,
} from '../../core/pack/archive';
import { friendlyManifestMessage } from '../../core/pack/manifestMessages';
import { fsReason } from '../errors/errors';
import { sha256 } from '../cache/hash';
import { discoverPacks, loadPack, MANIFEST_FILE, PackError } from './packs';

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

export interface InstallOptions {
  readonly packsRoot: string;
  /** Asked before a newer version replaces an installed one; without it, nothing is replaced. */
  readonly confirmReplace?: (existingVersion: string, newVersion: string) => Promise<boolean>;
  /** The built-in lessons (the CLI's or the extension's), which an installed pack of the same id hides. */
  readonly builtInDir?: string;
  /** Asked before the pack hides a built-in lesson of the same id; without it, such a pack is not installed. */
  readonly confirmShadow?: (builtInVersion: string, newVersion: string) => Promise<boolean>;
  /**
   * Asked before anything is written: the pack carries code (its reference model) that runs when a program
   * is checked against it. Without it, the pack is installed (the caller has said yes some other way).
   */
  readonly confirmCode?: (id: string, version: string, model: string) => Promise<boolean>;
  /** Install even when the same or a newer version is already installed. */
  readonly force?: boolean;
  /** Lower limits, for tests. */
  readonly limits?: Partial<Limits>;
}

export interface InstallResult {
  readonly id: string;
  readonly version: string;
  readonly dir: string;
  /** The version this install replaced, if any. */
  readonly replaced?: string;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(n < 1024 * 1024 ? 2 : 1)} MiB`;
const DO_NOT_INSTALL =
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
    let declared = 0;
    for await (const entry of zip.eachEntry()) {
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
      if (isDir) continue;
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
      declared += entry.uncompressedSize;
      if (declared > limits.totalBytes)
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
      contents.set(name, await readEntry(zip, entry, limits, refuse));
    }
  } catch (error) {
    if (error instanceof InstallError) throw error;
    throw describeZipError(file, error as Error);
  } finally {
    zip.close();
  }
  return contents;
}

async function readEntry(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  limits: Limits,
  refuse: (r: InstallRefusal, m: string) => InstallError,
): Promise<Buffer> {
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

async function installedVersion(dir: string): Promise<string | undefined> {
  const stat = await fs.lstat(dir).catch(() => undefined);
  if (!stat) return undefined;
  try {
    return (await loadPack(dir)).manifest.version;
  } catch {
    return 'unknown (it does not load)';
  }
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

/** The version of the built-in lesson `id`, if there is one. */
async function builtInVersion(builtInDir: string | undefined, id: string): Promise<string | undefined> {
  if (!builtInDir) return undefined;
  const { packs } = await discoverPacks([{ dir: builtInDir, origin: 'built-in' }]);
  return packs.find((p) => p.manifest.id === id)?.manifest.version;
}

async function makePacksRoot(packsRoot: string): Promise<string> {
  try {
    await fs.mkdir(packsRoot, { recursive: true });
    const root = await fs.realpath(packsRoot);
    await fs.access(root, fs.constants.W_OK);
    return root;
  } catch (error) {
    const why = fsReason(error);
    if (!why) throw error;
    throw new InstallError('unwritable', `cannot install into ${packsRoot}: ${why}; nothing was installed.`);
  }
}

export async function installPack(file: string, options: InstallOptions): Promise<InstallResult> {
  const limits: Limits = { ...ARCHIVE_LIMITS, ...options.limits };
  const shown = path.basename(file);
  const { manifest, contents } = await readVerifiedArchive(file, limits);
  const root = await makePacksRoot(options.packsRoot);
  // Inside the packs folder, so the final rename stays on one disk; one level down, so pack discovery never sees it.
  const staging = path.join(root, `.installing-${randomBytes(6).toString('hex')}`);
  const unpacked = path.join(staging, 'pack');
  try {
    await writeFiles(unpacked, manifest, contents, shown);
    let lesson;
    try {
      lesson = (await loadPack(unpacked, 'installed', { checkPatterns: true })).manifest;
    } catch (error) {
      const manifestText = contents.get(MANIFEST_FILE)?.toString('utf8') ?? '';
      const detail =
        error instanceof PackError
          ? error.problems
              .map((p) => {
                const where = path.relative(unpacked, p.file) || MANIFEST_FILE;
                return `  ${where}:${p.line}:${p.column}: ${where === MANIFEST_FILE ? friendlyManifestMessage(p.message, p.path, manifestText) : p.message}`;
              })
              .join('\n')
          : `  ${(error as Error).message}`;
      throw new InstallError(
        'invalid',
        `refused ${shown}: the lesson pack inside is not valid (its author can run \`lesson-companion validate\` on it):\n${detail}`,
      );
    }
    if (lesson.id !== manifest.id || lesson.version !== manifest.version) {
      throw new InstallError(
        'damaged',
        `refused ${shown}: ${ARCHIVE_MANIFEST} says ${manifest.id} ${manifest.version} but ${MANIFEST_FILE} says ${lesson.id} ${lesson.version}`,
      );
    }
    const target = path.join(root, lesson.id);
    const existing = await installedVersion(target);
    const builtIn = existing === undefined ? await builtInVersion(options.builtInDir, lesson.id) : undefined;
    if (builtIn !== undefined && !(await options.confirmShadow?.(builtIn, lesson.version))) {
      const older =
        compareVersions(lesson.version, builtIn) < 0 ? `, which is newer than this pack's ${lesson.version}` : '';
      throw new InstallError(
        'declined',
        `kept the built-in lesson ${lesson.id} ${builtIn}${older}: installing ${shown} would hide it, and that was not confirmed`,
      );
    }
    if (existing !== undefined) {
      const newer = existing.startsWith('unknown') || compareVersions(lesson.version, existing) > 0;
      if (!newer && !options.force) {
        const same = compareVersions(lesson.version, existing) === 0;
        throw new InstallError(
          'not-newer',
          `${lesson.id} ${existing} is already installed and ${shown} holds ${same ? 'the same version' : `an older one (${lesson.version})`}; nothing was changed. Install it anyway with --force.`,
        );
      }
      if (newer && !options.force && !(await options.confirmReplace?.(existing, lesson.version))) {
        throw new InstallError(
          'declined',
          `kept ${lesson.id} ${existing}: replacing it with ${lesson.version} was not confirmed`,
        );
      }
      // Asked last, after the questions about versions: the pack's code runs when a program is checked.
      if (options.confirmCode && !(await options.confirmCode(lesson.id, lesson.version, lesson.model))) {
        throw new InstallError(
          'declined',
          `did not install ${lesson.id} ${lesson.version}: it carries code (${lesson.model}) that runs when you check, and that was not confirmed`,
        );
      }
      await swapIn(unpacked, target, path.join(staging, 'previous'));
      return { id: lesson.id, version: lesson.version, dir: target, replaced: existing };
    }
    // Asked last, after the questions about versions: the pack's code runs when a program is checked.
    if (options.confirmCode && !(await options.confirmCode(lesson.id, lesson.version, lesson.model))) {
      throw new InstallError(
        'declined',
        `did not install ${lesson.id} ${lesson.version}: it carries code (${lesson.model}) that runs when you check, and that was not confirmed`,
      );
    }
    await fs.rename(unpacked, target);
    return { id: lesson.id, version: lesson.version, dir: target };
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

/** The archive's files, and its manifest for later verification, into the fresh folder `unpacked`. */
async function writeFiles(
  unpacked: string,
  manifest: ArchiveManifest,
  contents: Map<string, Buffer>,
  shown: string,
): Promise<void> {
  try {
    for (const f of manifest.files) {
      const target = path.resolve(unpacked, f.path);
      if (!target.startsWith(unpacked + path.sep))
        throw new InstallError('unsafe', `refused ${shown}: "${f.path}" would be written outside the pack folder`);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, contents.get(f.path)!, { flag: 'wx', mode: 0o644 });
    }
    await fs.writeFile(path.join(unpacked, ARCHIVE_MANIFEST), contents.get(ARCHIVE_MANIFEST)!, {
      flag: 'wx',
      mode: 0o644,
    });
  } catch (error) {
    const why = fsReason(error);
    if (!why) throw error;
    throw new InstallError(
      'unwritable',
      `cannot write the pack into ${path.dirname(path.dirname(unpacked))}: ${why}; nothing was installed.`,
    );
  }
}

/** Two renames: the old pack moves aside, the new one moves in; if the second fails, the old one comes back. */
async function swapIn(unpacked: string, target: string, aside: string): Promise<void> {
  await fs.rename(target, aside);
  try {
    await fs.rename(unpacked, target);
  } catch (error) {
    await fs.rename(aside, target);
    throw error;
  }
}
