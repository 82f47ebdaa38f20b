/**
 * Runs one learner program as a real process, bounded in time and output. The process gets its own
 * process group so that everything it started can be killed together: no stray processes survive.
 */
import { spawn } from 'node:child_process';
import type { ProcessResult } from '../core/process';

export interface ProcessSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly timeLimitMs: number;
  readonly outputLimitBytes: number;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

export function runProcess(spec: ProcessSpec, input: string): Promise<ProcessResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let bytes = 0;
    let timedOut = false;
    let outputLimited = false;
    let settled = false;
    const child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: {
        ...process.env,
        PYTHONDONTWRITEBYTECODE: '1',
        PYTHONIOENCODING: 'utf-8',
        PYTHONUNBUFFERED: '1',
        NODE_OPTIONS: '',
        ...spec.env,
      },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const finish = (result: Omit<ProcessResult, 'durationMs' | 'stdout' | 'stderr' | 'timedOut' | 'outputLimited'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      killGroup(child.pid);
      resolve({ stdout, stderr, timedOut, outputLimited, ...result, durationMs: performance.now() - started });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, spec.timeLimitMs);
    const take = (chunk: Buffer, into: 'stdout' | 'stderr'): void => {
      bytes += chunk.length;
      if (bytes > spec.outputLimitBytes) {
        if (!outputLimited) {
          outputLimited = true;
          killGroup(child.pid);
        }
        return;
      }
      if (into === 'stdout') stdout += chunk.toString('utf8');
      else stderr += chunk.toString('utf8');
    };
    child.stdout.on('data', (chunk: Buffer) => take(chunk, 'stdout'));
    child.stderr.on('data', (chunk: Buffer) => take(chunk, 'stderr'));
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish({ exitCode: null, signal: null, startError: { code: error.code ?? 'ERROR', command: spec.command } });
    });
    // 'close' waits for the pipes to drain; a grandchild holding them open is killed with the group.
    child.on('close', (code, signal) => finish({ exitCode: code, signal }));
    child.on('exit', () => {
      setTimeout(() => killGroup(child.pid), 50).unref();
    });
    // A program that exits without reading all its input makes the write fail with EPIPE: not our error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}
