/** Checks a learner file against a loaded pack: the Node side of core `check`. */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { check, defaultSeed, type LocateAttempt } from '../core/check';
import { rankSuspiciousLines } from '../core/spectrum';
import type { CheckReport, Location } from '../core/report';
import type { Language } from '../core/schema';
import { DEFAULT_INTERPRETERS, prepareProgram, type Interpreters, type PreparedProgram } from './languages';
import { linesIn, traceCommandLines, tracedFiles } from './lineTrace';
import { replayLine } from './replay';
import { loadPack, resolveInside, type LoadedPack } from './packs';
import { runProcess } from './runner';

export interface CheckFileOptions {
  readonly interpreters?: Partial<Interpreters>;
  readonly timeLimitMs?: number;
  readonly outputLimitBytes?: number;
  readonly seed?: number;
  readonly fuzzTranscripts?: number;
}

/**
 * Traces the learner's program on each attempt in turn until the lines of one failing command stand out
 * from those of the right commands of its kind (src/core/spectrum.ts).
 */
async function locateLines(
  program: PreparedProgram,
  learnerFile: string,
  language: Language,
  attempts: readonly LocateAttempt[],
  limits: { timeLimitMs: number; outputLimitBytes: number },
): Promise<{ location?: Location; runs: number }> {
  let runs = 0;
  for (const attempt of attempts) {
    runs += 1;
    const trace = await traceCommandLines({
      language,
      spec: { command: program.command, args: program.args, cwd: program.cwd, ...limits },
      files: tracedFiles(program, learnerFile),
      commands: attempt.commands,
      answers: attempt.answers,
    });
    if (!trace) continue;
    const ranked = rankSuspiciousLines({
      commands: attempt.commands,
      lines: linesIn(trace, learnerFile),
      failingIndex: attempt.failingIndex,
      otherFailing: attempt.otherFailing,
      failingAnswer: attempt.answers[attempt.failingIndex] ?? null,
    });
    if (ranked?.discriminating) return { location: { lines: ranked.lines, function: null, reason: ranked.reason }, runs };
  }
  return { runs };
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
      model: pack.model ?? (await loadPack(pack.dir, pack.origin, { model: true })).model!,
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
        concurrency: Math.max(1, Math.min(2, os.availableParallelism?.() ?? os.cpus().length)),
      },
      replay: (stdin) => replayLine(stdin, language, absolute, pack.manifest.id, interpreters, driver),
      ...(program.prepareError ? {} : { locate: (attempts) => locateLines(program, absolute, language, attempts, { timeLimitMs, outputLimitBytes }) }),
      execute: async (input, limits) => {
        if (program.prepareError) {
          return { stdout: '', stderr: '', exitCode: null, signal: null, timedOut: false, outputLimited: false, prepareError: program.prepareError, durationMs: 0 };
        }
        return runProcess({ command: program.command, args: program.args, cwd: program.cwd, timeLimitMs, outputLimitBytes: limits?.outputLimitBytes ?? outputLimitBytes }, input);
      },
    });
  } finally {
    await program.dispose();
  }
}
