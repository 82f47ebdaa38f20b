/**
 * Installs a `.lessonpack` into a packs folder, for the CLI and the extension alike. A pack file comes
 * from someone else, so it is treated as hostile until proven otherwise:
 *
 * 1. read the whole archive into memory under hard limits, and
 * 2. check every file against its manifest (both in archiveRead.ts), with nothing written yet;
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
import { ARCHIVE_LIMITS, ARCHIVE_MANIFEST, compareVersions, type ArchiveManifest } from '../../core/pack/archive';
import type { LessonManifest } from '../../core/pack/schema';
import { friendlyManifestMessage } from '../../core/pack/manifestMessages';
import { fsReason } from '../errors/errors';
import { InstallError, readVerifiedArchive, type Limits } from './archiveRead';
import { discoverPacks, loadPack, MANIFEST_FILE, PackError } from './packs';

export { InstallError, readVerifiedArchive, type InstallRefusal, type Limits } from './archiveRead';

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

async function installedVersion(dir: string): Promise<string | undefined> {
  const stat = await fs.lstat(dir).catch(() => undefined);
  if (!stat) return undefined;
  try {
    return (await loadPack(dir)).manifest.version;
  } catch {
    return 'unknown (it does not load)';
  }
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
    const lesson = await loadUnpacked(unpacked, manifest, contents, shown);
    const target = path.join(root, lesson.id);
    const existing = await installedVersion(target);
    await askBeforeInstall(lesson, existing, shown, options);
    if (existing !== undefined) {
      await swapIn(unpacked, target, path.join(staging, 'previous'));
      return { id: lesson.id, version: lesson.version, dir: target, replaced: existing };
    }
    await fs.rename(unpacked, target);
    return { id: lesson.id, version: lesson.version, dir: target };
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

/** The unpacked pack's manifest, loaded as a pack (pack code is never run), and the archive's id and version. */
async function loadUnpacked(
  unpacked: string,
  manifest: ArchiveManifest,
  contents: Map<string, Buffer>,
  shown: string,
): Promise<LessonManifest> {
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
  return lesson;
}

/**
 * The questions before anything is moved in: hiding a built-in lesson, replacing (or not) an installed
 * version, and last the pack's code, which runs when a program is checked. Throws when one is declined.
 */
async function askBeforeInstall(
  lesson: LessonManifest,
  existing: string | undefined,
  shown: string,
  options: InstallOptions,
): Promise<void> {
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
  }
  // Asked last, after the questions about versions: the pack's code runs when a program is checked.
  if (options.confirmCode && !(await options.confirmCode(lesson.id, lesson.version, lesson.model))) {
    throw new InstallError(
      'declined',
      `did not install ${lesson.id} ${lesson.version}: it carries code (${lesson.model}) that runs when you check, and that was not confirmed`,
    );
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
