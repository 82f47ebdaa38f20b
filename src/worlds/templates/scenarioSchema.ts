/**
 * A load scenario in lesson.json (`scenarios`): a small simulated cluster the learner's balancer is driven
 * through, tick by tick, beside round robin and the lesson's reference. Pure data: servers and their speed,
 * how many requests arrive, what happens to the servers, and the pack's own command words as templates.
 * The engine (simulation.ts) knows no protocol; it only fills `{servers}` and `{server}` in.
 */
import { Type, type Static } from '@sinclair/typebox';
import { SINGLE_LINE_PATTERN } from '../../core/pack/textPatterns';

/**
 * How big a scenario may be. Each request is one answer the learner's program is waited for, so the total
 * (ticks × requests per tick) is bounded too, in scenarioRules.ts: a few thousand round trips take seconds.
 */
export const SCENARIO_LIMITS = {
  scenarios: 20,
  servers: 12,
  ticks: 200,
  requestsPerTick: 500,
  capacity: 1000,
  events: 50,
  overrides: 200,
  totalRequests: 20_000,
  startCommands: 10,
  answerWords: 10,
} as const;

const ScenarioId = Type.String({
  pattern: '^[a-z0-9][a-z0-9-]*$',
  minLength: 1,
  maxLength: 64,
  description: 'Lower-case letters, digits and dashes.',
});
/** A server name is one word of the protocol's command lines. */
const ServerName = Type.String({
  pattern: '^[A-Za-z0-9._-]+$',
  minLength: 1,
  maxLength: 40,
  description: 'One word: letters, digits, dot, dash, underscore.',
});
const Tick = Type.Integer({ minimum: 1, maximum: SCENARIO_LIMITS.ticks, description: 'A tick of the run, from 1.' });
const Requests = Type.Integer({ minimum: 0, maximum: SCENARIO_LIMITS.requestsPerTick });
/** One command line with placeholders: one line of plain text (it is written to a program's stdin). */
const Template = (description: string): ReturnType<typeof Type.String> =>
  Type.String({ minLength: 1, maxLength: 200, pattern: SINGLE_LINE_PATTERN, description });
const AnswerWord = Type.String({ minLength: 1, maxLength: 60, pattern: SINGLE_LINE_PATTERN });

export const ScenarioCommandsSchema = Type.Object(
  {
    start: Type.Array(
      Template('Sent once before the first tick; `{servers}` is the pool, names separated by spaces.'),
      {
        minItems: 1,
        maxItems: SCENARIO_LIMITS.startCommands,
        description: 'Commands that set the balancer up, e.g. ["SETUP {servers}"].',
      },
    ),
    pick: Template('Sent for every arriving request; the answer is the server it goes to.'),
    afterPick: Type.Optional(
      Template(
        'Sent after a pick that named a server, e.g. "OPENED {server}", for protocols that count a request in a command of its own.',
      ),
    ),
    done: Template('Sent for every finished request, e.g. "FINISHED {server}".'),
    down: Type.Optional(Template('Sent when a server goes down, e.g. "OFFLINE {server}".')),
    up: Type.Optional(Template('Sent when a server comes back, e.g. "ONLINE {server}".')),
    wait: Type.Optional(
      Type.Array(AnswerWord, {
        maxItems: SCENARIO_LIMITS.answerWords,
        description:
          'Answers to `pick` that mean "no server now": the request waits and is offered again the next tick.',
      }),
    ),
    refuse: Type.Optional(
      Type.Array(AnswerWord, {
        maxItems: SCENARIO_LIMITS.answerWords,
        description: 'Answers to `pick` that mean "nowhere to send it": the request fails.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ScenarioSchema = Type.Object(
  {
    id: ScenarioId,
    title: Type.String({ minLength: 1, maxLength: 80 }),
    description: Type.String({ minLength: 1, maxLength: 300, description: 'One line: what happens in this scenario.' }),
    explanation: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4000,
        description: 'Markdown shown with the chart: how to read it, and the setup its figures depend on.',
      }),
    ),
    servers: Type.Array(
      Type.Object(
        {
          name: ServerName,
          capacity: Type.Integer({
            minimum: 1,
            maximum: SCENARIO_LIMITS.capacity,
            description: 'Requests the server finishes per tick.',
          }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: SCENARIO_LIMITS.servers, description: 'The pool, in pool order.' },
    ),
    ticks: Tick,
    arrivals: Type.Object(
      {
        perTick: Requests,
        at: Type.Optional(
          Type.Array(Type.Object({ tick: Tick, requests: Requests }, { additionalProperties: false }), {
            maxItems: SCENARIO_LIMITS.overrides,
            description: 'Ticks with another number of arrivals, e.g. a burst: [{ "tick": 1, "requests": 30 }].',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    events: Type.Optional(
      Type.Array(
        Type.Object(
          {
            tick: Tick,
            server: ServerName,
            health: Type.Optional(
              Type.Union([Type.Literal('down'), Type.Literal('up')], {
                description: 'The server goes down, or comes back.',
              }),
            ),
            capacity: Type.Optional(
              Type.Integer({
                minimum: 0,
                maximum: SCENARIO_LIMITS.capacity,
                description:
                  'Its capacity from this tick on: a server that comes back cold works slower until it has warmed up.',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: SCENARIO_LIMITS.events,
          description: 'What happens to a server at the start of a tick: it goes down, comes back, or changes speed.',
        },
      ),
    ),
    duplicateDone: Type.Optional(
      Type.Object(
        {
          percent: Type.Integer({
            minimum: 1,
            maximum: 100,
            description: 'Share of finished requests reported twice (a retry after a timeout), chosen with the seed.',
          }),
          servers: Type.Optional(
            Type.Array(ServerName, {
              minItems: 1,
              maxItems: SCENARIO_LIMITS.servers,
              uniqueItems: true,
              description:
                'Only requests finished on these servers (the slow ones, where requests time out); default: every server.',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    seed: Type.Integer({ minimum: 0, maximum: 2 ** 32 - 1 }),
    shows: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        maxItems: 64,
        uniqueItems: true,
        description: 'Ids of the mistakes whose consequence this scenario shows.',
      }),
    ),
    commands: ScenarioCommandsSchema,
  },
  { additionalProperties: false },
);

export type Scenario = Static<typeof ScenarioSchema>;
export type ScenarioCommands = Static<typeof ScenarioCommandsSchema>;

/** The scenarios written with command templates (the others carry `params` for the pack's world). */
export function templateScenarios(scenarios: readonly object[] | undefined): Scenario[] {
  return (scenarios ?? []).filter((s): s is Scenario => !('params' in s));
}
