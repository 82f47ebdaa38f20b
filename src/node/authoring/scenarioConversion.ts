/**
 * A scenario written with command templates (`servers`, `arrivals`, `commands`: the form lesson.json had
 * before world scenarios) as the same scenario in the queue world shipped with lesson-companion
 * (src/worlds/queues.ts), which runs it tick for tick as the template engine does (the same numbers at every
 * tick: test/node/scenarioConversion.test.ts). `validate` prints it, with the line the model needs, so that an
 * author can move a pack's scenarios without reading the engine.
 */
import type { ScenarioFinding } from '../../core/validation/scenarioChecks';
import type { SeriesSpec, WorldScenario } from '../../core/world/worldScenarioSchema';
import type { Scenario } from '../../worlds/templates/scenarioSchema';
import { DEFAULT_QUEUE_COMMANDS, type QueueCommands, type QueueParams } from '../../worlds/queues';

const sameCommands = (a: QueueCommands, b: QueueCommands): boolean =>
  JSON.stringify(a.start) === JSON.stringify(b.start) &&
  a.pick === b.pick &&
  a.done === b.done &&
  !a.afterPick &&
  !a.down &&
  !a.up &&
  !a.wait?.length &&
  !a.refuse?.length;

/** The queue world's params for a template scenario: the same pool, ticks, arrivals, events and commands. */
export function queueParamsOf(scenario: Scenario): QueueParams {
  return {
    servers: scenario.servers,
    ticks: scenario.ticks,
    arrivals: scenario.arrivals,
    ...(scenario.events?.length ? { events: scenario.events } : {}),
    ...(scenario.duplicateDone ? { duplicateDone: scenario.duplicateDone } : {}),
    ...(sameCommands(scenario.commands, DEFAULT_QUEUE_COMMANDS) ? {} : { commands: scenario.commands }),
  };
}

/** The world scenario that shows what the template scenario's chart showed: the queues, and failures or waits where it has them. */
export function worldScenarioFromTemplate(scenario: Scenario): WorldScenario {
  const fails = (scenario.events ?? []).some((e) => e.health === 'down') || (scenario.commands.refuse?.length ?? 0) > 0;
  const waits = (scenario.commands.wait?.length ?? 0) > 0;
  const series: SeriesSpec[] = [
    { measure: 'queue', per: 'lane', title: 'Requests held by each server', unit: 'requests' },
    ...(fails ? [{ measure: 'failed', per: 'total' as const, title: 'Failed requests', unit: 'failed per tick' }] : []),
    ...(waits
      ? [{ measure: 'waiting', per: 'total' as const, title: 'Waiting at the balancer', unit: 'requests' }]
      : []),
  ];
  const sentence =
    "Your balancer's longest queue was {yours.peak.queue.worst} requests, on {worst.queue}; there the reference's peaked at {reference.peak.queue.worst} and round robin's at {baseline.round-robin.peak.queue.worst}." +
    (fails
      ? ' Failed requests: yours {yours.total.failed}, the reference {reference.total.failed}, round robin {baseline.round-robin.total.failed}.'
      : '');
  return {
    id: scenario.id,
    title: scenario.title,
    description: scenario.description,
    ...(scenario.explanation ? { explanation: scenario.explanation } : {}),
    params: queueParamsOf(scenario),
    seed: scenario.seed,
    baselines: ['round-robin'],
    series,
    sentence,
    ...(scenario.shows ? { shows: scenario.shows } : {}),
  };
}

/** The lines the model module needs for the converted scenarios to run: the queue world, and baselines that speak its commands. */
export function modelLinesFor(scenario: Scenario): string {
  if (sameCommands(scenario.commands, DEFAULT_QUEUE_COMMANDS))
    return "export { queueWorld as world, queueBaselines as baselines } from 'lesson-companion/worlds/queues';";
  return [
    "import { queueWorld, queueBaselinesFor } from 'lesson-companion/worlds/queues';",
    'export const world = queueWorld;',
    `export const baselines = queueBaselinesFor(${JSON.stringify(scenario.commands)});`,
  ].join(' ');
}

/**
 * One warning per template scenario: it still runs, and here is how it becomes a world scenario (the model's
 * line, unless the model already exports the queue world, and the JSON that replaces the scenario).
 */
export function conversionFindings(
  scenarios: readonly object[] | undefined,
  modelHasQueueWorld: boolean,
): ScenarioFinding[] {
  let first: string | undefined;
  return (scenarios ?? []).flatMap((raw, i) => {
    if ('params' in raw) return [];
    const scenario = raw as Scenario;
    // The model's line once, with the first of them: the others point back to it.
    const line = modelHasQueueWorld
      ? ''
      : first === undefined
        ? `Add to the model: ${modelLinesFor(scenario)} Then `
        : `With the model line given for scenario "${first}", `;
    first ??= scenario.id;
    return [
      {
        severity: 'warning' as const,
        pointer: `/scenarios/${i}`,
        message: `scenario "${scenario.id}" is written with command templates (servers, commands): it still runs, but world scenarios are the form that grows (a world of your own, baselines, the series and the sentence you choose)`,
        advice: `${line}${line ? 'r' : 'R'}eplace it with: ${JSON.stringify(worldScenarioFromTemplate(scenario))}`,
      },
    ];
  });
}
