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
import type { Answer, Baseline, ScenarioWorld, WorldStep } from '../core/model/model';
import type { Random } from '../core/model/model';

// md5, pure: a model has no require (no node:crypto); test/unit/stickySessions.test.ts checks it against node:crypto.
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
    const words = Array.from(
      { length: 16 },
      (_, i) =>
        bytes[offset + 4 * i]! |
        (bytes[offset + 4 * i + 1]! << 8) |
        (bytes[offset + 4 * i + 2]! << 16) |
        (bytes[offset + 4 * i + 3]! << 24),
    );
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
  return [a0, b0, c0, d0]
    .map((w) => Array.from({ length: 4 }, (_, i) => ((w >>> (8 * i)) & 0xff).toString(16).padStart(2, '0')).join(''))
    .join('');
}

/** The hex number `hex` modulo `n`, digit by digit (no BigInt needed). */
export function hexMod(hex: string, n: number): number {
  let r = 0;
  for (const digit of hex) r = (r * 16 + parseInt(digit, 16)) % n;
  return r;
}

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
  readonly servers: readonly { readonly name: string; readonly capacity: number }[];
  readonly ticks: number;
  /** Client sessions, each sending one request per tick, in order: session-0, session-1, … */
  readonly sessions?: number;
  /** Instead of sessions: requests per tick, and ticks with another number (a burst). */
  readonly arrivals?: {
    readonly perTick: number;
    readonly at?: readonly { readonly tick: number; readonly requests: number }[];
  };
  /** At the start of a tick, a server goes down or comes back (`health`), or works at another speed (`capacity`). */
  readonly events?: readonly {
    readonly tick: number;
    readonly server: string;
    readonly health?: 'down' | 'up';
    readonly capacity?: number;
  }[];
  /** A share of finished requests reported twice, chosen with the scenario's seed; only on `servers` when given. */
  readonly duplicateDone?: { readonly percent: number; readonly servers?: readonly string[] };
  readonly commands?: QueueCommands;
}

export const DEFAULT_QUEUE_COMMANDS: QueueCommands = { start: ['POOL {servers}'], pick: 'PICK', done: 'DONE {server}' };

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

const NAME = /^[A-Za-z0-9._-]+$/;
const LINE = /^[^\r\n]+$/;
const whole = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const fill = (template: string, values: { server?: string; servers?: string }): string =>
  template.replace(/\{(servers?)\}/g, (_, key: 'server' | 'servers') => values[key] ?? '');

/** The requests arriving at `tick` (from 1): a tick of its own, else the steady rate, else one per session. */
export function arrivalsAt(params: QueueParams, tick: number): number {
  if (params.arrivals) return params.arrivals.at?.find((a) => a.tick === tick)?.requests ?? params.arrivals.perTick;
  return params.sessions ?? 0;
}

function checkCommands(raw: unknown): QueueCommands {
  if (raw === undefined) return DEFAULT_QUEUE_COMMANDS;
  const c = raw as QueueCommands;
  const template = (key: string, text: unknown, allows: readonly string[], needs?: string): void => {
    if (typeof text !== 'string' || !LINE.test(text) || text.length > 200)
      throw new Error(`commands.${key} must be one line of text (at most 200 characters)`);
    const names = [...text.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!);
    const unknown = names.find((n) => !allows.includes(n));
    if (unknown !== undefined)
      throw new Error(
        `commands.${key}: "{${unknown}}" is not a placeholder of this command (${allows.length ? `it may use ${allows.map((a) => `{${a}}`).join(' and ')}` : 'it takes none'})`,
      );
    if (needs && !names.includes(needs))
      throw new Error(`commands.${key} must name the server: put {${needs}} where its name goes`);
  };
  if (typeof raw !== 'object' || raw === null || !Array.isArray(c.start) || c.start.length < 1 || c.start.length > 10)
    throw new Error('commands needs "start" (1 to 10 commands), "pick" and "done"');
  c.start.forEach((t, i) => template(`start[${i}]`, t, ['servers']));
  template('pick', c.pick, []);
  template('done', c.done, ['server'], 'server');
  for (const key of ['afterPick', 'down', 'up'] as const)
    if (c[key] !== undefined) template(key, c[key], ['server'], 'server');
  for (const key of ['wait', 'refuse'] as const) {
    const words = c[key];
    if (
      words !== undefined &&
      (!Array.isArray(words) || words.length > 10 || !words.every((w) => typeof w === 'string' && LINE.test(w)))
    )
      throw new Error(`commands.${key} must list at most 10 answer words`);
  }
  return c;
}

