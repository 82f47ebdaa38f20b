import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { declaredLesson } from '../core/text/source';
import { cliPacksDir, packRoots } from '../node/packs/locations';
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
  if (pack.origin === 'installed') {
    // Loaded here only: the archive's schema it needs costs every other command's start-up ~10 ms to build.
    /* eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when an installed pack is used */
    const integrity = require('../node/packs/packIntegrity') as typeof import('../node/packs/packIntegrity');
    const { verifyInstalledPack } = integrity;
    await verifyInstalledPack(pack);
  }
  return pack;
}

/**
 * The pack `allPacks` would give for the id `wanted`, loading that pack alone: of the folders whose lesson.json
 * says that id (read as plain JSON, not validated), the one a listing would keep (the last root, the last folder
 * in name order). Undefined when none says it or that one does not load: the whole listing then decides, and
 * says why. Loading every pack to find one cost a check about 30 ms a pack.
 */
async function packNamed(io: CliIO, wanted: string): Promise<LoadedPack | undefined> {
  let last: { dir: string; origin: LoadedPack['origin'] } | undefined;
  for (const root of packRoots(io.bundleDir, cliPacksDir(io.env))) {
    const names = await fs.readdir(root.dir, { withFileTypes: true }).then(
      (entries) => entries.filter((e) => e.isDirectory()).map((e) => e.name),
      () => [],
    );
    for (const name of names.sort()) {
      const dir = path.join(root.dir, name);
      if ((await declaredId(path.join(dir, MANIFEST_FILE))) === wanted) last = { dir, origin: root.origin };
    }
  }
  return last ? loadPack(last.dir, last.origin).catch(() => undefined) : undefined;
}

/** The id a lesson.json says, read as plain JSON; undefined for anything unreadable. */
async function declaredId(file: string): Promise<unknown> {
  try {
    const data: unknown = JSON.parse((await fs.readFile(file, 'utf8')).replace(/^\uFEFF/, ''));
    return typeof data === 'object' && data !== null ? (data as { id?: unknown }).id : undefined;
  } catch {
    return undefined;
  }
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
  const wanted = lesson ?? (source ? declaredLesson(source) : undefined);
  const named = wanted ? await packNamed(io, wanted) : undefined;
  if (named) return named;
  const { packs, broken } = await allPacks(io);
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
