/**
 * A learner program driven line by line: the simulation writes commands and waits for their answers before
 * it decides what to write next. Held like a batch run (runner.ts): its own process group (with a /proc
 * sweep where no sandbox holds it), the caller's environment only, a memory limit on its command line, a
 * time limit for the whole run, a cap on stdout; and also a limit on each answer, so a program that stops
 * answering is stopped at once. Registered with cleanup.ts while it lives.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { ProgramStopped, type LineSession } from '../../core/world/lineSession';
import { safeText } from '../../core/text/text';
import { trackProcess } from '../sandbox/cleanup';
import { DescendantTracker } from '../sandbox/descendants';
import { DEFAULT_STDERR_LIMIT_BYTES, OUT_OF_MEMORY, SWEEP_EVERY_MS, type ProcessSpec } from './runner';
import { endRun } from './endRun';
import { spawnPlan, spawnPlanned } from './spawnPlan';
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
  const program = new InteractiveProgram(spec);
  // A plain object of its own properties: a caller may spread it to wrap close().
  return {
    stats: program.stats,
    transcript: program.transcript,
    exchange: (commands) => program.exchange(commands),
    close: () => program.close(),
  };
}

/** The exchange waiting for its answers: the commands written, and the limit on the program's time to answer. */
interface Waiter {
  readonly commands: readonly string[];
  readonly resolve: (answers: string[]) => void;
  readonly reject: (error: ProgramStopped) => void;
  timer: NodeJS.Timeout;
  readonly since: number;
}

/**
 * One running program and what it has said: the lines it answered not yet handed out, the exchange waiting for
 * them, and why it ended. Every way out goes through end(), once; an exchange after it is refused with the reason.
 */
class InteractiveProgram {
  readonly stats = { exchanges: 0, commands: 0, waitingMs: 0 };
  /** Every command written, in order. */
  readonly transcript: string[] = [];
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly tracker: DescendantTracker | undefined;
  private readonly sweeper: NodeJS.Timeout | undefined;
  private readonly untrack: () => void;
  private readonly clock: ProgramClock;
  private readonly stderr: StderrKeeper;
  private readonly decoder = new StringDecoder('utf8');
  /** Answer lines read and not yet handed to an exchange. */
  private readonly lines: string[] = [];
  private partial = '';
  private bytes = 0;
  /** Answers handed out so far. */
  private answered = 0;
  private ended: ProgramStopped | undefined;
  private waiter: Waiter | undefined;
  private readonly wholeRun: NodeJS.Timeout;
  private exited = false;

  constructor(private readonly spec: InteractiveSpec) {
    const runId = spec.sweepDescendants ? randomBytes(12).toString('hex') : undefined;
    const child = (this.child = spawnPlanned(spawnPlan(spec, runId)));
    const tracker = (this.tracker =
      runId && child.pid !== undefined ? new DescendantTracker(child.pid, `LESSON_COMPANION_RUN=${runId}`) : undefined);
    this.sweeper = tracker ? setInterval(() => tracker.poll(), SWEEP_EVERY_MS) : undefined;
    this.untrack = trackProcess(() => this.stop());
    this.clock = new ProgramClock(child.pid);
    this.stderr = new StderrKeeper(spec.stderrLimitBytes ?? DEFAULT_STDERR_LIMIT_BYTES);
    this.wholeRun = setTimeout(
      () =>
        this.end(
          new ProgramStopped(
            `it took longer than the ${seconds(spec.timeLimitMs)} a whole run may take`,
            this.details(),
          ),
        ),
      spec.timeLimitMs,
    );
    this.listen();
  }

  private listen(): void {
    const child = this.child;
    child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
    child.stderr.on('data', (chunk: Buffer) => this.stderr.add(chunk));
    child.stdin.on('error', () => undefined);
    child.on('error', (error: NodeJS.ErrnoException) => {
      this.end(
        new ProgramStopped(
          error.code === 'ENOENT'
            ? `${this.spec.command} could not be started: it was not found`
            : `${this.spec.command} could not be started: ${error.message}`,
        ),
      );
    });
    child.on('exit', (code, signal) => {
      this.exited = true;
      // Wait for the pipes to give what they hold (the traceback), but not for ever.
      setTimeout(() => this.exitedWith(code, signal), PIPE_GRACE_MS).unref();
    });
    child.on('close', (code, signal) => this.exitedWith(code, signal));
  }

