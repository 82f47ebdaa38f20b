/**
 * `validate` on a pack's template scenarios, with its model: the reference must run every scenario to the end
 * (each pick answered with a name of the pool, or one of the scenario's `wait`/`refuse` words), and a scenario
 * that claims to show a mistake must show it (core/validation/scenarioChecks.ts says how that is judged).
 */
import type { ReferenceModel } from '../../core/model/model';
import type { LessonManifest } from '../../core/pack/schema';
import { evidenceMutants, sameRun, showsFinding, type ScenarioFinding } from '../../core/validation/scenarioChecks';
import { templateScenarios } from './scenarioSchema';
import { modelSession, protocolBalancer, runScenario } from './simulation';

export async function checkTemplateScenarios(
  manifest: LessonManifest,
  model: ReferenceModel,
): Promise<ScenarioFinding[]> {
  const findings: ScenarioFinding[] = [];
  for (const [i, entry] of (manifest.scenarios ?? []).entries()) {
    // World scenarios are checked with the world, in the engine (src/node/authoring/worldChecks.ts).
    const scenario = templateScenarios([entry])[0];
    if (!scenario) continue;
    const at = `/scenarios/${i}`;
    const reference = await runScenario(scenario, protocolBalancer(scenario.commands, modelSession(model)));
    if (reference.stopped) {
      findings.push({
        severity: 'error',
        pointer: `${at}/commands`,
        message: `scenario "${scenario.id}": the reference stops at tick ${reference.stopped.tick}: ${reference.stopped.message}`,
        advice:
          'Check the command templates against the protocol: the pick command must be answered with a name of the pool, or with a word listed in "wait" or "refuse".',
      });
      continue;
    }
    for (const [k, id] of (scenario.shows ?? []).entries()) {
      const mistake = manifest.mistakes.find((m) => m.id === id);
      if (!mistake) continue;
      const mutants = evidenceMutants(model, mistake.mutants);
      if (mutants.length === 0) continue;
      const perfect: string[] = [];
      for (const mutant of mutants) {
        const run = await runScenario(
          scenario,
          protocolBalancer(scenario.commands, modelSession(model, new Set([mutant]))),
        );
        if (!run.stopped && sameRun(run, reference)) perfect.push(mutant);
      }
      const finding = showsFinding(scenario.id, id, mutants, perfect, `${at}/shows/${k}`);
      if (finding) findings.push(finding);
    }
  }
  return findings;
}