function checkParams(raw: unknown): QueueParams {
  const p = raw as QueueParams;
  if (typeof raw !== 'object' || raw === null)
    throw new Error(
      'params must be { servers: [{ name, capacity }], ticks, sessions } (or arrivals instead of sessions)',
    );
  if (!Array.isArray(p.servers) || p.servers.length < 1 || p.servers.length > 12)
    throw new Error('"servers" must list 1 to 12 servers');
  for (const s of p.servers)
    if (!NAME.test(String(s?.name)) || !whole(s.capacity, 1, 1000))
      throw new Error(`server ${JSON.stringify(s)} needs a one-word "name" and a "capacity" of 1 to 1000`);
  const names = p.servers.map((s) => s.name);
  if (new Set(names).size !== names.length) throw new Error('each server needs its own name');
  if (!whole(p.ticks, 1, 200)) throw new Error('"ticks" must be 1 to 200');
  if ((p.sessions === undefined) === (p.arrivals === undefined))
    throw new Error('give either "sessions" (one request per session per tick) or "arrivals" ({ perTick, at })');
  if (p.sessions !== undefined && !whole(p.sessions, 1, 500)) throw new Error('"sessions" must be 1 to 500');
  if (p.arrivals !== undefined) {
    if (!whole(p.arrivals.perTick, 0, 500)) throw new Error('"arrivals.perTick" must be 0 to 500');
    for (const a of p.arrivals.at ?? [])
      if (!whole(a?.tick, 1, p.ticks) || !whole(a.requests, 0, 500))
        throw new Error(
          `arrivals.at ${JSON.stringify(a)} needs a "tick" of the run (1 to ${p.ticks}) and 0 to 500 "requests"`,
        );
  }
  const commands = checkCommands(p.commands);
  for (const e of p.events ?? []) {
    if (!whole(e?.tick, 1, p.ticks) || !names.includes(e.server))
      throw new Error(
        `event ${JSON.stringify(e)} needs a "tick" of the run (1 to ${p.ticks}) and a "server" of the pool (${names.join(', ')})`,
      );
    if (e.health !== undefined && e.health !== 'down' && e.health !== 'up')
      throw new Error(`event ${JSON.stringify(e)}: "health" is "down" or "up"`);
    if (e.health && !commands[e.health])
      throw new Error(
        `a server goes ${e.health} at tick ${e.tick}, but commands.${e.health} is not given: add the command that tells the balancer`,
      );
    if (e.capacity !== undefined && !whole(e.capacity, 0, 1000))
      throw new Error(`event ${JSON.stringify(e)}: "capacity" must be 0 to 1000`);
    if (e.health === undefined && e.capacity === undefined)
      throw new Error(`event ${JSON.stringify(e)} changes nothing: give it a "health" or a "capacity"`);
  }
  const dup = p.duplicateDone;
  if (
    dup !== undefined &&
    (!whole(dup?.percent, 1, 100) ||
      (dup.servers !== undefined && !(Array.isArray(dup.servers) && dup.servers.every((s) => names.includes(s)))))
  ) {
    throw new Error('"duplicateDone" needs a "percent" of 1 to 100, and "servers" (if given) from the pool');
  }
  return { ...p, commands };
}

