// The queue world shipped with lesson-companion: `export { queueWorld as world, queueBaselines as baselines } from 'lesson-companion/worlds/queues'`.
// Written to match src/worlds/queues.ts; see docs/authoring.md ("World scenarios").
import type { Baseline, ScenarioWorld } from 'lesson-companion/model';

/** The pack's command words, as templates: `{servers}` is the pool, `{server}` one server. */
export interface QueueCommands {
  readonly start: readonly string[];
  readonly pick: string;
  readonly afterPick?: string;
  readonly done: string;
  readonly down?: string;
  readonly up?: string;
  /** Answers to `pick` that mean "no server now": the request is offered again the next tick. */
  readonly wait?: readonly string[];
  /** Answers to `pick` that mean "nowhere to send it": the request fails. */
  readonly refuse?: readonly string[];
}

export interface QueueParams {
  readonly servers: readonly { readonly name: string; readonly capacity: number }[];
  readonly ticks: number;
  /** Client sessions, each sending one request per tick, in order: session-0, session-1, … (or `arrivals`). */
  readonly sessions?: number;
  /** Requests per tick, and ticks with another number (a burst) (or `sessions`). */
  readonly arrivals?: { readonly perTick: number; readonly at?: readonly { readonly tick: number; readonly requests: number }[] };
  /** At the start of a tick a server goes down, comes back, or works at another speed. */
  readonly events?: readonly { readonly tick: number; readonly server: string; readonly health?: 'down' | 'up'; readonly capacity?: number }[];
  /** A seeded share of finished requests reported twice (only on `servers`, when given). */
  readonly duplicateDone?: { readonly percent: number; readonly servers?: readonly string[] };
  /** Default: POOL {servers}, PICK, DONE {server}. */
  readonly commands?: QueueCommands;
}

export declare const DEFAULT_QUEUE_COMMANDS: QueueCommands;
export declare function arrivalsAt(params: QueueParams, tick: number): number;
export declare function md5Hex(text: string): string;
export declare function hexMod(hex: string, n: number): number;
/** Measures per tick: `sent` and `queue` per server, `failed` and `waiting` in all. */
export declare const queueWorld: ScenarioWorld<unknown, QueueParams>;
/** `round-robin` and `sticky` (sessions pinned by md5(session_id) % servers), speaking these command words. */
export declare function queueBaselinesFor(commands: QueueCommands): Readonly<Record<string, Baseline<unknown>>>;
/** `queueBaselinesFor` the default commands. */
export declare const queueBaselines: Readonly<Record<string, Baseline<unknown>>>;
