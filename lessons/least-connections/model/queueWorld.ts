/**
 * This lesson's world for scenarios written with `params` (docs/authoring.md, "Scenarios"): a pool of
 * servers, each finishing up to its capacity of requests per tick, and sessions of clients whose requests
 * arrive in turn. Each tick: every arriving request is picked (`PICK`, answered with a server), then each
 * server works off up to its capacity and every finished request is reported (`DONE <server>`).
 * Measures per tick: requests sent to each server, and what each holds after the tick's work.
 *
 * Its baselines: round robin, and the chapter's sticky sessions (a session pinned to
 * `md5(session_id) % servers`). A baseline sees only the commands, so the sticky one knows a request's session
 * from the order requests arrive in: request k of a tick is session k's (`session-<k>`), as the world sends them.
 */
import type { Answer, Baseline, ScenarioWorld, WorldStep } from 'lesson-companion/model';
import { hexMod, md5Hex } from './md5';

export interface QueueParams {
  readonly servers: readonly { readonly name: string; readonly capacity: number }[];
  readonly ticks: number;
  /** Client sessions, each sending one request per tick, in order: session-0, session-1, … */
  readonly sessions: number;
}

interface QueueState {
  readonly params: QueueParams;
  readonly queues: readonly number[];
  readonly sent: readonly number[];
}

const NAME = /^[A-Za-z0-9._-]+$/;
const whole = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

function checkParams(raw: unknown): QueueParams {
  const p = raw as QueueParams;
  if (typeof raw !== 'object' || raw === null) throw new Error('params must be { servers: [{ name, capacity }], ticks, sessions }');
  if (!Array.isArray(p.servers) || p.servers.length < 1 || p.servers.length > 12) throw new Error('"servers" must list 1 to 12 servers');
  for (const s of p.servers) if (!NAME.test(String(s?.name)) || !whole(s.capacity, 1, 1000)) throw new Error(`server ${JSON.stringify(s)} needs a one-word "name" and a "capacity" of 1 to 1000`);
  if (new Set(p.servers.map((s) => s.name)).size !== p.servers.length) throw new Error('each server needs its own name');
  if (!whole(p.ticks, 1, 200)) throw new Error('"ticks" must be 1 to 200');
  if (!whole(p.sessions, 1, 500)) throw new Error('"sessions" must be 1 to 500');
  return p;
}

export const queueWorld: ScenarioWorld<QueueState, QueueParams> = {
  params: checkParams,
  ticks: (p) => p.ticks,
  lanes: (p) => p.servers.map((s) => s.name),
  start: (p) => ({ state: { params: p, queues: p.servers.map(() => 0), sent: p.servers.map(() => 0) }, send: [`POOL ${p.servers.map((s) => s.name).join(' ')}`] }),
  tick: (state) => ({ state: { ...state, sent: state.params.servers.map(() => 0) }, arrivals: state.params.sessions }),
  arrival: (state) => ({ state, ask: 'PICK' }),
  answer(state, line): WorldStep<QueueState> | { notAnswer: string } {
    const i = state.params.servers.findIndex((s) => s.name === line);
    if (i < 0) return { notAnswer: `a PICK is answered with a server of the pool (${state.params.servers.map((s) => s.name).join(', ')})` };
    const bump = (values: readonly number[]): number[] => values.map((v, k) => (k === i ? v + 1 : v));
    return { state: { ...state, queues: bump(state.queues), sent: bump(state.sent) } };
  },
  endTick(state) {
    const done = state.queues.map((q, i) => Math.min(q, state.params.servers[i]!.capacity));
    const queues = state.queues.map((q, i) => q - done[i]!);
    const send = state.params.servers.flatMap((s, i) => Array.from({ length: done[i]! }, () => `DONE ${s.name}`));
    return { state: { ...state, queues }, send, measures: { sent: state.sent, queue: queues } };
  },
};

const lines = (...l: string[]): Answer => ({ kind: 'lines', lines: l });

interface PickerState {
  readonly pool: readonly string[];
  readonly picks: number;
}

/** A balancer that answers PICK from the pool and the number of picks so far, and OK to everything else. */
function picker(title: string, choose: (pool: readonly string[], picks: number) => string): Baseline<PickerState> {
  return {
    title,
    model: {
      initial: () => ({ pool: [], picks: 0 }),
      step(state, command) {
        const [verb, ...args] = command.trim().split(/\s+/);
        if (verb === 'POOL') return { state: { pool: args, picks: 0 }, answer: lines('OK') };
        if (verb === 'PICK') return { state: { ...state, picks: state.picks + 1 }, answer: lines(state.pool.length ? choose(state.pool, state.picks) : 'EMPTY') };
        return { state, answer: lines('OK') };
      },
    },
  };
}

/** The sessions of the sticky baseline: as many as the world's `sessions` in the sticky scenario. */
const STICKY_SESSIONS = 30;

export const queueBaselines: Readonly<Record<string, Baseline<PickerState>>> = {
  'round-robin': picker('Round robin', (pool, picks) => pool[picks % pool.length]!),
  sticky: picker('Sticky sessions', (pool, picks) => pool[hexMod(md5Hex(`session-${picks % STICKY_SESSIONS}`), pool.length)]!),
};
