/**
 * Runs candidate fixes of a learner file: each edited copy is written to a private temporary folder under the
 * learner file's own name, prepared like the learner's program (TypeScript transpiled, the pack's driver) and
 * run contained (sandbox/contain.ts), exactly as a check runs it, on the check's first batch: every hidden and
 * generated transcript in one process. Its stdout is compared with what a passing program prints.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { PassingBatch } from '../../core/check/check';
import type { ProcessResult } from '../../core/check/process';
import type { Language } from '../../core/pack/schema';
import { containProgram, type ContainOptions } from '../sandbox/contain';
import { makeTempDir } from '../sandbox/tempDir';
import { trackTempDir } from '../sandbox/cleanup';
import { prepareProgram, type Interpreters } from '../languages/languages';
import { passes } from '../check/fastPass';

export interface CandidateRun {
  readonly passes: boolean;
  /** Answer lines that differ from a passing run's (fewer is closer); a run that died counts every line it missed. */
  readonly wrongLines: number;
  readonly durationMs: number;
  /** The copy's path, for a verification by the whole check. */
  readonly file: string;
}

export interface CandidateRunnerOptions {
  readonly language: Language;
  /** The learner's file: its base name is kept, so tracebacks and the driver's import see the same name. */
  readonly learnerFile: string;
  readonly interpreters: Interpreters;
  readonly driver?: string;
  readonly contain: ContainOptions;
  readonly batch: PassingBatch;
  readonly timeLimitMs: number;
  readonly outputLimitBytes: number;
}

function wrongLines(result: ProcessResult, batch: PassingBatch): number {
  const got = result.stdout.split('\n');
  const want = batch.expectedStdout.split('\n');
  let wrong = Math.abs(got.length - want.length);
  for (let i = 0; i < Math.min(got.length, want.length); i++) if (got[i] !== want[i]) wrong++;
  return wrong + (result.exitCode === 0 ? 0 : 1);
}

export class CandidateRunner {
  private folder: string | undefined;
  private untrack: (() => void) | undefined;
  private made = 0;

  constructor(private readonly options: CandidateRunnerOptions) {}

  /** Writes the source as a fresh copy and runs it once on the batch. */
  async run(source: string): Promise<CandidateRun> {
    const folder = await this.root();
    const dir = path.join(folder, `candidate-${++this.made}`);
    await fs.mkdir(dir);
    const file = path.join(dir, path.basename(this.options.learnerFile));
    await fs.writeFile(file, source);
    const { language, interpreters, driver, contain, batch } = this.options;
    const program = await prepareProgram(language, file, interpreters, driver);
    try {
      if (program.prepareError) return { passes: false, wrongLines: Infinity, durationMs: 0, file };
      const launch = await containProgram(program, contain);
      const result = await launch.run(batch.input, {
        timeLimitMs: this.options.timeLimitMs,
        outputLimitBytes: this.options.outputLimitBytes,
      });
      return {
        passes: passes(result, batch),
        wrongLines: wrongLines(result, batch),
        durationMs: result.durationMs,
        file,
      };
    } finally {
      await program.dispose();
    }
  }

  private async root(): Promise<string> {
    if (!this.folder) {
      this.folder = await makeTempDir('lesson-companion-repair-');
      // Removed by dispose, or by cleanup.ts when the process is stopped before that.
      this.untrack = trackTempDir(this.folder);
    }
    return this.folder;
  }

  async dispose(): Promise<void> {
    if (this.folder) await fs.rm(this.folder, { recursive: true, force: true });
    this.untrack?.();
    this.folder = undefined;
  }
}
