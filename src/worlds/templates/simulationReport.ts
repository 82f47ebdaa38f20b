/**
 * What a simulated run means, in numbers and in one sentence: the learner's balancer beside round robin and
 * the reference on the same scenario. The CLI prints it, the panel shows it above the chart.
 */
import type { BalancerRun } from './simulation';
import { totalRequests } from './scenarioRules';
import type { Scenario } from './scenarioSchema';

export const BALANCERS = ['yours', 'roundRobin', 'reference'] as const;
export type BalancerKey = (typeof BALANCERS)[number];
export const BALANCER_NAMES: Record<BalancerKey, string> = {
  yours: 'your balancer',
  roundRobin: 'round robin',
  reference: 'the reference',
};

export interface SimulationResult {
  readonly lesson: string;
  readonly scenario: Scenario;
  readonly runs: Readonly<Record<BalancerKey, BalancerRun>>;
  /** The mistake a check named, when this scenario shows its consequence. */
  readonly mistake?: { readonly id: string; readonly title: string };
  /** The result in one sentence, with numbers. */
  readonly sentence: string;
}

export interface ServerSummary {
  readonly name: string;
  readonly peak: number;
  readonly peakTick: number;
  readonly final: number;
  /** The queue was longer at the last tick than at the one before. */
  readonly growing: boolean;
  readonly sent: number;
}

export interface RunSummary {
  readonly servers: readonly ServerSummary[];
  readonly failed: number;
  /** Requests still waiting at the balancer at the end. */
  readonly waiting: number;
  readonly ticks: number;
}

export function summarize(scenario: Scenario, run: BalancerRun, fromTick = 1): RunSummary {
  const ticks = run.ticks.slice(fromTick - 1);
  const servers = scenario.servers.map((server, i) => {
    let peak = 0;
    let peakTick = 0;
    ticks.forEach((t, k) => {
      if (t.queues[i]! > peak) {
        peak = t.queues[i]!;
        peakTick = fromTick + k;
      }
    });
    const last = ticks[ticks.length - 1]?.queues[i] ?? 0;
    const before = ticks[ticks.length - 2]?.queues[i] ?? 0;
    return {
      name: server.name,
      peak,
      peakTick,
      final: last,
      growing: ticks.length > 1 && last > before,
      sent: ticks.reduce((sum, t) => sum + t.sent[i]!, 0),
    };
  });
  return {
    servers,
    failed: ticks.reduce((sum, t) => sum + t.failed, 0),
    waiting: ticks[ticks.length - 1]?.waiting ?? 0,
    ticks: run.ticks.length,
  };
}

/** "peaked at 3", "reached 40 and was still growing", "stayed empty". */
export function queueWords(server: ServerSummary): string {
  if (server.peak === 0) return 'stayed empty';
  if (server.growing && server.final === server.peak) return `reached ${server.peak} and was still growing`;
  return `peaked at ${server.peak}`;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * The server the sentence talks about: the learner's worst one (the longest queue their balancer let
 * grow), so the sentence and the learner's own chart row agree. Among equal peaks, the one some balancer
 * let grow longest (what the comparison shows), then pool order.
 */
export function focusServer(scenario: Scenario, summaries: Record<BalancerKey, RunSummary>): number {
  let best = 0;
  let bestKey: [number, number] = [-1, -1];
  scenario.servers.forEach((_, i) => {
    const key: [number, number] = [
      summaries.yours.servers[i]!.peak,
      Math.max(...BALANCERS.map((b) => summaries[b].servers[i]!.peak)),
    ];
    if (key[0] > bestKey[0] || (key[0] === bestKey[0] && key[1] > bestKey[1])) {
      best = i;
      bestKey = key;
    }
  });
  return best;
}

function queueSentence(scenario: Scenario, summaries: Record<BalancerKey, RunSummary>): string {
  const i = focusServer(scenario, summaries);
  const server = scenario.servers[i]!;
  const speeds = new Set(scenario.servers.map((s) => s.capacity));
  const slowest = Math.min(...speeds);
  const label =
    speeds.size > 1
      ? `the queue on ${server.name} (${server.capacity} per tick${server.capacity === slowest ? ', the slowest' : ''})`
      : `the queue on ${server.name}`;
  const [yours, rr, ref] = BALANCERS.map((b) => summaries[b].servers[i]!);
  return `With your balancer ${label} ${queueWords(yours!)}; round robin's ${queueWords(rr!)}; the reference's ${queueWords(ref!)}.`;
}

function downServers(scenario: Scenario): string[] {
  return [...new Set((scenario.events ?? []).filter((e) => e.health === 'down').map((e) => e.server))];
}

