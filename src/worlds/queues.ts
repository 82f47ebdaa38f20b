/**
 * The queue world shipped with lesson-companion, for balancer packs: a model imports it as
 * `lesson-companion/worlds/queues` (the one specifier outside its own pack the model loader resolves, to this
 * file: dist/worlds/queues.js when bundled), so the balancer packs share one copy instead of three.
 *
 * A pool of servers, each finishing up to its capacity of requests per tick, and sessions of clients whose
 * requests arrive in turn. Each tick: every arriving request is picked (`PICK`, answered with a server), then
 * each server works off up to its capacity and every finished request is reported (`DONE <server>`).
 * Measures per tick: requests sent to each server, and what each holds after the tick's work.
 *
 * Its baselines: round robin, and the chapter's sticky sessions (a session pinned to
 * `md5(session_id) % servers`). A baseline sees only the commands, so the sticky one knows a request's session
 * from the order requests arrive in: request k of a tick is session k's (`session-<k>`), as the world sends them.
 * A model has no require (no node:crypto), so the md5 is here, pure; test/unit/stickySessions.test.ts checks
 * it against node:crypto. Pack code: only the language, no I/O.
 */
import type { Answer, Baseline, ScenarioWorld, WorldStep } from '../core/model/model';

const SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0);

export function md5Hex(text: string): string {
  const bytes: number[] = [];
  for (const ch of text) bytes.push(ch.charCodeAt(0) & 0xff);
  const bitLength = bytes.length * 8;
  bytes.push(0x80);
  while (bytes.length % 64 !== 56) bytes.push(0);
  for (let i = 0; i < 8; i++) bytes.push(i < 4 ? (bitLength >>> (8 * i)) & 0xff : 0);
  let a0 = 0x67452301;
  let b0 = 0xefcdab89 | 0;
  let c0 = 0x98badcfe | 0;
  let d0 = 0x10325476;
  for (let offset = 0; offset < bytes.length; offset += 64) {
    const words = Array.from({ length: 16 }, (_, i) => bytes[offset + 4 * i]! | (bytes[offset + 4 * i + 1]! << 8) | (bytes[offset + 4 * i + 2]! << 16) | (bytes[offset + 4 * i + 3]! << 24));
    let a = a0;
    let b = b0;
    let c = c0;
    let d = d0;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) [f, g] = [(b & c) | (~b & d), i];
      else if (i < 32) [f, g] = [(d & b) | (~d & c), (5 * i + 1) % 16];
      else if (i < 48) [f, g] = [b ^ c ^ d, (3 * i + 5) % 16];
      else [f, g] = [c ^ (b | ~d), (7 * i) % 16];
      f = (f + a + K[i]! + words[g]!) | 0;
      a = d;
      d = c;
      c = b;
      const s = SHIFTS[(i >> 4) * 4 + (i % 4)]!;
      b = (b + ((f << s) | (f >>> (32 - s)))) | 0;
    }
    a0 = (a0 + a) | 0;
    b0 = (b0 + b) | 0;
    c0 = (c0 + c) | 0;
    d0 = (d0 + d) | 0;
  }
  return [a0, b0, c0, d0].map((w) => Array.from({ length: 4 }, (_, i) => ((w >>> (8 * i)) & 0xff).toString(16).padStart(2, '0')).join('')).join('');
}

/** The hex number `hex` modulo `n`, digit by digit (no BigInt needed). */
export function hexMod(hex: string, n: number): number {
  let r = 0;
  for (const digit of hex) r = (r * 16 + parseInt(digit, 16)) % n;
  return r;
}

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
