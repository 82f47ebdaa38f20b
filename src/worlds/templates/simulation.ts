/**
 * The tick engine of a load scenario (scenarioSchema.ts). Each tick: health events first, then every
 * arriving request is picked (and waits for the answer: the next pick depends on it), then each server
 * works off up to its capacity, the finished requests are reported to the balancer (some twice, when the
 * scenario duplicates them), and the queues are measured, after the tick's work.
 *
 * A balancer is anything behind one async interface: round robin (here), or a program that speaks the
 * pack's protocol through the scenario's command templates (protocolBalancer): the learner's process, or the
 * pack's model (modelSession). Everything is seeded, so the same answers give the same series.
 */
import { seededRandom } from '../../core/model/random';
import { arrivalsAt } from './scenarioRules';
import type { Scenario, ScenarioCommands } from './scenarioSchema';
import { safeText } from '../../core/text/text';
import { ProgramStopped as BalancerStopped, type LineSession } from '../../core/world/lineSession';

export { ProgramStopped as BalancerStopped, type LineSession } from '../../core/world/lineSession';

export type PickAnswer =
  { readonly kind: 'server'; readonly server: string } | { readonly kind: 'wait' } | { readonly kind: 'refused' };
export type Health = 'down' | 'up';

export interface Balancer {
  start(servers: readonly string[]): Promise<void>;
  pick(): Promise<PickAnswer>;
  /** Finished requests, one report each (a duplicated one twice), in the order they are reported. */
  finished(servers: readonly string[]): Promise<void>;
  health(server: string, health: Health): Promise<void>;
  /** Sends what is still held back; the run is over. */
  end(): Promise<void>;
}

export interface TickRecord {
  /** Requests on each server (in pool order) after the tick's work: queued or being worked on. */
  readonly queues: readonly number[];
  /** Requests sent to each server this tick, failed ones included. */
  readonly sent: readonly number[];
  /** Requests that failed this tick: sent to a server that was down, or refused by the balancer. */
  readonly failed: number;
  /** Requests waiting at the balancer after this tick (it answered "no server now"). */
  readonly waiting: number;
}

export interface BalancerRun {
  readonly ticks: readonly TickRecord[];
  /** Set when the balancer could not finish the run: at which tick, and why. */
  readonly stopped?: { readonly tick: number; readonly message: string; readonly details?: string };
}

/** Each finished request once, and a seeded share of them twice (a retry reported after a timeout). */
function reports(
  finished: readonly string[],
  duplicate: Scenario['duplicateDone'],
  random: ReturnType<typeof seededRandom>,
): string[] {
  if (!duplicate) return [...finished];
  const out: string[] = [];
  for (const server of finished) {
    out.push(server);
    if ((!duplicate.servers || duplicate.servers.includes(server)) && random.int(100) < duplicate.percent)
      out.push(server);
  }
  return out;
}

