/**
 * A learner program driven line by line: the simulation writes commands and waits for their answers before
 * it decides what to write next. Held like a batch run (runner.ts): its own process group (with a /proc
 * sweep where no sandbox holds it), the caller's environment only, a memory limit on its command line, a
 * time limit for the whole run, a cap on stdout; and also a limit on each answer, so a program that stops
 * answering is stopped at once. Registered with cleanup.ts while it lives.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { ProgramStopped, type LineSession } from '../../core/world/lineSession';
import { safeText } from '../../core/text/text';
import { trackProcess } from '../sandbox/cleanup';
import { DescendantTracker } from '../sandbox/descendants';
import { DEFAULT_STDERR_LIMIT_BYTES, killGroup, OUT_OF_MEMORY, SWEEP_EVERY_MS, type ProcessSpec } from './runner';
import { ProgramClock } from './programClock';
import { StderrKeeper } from './stderrKeeper';

export interface InteractiveSpec extends Omit<ProcessSpec, 'stallMs' | 'timeLimitMs'> {
  /** The whole run. */
  readonly timeLimitMs: number;
  /** How long one answer may take once its command is written. */
  readonly answerTimeLimitMs: number;
}

export interface SessionStats {
  /** Round trips: writes whose answers were waited for. */
  readonly exchanges: number;
  readonly commands: number;
  /** Time spent waiting for answers, in ms. */
  readonly waitingMs: number;
}

export interface InteractiveSession extends LineSession {
  readonly stats: SessionStats;
  /** Every command written, in order. */
  readonly transcript: readonly string[];
  /** Ends the program (and everything it started). */
  close(): Promise<void>;
}

/** An interpreter starting on a loaded machine gets this much more for its first answer. */
const START_GRACE_MS = 3000;
/** How often a silent program's CPU time is read once the clock says its answer is late but its CPU time does not. */
const RECHECK_MS = 200;
/** After the program exits, how long its pipes may stay open (a grandchild holding them) before we stop waiting. */
const PIPE_GRACE_MS = 500;

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

