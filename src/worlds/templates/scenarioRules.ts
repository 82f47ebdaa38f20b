/**
 * What the schema cannot say about template scenarios in lesson.json: names that must match (servers of the pool,
 * mistakes of the pack), ticks inside the run, placeholders that exist, and the total size of a run.
 */
import type { LessonManifest } from '../../core/pack/schema';
import { SCENARIO_LIMITS, type Scenario } from './scenarioSchema';
import { isWorldScenario } from '../../core/world/worldScenarioSchema';
import type { ProblemAt } from '../../core/world/worldRules';

export type { ProblemAt };

const PLACEHOLDER = /\{([^{}]*)\}/g;

/** Every request a scenario sends: the arrivals of each tick. */
export function totalRequests(scenario: Scenario): number {
  let total = 0;
  for (let tick = 1; tick <= scenario.ticks; tick++) total += arrivalsAt(scenario, tick);
  return total;
}

/** The requests arriving at `tick` (1-based): an override for that tick, else the steady rate. */
export function arrivalsAt(scenario: Scenario, tick: number): number {
  const override = scenario.arrivals.at?.find((a) => a.tick === tick);
  return override ? override.requests : scenario.arrivals.perTick;
}

function checkTemplates(scenario: Scenario, at: string, problem: ProblemAt): void {
  const { commands } = scenario;
  const templates: { key: string; text: string; needs?: string; allows: readonly string[] }[] = [
    ...commands.start.map((text, i) => ({ key: `start/${i}`, text, allows: ['servers'] })),
    { key: 'pick', text: commands.pick, allows: [] },
    ...(commands.afterPick
      ? [{ key: 'afterPick', text: commands.afterPick, needs: 'server', allows: ['server'] }]
      : []),
    { key: 'done', text: commands.done, needs: 'server', allows: ['server'] },
    ...(commands.down ? [{ key: 'down', text: commands.down, needs: 'server', allows: ['server'] }] : []),
    ...(commands.up ? [{ key: 'up', text: commands.up, needs: 'server', allows: ['server'] }] : []),
  ];
  for (const { key, text, needs, allows } of templates) {
    const names = [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
    const unknown = names.find((n) => !allows.includes(n));
    if (unknown !== undefined) {
      const offer = allows.length
        ? `it may use ${allows.map((a) => `{${a}}`).join(' and ')}`
        : 'it takes no placeholder';
      problem(`${at}/commands/${key}`, `"{${unknown}}" is not a placeholder of this command: ${offer}`);
    }
    if (needs && !names.includes(needs))
      problem(`${at}/commands/${key}`, `the command must name the server: put {${needs}} where the server's name goes`);
  }
}

function checkScenario(scenario: Scenario, at: string, mistakeIds: ReadonlySet<string>, problem: ProblemAt): void {
  const names = scenario.servers.map((s) => s.name);
  const seen = new Set<string>();
  scenario.servers.forEach((server, i) => {
    if (seen.has(server.name))
      problem(
        `${at}/servers/${i}/name`,
        `server "${server.name}" is listed twice; each server of the pool needs its own name`,
      );
    seen.add(server.name);
  });
  const overrideTicks = new Set<number>();
  scenario.arrivals.at?.forEach((a, i) => {
    if (a.tick > scenario.ticks)
      problem(`${at}/arrivals/at/${i}/tick`, `tick ${a.tick} is after the last tick of the run (${scenario.ticks})`);
    if (overrideTicks.has(a.tick))
      problem(`${at}/arrivals/at/${i}/tick`, `tick ${a.tick} is given twice; give each tick its arrivals once`);
    overrideTicks.add(a.tick);
  });
  scenario.events?.forEach((event, i) => {
    if (!names.includes(event.server))
      problem(`${at}/events/${i}/server`, `"${event.server}" is not a server of this scenario (${names.join(', ')})`);
    if (event.tick > scenario.ticks)
      problem(`${at}/events/${i}/tick`, `tick ${event.tick} is after the last tick of the run (${scenario.ticks})`);
    if (event.health === undefined && event.capacity === undefined)
      problem(
        `${at}/events/${i}`,
        'the event changes nothing: give the server a "health" (down or up) or a new "capacity"',
      );
    if (event.health && !scenario.commands[event.health])
      problem(
        `${at}/events/${i}`,
        `a server goes ${event.health} here, but commands.${event.health} is not given: add the command that tells the balancer`,
      );
  });
  const total = totalRequests(scenario);
  if (total > SCENARIO_LIMITS.totalRequests) {
    problem(
      `${at}/arrivals`,
      `the run sends ${total} requests; a scenario may send at most ${SCENARIO_LIMITS.totalRequests} (each one waits for an answer from the learner's program)`,
    );
  }
  if (total === 0)
    problem(`${at}/arrivals`, 'no request ever arrives: give perTick or an arrival in "at" more than 0 requests');
  for (const key of ['wait', 'refuse'] as const) {
    scenario.commands[key]?.forEach((word, i) => {
      if (names.includes(word))
        problem(`${at}/commands/${key}/${i}`, `"${word}" is also the name of a server, so an answer could mean either`);
    });
  }
  scenario.shows?.forEach((id, i) => {
    if (!mistakeIds.has(id))
      problem(`${at}/shows/${i}`, `"${id}" is not a mistake of this lesson (mistakes: ${[...mistakeIds].join(', ')})`);
  });
  checkTemplates(scenario, at, problem);
}

/** The rules of every template scenario of a manifest (each already matched by ScenarioSchema). */
export function templateScenarioProblems(manifest: LessonManifest, problem: ProblemAt): void {
  const mistakeIds = new Set(manifest.mistakes.map((m) => m.id));
  (manifest.scenarios ?? []).forEach((scenario, i) => {
    if (!isWorldScenario(scenario))
      checkScenario(scenario as unknown as Scenario, `/scenarios/${i}`, mistakeIds, problem);
  });
}
