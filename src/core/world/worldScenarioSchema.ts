/**
 * A world scenario in lesson.json (`scenarios`, with `params`): the pack's world (the model module's `world`
 * export) drives the learner's program beside the reference and the baselines the scenario names; the
 * scenario says which of the world's measures to draw and the sentence above the chart (sentence.ts).
 */
import { Type, type Static } from '@sinclair/typebox';
import { SINGLE_LINE_PATTERN } from '../pack/textPatterns';

const Id = Type.String({
  pattern: '^[a-z0-9][a-z0-9-]*$',
  minLength: 1,
  maxLength: 64,
  description: 'Lower-case letters, digits and dashes.',
});
const MeasureName = Type.String({
  pattern: '^[A-Za-z][A-Za-z0-9_]*$',
  minLength: 1,
  maxLength: 40,
  description: 'A measure the world reports at the end of each tick.',
});

export const SeriesSchema = Type.Object(
  {
    measure: MeasureName,
    per: Type.Union([Type.Literal('lane'), Type.Literal('total')], {
      description:
        '"lane": one chart per lane (e.g. per backend); "total": one chart of the measure (summed over lanes when it has them).',
    }),
    title: Type.String({ minLength: 1, maxLength: 60, pattern: SINGLE_LINE_PATTERN }),
    unit: Type.String({
      minLength: 1,
      maxLength: 40,
      pattern: SINGLE_LINE_PATTERN,
      description: 'What one unit is, e.g. "requests", "denied per tick".',
    }),
  },
  { additionalProperties: false },
);

export const WorldScenarioSchema = Type.Object(
  {
    id: Id,
    title: Type.String({ minLength: 1, maxLength: 80 }),
    description: Type.String({ minLength: 1, maxLength: 300, description: 'One line: what happens in this scenario.' }),
    explanation: Type.Optional(
      Type.String({ minLength: 1, maxLength: 4000, description: 'Markdown shown with the chart.' }),
    ),
    params: Type.Unknown({ description: "Free JSON for the pack's world, which checks it and says what is wrong." }),
    seed: Type.Integer({ minimum: 0, maximum: 2 ** 32 - 1 }),
    baselines: Type.Optional(
      Type.Array(Id, {
        maxItems: 4,
        uniqueItems: true,
        description: "Ids of the model's `baselines` drawn beside the learner's program and the reference.",
      }),
    ),
    series: Type.Array(SeriesSchema, { minItems: 1, maxItems: 8, description: 'What to draw, in order.' }),
    sentence: Type.String({
      minLength: 1,
      maxLength: 600,
      pattern: SINGLE_LINE_PATTERN,
      description:
        'The sentence above the chart. Placeholders: {yours|reference|baseline.<id>.peak|final|total.<measure>[.<lane>|.worst]} and {worst.<measure>} (docs/authoring.md).',
    }),
    shows: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        maxItems: 64,
        uniqueItems: true,
        description: 'Ids of the mistakes whose consequence this scenario shows.',
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * A scenario without `params`: one in a format a layer above core reads and checks in full (the template
 * scenarios of lesson.json, src/worlds/templates). Core reads only what every scenario has; it knows no more
 * of the format, so it is open here (`params` excluded, so a world scenario is never taken for one).
 */
export const OtherScenarioSchema = Type.Object(
  {
    id: Id,
    title: Type.String({ minLength: 1, maxLength: 80 }),
    description: Type.String({ minLength: 1, maxLength: 300 }),
    explanation: Type.Optional(Type.String({ minLength: 1, maxLength: 4000 })),
    shows: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 64, uniqueItems: true })),
    params: Type.Optional(Type.Never()),
  },
  { additionalProperties: true },
);

/** How many scenarios a lesson may have. */
export const MAX_SCENARIOS = 20;

export type WorldScenario = Static<typeof WorldScenarioSchema>;
export type OtherScenario = Static<typeof OtherScenarioSchema>;
export type SeriesSpec = Static<typeof SeriesSchema>;

/** A scenario of either form: world scenarios carry `params`. */
export function isWorldScenario(scenario: object): scenario is WorldScenario {
  return 'params' in scenario;
}
