/**
 * A correct program, checked without starting the engine. The engine worker says, at the start of every
 * check, what the first run's input is and exactly what a program that passes prints for it (PassingBatch).
 * The resident check service (../service) keeps that in its own memory, keyed by the pack's files, the engine
 * and the check's settings; next time it runs the program on that input first: the same stdout, exit 0,
 * nothing else, is a pass, and no model is needed to say so. Anything else goes to the engine, which gets
 * this very run as its first one.
 *
 * Never on disk: a file there is the user's to write, and a program checked without the sandbox runs as that
 * user, so a kept batch could be rewritten to make a wrong program pass a later check. The command line,
 * one process per check, has no store: it computes a built-in lesson's batch afresh (builtInBatch.ts), and
 * asks the engine for any other pack's.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PassingBatch } from '../../core/check/check';
import type { ProcessResult } from '../../core/check/process';
import type { CheckReport } from '../../core/report/report';
import type { Language } from '../../core/pack/schema';
import type { LoadedPack } from '../packs/packs';

/** Bumped when what a batch means changes. */
const FORMAT = 1;
const MAX_BATCH_BYTES = 16 * 1024 * 1024;

function filesOf(dir: string, limit = 200): string[] {
  const out: string[] = [];
  const walk = (folder: string, depth: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.length >= limit) return;
      const full = path.join(folder, e.name);
      if (e.isDirectory() && depth < 4 && !e.name.startsWith('.')) walk(full, depth + 1);
      else if (e.isFile()) out.push(full);
    }
  };
  walk(dir, 0);
  return out;
}

/**
 * The key of a pack's passing batch: its manifest, transcripts and model files' contents, the engine bundle,
 * and the settings that change the cases (seed, generated tests).
 */
export function batchKey(
  pack: LoadedPack,
  engine: string,
  settings: { seed?: number; fuzzTranscripts?: number },
): string | undefined {
  try {
    const hash = createHash('sha256').update(`${FORMAT}\0${JSON.stringify(settings)}\0`);
    const engineStat = fs.statSync(engine);
    hash.update(`${engineStat.size}:${engineStat.mtimeMs}\0`);
    const modelDir = path.dirname(path.resolve(pack.dir, pack.manifest.model));
    const files = [
      path.join(pack.dir, 'lesson.json'),
      ...pack.manifest.transcripts.map((t) => path.resolve(pack.dir, t)),
      ...filesOf(modelDir),
    ];
    for (const file of files)
      hash
        .update(`${path.relative(pack.dir, file)}\0`)
        .update(fs.readFileSync(file))
        .update('\0');
    return hash.digest('hex');
  } catch {
    return undefined;
  }
}

/** Passing batches by key, in this process's memory only; the oldest go first past `limit`. */
export class PassingBatchStore {
  private readonly batches = new Map<string, PassingBatch>();
  constructor(private readonly limit = 32) {}

  get(key: string): PassingBatch | undefined {
    return this.batches.get(key);
  }

  set(key: string, batch: PassingBatch): void {
    if (batch.input.length + batch.expectedStdout.length > MAX_BATCH_BYTES) return;
    this.batches.delete(key);
    this.batches.set(key, batch);
    for (const oldest of this.batches.keys()) {
      if (this.batches.size <= this.limit) break;
      this.batches.delete(oldest);
    }
  }

  get size(): number {
    return this.batches.size;
  }

  /** Every kept batch, oldest first (the bench reads the input a correct program is given). */
  all(): PassingBatch[] {
    return [...this.batches.values()];
  }
}

/** True when the run is exactly a passing one: every answer, nothing else, a clean exit. */
export function passes(run: ProcessResult, batch: PassingBatch): boolean {
  return (
    run.exitCode === 0 &&
    !run.timedOut &&
    !run.outputLimited &&
    !run.startError &&
    !run.prepareError &&
    run.stdout === batch.expectedStdout
  );
}

/** The report the engine would give this passing run. */
export function passReport(
  pack: LoadedPack,
  language: Language,
  file: string,
  batch: PassingBatch,
  durationMs: number,
): CheckReport {
  return {
    lesson: pack.manifest.id,
    language,
    file,
    status: 'pass',
    checks: { total: batch.transcripts.length, passed: batch.transcripts.length, failed: 0, notRun: 0 },
    transcripts: batch.transcripts.map((t) => ({ name: t.name, description: t.description, passed: true })),
    mistakes: [],
    problems: [],
    counterexample: null,
    fuzz: { seed: batch.fuzz.seed, transcripts: batch.fuzz.transcripts, failed: 0, notRun: 0 },
    durationMs: Math.round(durationMs),
    processRuns: 1,
  };
}
