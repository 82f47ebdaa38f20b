/**
 * The folder where the CLI keeps what it can compute again (V8 code cache, transpiled models, passing
 * batches, resolved interpreters). It is the user's own: what is read from it decides what runs, so a folder
 * another user could have made first (a fixed name in a shared /tmp) is never used. Without a usable folder
 * nothing is cached and every check computes everything, as on a first run.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

function baseDir(): string {
  if (process.env.LESSON_COMPANION_CACHE_DIR) return path.resolve(process.env.LESSON_COMPANION_CACHE_DIR);
  if (process.env.XDG_CACHE_HOME) return path.join(process.env.XDG_CACHE_HOME, 'lesson-companion');
  const home = os.homedir();
  if (home && home !== '/') return path.join(home, '.cache', 'lesson-companion');
  return path.join(os.tmpdir(), `lesson-companion-${process.getuid?.() ?? 'user'}`);
}

/** Only a real folder of ours that no one else can write to. */
function ownedPrivately(dir: string): boolean {
  try {
    const stat = fs.lstatSync(dir);
    if (!stat.isDirectory()) return false;
    if (process.getuid && stat.uid !== process.getuid()) return false;
    return process.platform === 'win32' || (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

const checked = new Map<string, string | undefined>();

/** `name` inside the cache folder, made if needed; undefined when there is no private place to keep it. */
export function cacheDir(name: string): string | undefined {
  const dir = path.join(baseDir(), name);
  if (checked.has(dir)) return checked.get(dir);
  let usable: string | undefined;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    usable = ownedPrivately(path.dirname(dir)) && ownedPrivately(dir) ? dir : undefined;
  } catch {
    usable = undefined;
  }
  checked.set(dir, usable);
  return usable;
}

/** Writes `file` whole or not at all, readable only by the user. */
export function writeCacheFile(file: string, data: string | Uint8Array): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temp, data, { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch {
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // nothing was written
    }
  }
}

/**
 * Keeps at most `keep` files in a cache folder, the most recently written ones. For folders with an entry per
 * pack folder or per command line: tests and temporary packs would otherwise add entries without end.
 */
export function pruneCacheFolder(dir: string, keep: number): void {
  try {
    const names = fs.readdirSync(dir);
    if (names.length <= keep) return;
    const byAge = names
      .map((name) => {
        try {
          return { name, written: fs.statSync(path.join(dir, name)).mtimeMs };
        } catch {
          return { name, written: 0 };
        }
      })
      .sort((a, b) => b.written - a.written);
    for (const { name } of byAge.slice(keep)) fs.rmSync(path.join(dir, name), { force: true });
  } catch {
    // An entry left behind costs only disk space.
  }
}