  exchange(commands: readonly string[]): Promise<string[]> {
    if (this.ended) return Promise.reject(this.ended);
    return new Promise<string[]>((resolve, reject) => {
      const allowed = this.spec.answerTimeLimitMs + (this.answered === 0 ? START_GRACE_MS : 0);
      const since = performance.now();
      this.clock.mark();
      const timer = setTimeout(() => this.judgeLateAnswer(since, allowed), allowed);
      this.waiter = { commands, resolve, reject, timer, since };
      this.stats.exchanges++;
      this.stats.commands += commands.length;
      this.transcript.push(...commands);
      this.child.stdin.write(`${commands.join('\n')}\n`);
      this.settle();
    });
  }

  async close(): Promise<void> {
    if (!this.ended && !this.exited) {
      const child = this.child;
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
    this.end(this.ended ?? new ProgramStopped('closed'));
  }

  private stop(): void {
    endRun(this.child, this.spec.runWord, this.bytes > 0);
    this.tracker?.killAll();
  }

  /** The first command without an answer yet, in words: `"PICK" (command 14)`. */
  private unanswered(): string {
    const { waiter, answered } = this;
    const index = waiter ? Math.min(this.lines.length, waiter.commands.length - 1) : -1;
    return index < 0
      ? `command ${answered + 1}`
      : `"${safeText(waiter!.commands[index]!)}" (command ${answered + index + 1})`;
  }

  private details(): string | undefined {
    const text = this.stderr.text().trim();
    return text ? safeText(text, { multiline: true }) : undefined;
  }

  private end(reason: ProgramStopped): void {
    if (this.ended) return;
    this.ended = reason;
    clearTimeout(this.wholeRun);
    clearInterval(this.sweeper);
    this.stop();
    this.untrack();
    if (this.waiter) {
      clearTimeout(this.waiter.timer);
      this.waiter.reject(reason);
      this.waiter = undefined;
    }
  }

  /** Hands the waiting exchange its answers once the program has given them all. */
  private settle(): void {
    const waiter = this.waiter;
    if (!waiter || this.lines.length < waiter.commands.length) return;
    const answers = this.lines.splice(0, waiter.commands.length);
    this.answered += answers.length;
    clearTimeout(waiter.timer);
    this.stats.waitingMs += performance.now() - waiter.since;
    waiter.resolve(answers);
    this.waiter = undefined;
  }

  /** Splits stdout into answer lines (a line's \r dropped), or ends a program that prints more than answers need. */
  private read(chunk: Buffer): void {
    const limit = this.spec.outputLimitBytes;
    this.bytes += chunk.length;
    if (this.bytes > limit) {
      this.end(
        new ProgramStopped(
          `it printed more than ${Math.round(limit / 1024)} KiB on stdout, more than the answers need (a print in a loop?)`,
          this.details(),
        ),
      );
      return;
    }
    const text = this.partial + this.decoder.write(chunk);
    const parts = text.split('\n');
    this.partial = parts.pop()!;
    for (const line of parts) this.lines.push(line.endsWith('\r') ? line.slice(0, -1) : line);
    this.settle();
  }

  /** The answer is late by the clock: the limit is on the program's own time (programClock.ts), so waiting for a core is not being slow to answer. */
  private judgeLateAnswer(since: number, allowed: number): void {
    const charged = this.clock.chargedSince(since);
    if (this.waiter && charged < allowed - 5) {
      this.waiter.timer = setTimeout(
        () => this.judgeLateAnswer(since, allowed),
        Math.min(allowed - charged, RECHECK_MS),
      );
      return;
    }
    this.end(
      new ProgramStopped(
        `it stopped answering: no answer to ${this.unanswered()} within ${seconds(allowed)} (it may loop for ever, or wait to read all its input first: it must answer each command as soon as it reads it)`,
        this.details(),
      ),
    );
  }

  /** The program ended before the run did: out of memory, by itself, or crashed. */
  private exitedWith(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.ended) return;
    const said = this.details();
    const memory = this.spec.memoryLimitMiB !== undefined && OUT_OF_MEMORY.test(this.stderr.text());
    const at = `at ${this.unanswered()}`;
    if (memory)
      this.end(new ProgramStopped(`it ran out of memory (the limit is ${this.spec.memoryLimitMiB} MiB) ${at}`, said));
    else if (code === 0)
      this.end(
        new ProgramStopped(
          `it ended by itself ${at}, before the run was over: it must keep reading commands until its input ends`,
          said,
        ),
      );
    else
      this.end(
        new ProgramStopped(
          `it crashed (${signal ? `signal ${signal}` : `exit code ${code}`}) ${at}${said ? '; its error output is below' : ''}`,
          said,
        ),
      );
  }
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
