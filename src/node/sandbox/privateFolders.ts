/**
 * What a learner's program must never see, wherever the folder that holds it is bound into the sandbox:
 * Lesson Companion's own cache, data and config folders (the passing batches, the installed packs with their
 * hidden transcripts), VS Code's user data and extensions (the extension's storage, built-in lessons), and
 * every copy of Lesson Companion or a lesson pack installed as a global npm package (`npm install -g` puts it
 * under /usr/lib/node_modules, and /usr is shown whole: its built-in lessons' transcripts were readable there).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

function homeOf(env: NodeJS.ProcessEnv): string {
  return path.resolve(env.HOME || os.homedir());
}

/** Entries of `dir` whose names start with one of `prefixes`, as full paths. */
function startingWith(dir: string, prefixes: readonly string[]): string[] {
  try {
    return fs
      .readdirSync(dir)
      .filter((name) => prefixes.some((prefix) => name.startsWith(prefix)))
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

/** Every folder of Lesson Companion and VS Code that holds answers or tools: existing folders, with their real paths too. */
export function privateFolders(env: NodeJS.ProcessEnv = process.env): string[] {
  const home = homeOf(env);
  const cache = env.XDG_CACHE_HOME || path.join(home, '.cache');
  const data = env.XDG_DATA_HOME || path.join(home, '.local', 'share');
  const config = env.XDG_CONFIG_HOME || path.join(home, '.config');
  const candidates = [
    ...(env.LESSON_COMPANION_CACHE_DIR ? [env.LESSON_COMPANION_CACHE_DIR] : []),
    ...(env.LESSON_COMPANION_PACKS ? [env.LESSON_COMPANION_PACKS] : []),
    path.join(cache, 'lesson-companion'),
    path.join(home, '.cache', 'lesson-companion'),
    path.join(os.tmpdir(), `lesson-companion-${process.getuid?.() ?? 'user'}`),
    path.join(data, 'lesson-companion'),
    path.join(home, '.local', 'share', 'lesson-companion'),
    path.join(config, 'lesson-companion'),
    path.join(home, '.config', 'lesson-companion'),
    // VS Code, Insiders, OSS builds, VSCodium and code-server: user data (the extension's storage) and extensions.
    ...startingWith(home, ['.vscode']),
    ...startingWith(config, ['Code', 'VSCodium', 'code-server']),
    ...startingWith(path.join(home, '.config'), ['Code', 'VSCodium', 'code-server']),
    path.join(data, 'code-server'),
    path.join(home, '.local', 'share', 'code-server'),
  ];
  const out = new Set<string>();
  for (const candidate of candidates) {
    const resolved = path.resolve(candidate);
    if (!fs.statSync(resolved, { throwIfNoEntry: false })?.isDirectory()) continue;
    out.add(resolved);
    try {
      out.add(fs.realpathSync(resolved));
    } catch {
      // Gone since: nothing to hide.
    }
  }
  return [...out];
}

/** Where `npm install -g` puts packages under a prefix (POSIX layout). */
const GLOBAL_MODULES = path.join('lib', 'node_modules');

/** The folders (and links to them) in `dir`, as full paths. */
function subfolders(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => path.join(dir, entry.name));
  } catch {
    return [];
  }
}

/** Whether a package folder holds a lesson pack: a lesson.json in it, in a folder of it, or in one of lessons/. */
function holdsPack(dir: string): boolean {
  if (fs.existsSync(path.join(dir, 'lesson.json'))) return true;
  return [dir, path.join(dir, 'lessons')].some((parent) =>
    subfolders(parent).some((folder) => fs.existsSync(path.join(folder, 'lesson.json'))),
  );
}

function realpathOrUndefined(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * Every global npm package under `prefixes` that is Lesson Companion or holds a lesson pack (scoped ones
 * included), with its real path too (npm links a package installed from a folder).
 */
export function installedToolCopies(prefixes: readonly string[]): string[] {
  const out = new Set<string>();
  for (const prefix of new Set(prefixes.map((p) => path.resolve(p)))) {
    const packages = subfolders(path.join(prefix, GLOBAL_MODULES)).flatMap((folder) =>
      path.basename(folder).startsWith('@') ? subfolders(folder) : [folder],
    );
    for (const folder of packages) {
      const real = realpathOrUndefined(folder);
      if (!real || (path.basename(folder) !== 'lesson-companion' && !holdsPack(real))) continue;
      out.add(folder);
      out.add(real);
    }
  }
  return [...out];
}
