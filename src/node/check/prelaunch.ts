/**
 * A check's first run, started before the CLI has loaded. Starting Node and the CLI's bundle takes longer
 * than a correct program's whole run, and the editor starts the CLI for every press of Check. So each check
 * remembers its first run (the exact sandboxed command and its input), keyed by the command line that asked
 * for it; the next identical `check` starts that run from the launcher at once, and the check adopts it only
 * if the run it was about to start is the same command with the same input. Anything else (the pack changed,
 * another interpreter, no sandbox any more) discards it unread, and the check runs as if it had never been
 * started. Only sandboxed runs are remembered: theirs is the only command line that is the same every time,
 * and a run started early must be held as any other.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cacheDir, pruneCacheFolder, writeCacheFile } from '../cache/cacheDir';
import { shortHash } from '../cache/shortHash';

/** Bumped when a record's meaning changes. */
const FORMAT = 1;
/** A larger first input (a check with thousands of generated tests) is not worth keeping on disk. */
const MAX_INPUT_CHARS = 1024 * 1024;
/** A run nobody adopts (the check failed before its first run) is not left running. */
const UNCLAIMED_LIMIT_MS = 30_000;
const MAX_KEPT_OUTPUT_BYTES = 4 * 1024 * 1024;
/** Command lines remembered at most: a learner has a few files; tests and graders make many. */
const MAX_RECORDS = 100;

