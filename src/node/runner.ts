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
    // Raw chunks, decoded once at the end: a character split across two chunks must not turn into garbage.
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let bytes = 0;
    let lastOutput = performance.now();
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
      const text = (chunks: Buffer[]): string => Buffer.concat(chunks).toString('utf8');
      // A line cut by the output limit is not a line the program printed ("still" of "still looking…" would
      // pass for an answer), so stdout ends at its last complete line.
      const out = outputLimited ? text(stdout).replace(/[^\n]*$/, '') : text(stdout);
      resolve({ stdout: out, stderr: text(stderr), timedOut, outputLimited, ...result, durationMs: performance.now() - started });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, spec.timeLimitMs);
    const take = (chunk: Buffer, into: 'stdout' | 'stderr'): void => {
      lastOutput = performance.now();
      // Keep output up to the limit, also from the chunk that crosses it: it may hold the last real answers.
      const room = Math.max(0, spec.outputLimitBytes - bytes);
      bytes += chunk.length;
      if (room > 0) (into === 'stdout' ? stdout : stderr).push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      if (bytes > spec.outputLimitBytes && !outputLimited) {
        outputLimited = true;
        killGroup(child.pid);
      }
    };
    child.stdout.on('data', (chunk: Buffer) => take(chunk, 'stdout'));
    child.stderr.on('data', (chunk: Buffer) => take(chunk, 'stderr'));
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish({ exitCode: null, signal: null, startError: { code: error.code ?? 'ERROR', command: spec.command } });
    });
    // 'close' waits for the pipes to drain; a grandchild holding them open is killed with the group.
    child.on('close', (code, signal) => finish({ exitCode: code, signal }));
    child.on('exit', (code, signal) => {
      setTimeout(() => killGroup(child.pid), 50).unref();
      // A grandchild that left the group (setsid) can hold the pipes open for ever: once they have been quiet
      // for a second after the exit, stop waiting. The check runs after one more poll (setImmediate), so
      // output that only waits because this process was busy is still read first.
      const giveUp = (): void => {
        setImmediate(() => {
          if (settled) return;
          if (!timedOut && !outputLimited && performance.now() - lastOutput < 1000) {
            setTimeout(giveUp, 1000).unref();
            return;
          }
          child.stdout.destroy();
          child.stderr.destroy();
          finish({ exitCode: code, signal });
        });
      };
      setTimeout(giveUp, 1000).unref();
    });
    // A program that exits without reading all its input makes the write fail with EPIPE: not our error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}
