// The queue world shipped with lesson-companion: `export { queueWorld as world, queueBaselines as baselines } from 'lesson-companion/worlds/queues'`.
// Generated from src/worlds/queues.ts by scripts/write-model-types.mjs; do not edit. See docs/authoring.md ("World scenarios").
/**
 * The queue world shipped with lesson-companion, for balancer packs: a model imports it as
 * `lesson-companion/worlds/queues` (the one specifier outside its own pack the model loader resolves, to this
 * file: dist/worlds/queues.js when bundled), so the balancer packs share one copy instead of three.
 *
 * A pool of servers, each finishing up to its capacity of requests per tick. Each tick: what happens to the
 * servers first (one goes down, comes back, or changes speed: `events`), then every arriving request is picked
 * (the pick command, answered with a server, or with a word that means "wait" or "refused"), then each server
 * works off up to its capacity and every finished request is reported (the done command; a seeded share of
 * them twice with `duplicateDone`, a retry after a timeout). A request sent to a server that is down fails at
 * once, and the balancer hears it ended. Measures per tick: requests sent to each server (`sent`), what each
 * holds after the tick's work (`queue`), requests that failed (`failed`) and requests waiting at the balancer
 * (`waiting`).
 *
 * The commands are the pack's own words, as templates (`{servers}`: the pool; `{server}`: one server);
 * by default `POOL {servers}`, `PICK` and `DONE {server}`. Arrivals: `sessions` client sessions sending one
 * request each per tick (session-0 first), or `arrivals` with a steady rate and ticks of their own (a burst).
 *
 * Its baselines: round robin, and the chapter's sticky sessions (a session pinned to
 * `md5(session_id) % servers`). A baseline sees only the commands, so the sticky one knows a request's session
 * from the order requests arrive in: request k of a tick is session k's (`session-<k>`), as the world sends
 * them. `queueBaselinesFor(commands)` speaks other command words. Pack code: only the language, no I/O.
 */
import type { Baseline, ScenarioWorld } from 'lesson-companion/model';
import type { Random } from 'lesson-companion/model';
export declare function md5Hex(text: string): string;
/** The hex number `hex` modulo `n`, digit by digit (no BigInt needed). */
export declare function hexMod(hex: string, n: number): number;
export interface QueueCommands {
    /** Sent once before the first tick, e.g. ["POOL {servers}"]. */
    readonly start: readonly string[];
    /** Sent for every arriving request; its answer is where the request goes. */
    readonly pick: string;
    /** Sent after a pick that named a server, for protocols that count a request in a command of its own. */
    readonly afterPick?: string;
    /** Sent for every finished request. */
    readonly done: string;
    readonly down?: string;
    readonly up?: string;
    /** Answers to the pick command that mean "no server now": the request is offered again the next tick. */
    readonly wait?: readonly string[];
    /** Answers that mean "nowhere to send it": the request fails. */
    readonly refuse?: readonly string[];
}
export interface QueueParams {
    readonly servers: readonly {
        readonly name: string;
        readonly capacity: number;
    }[];
    readonly ticks: number;
    /** Client sessions, each sending one request per tick, in order: session-0, session-1, … */
    readonly sessions?: number;
    /** Instead of sessions: requests per tick, and ticks with another number (a burst). */
    readonly arrivals?: {
        readonly perTick: number;
        readonly at?: readonly {
            readonly tick: number;
            readonly requests: number;
        }[];
    };
    /** At the start of a tick, a server goes down or comes back (`health`), or works at another speed (`capacity`). */
    readonly events?: readonly {
        readonly tick: number;
        readonly server: string;
        readonly health?: 'down' | 'up';
        readonly capacity?: number;
    }[];
    /** A share of finished requests reported twice, chosen with the scenario's seed; only on `servers` when given. */
    readonly duplicateDone?: {
        readonly percent: number;
        readonly servers?: readonly string[];
    };
    readonly commands?: QueueCommands;
}
export declare const DEFAULT_QUEUE_COMMANDS: QueueCommands;
interface QueueState {
    readonly params: QueueParams;
    readonly commands: QueueCommands;
    readonly names: readonly string[];
    readonly random: Random;
    capacities: number[];
    queues: number[];
    sent: number[];
    down: Set<string>;
    finished: string[];
    failed: number;
    waiting: number;
}
/** The requests arriving at `tick` (from 1): a tick of its own, else the steady rate, else one per session. */
export declare function arrivalsAt(params: QueueParams, tick: number): number;
export declare const queueWorld: ScenarioWorld<QueueState, QueueParams>;
interface PickerState {
    readonly pool: readonly string[];
    readonly picks: number;
}
/** Round robin (blind to load and health) and sticky sessions, speaking these command words. */
export declare function queueBaselinesFor(commands: QueueCommands): Readonly<Record<string, Baseline<PickerState>>>;
export declare const queueBaselines: Readonly<Record<string, Baseline<PickerState>>>;
export {};
