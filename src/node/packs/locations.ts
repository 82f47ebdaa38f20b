import * as os from 'node:os';
import * as path from 'node:path';
import type { LoadedPack } from './packs';

/** Where the CLI installs packs: $LESSON_COMPANION_PACKS, else the XDG data folder. */
export function cliPacksDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LESSON_COMPANION_PACKS) return path.resolve(env.LESSON_COMPANION_PACKS);
  const data = env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
  return path.join(data, 'lesson-companion', 'packs');
}

/** The built-in lessons folder shipped beside the bundle (dist/ → ../lessons). */
export function builtInLessonsDir(bundleDir: string): string {
  return path.resolve(bundleDir, '..', 'lessons');
}

export function packRoots(bundleDir: string, installedDir: string): { dir: string; origin: LoadedPack['origin'] }[] {
  return [
    { dir: builtInLessonsDir(bundleDir), origin: 'built-in' },
    { dir: installedDir, origin: 'installed' },
  ];
}