/** Exactly what is spawned: the same four things or it is another run. */
export interface SpawnPlan {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

interface FirstRunRecord {
  readonly format: typeof FORMAT;
  readonly plan: SpawnPlan;
  readonly input: string;
  /** Whether the check it began passed: a program that failed last time likely still fails. */
  readonly passed?: boolean;
}

/** What a run does, in the order it happened. */
export interface RunEvents {
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
  /** All input written (or it could not be: the program stopped reading). */
  inputWritten(at: number): void;
  error(error: NodeJS.ErrnoException): void;
  exit(code: number | null, signal: NodeJS.Signals | null): void;
  close(code: number | null, signal: NodeJS.Signals | null): void;
}

/** A run started early, handed to the runner with everything that already happened to it. */
export interface EarlyRun {
  readonly child: ChildProcessWithoutNullStreams;
  /** performance.now() when it was spawned: its time limit counts from there. */
  readonly startedAt: number;
  /** Replays what happened so far to `events`, then passes on what happens next. */
  attach(events: RunEvents): void;
}

type Happened = { [K in keyof RunEvents]: [K, ...Parameters<RunEvents[K]>] }[keyof RunEvents];

/**
 * Node drops a child's output that nobody listens to once it exits, so everything is listened to from the
 * start and kept until the runner takes over. Output past a few MiB is not read until then (the program
 * waits to write, as on a full pipe): a flood is the runner's to judge, not the launcher's to store.
 */
function observe(child: ChildProcessWithoutNullStreams, startedAt: number): EarlyRun & { note(event: Happened): void } {
  const kept: Happened[] = [];
  let keptBytes = 0;
  let events: RunEvents | undefined;
  const note = (event: Happened): void => {
    if (!events) {
      kept.push(event);
      return;
    }
    const [name, ...args] = event;
    (events[name] as (...a: unknown[]) => void)(...args);
  };
  const output = (name: 'stdout' | 'stderr') => (chunk: Buffer): void => {
    note([name, chunk]);
    keptBytes += events ? 0 : chunk.length;
    if (!events && keptBytes > MAX_KEPT_OUTPUT_BYTES) {
      child.stdout.pause();
      child.stderr.pause();
    }
  };
  child.stdout.on('data', output('stdout'));
  child.stderr.on('data', output('stderr'));
  child.on('error', (error) => note(['error', error]));
  child.on('exit', (code, signal) => note(['exit', code, signal]));
  child.on('close', (code, signal) => note(['close', code, signal]));
  return {
    child,
    startedAt,
    note,
    attach(listener: RunEvents): void {
      events = listener;
      for (const event of kept.splice(0)) note(event);
      child.stdout.resume();
      child.stderr.resume();
    },
  };
}

interface Slot {
  readonly recordFile: string;
  record?: FirstRunRecord;
  early?: EarlyRun;
  claimed: boolean;
}

// The launcher and the CLI's bundle are two bundles with a copy of this module each: they meet here.
const SLOT = Symbol.for('lesson-companion.prelaunch');
type Holder = { [SLOT]?: Slot };
const slot = (): Slot | undefined => (globalThis as Holder)[SLOT];

function isRecord(value: unknown): value is FirstRunRecord {
  const r = value as FirstRunRecord;
  return (
    typeof r === 'object' && r !== null && r.format === FORMAT && typeof r.input === 'string' && (r.passed === undefined || typeof r.passed === 'boolean') &&
    typeof r.plan?.command === 'string' && Array.isArray(r.plan.args) && r.plan.args.every((a) => typeof a === 'string') &&
    typeof r.plan.cwd === 'string' && typeof r.plan.env === 'object' && r.plan.env !== null &&
    Object.values(r.plan.env).every((v) => typeof v === 'string')
  );
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Spawns a plan as the runner does: its own process group, pipes, exactly its environment. */
export function spawnPlanned(plan: SpawnPlan): ChildProcessWithoutNullStreams {
  return spawn(plan.command, [...plan.args], { cwd: plan.cwd, env: { ...plan.env }, detached: true, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
}

/** From the launcher, for `check …`: starts the run this command line began with last time, if any. */
export function startPrelaunch(cwd: string, argv: readonly string[]): void {
  const dir = cacheDir('first-runs');
  if (!dir) return;
  const current: Slot = { recordFile: path.join(dir, `${shortHash(JSON.stringify([cwd, argv, process.version]))}.json`), claimed: false };
  (globalThis as Holder)[SLOT] = current;
  let record: unknown;
  try {
    record = JSON.parse(fs.readFileSync(current.recordFile, 'utf8'));
  } catch {
    return;
  }
  if (!isRecord(record)) return;
  current.record = record;
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawnPlanned(record.plan);
  } catch {
    return;
  }
  const early = observe(child, performance.now());
  child.stdin.on('error', () => undefined);
  child.stdin.end(record.input, () => early.note(['inputWritten', performance.now()]));
  current.early = early;
  const unclaimed = setTimeout(() => discard(current), UNCLAIMED_LIMIT_MS);
  unclaimed.unref();
  if (!endsWithProcess) {
    endsWithProcess = true;
    process.once('exit', () => discardEarlyRun());
  }
}

let endsWithProcess = false;

/** This check will make no run that could be the one started early (it runs without the sandbox): end it. */
export function discardEarlyRun(): void {
  const current = slot();
  if (current && !current.claimed) discard(current);
}

function discard(current: Slot): void {
  current.claimed = true;
  const early = current.early;
  if (!early) return;
  killGroup(early.child.pid);
  early.child.stdout.destroy();
  early.child.stderr.destroy();
}

/**
 * Whether a run started early waits to be adopted or discarded by this check's first run, and whether the
 * check it is the first run of passed last time.
 */
export function earlyRun(): { pending: boolean; passedLastTime: boolean } {
  const current = slot();
  const pending = current !== undefined && !current.claimed && current.early !== undefined;
  return { pending, passedLastTime: pending && current.record?.passed === true };
}

/** The check's verdict, kept with its first run when it changed (the next check starts its worker by it). */
export function rememberOutcome(passed: boolean): void {
  const current = slot();
  if (!current?.record || current.record.passed === passed) return;
  current.record = { ...current.record, passed };
  writeCacheFile(current.recordFile, JSON.stringify(current.record));
}

const samePlan = (a: SpawnPlan, b: SpawnPlan): boolean =>
  a.command === b.command && a.cwd === b.cwd && a.args.length === b.args.length && a.args.every((arg, i) => arg === b.args[i]) &&
  JSON.stringify(Object.entries(a.env).sort()) === JSON.stringify(Object.entries(b.env).sort());

/**
 * The check's first run is about to be spawned as `plan` with `input`: the run started early if it is that
 * very run (else it is discarded), and this run is remembered for the next identical check. Only the first
 * run of a check asks; later ones get undefined.
 */
export function claimFirstRun(plan: SpawnPlan, input: string): EarlyRun | undefined {
  const current = slot();
  if (!current || current.claimed) return undefined;
  const matches = current.record !== undefined && current.early !== undefined && samePlan(current.record.plan, plan) && current.record.input === input;
  if (!matches) {
    discard(current);
    if (input.length <= MAX_INPUT_CHARS) {
      current.record = { format: FORMAT, plan, input };
      writeCacheFile(current.recordFile, JSON.stringify(current.record));
      pruneCacheFolder(path.dirname(current.recordFile), MAX_RECORDS);
    } else {
      delete current.record;
      fs.rmSync(current.recordFile, { force: true });
    }
    return undefined;
  }
  current.claimed = true;
  return current.early;
}