export async function runScenario(scenario: Scenario, balancer: Balancer): Promise<BalancerRun> {
  const names = scenario.servers.map((s) => s.name);
  const queues = names.map(() => 0);
  const capacities = scenario.servers.map((s) => s.capacity);
  const down = new Set<string>();
  const random = seededRandom(scenario.seed);
  const ticks: TickRecord[] = [];
  let waiting = 0;
  let tick = 0;
  try {
    await balancer.start(names);
    for (tick = 1; tick <= scenario.ticks; tick++) {
      for (const event of scenario.events ?? []) {
        if (event.tick !== tick) continue;
        if (event.capacity !== undefined) capacities[names.indexOf(event.server)] = event.capacity;
        if (event.health === undefined) continue;
        await balancer.health(event.server, event.health);
        if (event.health === 'down') down.add(event.server);
        else down.delete(event.server);
      }
      const arriving = arrivalsAt(scenario, tick) + waiting;
      waiting = 0;
      const sent = names.map(() => 0);
      const finished: string[] = [];
      let failed = 0;
      for (let request = 0; request < arriving; request++) {
        const answer = await balancer.pick();
        if (answer.kind === 'wait') waiting++;
        else if (answer.kind === 'refused') failed++;
        else {
          const index = names.indexOf(answer.server);
          sent[index]! += 1;
          // A server that is down refuses the connection at once: the request fails, and the balancer hears it ended.
          if (down.has(answer.server)) {
            failed++;
            finished.push(answer.server);
          } else queues[index]! += 1;
        }
      }
      // A server that is down still finishes what it already had.
      names.forEach((name, i) => {
        const done = Math.min(queues[i]!, capacities[i]!);
        queues[i]! -= done;
        for (let k = 0; k < done; k++) finished.push(name);
      });
      await balancer.finished(reports(finished, scenario.duplicateDone, random));
      ticks.push({ queues: [...queues], sent, failed, waiting });
    }
    await balancer.end();
  } catch (error) {
    if (!(error instanceof BalancerStopped)) throw error;
    const at = Math.max(1, Math.min(tick, scenario.ticks));
    return {
      ticks,
      stopped: { tick: at, message: error.message, ...(error.details ? { details: error.details } : {}) },
    };
  }
  return { ticks };
}

/** Round robin over the pool in order: blind to load and health, the baseline every chart is compared with. */
export function roundRobin(): Balancer {
  let pool: readonly string[] = [];
  let next = 0;
  return {
    start: async (servers) => {
      pool = servers;
      next = 0;
    },
    pick: async () => {
      const server = pool[next % pool.length]!;
      next++;
      return { kind: 'server', server };
    },
    finished: async () => undefined,
    health: async () => undefined,
    end: async () => undefined,
  };
}

const fill = (template: string, values: { server?: string; servers?: string }): string =>
  template.replace(/\{(servers?)\}/g, (_, key: 'server' | 'servers') => values[key] ?? '');

/**
 * A balancer that speaks the pack's protocol through the scenario's templates. Only a pick's answer decides
 * anything, so the commands in between (a count after the pick, finished requests, health) are held back and
 * written together with the next pick: one round trip per request.
 */
export function protocolBalancer(commands: ScenarioCommands, session: LineSession): Balancer {
  let pool: readonly string[] = [];
  let held: string[] = [];
  let picks = 0;
  const send = async (last?: string): Promise<string | undefined> => {
    const batch = last === undefined ? held : [...held, last];
    held = [];
    if (batch.length === 0) return undefined;
    const answers = await session.exchange(batch);
    return answers[answers.length - 1];
  };
  return {
    start: async (servers) => {
      pool = servers;
      held.push(...commands.start.map((t) => fill(t, { servers: servers.join(' ') })));
    },
    pick: async () => {
      picks++;
      const answer = (await send(commands.pick))?.trim() ?? '';
      if (pool.includes(answer)) {
        if (commands.afterPick) held.push(fill(commands.afterPick, { server: answer }));
        return { kind: 'server', server: answer };
      }
      if (commands.wait?.includes(answer)) return { kind: 'wait' };
      if (commands.refuse?.includes(answer)) return { kind: 'refused' };
      const words = [...(commands.wait ?? []), ...(commands.refuse ?? [])];
      throw new BalancerStopped(
        `it answered "${safeText(answer)}" to request ${picks} (${commands.pick}), which is not a server of the pool (${pool.join(', ')})` +
          `${words.length ? ` nor one of ${words.join(', ')}` : ''}. If it prints anything else on stdout (a debug print), every later answer is shifted: print debugging to stderr`,
      );
    },
    finished: async (servers) => {
      held.push(...servers.map((server) => fill(commands.done, { server })));
    },
    health: async (server, health) => {
      const template = commands[health];
      if (template) held.push(fill(template, { server }));
    },
    end: async () => {
      await send();
    },
  };
}

/** The pack's model as a line session: each command stepped through `model.step` with these mutations on. */
export { referenceSession as modelSession } from '../../core/world/worldRun';
