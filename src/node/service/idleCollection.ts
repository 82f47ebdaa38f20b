/**
 * The service's memory between checks. Left to itself, V8 grows the service's old space with each check (the
 * programs' output, the engine's reports, the batches: garbage once the answer is sent) and keeps the pages it
 * has freed: back to back, 200 checks held 1.17–1.22× the memory of 10, though the live heap stayed at 8–9 MB.
 * A full collection once each job has answered, when no other job is running, keeps it at 1.00–1.03× (about
 * 12 ms of the service's time each, after the answer is on its way, where the editor waits for nothing).
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

/** V8's full collection, where this runtime allows it (Node and Electron's Node do); undefined elsewhere. */
export function fullCollection(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose_gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

export interface CollectionTimer {
  /** Runs `fn` once the current turn of the event loop is over (after the answer's write has started). */
  later(fn: () => void): unknown;
  cancel(handle: unknown): void;
}

const NEXT_TURN: CollectionTimer = {
  later: (fn) => setTimeout(fn, 0),
  cancel: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Counts the jobs running; when the last one ends, collects on the next turn, unless another job starts first. */
export class IdleCollection {
  private running = 0;
  private pending: unknown;
  /** Collections made after jobs, for `status` (tests read it). */
  collections = 0;

  constructor(
    private readonly collect: (() => void) | undefined = fullCollection(),
    private readonly timer: CollectionTimer = NEXT_TURN,
  ) {}

  /** A full collection now (before `status` reports memory), where this runtime allows one. */
  collectNow(): void {
    this.collect?.();
  }

  /** Runs the job; once it and every other has ended, the garbage it left is collected. */
  async around<T>(job: () => Promise<T>): Promise<T> {
    this.begin();
    try {
      return await job();
    } finally {
      this.end();
    }
  }

  private begin(): void {
    this.running += 1;
    if (this.pending !== undefined) this.timer.cancel(this.pending);
    this.pending = undefined;
  }

  private end(): void {
    this.running -= 1;
    if (this.running > 0 || !this.collect) return;
    const collect = this.collect;
    this.pending = this.timer.later(() => {
      this.pending = undefined;
      collect();
      this.collections += 1;
    });
  }
}