export const queueWorld: ScenarioWorld<QueueState, QueueParams> = {
  params: checkParams,
  ticks: (p) => p.ticks,
  lanes: (p) => p.servers.map((s) => s.name),
  start(params, random) {
    const commands = params.commands ?? DEFAULT_QUEUE_COMMANDS;
    const names = params.servers.map((s) => s.name);
    const state: QueueState = {
      params,
      commands,
      names,
      random,
      capacities: params.servers.map((s) => s.capacity),
      queues: names.map(() => 0),
      sent: names.map(() => 0),
      down: new Set(),
      finished: [],
      failed: 0,
      waiting: 0,
    };
    return { state, send: commands.start.map((t) => fill(t, { servers: names.join(' ') })) };
  },
  tick(state, tick) {
    const send: string[] = [];
    for (const event of state.params.events ?? []) {
      if (event.tick !== tick) continue;
      if (event.capacity !== undefined) state.capacities[state.names.indexOf(event.server)] = event.capacity;
      if (event.health === undefined) continue;
      send.push(fill(state.commands[event.health]!, { server: event.server }));
      if (event.health === 'down') state.down.add(event.server);
      else state.down.delete(event.server);
    }
    const arrivals = arrivalsAt(state.params, tick) + state.waiting;
    Object.assign(state, { sent: state.names.map(() => 0), finished: [], failed: 0, waiting: 0 });
    return { state, send, arrivals };
  },
  arrival: (state) => ({ state, ask: state.commands.pick }),
  answer(state, line): WorldStep<QueueState> | { notAnswer: string } {
    const i = state.names.indexOf(line);
    if (i >= 0) {
      state.sent[i]! += 1;
      // A server that is down refuses the connection at once: the request fails, and the balancer hears it ended.
      if (state.down.has(line)) {
        state.failed += 1;
        state.finished.push(line);
      } else state.queues[i]! += 1;
      return { state, send: state.commands.afterPick ? [fill(state.commands.afterPick, { server: line })] : [] };
    }
    if (state.commands.wait?.includes(line)) state.waiting += 1;
    else if (state.commands.refuse?.includes(line)) state.failed += 1;
    else {
      const words = [...(state.commands.wait ?? []), ...(state.commands.refuse ?? [])];
      return {
        notAnswer: `${state.commands.pick} is answered with a server of the pool (${state.names.join(', ')})${words.length ? ` or one of ${words.join(', ')}` : ''}`,
      };
    }
    return { state };
  },
  endTick(state) {
    // A server that is down still finishes what it already had.
    state.names.forEach((name, i) => {
      const done = Math.min(state.queues[i]!, state.capacities[i]!);
      state.queues[i]! -= done;
      for (let k = 0; k < done; k++) state.finished.push(name);
    });
    const dup = state.params.duplicateDone;
    const reports = state.finished.flatMap((server) =>
      dup && (!dup.servers || dup.servers.includes(server)) && state.random.int(100) < dup.percent
        ? [server, server]
        : [server],
    );
    return {
      state,
      send: reports.map((server) => fill(state.commands.done, { server })),
      measures: { sent: [...state.sent], queue: [...state.queues], failed: state.failed, waiting: state.waiting },
    };
  },
};

const lines = (...l: string[]): Answer => ({ kind: 'lines', lines: l });

interface PickerState {
  readonly pool: readonly string[];
  readonly picks: number;
}

/** The words of a command written from a start template with `{servers}`, or undefined for another command. */
function poolReader(commands: QueueCommands): (command: string) => readonly string[] | undefined {
  const patterns = commands.start
    .filter((t) => t.includes('{servers}'))
    .map(
      (t) =>
        new RegExp(
          `^${t
            .split('{servers}')
            .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('(.*)')}$`,
        ),
    );
  return (command) => {
    for (const pattern of patterns) {
      const match = pattern.exec(command.trim());
      if (match) return match[1]!.trim().split(/\s+/).filter(Boolean);
    }
    return undefined;
  };
}

/** A balancer that answers the pick command from the pool and the number of picks so far, and OK to everything else. */
function picker(
  title: string,
  commands: QueueCommands,
  choose: (pool: readonly string[], picks: number) => string,
): Baseline<PickerState> {
  const poolOf = poolReader(commands);
  return {
    title,
    model: {
      initial: () => ({ pool: [], picks: 0 }),
      step(state, command) {
        const pool = poolOf(command);
        if (pool) return { state: { pool, picks: 0 }, answer: lines('OK') };
        if (command.trim() === commands.pick)
          return {
            state: { ...state, picks: state.picks + 1 },
            answer: lines(state.pool.length ? choose(state.pool, state.picks) : 'EMPTY'),
          };
        return { state, answer: lines('OK') };
      },
    },
  };
}

/** The sessions of the sticky baseline: as many as the world's `sessions` in the sticky scenario. */
const STICKY_SESSIONS = 30;

/** Round robin (blind to load and health) and sticky sessions, speaking these command words. */
export function queueBaselinesFor(commands: QueueCommands): Readonly<Record<string, Baseline<PickerState>>> {
  return {
    'round-robin': picker('Round robin', commands, (pool, picks) => pool[picks % pool.length]!),
    sticky: picker(
      'Sticky sessions',
      commands,
      (pool, picks) => pool[hexMod(md5Hex(`session-${picks % STICKY_SESSIONS}`), pool.length)]!,
    ),
  };
}

export const queueBaselines = queueBaselinesFor(DEFAULT_QUEUE_COMMANDS);
