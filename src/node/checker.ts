/** Checks a learner file against a loaded pack: the Node side of core `check`. */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { check, defaultSeed } from '../core/check';
import type { CheckReport } from '../core/report';
import type { Language } from '../core/schema';
import { DEFAULT_INTERPRETERS, prepareProgram, type Interpreters } from './languages';
import { resolveInside, type LoadedPack } from './packs';
import { runProcess } from './runner';

export interface CheckFileOptions {
  readonly interpreters?: Partial<Interpreters>;
  readonly timeLimitMs?: number;
  readonly outputLimitBytes?: number;
  readonly seed?: number;
  readonly fuzzTranscripts?: number;
}

export const DEFAULT_TIME_LIMIT_MS = 5000;
export const DEFAULT_OUTPUT_LIMIT_BYTES = 1024 * 1024;

export async function checkFile(pack: LoadedPack, file: string, language: Language, options: CheckFileOptions = {}): Promise<CheckReport> {
  const interpreters: Interpreters = { ...DEFAULT_INTERPRETERS, ...options.interpreters };
  const starter = pack.manifest.starters[language];
  const driver = starter?.driver ? await resolveInside(pack.dir, starter.driver) : undefined;
  if (starter?.driver && !driver) throw new Error(`the pack's ${language} driver points outside the pack`);
  const absolute = path.resolve(file);
  const source = await fs.readFile(absolute, 'utf8');
  const program = await prepareProgram(language, absolute, interpreters, driver);
  const timeLimitMs = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  const outputLimitBytes = options.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES;
  try {
    return await check({
      manifest: pack.manifest,
      model: pack.model,
      transcripts: pack.transcripts,
      language,
      file,
      fileName: program.fileName,
      source,
      clock: () => performance.now(),
      options: {
        seed: options.seed ?? defaultSeed(pack.manifest),
        ...(options.fuzzTranscripts !== undefined ? { fuzzTranscripts: options.fuzzTranscripts } : {}),
        timeLimitMs,
        outputLimitBytes,
        interpreter: program.command,
      },
      execute: async (input) => {
        if (program.prepareError) {
          return { stdout: '', stderr: '', exitCode: null, signal: null, timedOut: false, outputLimited: false, prepareError: program.prepareError, durationMs: 0 };
        }
        return runProcess({ command: program.command, args: program.args, cwd: program.cwd, timeLimitMs, outputLimitBytes }, input);
      },
    });
  } finally {
    await program.dispose();
  }
}
