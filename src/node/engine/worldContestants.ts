/**
 * Every run of a world scenario, where the pack's code may run (the engine worker; in-process only for tests
 * and validate, as checks do without the engine bundle): the reference model, each baseline the scenario
 * names, and the learner's program when a session for it is given.
 */
import type { ReferenceModel } from '../../core/model/model';
import type { LineSession } from '../../core/world/lineSession';
import { baselineSession, referenceSession, runWorld, WorldError, type WorldRun } from '../../core/world/worldRun';
import type { WorldScenario } from '../../core/world/worldScenarioSchema';
import { worldOf } from './modelLoader';
import type { WorldOutcome } from './protocol';

export async function runWorldContestants(
  lesson: string,
  scenario: WorldScenario,
  model: ReferenceModel,
  learner?: LineSession,
  mutations?: ReadonlySet<string>,
): Promise<WorldOutcome> {
  const { world, baselines } = worldOf(model);
  if (!world)
    throw new WorldError(
      `scenario "${scenario.id}" has "params", so it runs in the model's world, but the model of lesson "${lesson}" exports no \`world\``,
    );
  let params: unknown;
  try {
    params = world.params(scenario.params);
  } catch (error) {
    throw new WorldError(
      `scenario "${scenario.id}": its params do not fit the world: ${(error as Error).message.replace(/^.*failed in world\.params\(\): /, '')}`,
    );
  }
  const lanes = world.lanes(params);
  const ticks = world.ticks(params);
  const runs: Record<string, WorldRun> = {};
  const titles: Record<string, string> = {};
  const reference = await runWorld(world, scenario.params, scenario.seed, referenceSession(model, mutations));
  if (reference.stopped)
    throw new WorldError(
      `the reference stops in scenario "${scenario.id}" at tick ${reference.stopped.tick}: ${reference.stopped.message}`,
    );
  for (const id of scenario.baselines ?? []) {
    const baseline = baselines[id];
    if (!baseline)
      throw new WorldError(
        `scenario "${scenario.id}" names baseline "${id}", which the model does not export (it has ${Object.keys(baselines).join(', ') || 'none'})`,
      );
    const run = await runWorld(world, scenario.params, scenario.seed, baselineSession(baseline));
    if (run.stopped)
      throw new WorldError(
        `baseline "${id}" stops in scenario "${scenario.id}" at tick ${run.stopped.tick}: ${run.stopped.message}`,
      );
    runs[`baseline.${id}`] = run;
    titles[`baseline.${id}`] = baseline.title;
  }
  if (learner) {
    runs.yours = await runWorld(world, scenario.params, scenario.seed, learner);
    titles.yours = 'Your program';
  }
  runs.reference = reference;
  titles.reference = 'Reference';
  return { lanes, ticks, runs, titles };
}
