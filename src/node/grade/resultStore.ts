/**
 * Where a grade run keeps each submission's result, so that a run stopped half-way (Ctrl-C, a closed
 * laptop) resumes where it was. The store is the grader's own: `<cache>/grade/` (src/node/cache, 0700),
 * a folder every sandbox view hides (privateFolders.ts), never the out folder, which a teacher may put
 * anywhere. One file per checked program, `results/<key>.json`, written whole or not at all. The key is the
 * hash of the program's bytes, the pack, the engine and the check's settings: a changed program, pack or
 * engine is checked again, and two students with the same file are checked once.
 *
 * Each record carries an HMAC, under a key in `<cache>/grade/key` (0600), of its key and its result's exact
 * text. A contained program cannot read the key; a program graded with --sandbox=off runs as the grader and
 * can, so such a run keeps nothing, resumes nothing, and throws the key and the records away when it ends
 * (forgetKey): whatever it wrote, signed with the key it read or a key of its own, is gone. (A grader killed
 * with SIGKILL during such a run cannot do that: remove the folder by hand then.) A record
 * that does not verify is not believed: the program is checked again.
 *
 * What is kept is the part of the row the check decides; the student, the file's path and the quiz score
 * are filled in by each run.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GradeRow } from '../../core/grade/row';
import type { LoadedPack } from '../packs/packs';
import { batchKey } from '../check/fastPass';
import { cacheDir } from '../cache/cacheDir';

/** Bumped when what a stored result means changes. */
const FORMAT = 2;
const KEY_FILE = 'key';
const RESULTS = 'results';

export type StoredResult = Omit<GradeRow, 'student' | 'file' | 'quiz'>;

/**
 * The key of everything but the program: the pack's files, the engine (the bundle that runs the diagnosis,
 * or this module when there is none; the engine is built with the CLI) and the settings that change a verdict.
 */
export function runKey(
  pack: LoadedPack,
  engine: string | undefined,
  settings: Readonly<Record<string, unknown>>,
): string {
  const packKey = batchKey(pack, engine ?? __filename, {}) ?? `${pack.manifest.id}@${pack.manifest.version}`;
  return createHash('sha256')
    .update(`${FORMAT}\0${packKey}\0${JSON.stringify(settings)}`)
    .digest('hex');
}

export function resultKey(run: string, program: Buffer): string {
  return createHash('sha256').update(run).update('\0').update(program).digest('hex');
}

/** The grader's private store folder, or undefined when there is no private place (then nothing is kept). */
export function graderStoreDir(): string | undefined {
  return cacheDir('grade');
}

/** A key file that is ours alone: a regular file, not a link, no one else may read or write it. */
function privateKey(file: string): Buffer | undefined {
  try {
    const stat = fs.lstatSync(file);
    if (!stat.isFile() || (process.getuid && stat.uid !== process.getuid())) return undefined;
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) return undefined;
    const key = fs.readFileSync(file);
    return key.length === 32 ? key : undefined;
  } catch {
    return undefined;
  }
}

/** The store's key, made (0600, never over an existing file) when there is none or it is not private. */
function storeKey(dir: string): Buffer {
  const file = path.join(dir, KEY_FILE);
  const kept = privateKey(file);
  if (kept) return kept;
  fs.rmSync(file, { force: true });
  const key = randomBytes(32);
  fs.writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
  return key;
}

/**
 * Throws away the key and every record: after a run whose programs could read the store's folder, nothing
 * in it is evidence. The next contained run makes a new key.
 */
export function forgetKey(dir: string): void {
  fs.rmSync(path.join(dir, KEY_FILE), { force: true });
  fs.rmSync(path.join(dir, RESULTS), { recursive: true, force: true });
}

export class ResultStore {
  private readonly results: string;
  private readonly key: Buffer;
  /** Records that were there but did not verify (forged, cut short, an older format): checked again. */
  rejected = 0;

  constructor(dir: string) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.results = path.join(dir, RESULTS);
    fs.mkdirSync(this.results, { recursive: true, mode: 0o700 });
    this.key = storeKey(dir);
  }

  private file(key: string): string {
    return path.join(this.results, `${key}.json`);
  }

  private mac(key: string, result: string): Buffer {
    return createHmac('sha256', this.key).update(`${FORMAT}\0${key}\0${result}`).digest();
  }

  read(key: string): StoredResult | undefined {
    let text: string;
    try {
      text = fs.readFileSync(this.file(key), 'utf8');
    } catch {
      return undefined; // not there
    }
    try {
      const data = JSON.parse(text) as { format?: unknown; key?: unknown; result?: unknown; mac?: unknown };
      if (data.format !== FORMAT || data.key !== key || typeof data.result !== 'string' || typeof data.mac !== 'string')
        throw new Error('not a record of this store');
      const mac = Buffer.from(data.mac, 'hex');
      const expected = this.mac(key, data.result);
      if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) throw new Error('does not verify');
      return JSON.parse(data.result) as StoredResult;
    } catch {
      this.rejected += 1;
      return undefined;
    }
  }

  write(key: string, row: GradeRow): void {
    const { student: _s, file: _f, quiz: _q, ...rest } = row;
    const result = JSON.stringify(rest);
    const record = { format: FORMAT, key, result, mac: this.mac(key, result).toString('hex') };
    const temp = `${this.file(key)}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(record), { mode: 0o600 });
    fs.renameSync(temp, this.file(key));
  }
}
