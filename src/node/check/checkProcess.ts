/**
 * A check in a child process: the same `lesson-companion check` the command line runs (dist/cli.js, with
 * `--events`), so the editor and the CLI share one code path, and no pack code or long diagnosis ever runs
 * in the editor's own process. Cancelling ends the child, which ends everything it started (cleanup.ts).
 */
import { spawn } from 'node:child_process';
import * as os from 'node:os';
import type { CheckReport } from '../../core/report/report';
import type { Language } from '../../core/pack/schema';
import { quietNodeEnv } from '../run/nodeEnv';

export interface CheckProcessOptions {
  /** dist/cli.js */
  readonly cli: string;
  /** The Node to run it with: in VS Code its own runtime (ELECTRON_RUN_AS_NODE is set for it). */
  readonly node: string;
  readonly file: string;
  readonly language: Language;
  /** The lesson pack's folder. */
  readonly packDir: string;
  readonly python?: string;
  readonly nodeForLearner?: string;
  readonly timeLimitMs?: number;
  readonly onPhase?: (phase: string) => void;
  readonly signal?: AbortSignal;
  readonly env?: NodeJS.ProcessEnv;
}

/** The child could not give a report: what it said, in words. */
export class CheckProcessError extends Error {
  constructor(
    message: string,
    readonly cancelled = false,
  ) {
    super(message);
    this.name = 'CheckProcessError';
  }
}

/** How long a cancelled check may take to end everything it started before it is killed outright. */
const GRACE_MS = 3000;

/**
 * A check started from the editor runs below the editor's priority (nice 10, inherited by the learner's
 * program and the engine worker): on a machine with few cores its processes would otherwise take the CPU
 * from the extension host while it has work to do, and the editor would stall for the check's sake.
 */
export function runBelowEditor(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    os.setPriority(pid, BACKGROUND_PRIORITY);
  } catch {
    // Not allowed here (or the process is already gone): it runs at the editor's priority.
  }
}
const BACKGROUND_PRIORITY = 10;

export function checkInChildProcess(options: CheckProcessOptions): Promise<CheckReport> {
  const args = [options.cli, 'check', options.file, '--lesson', options.packDir, '--language', options.language, '--events'];
  if (options.python) args.push('--python', options.python);
  if (options.nodeForLearner) args.push('--node', options.nodeForLearner);
  if (options.timeLimitMs !== undefined) args.push('--timeout', String(options.timeLimitMs));
  return new Promise<CheckReport>((resolve, reject) => {
    const child = spawn(options.node, args, {
      env: { ...quietNodeEnv(options.env ?? process.env), ELECTRON_RUN_AS_NODE: '1', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    runBelowEditor(child.pid);
    let report: CheckReport | undefined;
    let stderr = '';
    let buffered = '';
    let settled = false;
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    const settle = (error?: CheckProcessError): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      clearTimeout(killTimer);
      if (error) reject(error);
      else if (report) resolve(report);
      else reject(new CheckProcessError('the check ended without a report'));
    };
    const onAbort = (): void => {
      // SIGTERM lets the CLI end the learner's processes and remove its temporary folders first.
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), GRACE_MS);
      settle(new CheckProcessError('the check was cancelled', true));
    };
    options.signal?.addEventListener('abort', onAbort);
    if (options.signal?.aborted) onAbort();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        let event: { type?: unknown; phase?: unknown; report?: unknown };
        try {
          event = JSON.parse(line) as typeof event;
        } catch {
          continue;
        }
        if (event.type === 'phase' && typeof event.phase === 'string') options.onPhase?.(event.phase);
        if (event.type === 'report' && typeof event.report === 'object' && event.report !== null) report = event.report as CheckReport;
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 16_384) stderr += chunk;
    });
    child.on('error', (error) => settle(new CheckProcessError(`cannot start the check (${options.node}): ${error.message}`)));
    child.on('close', (code) => {
      if (report) return settle();
      // Exit code 2 is a usage or lesson-pack error: the CLI said which, in words, on stderr.
      const said = stderr.trim().replace(/^lesson-companion check: /, '');
      settle(new CheckProcessError(said || `the check stopped (exit code ${code})`));
    });
  });
}
