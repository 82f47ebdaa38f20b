/**
 * `validate` on a pack's scenarios, with its model, whatever runs them (the pack's world, or the template
 * engine of src/worlds/templates): a scenario that claims to show a mistake must show it: the model with that
 * mistake's mutants must give another run than the reference (every number of every tick), or a learner with
 * the mistake would look perfect under load.
 */
import type { ReferenceModel } from '../model/model';

export interface ScenarioFinding {
  readonly severity: 'error' | 'warning';
  /** JSON pointer into lesson.json. */
  readonly pointer: string;
  readonly message: string;
  readonly advice?: string;
}

/** Two runs a learner could not tell apart: the same numbers at every tick, and the same end. */
export function sameRun(a: object, b: object): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const listed = (ids: readonly string[]): string => ids.join(', ');

/**
 * The finding for one `shows` claim, given the deterministic mutants of the mistake and those among them
 * whose run is the reference's: an error when all are, a warning when some are, nothing when none is.
 */
export function showsFinding(
  scenarioId: string,
  id: string,
  mutants: readonly string[],
  perfect: readonly string[],
  pointer: string,
): ScenarioFinding | undefined {
  if (mutants.length > 0 && perfect.length === mutants.length) {
    return {
      severity: 'error',
      pointer,
      message:
        `scenario "${scenarioId}" says it shows mistake "${id}", but the model with ${id}'s ${mutants.length === 1 ? `mutant (${mutants[0]})` : `mutants (${listed(mutants)})`} ` +
        'gives the same run as the reference (the same measures at every tick): a learner with this mistake would look perfect under load',
      advice:
        'Change the scenario until the mistake matters (more load, a duplicate report, a burst, a longer outage), or remove the id from "shows": the learner would be sent to a chart that shows nothing.',
    };
  }
  if (perfect.length > 0) {
    return {
      severity: 'warning',
      pointer,
      message: `scenario "${scenarioId}" shows mistake "${id}" only in some of its forms: with ${perfect.length === 1 ? `its mutant ${perfect[0]}` : `its mutants ${listed(perfect)}`} the run is the same as the reference's`,
      advice:
        'A learner whose mistake takes that form would look perfect under load: change the scenario until every form of the mistake matters, or accept that this chart shows only the others.',
    };
  }
  return undefined;
}

/** The mutants of a mistake whose runs are evidence: known to the model, and deterministic (a random one differs by chance alone). */
export function evidenceMutants(model: ReferenceModel, mutants: readonly string[]): string[] {
  return mutants.filter((m) => model.mutations.some((x) => x.id === m && !x.nondeterministic));
}