function failureSentence(scenario: Scenario, summaries: Record<BalancerKey, RunSummary>): string {
  const total = totalRequests(scenario);
  const down = downServers(scenario);
  const where =
    down.length === 1
      ? ` (sent to ${down[0]} while it was down)`
      : down.length > 1
        ? ' (sent to servers that were down)'
        : '';
  const [yours, rr, ref] = BALANCERS.map((b) => summaries[b].failed);
  return `With your balancer ${yours} of ${total} requests failed; with round robin ${rr}${rr! > 0 ? where : ''}; with the reference ${ref}.`;
}

/** The first server that comes back in the scenario, and when. */
function comeback(scenario: Scenario): { index: number; tick: number } | undefined {
  const up = scenario.events?.find((e) => e.health === 'up');
  return up ? { index: scenario.servers.findIndex((s) => s.name === up.server), tick: up.tick } : undefined;
}

function herdSentence(
  scenario: Scenario,
  runs: Record<BalancerKey, BalancerRun>,
  back: { index: number; tick: number },
): string {
  const name = scenario.servers[back.index]!.name;
  const part = (b: BalancerKey): { sent: number; peak: number } => {
    const after = summarize(scenario, runs[b], back.tick).servers[back.index]!;
    return { sent: runs[b].ticks[back.tick - 1]?.sent[back.index] ?? 0, peak: after.peak };
  };
  const [yours, rr, ref] = BALANCERS.map(part);
  return (
    `When ${name} came back at tick ${back.tick}, your balancer sent it ${plural(yours!.sent, 'request')} in that tick and its queue reached ${yours!.peak}; ` +
    `round robin sent it ${rr!.sent} (queue up to ${rr!.peak}); the reference ${ref!.sent} (queue up to ${ref!.peak}).`
  );
}

/** Some balancer let a queue grow on the server that came back: else "its queue reached 0" says nothing. */
function herdShows(
  scenario: Scenario,
  runs: Record<BalancerKey, BalancerRun>,
  back: { index: number; tick: number },
): boolean {
  return BALANCERS.some((b) => summarize(scenario, runs[b], back.tick).servers[back.index]!.peak > 0);
}

/** The sentence above the chart: the result in numbers. */
export function headline(scenario: Scenario, runs: Record<BalancerKey, BalancerRun>): string {
  const stopped = runs.yours.stopped;
  if (stopped)
    return `Your program stopped at tick ${stopped.tick} of ${scenario.ticks}, so its part of the chart ends there: ${stopped.message}.`;
  const summaries = Object.fromEntries(BALANCERS.map((b) => [b, summarize(scenario, runs[b])])) as Record<
    BalancerKey,
    RunSummary
  >;
  const back = comeback(scenario);
  if (back && back.index >= 0 && herdShows(scenario, runs, back)) return herdSentence(scenario, runs, back);
  if (BALANCERS.some((b) => summaries[b].failed > 0)) return failureSentence(scenario, summaries);
  return queueSentence(scenario, summaries);
}

/**
 * The consequence of a mistake a check named, on a scenario that shows it: "Your check found “A count goes
 * below zero”. Under load: b got 141 of 240 requests and its queue reached 42 …".
 */
export function consequence(scenario: Scenario, runs: Record<BalancerKey, BalancerRun>, title: string): string {
  const found = `Your check found “${title}”.`;
  if (runs.yours.stopped) return `${found} ${headline(scenario, runs)}`;
  const yours = summarize(scenario, runs.yours);
  const ref = summarize(scenario, runs.reference);
  const total = totalRequests(scenario);
  if (yours.failed > ref.failed)
    return `${found} Under load that means ${yours.failed} of ${total} requests failed; with the reference ${ref.failed}.`;
  const back = comeback(scenario);
  if (back && back.index >= 0 && herdShows(scenario, runs, back)) {
    const herd = herdSentence(scenario, runs, back);
    return `${found} Under load: ${herd[0]!.toLowerCase()}${herd.slice(1)}`;
  }
  let most = 0;
  yours.servers.forEach((s, i) => {
    if (s.sent > yours.servers[most]!.sent) most = i;
  });
  const mine = yours.servers[most]!;
  const theirs = ref.servers[most]!;
  return `${found} Under load that means ${mine.name} got ${mine.sent} of ${total} requests and its queue ${queueWords(mine)}; with the reference ${mine.name} got ${theirs.sent} and its queue ${queueWords(theirs)}.`;
}

export function simulationResult(
  lesson: string,
  scenario: Scenario,
  runs: Record<BalancerKey, BalancerRun>,
  mistake?: { id: string; title: string },
): SimulationResult {
  const shown = mistake && scenario.shows?.includes(mistake.id) ? mistake : undefined;
  return {
    lesson,
    scenario,
    runs,
    ...(shown ? { mistake: shown } : {}),
    sentence: shown ? consequence(scenario, runs, shown.title) : headline(scenario, runs),
  };
}
