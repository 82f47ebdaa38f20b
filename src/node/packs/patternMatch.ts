/**
 * Runs a pack's read-order `pattern` on a learner's text off the calling thread, with a time bound and a
 * length cap. The pack's patterns were checked for exponential backtracking when it was read
 * (core/patternSafety.ts), but no analyser catches every slow pattern, and in the extension a slow match
 * on the extension host's thread would freeze every extension and the editor's language features with it.
 * A worker thread can be terminated mid-match (V8 checks for termination while it backtracks), so a match
 * that runs too long costs its time bound and nothing more.
 */
import { Worker } from 'node:worker_threads';
import { PATTERN_FLAGS } from '../../core/pack/patternSafety';

export const PATTERN_TIME_LIMIT_MS = 1000;
/** Learner files are small; the anchor of a read-order step is never megabytes down a file. */
export const PATTERN_MAX_CHARS = 512 * 1024;
/** A match needs little memory; a runaway one must not take the host's. */
const WORKER_HEAP_MB = 32;

export type PatternSearch =
  | { readonly found: true; readonly index: number }
  | { readonly found: false; readonly why: 'no-match' | 'invalid' | 'timed-out' };

export interface PatternSearchOptions {
  readonly timeLimitMs?: number;
  readonly maxChars?: number;
}

// Plain JavaScript evaluated in the worker, so the bundles need no separate worker file.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let result;
try {
  const match = new RegExp(workerData.pattern, workerData.flags).exec(workerData.text);
  result = match ? { found: true, index: match.index } : { found: false, why: 'no-match' };
} catch {
  result = { found: false, why: 'invalid' };
}
parentPort.postMessage(result);
`;

/** The index of the first match of `pattern` (read-order flags) in `text`, searched in a worker thread. */
export function searchPattern(
  pattern: string,
  text: string,
  options: PatternSearchOptions = {},
): Promise<PatternSearch> {
  const timeLimitMs = options.timeLimitMs ?? PATTERN_TIME_LIMIT_MS;
  const searched =
    text.length > (options.maxChars ?? PATTERN_MAX_CHARS) ? text.slice(0, options.maxChars ?? PATTERN_MAX_CHARS) : text;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: PatternSearch): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
      void worker.terminate();
    };
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { pattern, flags: PATTERN_FLAGS, text: searched },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 8 },
      // The learner's environment and the host's stdio are none of the worker's business.
      env: {},
      stdout: true,
      stderr: true,
    });
    const timer = setTimeout(() => settle({ found: false, why: 'timed-out' }), timeLimitMs);
    worker.once('message', (result: PatternSearch) => settle(result));
    // Out of memory, or a worker that could not start: the pattern gives no answer, like a timeout.
    worker.once('error', () => settle({ found: false, why: 'timed-out' }));
    worker.once('exit', () => settle({ found: false, why: 'timed-out' }));
  });
}
