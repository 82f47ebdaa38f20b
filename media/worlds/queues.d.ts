// The queue world shipped with lesson-companion: `export { queueWorld as world, queueBaselines as baselines } from 'lesson-companion/worlds/queues'`.
// Written to match src/worlds/queues.ts; see docs/authoring.md ("World scenarios").
import type { Baseline, ScenarioWorld } from 'lesson-companion/model';

export interface QueueParams {
  readonly servers: readonly { readonly name: string; readonly capacity: number }[];
  readonly ticks: number;
  /** Client sessions, each sending one request per tick, in order: session-0, session-1, … */
  readonly sessions: number;
}

export declare function md5Hex(text: string): string;
export declare function hexMod(hex: string, n: number): number;
export declare const queueWorld: ScenarioWorld<unknown, QueueParams>;
/** `round-robin` and `sticky` (sessions pinned by md5(session_id) % servers). */
export declare const queueBaselines: Readonly<Record<string, Baseline<unknown>>>;
