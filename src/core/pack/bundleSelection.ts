/**
 * What a bundle takes from a pack folder: only what lesson.json names. A folder an instructor works in holds
 * more (a package.json and a lock file with their local paths, a tsconfig.json, node_modules, notes), and none
 * of it is for learners. Named: lesson.json itself, the transcripts, each starter's folder, each driver's and
 * the model's folder (a model and a driver may import files beside them; one at the pack's top takes only the
 * JavaScript and TypeScript files beside it). Lock files and node_modules are left out even inside those.
 */
import type { LessonManifest } from './schema';

const LOCK_FILES = new Set(['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb']);
const CODE = /\.(?:[cm]?[jt]s|py)$/;

const clean = (p: string): string =>
  p
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');

const folderOf = (p: string): string => clean(p).split('/').slice(0, -1).join('/');

/** The folders whose every file is named, and the single files named, by the manifest. */
function named(manifest: Pick<LessonManifest, 'model' | 'transcripts' | 'starters'>): {
  folders: string[];
  files: string[];
  /** A model or driver at the pack's top: the code files beside it go in too (it may import them). */
  codeAtTop: boolean;
} {
  const folders: string[] = [];
  const files: string[] = ['lesson.json', clean(manifest.model), ...manifest.transcripts.map(clean)];
  let codeAtTop = !folderOf(manifest.model);
  for (const starter of Object.values(manifest.starters)) {
    if (!starter) continue;
    folders.push(clean(starter.dir));
    if (starter.driver) {
      if (folderOf(starter.driver)) folders.push(folderOf(starter.driver));
      else {
        files.push(clean(starter.driver));
        codeAtTop = true;
      }
    }
  }
  if (folderOf(manifest.model)) folders.push(folderOf(manifest.model));
  return { folders, files, codeAtTop };
}

/**
 * Why a whole folder stays out of the bundle (said once for the folder), or undefined when something in it
 * may go in and it is walked file by file.
 */
export function folderLeftOutReason(
  manifest: Pick<LessonManifest, 'model' | 'transcripts' | 'starters'>,
  folder: string,
): string | undefined {
  if (folder.split('/').includes('node_modules')) return 'installed packages are never bundled';
  const { folders, files } = named(manifest);
  const holds = (p: string): boolean => p === folder || p.startsWith(folder + '/') || folder.startsWith(p + '/');
  return folders.some(holds) || files.some((f) => f.startsWith(folder + '/')) ? undefined : 'not named by lesson.json';
}

/** Why `relative` (a pack file, `/`-separated) stays out of the bundle, or undefined when it goes in. */
export function leftOutReason(
  manifest: Pick<LessonManifest, 'model' | 'transcripts' | 'starters'>,
  relative: string,
): string | undefined {
  const segments = relative.split('/');
  const base = segments[segments.length - 1]!;
  if (segments.includes('node_modules')) return 'installed packages are never bundled';
  if (LOCK_FILES.has(base)) return 'a lock file holds local paths and is never bundled';
  const { folders, files, codeAtTop } = named(manifest);
  if (files.includes(relative)) return undefined;
  if (folders.some((f) => f === '' || relative.startsWith(f + '/'))) return undefined;
  if (segments.length === 1 && CODE.test(base) && codeAtTop) return undefined;
  return 'not named by lesson.json';
}
