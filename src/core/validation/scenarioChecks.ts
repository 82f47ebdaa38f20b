/**
 * `validate` on a pack's scenarios, with its model: the reference must run every scenario to the end (each
 * pick answered with a server, or one of the scenario's "no server" words), and a scenario that claims to
 * show a mistake must show it: some mutant of that mistake must give another series than the reference.
 */
import type { ReferenceModel } from '../model/model';
import type { LessonManifest } from '../pack/schema';
import { modelSession, protocolBalancer, runScenario, type BalancerRun } from '../simulation/simulation';

export interface ScenarioFinding {
  readonly severity: 'error' | 'warning';
  /** JSON pointer into lesson.json. */
  readonly pointer: string;
  readonly message: string;
  readonly advice?: string;
}

function sameSeries(a: BalancerRun, b: BalancerRun): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export async function checkScenarios(manifest: LessonManifest, model: ReferenceModel): Promise<ScenarioFinding[]> {
  const findings: ScenarioFinding[] = [];
  const known = new Set(model.mutations.map((m) => m.id));
  for (const [i, scenario] of (manifest.scenarios ?? []).entries()) {
    const at = `/scenarios/${i}`;
    const reference = await runScenario(scenario, protocolBalancer(scenario.commands, modelSession(model)));
    if (reference.stopped) {
      findings.push({
        severity: 'error',
        pointer: `${at}/commands`,
        message: `scenario "${scenario.id}": the reference stops at tick ${reference.stopped.tick}: ${reference.stopped.message}`,
        advice: 'Check the command templates against the protocol: the pick command must be answered with a server name, or with a word listed in "wait" or "refuse".',
      });
      continue;
    }
    for (const [k, id] of (scenario.shows ?? []).entries()) {
      const mistake = manifest.mistakes.find((m) => m.id === id);
      if (!mistake) continue;
      const mutants = mistake.mutants.filter((m) => known.has(m) && !model.mutations.find((x) => x.id === m)?.nondeterministic);
      let shows = false;
      for (const mutant of mutants) {
        const run = await runScenario(scenario, protocolBalancer(scenario.commands, modelSession(model, new Set([mutant]))));
        if (run.stopped || !sameSeries(run, reference)) {
          shows = true;
          break;
        }
      }
      if (!shows) {
        findings.push({
          severity: 'warning',
          pointer: `${at}/shows/${k}`,
          message: `scenario "${scenario.id}" does not show mistake "${id}": with ${mutants.length === 1 ? `its mutant (${mutants[0]})` : `any of its mutants (${mutants.join(', ')})`} the queues are the same as the reference's`,
          advice: 'Change the scenario until the mistake matters (more load, a duplicate report, a burst), or remove the id from "shows": the learner would be sent to a chart that shows nothing.',
        });
      }
    }
  }
  return findings;
}
