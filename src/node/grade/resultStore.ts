/**
 * Where a grade run keeps each submission's result, so that a run stopped half-way (Ctrl-C, a closed
 * laptop) resumes where it was: `<out>/results/<key>.json`, one file per checked program, written whole or
 * not at all. The key is the hash of the program's bytes, the pack, the engine and the check's settings:
 * a changed program, pack or engine is checked again, and two students with the same file are checked once.
 *
 * What is kept is the part of the row the check decides; the student, the file's path and the quiz score
 * are filled in by each run.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GradeRow } from '../../core/grade/row';
import type { LoadedPack } from '../packs/packs';
import { batchKey } from '../check/fastPass';

/** Bumped when what a stored result means changes. */
const FORMAT = 1;

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

export class ResultStore {
  private readonly dir: string;

  constructor(outDir: string) {
    this.dir = path.join(outDir, 'results');
    fs.mkdirSync(this.dir, { recursive: true });
  }

  private file(key: string): string {
    return path.join(this.dir, `${key}.json`);
  }

  read(key: string): StoredResult | undefined {
    try {
      const data = JSON.parse(fs.readFileSync(this.file(key), 'utf8')) as { format?: number; result?: StoredResult };
      return data.format === FORMAT && data.result ? data.result : undefined;
    } catch {
      return undefined; // not there, or cut short by a crash before the rename: checked again
    }
  }

  write(key: string, row: GradeRow): void {
    const { student: _s, file: _f, quiz: _q, ...result } = row;
    const temp = `${this.file(key)}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify({ format: FORMAT, result }));
    fs.renameSync(temp, this.file(key));
  }
}
