/** Whether a template scenario matches ScenarioSchema, by the checker built from it (core/pack/builtCheck.ts). */
import { schemaCheck, type BuiltCheck } from '../../core/pack/builtCheck';
import { ScenarioSchema } from './scenarioSchema';

/** Injected by esbuild (scripts/schema-checks.mjs); not defined when running from source. */
declare const LESSON_COMPANION_SCENARIO_CHECK: BuiltCheck | undefined;

/** The checker the bundle was built with, if any (for the test that compares it with Value.Check). */
export const builtScenarioCheck = (): BuiltCheck | undefined =>
  typeof LESSON_COMPANION_SCENARIO_CHECK === 'function' ? LESSON_COMPANION_SCENARIO_CHECK : undefined;

export const matchesScenarioSchema = schemaCheck(ScenarioSchema, builtScenarioCheck());
