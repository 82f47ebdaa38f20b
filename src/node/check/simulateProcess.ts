/**
 * A load simulation in a child process: `lesson-companion simulate --json` (dist/cli.js), the same command the
 * terminal runs, so the pack's model stays in the CLI's engine worker and out of the editor. Like
 * checkProcess.ts: cancelling sends SIGTERM, which ends the learner's program and the worker too.
 */
import { spawn } from 'node:child_process';
import type { Language } from '../../core/pack/schema';
import type { SimulationResult } from '../../core/simulation/simulationReport';
import { parseSimulationResult } from '../../core/simulation/simulationView';
import { CheckProcessError, runBelowEditor } from './checkProcess';
import { quietNodeEnv } from '../run/nodeEnv';

export interface SimulateProcessOptions {
  /** dist/cli.js */
  readonly cli: string;
  /** The Node to run it with: in VS Code its own runtime (ELECTRON_RUN_AS_NODE is set for it). */
  readonly node: string;
  readonly file: string;
  readonly language: Language;
  readonly packDir: string;
  readonly scenario?: string;
  readonly mistake?: string;
  readonly python?: string;
  readonly nodeForLearner?: string;
  readonly timeLimitMs?: number;
  readonly signal?: AbortSignal;
  readonly env?: NodeJS.ProcessEnv;
}

/** How long a cancelled simulation may take to end what it started before it is killed outright. */
const GRACE_MS = 3000;
/** The JSON of a 200-tick scenario with a dozen servers is well under this. */
const MAX_STDOUT = 8 * 1024 * 1024;

export function simulateInChildProcess(options: SimulateProcessOptions): Promise<SimulationResult> {
  const args = [options.cli, 'simulate', options.file, '--lesson', options.packDir, '--language', options.language, '--json'];
  if (options.scenario) args.push('--scenario', options.scenario);
  if (options.mistake) args.push('--mistake', options.mistake);
  if (options.python) args.push('--python', options.python);
  if (options.nodeForLearner) args.push('--node', options.nodeForLearner);
  if (options.timeLimitMs !== undefined) args.push('--timeout', String(options.timeLimitMs));
  return new Promise<SimulationResult>((resolve, reject) => {
    const child = spawn(options.node, args, {
      env: { ...quietNodeEnv(options.env ?? process.env), ELECTRON_RUN_AS_NODE: '1', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    runBelowEditor(child.pid);
    let stdout = '';
    let stderr = '';
    let settled = false;
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    const settle = (error: CheckProcessError | undefined, result?: SimulationResult): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      clearTimeout(killTimer);
      if (error) reject(error);
      else resolve(result!);
    };
    const onAbort = (): void => {
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), GRACE_MS);
      settle(new CheckProcessError('the simulation was cancelled', true));
    };
    options.signal?.addEventListener('abort', onAbort);
    if (options.signal?.aborted) onAbort();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stdout.length < MAX_STDOUT) stdout += chunk;
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 16_384) stderr += chunk;
    });
    child.on('error', (error) => settle(new CheckProcessError(`cannot start the simulation (${options.node}): ${error.message}`)));
    child.on('close', (code) => {
      // Exit 0: the program ran the whole scenario; 1: it stopped, and the JSON says where. Both carry a result.
      if (code === 0 || code === 1) {
        let raw: unknown;
        try {
          raw = JSON.parse(stdout);
        } catch {
          raw = undefined;
        }
        const result = parseSimulationResult(raw);
        if (result) return settle(undefined, result);
      }
      const said = stderr.trim().replace(/^lesson-companion simulate: /, '');
      settle(new CheckProcessError(said || `the simulation stopped (exit code ${code}) without a result`));
    });
  });
}
