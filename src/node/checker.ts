/** Checks a learner file against a loaded pack: the Node side of core `check`. */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { check, defaultSeed } from '../core/check';
import type { CheckReport } from '../core/report';
import type { Language } from '../core/schema';
import { containProgram } from './contain';
import { DEFAULT_INTERPRETERS, prepareProgram, type Interpreters } from './languages';
import { resolveInside, type LoadedPack } from './packs';
import { sandboxSettingFromEnv, type SandboxSetting } from './sandbox';

export interface CheckFileOptions {
  readonly interpreters?: Partial<Interpreters>;
  readonly timeLimitMs?: number;
  readonly outputLimitBytes?: number;
  readonly seed?: number;
  readonly fuzzTranscripts?: number;
  /** `require` fails (SandboxUnavailableError) where there is no sandbox; default: LESSON_COMPANION_SANDBOX, else auto. */
  readonly sandbox?: SandboxSetting;
  readonly memoryLimitMiB?: number;
}

export const DEFAULT_TIME_LIMIT_MS = 5000;
export const DEFAULT_OUTPUT_LIMIT_BYTES = 1024 * 1024;
/**
 * Time each command may take in a batch. The time limit is for a whole process, and one process answers
 * hundreds of commands: a correct program taking 10 ms per command must not fail a 598-command batch.
 * A hang does not wait for this: the runner stops a program that stopped answering after about 1 s.
 */
export const PER_COMMAND_BUDGET_MS = 25;

/** The time limit for a run with this input: the limit, or the per-command budget times the commands if more. */
export function timeLimitFor(input: string, timeLimitMs: number): number {
  let commands = 0;
  for (let i = input.indexOf('\n'); i >= 0; i = input.indexOf('\n', i + 1)) commands++;
  return Math.max(timeLimitMs, commands * PER_COMMAND_BUDGET_MS);
}

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
    const launch = await containProgram(program, {
      setting: options.sandbox ?? sandboxSettingFromEnv(),
      hidden: [pack.dir],
      ...(options.memoryLimitMiB !== undefined ? { memoryLimitMiB: options.memoryLimitMiB } : {}),
    });
    const report = await check({
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
        return launch.run(input, { timeLimitMs: timeLimitFor(input, timeLimitMs), outputLimitBytes });
      },
    });
    return { ...report, containment: launch.containment };
  } finally {
    await program.dispose();
  }
}
