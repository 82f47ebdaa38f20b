import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { declaredLesson } from '../core/text/source';
import { cliPacksDir, packRoots } from '../node/packs/locations';
import { verifyInstalledPack } from '../node/packs/packIntegrity';
import { discoverPacks, loadPack, MANIFEST_FILE, type LoadedPack, type PackListing } from '../node/packs/packs';
import { UsageError, type CliIO } from './command';

export async function allPacks(io: CliIO): Promise<PackListing> {
  return discoverPacks(packRoots(io.bundleDir, cliPacksDir(io.env)));
}

/**
 * The pack a learner file belongs to: `--lesson` (an id or a pack folder), else the file's
 * `lesson-companion: <id>` header, else the pack whose starter has the same file name. An installed pack
 * must still be what was installed (PackIntegrityError otherwise): the graded program may have changed it.
 */
export async function selectPack(
  io: CliIO,
  lesson: string | undefined,
  file?: string,
  source?: string,
): Promise<LoadedPack> {
  const pack = await findPack(io, lesson, file, source);
  if (pack.origin === 'installed') await verifyInstalledPack(pack);
  return pack;
}

async function findPack(io: CliIO, lesson: string | undefined, file?: string, source?: string): Promise<LoadedPack> {
  if (lesson && (lesson.includes('/') || lesson.includes(path.sep))) {
    const dir = path.resolve(io.cwd, lesson);
    if (
      await fs.stat(path.join(dir, MANIFEST_FILE)).then(
        () => true,
        () => false,
      )
    )
      return loadPack(dir);
  }
  const { packs, broken } = await allPacks(io);
  const wanted = lesson ?? (source ? declaredLesson(source) : undefined);
  if (wanted) {
    const found = packs.find((p) => p.manifest.id === wanted);
    if (found) return found;
    const why = broken.find((b) => path.basename(b.dir) === wanted);
    if (why) throw new UsageError(why.error);
    throw new UsageError(
      `no lesson "${wanted}". Installed lessons: ${packs.map((p) => p.manifest.id).join(', ') || '(none)'}`,
    );
  }
  if (file) {
    const base = path.basename(file);
    const byName = packs.filter((p) => Object.values(p.manifest.starters).some((s) => path.basename(s.main) === base));
    if (byName.length === 1) return byName[0]!;
  }
  throw new UsageError(
    'cannot tell which lesson this file belongs to; add --lesson <id> (see `lesson-companion lessons`)',
  );
}
