/**
 * `validate` on a pack's world scenarios, with its model's world and baselines: the params fit the world,
 * the reference and every baseline named run to the end, the sentence names only lanes the world has, and
 * each mistake in `shows` gives another run than the reference (core/validation/scenarioChecks.ts).
 */
import type { LessonManifest } from '../../core/pack/schema';
import type { ReferenceModel } from '../../core/model/model';
import { evidenceMutants, sameRun, showsFinding, type ScenarioFinding } from '../../core/validation/scenarioChecks';
import { parsePlaceholder } from '../../core/world/sentence';
import { referenceSession, runWorld } from '../../core/world/worldRun';
import { isWorldScenario } from '../../core/world/worldScenarioSchema';
import { worldOf } from '../engine/modelLoader';
import { runWorldContestants } from '../engine/worldContestants';

const PLACEHOLDER = /\{([^{}]*)\}/g;

export async function checkWorldScenarios(manifest: LessonManifest, model: ReferenceModel): Promise<ScenarioFinding[]> {
  const findings: ScenarioFinding[] = [];
  for (const [i, scenario] of (manifest.scenarios ?? []).entries()) {
    if (!isWorldScenario(scenario)) continue;
    const at = `/scenarios/${i}`;
    let lanes: readonly string[];
    try {
      lanes = (await runWorldContestants(manifest.id, scenario, model)).lanes;
    } catch (error) {
      findings.push({
        severity: 'error',
        pointer: at,
        message: (error as Error).message,
        advice:
          'The params are read by the model\'s `world`; its baselines are the model module\'s `baselines` export (docs/authoring.md, "Scenarios").',
      });
      continue;
    }
    for (const match of scenario.sentence.matchAll(PLACEHOLDER)) {
      const parsed = parsePlaceholder(match[1]!, scenario.series, scenario.baselines ?? []);
      if (
        'error' in parsed ||
        parsed.kind !== 'number' ||
        parsed.lane === undefined ||
        parsed.lane === 'worst' ||
        lanes.includes(parsed.lane)
      )
        continue;
      findings.push({
        severity: 'error',
        pointer: `${at}/sentence`,
        message: `scenario "${scenario.id}": {${match[1]}} names lane "${parsed.lane}", which the world does not have (${lanes.join(', ')})`,
      });
    }
    const { world } = worldOf(model);
    const reference = await runWorld(world!, scenario.params, scenario.seed, referenceSession(model));
    for (const [k, id] of (scenario.shows ?? []).entries()) {
      const mistake = manifest.mistakes.find((m) => m.id === id);
      if (!mistake) continue;
      const mutants = evidenceMutants(model, mistake.mutants);
      const perfect: string[] = [];
      for (const mutant of mutants) {
        const run = await runWorld(world!, scenario.params, scenario.seed, referenceSession(model, new Set([mutant])));
        if (!run.stopped && sameRun(run, reference)) perfect.push(mutant);
      }
      const finding = showsFinding(scenario.id, id, mutants, perfect, `${at}/shows/${k}`);
      if (finding) findings.push(finding);
    }
  }
  return findings;
}
