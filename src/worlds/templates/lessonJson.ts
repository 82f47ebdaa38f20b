/**
 * lesson.json as packs write it: core's manifest (src/core/pack), whose scenarios are world scenarios or
 * "other" ones core does not read further, with those others checked here as template scenarios (the
 * balancer format, scenarioSchema.ts). Everything that loads or validates a pack parses through here, and
 * the JSON Schema authors get in the editor is built here, so it shows the template format in full.
 */
import { Value } from '@sinclair/typebox/value';
import {
  locate,
  parseManifest,
  type ManifestProblem,
  type ManifestResult,
  type ParseOptions,
} from '../../core/pack/manifest';
import { LessonManifestSchema } from '../../core/pack/schema';
import { isWorldScenario } from '../../core/world/worldScenarioSchema';
import { templateScenarioProblems } from './scenarioRules';
import { ScenarioSchema } from './scenarioSchema';
import { matchesScenarioSchema } from './scenarioCheck';

/** At most this many schema problems are listed per scenario (the first say what is wrong). */
const MAX_PROBLEMS_PER_SCENARIO = 20;

/** Parses and validates lesson.json, its template scenarios included, giving every problem a file, line and column. */
export function parseLessonJson(raw: string, file: string, options: ParseOptions = {}): ManifestResult {
  const parsed = parseManifest(raw, file, options);
  if (!parsed.ok) return parsed;
  const problems: ManifestProblem[] = [];
  const scenarios = parsed.manifest.scenarios ?? [];
  scenarios.forEach((scenario, i) => {
    if (isWorldScenario(scenario) || matchesScenarioSchema(scenario)) return;
    const seen = new Set<string>();
    for (const error of Value.Errors(ScenarioSchema, scenario)) {
      // A missing property also fails its type ("Expected string"); the first message ("required") says it all.
      if (seen.has(error.path) || seen.size >= MAX_PROBLEMS_PER_SCENARIO) continue;
      seen.add(error.path);
      problems.push(locate(raw, file, `/scenarios/${i}${error.path}`, error.message));
    }
  });
  // The rules read the fields the schema guarantees: only once every template scenario matches it.
  if (problems.length === 0)
    templateScenarioProblems(parsed.manifest, (pointer, message) => problems.push(locate(raw, file, pointer, message)));
  return problems.length === 0 ? parsed : { ok: false, problems };
}

export const LESSON_SCHEMA_FILE = 'media/lesson.schema.json';

/**
 * The JSON Schema authors get in the editor for lesson.json. TypeBox schemas already are JSON Schema;
 * JSON.stringify drops TypeBox's symbol keys, so the file cannot drift from the runtime validators. The
 * scenarios' first alternative is the template scenario's own schema (core's is open, see
 * worldScenarioSchema.ts). scripts/write-schema.mjs writes this text to media/lesson.schema.json on every build.
 */
export function lessonJsonSchema(): Record<string, unknown> {
  const body = JSON.parse(JSON.stringify(LessonManifestSchema)) as {
    properties: { scenarios: { items: { anyOf: unknown[] } } };
  };
  body.properties.scenarios.items.anyOf[0] = JSON.parse(JSON.stringify(ScenarioSchema));
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $comment:
      'Generated from src/core/pack/schema.ts and src/worlds/templates/scenarioSchema.ts by scripts/write-schema.mjs (npm run build). Do not edit by hand.',
    title: 'Lesson Companion lesson pack (lesson.json)',
    ...body,
  };
}

/** The exact bytes of media/lesson.schema.json. */
export function lessonJsonSchemaText(): string {
  return JSON.stringify(lessonJsonSchema(), null, 2) + '\n';
}
