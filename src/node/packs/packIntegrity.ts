/**
 * An installed pack is checked against the manifest it was installed with before each check. The learner's
 * program runs as the same user as the checker, so it can write to the installed pack: rewrite a hidden
 * transcript, the model or a driver, or add a module next to a driver that Python would import first.
 * A check against such a pack could pass a wrong program, so a pack that differs from what was installed
 * is refused until it is reinstalled.
 *
 * This detects changes; it cannot stop a program that also rewrites the manifest consistently. Keeping the
 * pack out of the learner's reach is the sandbox's job; this makes any change that is not that careful
 * visible, and makes an honest mistake (an edited installed file) a clear message instead of a wrong grade.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ARCHIVE_LIMITS, ARCHIVE_MANIFEST, integrityInput, parseArchiveManifest } from '../../core/pack/archive';
import { WordedError } from '../errors/errors';
import { sha256 } from '../cache/hash';
import type { LoadedPack } from './packs';

/** Left by the operating system or an interpreter, and never read by a check. */
const TOLERATED_NAMES = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini']);

export class PackIntegrityError extends WordedError {
  /** What happened, without the command line's way to repair it (the extension offers its own). */
  readonly summary: string;

  constructor(
    readonly dir: string,
    readonly id: string,
    /** The file that differs (relative to the pack), or the manifest itself. */
    readonly changed: string,
    why: string,
  ) {
    const summary = `The installed lesson pack "${id}" was changed after it was installed: ${why}. A check against a changed pack could grade wrongly, so none was run.`;
    super(
      `${summary} Reinstall the pack from its .lessonpack file with \`lesson-companion install <file>.lessonpack --force\` (pack folder: ${dir}).`,
    );
    this.summary = summary;
    this.name = 'PackIntegrityError';
  }
}

/** Every file under `dir`, relative with "/" separators; links and other non-files are reported as such. */
async function listFiles(dir: string): Promise<{ files: string[]; odd: string | undefined }> {
  const files: string[] = [];
  let odd: string | undefined;
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await fs.readdir(path.join(dir, relative), { withFileTypes: true })) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (TOLERATED_NAMES.has(entry.name)) continue;
      if (entry.isDirectory()) {
        // Python writes its byte-code cache beside modules it imports; it is re-validated against the source.
        if (entry.name !== '__pycache__') await walk(rel);
      } else if (entry.isFile()) files.push(rel);
      else odd ??= rel;
      if (files.length > ARCHIVE_LIMITS.entries) return;
    }
  };
  await walk('');
  return { files, odd };
}

/** Throws PackIntegrityError when an installed pack's files differ from the manifest it was installed with. */
export async function verifyInstalledPack(pack: Pick<LoadedPack, 'dir' | 'manifest'>): Promise<void> {
  const { dir } = pack;
  const id = pack.manifest.id;
  const fail = (changed: string, why: string): never => {
    throw new PackIntegrityError(dir, id, changed, why);
  };
  const manifestText = await fs.readFile(path.join(dir, ARCHIVE_MANIFEST), 'utf8').catch(() => undefined);
  if (manifestText === undefined)
    return fail(ARCHIVE_MANIFEST, `its ${ARCHIVE_MANIFEST}, the list of what was installed, is missing`);
  const parsed = parseArchiveManifest(manifestText);
  if (!parsed.ok) return fail(ARCHIVE_MANIFEST, parsed.reason);
  const manifest = parsed.manifest;
  if (sha256(integrityInput(manifest.files)) !== manifest.integrity)
    return fail(ARCHIVE_MANIFEST, `its ${ARCHIVE_MANIFEST} was edited`);
  if (manifest.id !== id || manifest.version !== pack.manifest.version) {
    return fail(
      ARCHIVE_MANIFEST,
      `it was installed as ${manifest.id} ${manifest.version} but now says ${id} ${pack.manifest.version}`,
    );
  }
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const f of manifest.files) {
    const file = path.join(dir, f.path);
    const stat = await fs.lstat(file).catch(() => undefined);
    if (!stat) return fail(f.path, `${f.path} is missing`);
    if (!stat.isFile()) return fail(f.path, `${f.path} is no longer a plain file`);
    const data = stat.size === f.size ? await fs.readFile(file).catch(() => undefined) : undefined;
    if (!data || sha256(data) !== f.sha256) return fail(f.path, `${f.path} is not the file that was installed`);
  }
  const { files, odd } = await listFiles(dir);
  if (odd !== undefined) return fail(odd, `${odd} was added, and it is not a plain file`);
  const extra = files.find((f) => f !== ARCHIVE_MANIFEST && !listed.has(f));
  if (extra !== undefined) return fail(extra, `${extra} was added`);
}
