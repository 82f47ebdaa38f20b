/**
 * `validate` on a pack's scenarios, with its model: the reference must run every scenario to the end (each
 * pick answered with a server, or one of the scenario's "no server" words), and a scenario that claims to
 * show a mistake must show it: the model with that mistake's mutants must give another run than the
 * reference (its queues, requests sent, failed and waiting, tick by tick), or a learner with the mistake
 * would look perfect under load.
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

/** Two runs a learner could not tell apart: the same numbers at every tick, and the same end. */
export function sameRun(a: BalancerRun, b: BalancerRun): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const listed = (ids: readonly string[]): string => ids.join(', ');

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
      // A mutant that answers at random would differ by chance alone: only the deterministic ones are evidence.
      const mutants = mistake.mutants.filter((m) => known.has(m) && !model.mutations.find((x) => x.id === m)?.nondeterministic);
      if (mutants.length === 0) continue;
      const perfect: string[] = [];
      for (const mutant of mutants) {
        const run = await runScenario(scenario, protocolBalancer(scenario.commands, modelSession(model, new Set([mutant]))));
        if (!run.stopped && sameRun(run, reference)) perfect.push(mutant);
      }
      if (perfect.length === mutants.length) {
        findings.push({
          severity: 'error',
          pointer: `${at}/shows/${k}`,
          message:
            `scenario "${scenario.id}" says it shows mistake "${id}", but the model with ${id}'s ${mutants.length === 1 ? `mutant (${mutants[0]})` : `mutants (${listed(mutants)})`} ` +
            'gives the same run as the reference (the same queues, requests sent, failed and waiting at every tick): a learner with this mistake would look perfect under load',
          advice: 'Change the scenario until the mistake matters (more load, a duplicate report, a burst, every server down for a while), or remove the id from "shows": the learner would be sent to a chart that shows nothing.',
        });
      } else if (perfect.length > 0) {
        findings.push({
          severity: 'warning',
          pointer: `${at}/shows/${k}`,
          message: `scenario "${scenario.id}" shows mistake "${id}" only in some of its forms: with ${perfect.length === 1 ? `its mutant ${perfect[0]}` : `its mutants ${listed(perfect)}`} the run is the same as the reference's`,
          advice: 'A learner whose mistake takes that form would look perfect under load: change the scenario until every form of the mistake matters, or accept that this chart shows only the others.',
        });
      }
    }
  }
  return findings;
}