export function startInteractive(spec: InteractiveSpec): InteractiveSession {
  const runId = spec.sweepDescendants ? randomBytes(12).toString('hex') : undefined;
  const env = {
    ...(spec.inheritEnv === false
      ? {}
      : {
          ...process.env,
          PYTHONDONTWRITEBYTECODE: '1',
          PYTHONIOENCODING: 'utf-8',
          PYTHONUNBUFFERED: '1',
          NODE_OPTIONS: '',
        }),
    ...spec.env,
    ...(runId ? { LESSON_COMPANION_RUN: runId } : {}),
  };
  const child = spawn(spec.command, [...spec.args], {
    cwd: spec.cwd,
    env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const tracker =
    runId && child.pid !== undefined ? new DescendantTracker(child.pid, `LESSON_COMPANION_RUN=${runId}`) : undefined;
  const sweeper = tracker ? setInterval(() => tracker.poll(), SWEEP_EVERY_MS) : undefined;
  const stop = (): void => {
    killGroup(child.pid);
    tracker?.killAll();
  };
  const untrack = trackProcess(stop);
  const clock = new ProgramClock(child.pid);
  const stderr = new StderrKeeper(spec.stderrLimitBytes ?? DEFAULT_STDERR_LIMIT_BYTES);
  const decoder = new StringDecoder('utf8');
  const lines: string[] = [];
  let partial = '';
  let bytes = 0;
  let answered = 0;
  const transcript: string[] = [];
  const stats = { exchanges: 0, commands: 0, waitingMs: 0 };
  let ended: ProgramStopped | undefined;
  let waiter:
    | {
        commands: readonly string[];
        resolve: (answers: string[]) => void;
        reject: (error: ProgramStopped) => void;
        timer: NodeJS.Timeout;
        since: number;
      }
    | undefined;
  /** The first command without an answer yet, in words: `"PICK" (command 14)`. */
  const unanswered = (): string => {
    const index = waiter ? Math.min(lines.length, waiter.commands.length - 1) : -1;
    return index < 0
      ? `command ${answered + 1}`
      : `"${safeText(waiter!.commands[index]!)}" (command ${answered + index + 1})`;
  };

  const details = (): string | undefined => {
    const text = stderr.text().trim();
    return text ? safeText(text, { multiline: true }) : undefined;
  };
  const end = (reason: ProgramStopped): void => {
    if (ended) return;
    ended = reason;
    clearTimeout(wholeRun);
    clearInterval(sweeper);
    stop();
    untrack();
    if (waiter) {
      clearTimeout(waiter.timer);
      waiter.reject(reason);
      waiter = undefined;
    }
  };
  const settle = (): void => {
    if (!waiter || lines.length < waiter.commands.length) return;
    const answers = lines.splice(0, waiter.commands.length);
    answered += answers.length;
    clearTimeout(waiter.timer);
    stats.waitingMs += performance.now() - waiter.since;
    waiter.resolve(answers);
    waiter = undefined;
  };
  const wholeRun = setTimeout(
    () =>
      end(new ProgramStopped(`it took longer than the ${seconds(spec.timeLimitMs)} a whole run may take`, details())),
    spec.timeLimitMs,
  );

  child.stdout.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > spec.outputLimitBytes) {
      end(
        new ProgramStopped(
          `it printed more than ${Math.round(spec.outputLimitBytes / 1024)} KiB on stdout, more than the answers need (a print in a loop?)`,
          details(),
        ),
      );
      return;
    }
    const text = partial + decoder.write(chunk);
    const parts = text.split('\n');
    partial = parts.pop()!;
    for (const line of parts) lines.push(line.endsWith('\r') ? line.slice(0, -1) : line);
    settle();
  });
  child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
  child.stdin.on('error', () => undefined);
  child.on('error', (error: NodeJS.ErrnoException) => {
    end(
      new ProgramStopped(
        error.code === 'ENOENT'
          ? `${spec.command} could not be started: it was not found`
          : `${spec.command} could not be started: ${error.message}`,
      ),
    );
  });
  let exited = false;
  const exitedWith = (code: number | null, signal: NodeJS.Signals | null): void => {
    if (ended) return;
    const said = details();
    const memory = spec.memoryLimitMiB !== undefined && OUT_OF_MEMORY.test(stderr.text());
    const at = `at ${unanswered()}`;
    if (memory) end(new ProgramStopped(`it ran out of memory (the limit is ${spec.memoryLimitMiB} MiB) ${at}`, said));
    else if (code === 0)
      end(
        new ProgramStopped(
          `it ended by itself ${at}, before the run was over: it must keep reading commands until its input ends`,
          said,
        ),
      );
    else
      end(
        new ProgramStopped(
          `it crashed (${signal ? `signal ${signal}` : `exit code ${code}`}) ${at}${said ? '; its error output is below' : ''}`,
          said,
        ),
      );
  };
  child.on('exit', (code, signal) => {
    exited = true;
    // Wait for the pipes to give what they hold (the traceback), but not for ever.
    setTimeout(() => exitedWith(code, signal), PIPE_GRACE_MS).unref();
  });
  child.on('close', (code, signal) => exitedWith(code, signal));

  return {
    stats,
    transcript,
    exchange(commands) {
      if (ended) return Promise.reject(ended);
      return new Promise<string[]>((resolve, reject) => {
        const allowed = spec.answerTimeLimitMs + (answered === 0 ? START_GRACE_MS : 0);
        const since = performance.now();
        clock.mark();
        // The limit is on the program's own time (programClock.ts): waiting for a core is not being slow to answer.
        const judge = (): void => {
          const charged = clock.chargedSince(since);
          if (waiter && charged < allowed - 5) {
            waiter.timer = setTimeout(judge, Math.min(allowed - charged, RECHECK_MS));
            return;
          }
          end(
            new ProgramStopped(
              `it stopped answering: no answer to ${unanswered()} within ${seconds(allowed)} (it may loop for ever, or wait to read all its input first: it must answer each command as soon as it reads it)`,
              details(),
            ),
          );
        };
        const timer = setTimeout(judge, allowed);
        waiter = { commands, resolve, reject, timer, since };
        stats.exchanges++;
        stats.commands += commands.length;
        transcript.push(...commands);
        child.stdin.write(`${commands.join('\n')}\n`);
        settle();
      });
    },
    async close() {
      if (!ended && !exited) {
        child.stdin.end();
        // A program that reads to the end of its input exits by itself; give it a moment before the kill.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 200);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      end(ended ?? new ProgramStopped('closed'));
    },
  };
}

/** A session for a program that cannot start at all: every exchange ends the run with why. */
export function failedSession(message: string): InteractiveSession {
  const reason = new ProgramStopped(message);
  return {
    stats: { exchanges: 0, commands: 0, waitingMs: 0 },
    transcript: [],
    exchange: () => Promise.reject(reason),
    close: async () => undefined,
  };
}
