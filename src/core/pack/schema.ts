/**
 * The lesson pack manifest (`lesson.json`). This one TypeBox schema is the TypeScript type (Static),
 * the runtime validator (Value.Check/Errors) and the JSON Schema authors get in the editor
 * (scripts/write-schema.mjs writes it to media/lesson.schema.json for contributes.jsonValidation).
 */
import { Type, type Static } from '@sinclair/typebox';
import { SINGLE_LINE_PATTERN } from './textPatterns';
import { MAX_SCENARIOS, OtherScenarioSchema, WorldScenarioSchema } from '../world/worldScenarioSchema';

const Id = Type.String({
  pattern: '^[a-z0-9][a-z0-9-]*$',
  minLength: 1,
  maxLength: 64,
  description: 'Lower-case letters, digits and dashes.',
});
/** Paths inside the pack: relative, forward slashes, no `..` segment, no drive letters. */
export const PackPath = Type.String({
  pattern: '^(?![/\\\\])(?![A-Za-z]:)(?!.*(^|[/\\\\])\\.\\.([/\\\\]|$))[^\\u0000]+$',
  minLength: 1,
  maxLength: 260,
  description: 'A path inside the pack folder, relative, with no ".." segments.',
});
const Markdown = Type.String({ minLength: 1, maxLength: 8000, description: 'Markdown text.' });

/**
 * How much a pack may hold. A pack comes from someone else and is read by every check, so each list is
 * bounded where it is read: diagnosis looks at mistakes × mutants, the panel lists steps and questions.
 * Real lessons use a fraction of this (the built-in ones: at most 8 mistakes, 2 mutants each, 6 steps).
 */
export const PACK_LIMITS = {
  mistakes: 64,
  mutantsPerMistake: 16,
  steps: 100,
  questions: 100,
  transcriptFiles: 100,
  listItems: 20,
  stepNumber: 100,
} as const;

export { SINGLE_LINE_PATTERN };
const Command = Type.String({ minLength: 1, maxLength: 300, pattern: SINGLE_LINE_PATTERN });
export const LanguageSchema = Type.Union([
  Type.Literal('python'),
  Type.Literal('javascript'),
  Type.Literal('typescript'),
]);

export const StarterSchema = Type.Object(
  {
    dir: Type.Intersect([PackPath], { description: 'Folder copied into the learner workspace.' }),
    main: Type.Intersect([PackPath], {
      description: 'The file the learner edits, relative to `dir` and to the workspace.',
    }),
    driver: Type.Optional(
      Type.Intersect([PackPath], {
        description:
          'A program in the pack that imports the learner module and speaks the protocol; without it the learner file is the program.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ReadStepSchema = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200 }),
    detail: Type.Optional(Markdown),
    symbol: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Symbol to reveal, e.g. "pick" or "ConnCounts"; "#top" for the top of the file.',
      }),
    ),
    file: Type.Optional(
      Type.Intersect([PackPath], {
        description: 'Workspace file to open, relative to the workspace; default: the learner main file.',
      }),
    ),
    pattern: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Regular expression fallback when no symbol provider finds the symbol.',
      }),
    ),
    run: Type.Optional(
      Type.Union(
        [
          Command,
          Type.Object(
            { python: Type.Optional(Command), javascript: Type.Optional(Command), typescript: Type.Optional(Command) },
            { additionalProperties: false },
          ),
        ],
        { description: 'A command to run in a terminal at the workspace root for this step, or one per language.' },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * The cost of the scrypt hash a `short` answer is stored as. Bounded so that a pack cannot make checking an
 * answer take the machine's memory or minutes: at most 64 MiB (128·N·r bytes) and p ≤ 4.
 */
export const SCRYPT_LIMITS = {
  minLogN: 10,
  maxLogN: 16,
  maxR: 16,
  maxP: 4,
  maxMemoryBytes: 64 * 1024 * 1024,
  minKeyLength: 16,
  maxKeyLength: 64,
} as const;
const ScryptHex = Type.String({ pattern: '^[0-9a-f]{32,128}$' });

export const FeedbackSchema = Type.Object(
  {
    sha256: Type.Optional(
      Type.String({
        pattern: '^[0-9a-f]{64}$',
        description: 'Hash of salt + ":" + a normalised wrong answer (questions whose answer has "sha256").',
      }),
    ),
    scrypt: Type.Optional({
      ...ScryptHex,
      description:
        'scrypt of a normalised wrong answer with the answer\'s salt and cost (questions whose answer has "scrypt").',
    }),
    text: Type.String({ minLength: 1, maxLength: 1000 }),
  },
  { additionalProperties: false },
);

/**
 * The accepted answers, hashed: either `sha256` (every kind; `sha256(salt + ":" + normalised)`, cheap to
 * guess) or `scrypt` (what author-answers writes for `short` answers: a slow, salted KDF, each guess costs
 * real time). Exactly one of the two; questionProblems says so when a pack has neither or both.
 */
export const AnswerHashesSchema = Type.Object(
  {
    salt: Type.String({ minLength: 8, maxLength: 64 }),
    sha256: Type.Optional(
      Type.Array(Type.String({ pattern: '^[0-9a-f]{64}$' }), {
        minItems: 1,
        maxItems: PACK_LIMITS.listItems,
        description: 'sha256(salt + ":" + normalised answer), hex.',
      }),
    ),
    scrypt: Type.Optional(
      Type.Object(
        {
          N: Type.Integer({
            minimum: 2 ** SCRYPT_LIMITS.minLogN,
            maximum: 2 ** SCRYPT_LIMITS.maxLogN,
            description: 'CPU/memory cost, a power of two.',
          }),
          r: Type.Integer({ minimum: 1, maximum: SCRYPT_LIMITS.maxR, description: 'Block size.' }),
          p: Type.Integer({ minimum: 1, maximum: SCRYPT_LIMITS.maxP, description: 'Parallelisation.' }),
          keyLength: Type.Integer({
            minimum: SCRYPT_LIMITS.minKeyLength,
            maximum: SCRYPT_LIMITS.maxKeyLength,
            description: 'Bytes of each hash.',
          }),
          hashes: Type.Array(ScryptHex, {
            minItems: 1,
            maxItems: PACK_LIMITS.listItems,
            description: 'scrypt(normalised answer, salt, keyLength, {N, r, p}), hex.',
          }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type AnswerHashes = Static<typeof AnswerHashesSchema>;
export type ScryptCost = Omit<NonNullable<AnswerHashes['scrypt']>, 'hashes'>;

export const QuestionSchema = Type.Object(
  {
    id: Id,
    prompt: Markdown,
    kind: Type.Union([
      Type.Literal('single'),
      Type.Literal('multiple'),
      Type.Literal('short'),
      Type.Literal('number'),
      Type.Literal('predict'),
    ]),
    choices: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { minItems: 2, maxItems: 12 })),
    /** Salted hashes of the normalised accepted answers; the answers themselves are not in the pack. */
    answer: Type.Optional(AnswerHashesSchema),
    orderless: Type.Optional(Type.Boolean({ description: 'Short answers: "a, b" and "b, a" are the same answer.' })),
    commands: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200, pattern: SINGLE_LINE_PATTERN }), {
        minItems: 1,
        maxItems: 50,
        description: 'Predict-the-output: the transcript whose output the learner predicts.',
      }),
    ),
    feedback: Type.Optional(Type.Array(FeedbackSchema, { maxItems: 20 })),
    hint: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description: 'Shown for a wrong answer that has no specific feedback.',
      }),
    ),
    explanation: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2000, description: 'Shown once the answer is right.' }),
    ),
    step: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: PACK_LIMITS.stepNumber,
        description: 'The read-order step (1-based) that answers this question.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const MistakeSchema = Type.Object(
  {
    id: Id,
    title: Type.String({ minLength: 1, maxLength: 120 }),
    explanation: Markdown,
    function: Type.String({ minLength: 1, maxLength: 80, description: 'The learner function the mistake lives in.' }),
    hint: Type.String({ minLength: 1, maxLength: 1000 }),
    mutants: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      minItems: 1,
      maxItems: PACK_LIMITS.mutantsPerMistake,
      uniqueItems: true,
      description: "The reference model's mutation ids that make this mistake.",
    }),
    variants: Type.Optional(
      Type.Array(
        Type.Object(
          {
            mutant: Type.String({ minLength: 1, maxLength: 64, description: "One of this mistake's mutants." }),
            title: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
            explanation: Markdown,
            hint: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: PACK_LIMITS.mutantsPerMistake,
          description:
            'Words for a particular form of the mistake (e.g. an unsigned counter that wraps around), shown when the program matches that mutant.',
        },
      ),
    ),
    question: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'Id of the failure question that teaches this mistake.',
      }),
    ),
    step: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: PACK_LIMITS.stepNumber,
        description: 'Read-order step (1-based) that teaches this mistake.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const LessonManifestSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String({ maxLength: 500 })),
    id: Id,
    version: Type.String({
      pattern: '^\\d+\\.\\d+\\.\\d+$',
      description: 'Semantic version; a newer version replaces an installed older one.',
    }),
    title: Type.String({ minLength: 1, maxLength: 120 }),
    summary: Type.Optional(Type.String({ maxLength: 500 })),
    coreQuestion: Markdown,
    outcomes: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), {
      minItems: 1,
      maxItems: PACK_LIMITS.listItems,
    }),
    model: Type.Intersect([PackPath], {
      description:
        'The reference model of the exercise: a JavaScript or TypeScript module in the pack, e.g. "model/model.ts" (see docs/authoring.md).',
    }),
    protocol: Markdown,
    starters: Type.Object(
      {
        python: Type.Optional(StarterSchema),
        javascript: Type.Optional(StarterSchema),
        typescript: Type.Optional(StarterSchema),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
    transcripts: Type.Array(PackPath, {
      minItems: 1,
      maxItems: PACK_LIMITS.transcriptFiles,
      uniqueItems: true,
      description: 'Hidden transcript files.',
    }),
    readOrder: Type.Array(ReadStepSchema, { minItems: 1, maxItems: PACK_LIMITS.steps }),
    failureQuestions: Type.Array(QuestionSchema, { maxItems: PACK_LIMITS.questions }),
    quiz: Type.Optional(Type.Array(QuestionSchema, { maxItems: PACK_LIMITS.questions })),
    doneWhen: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), {
      minItems: 1,
      maxItems: PACK_LIMITS.listItems,
    }),
    mistakes: Type.Array(MistakeSchema, { minItems: 1, maxItems: PACK_LIMITS.mistakes }),
    scenarios: Type.Optional(
      // The template scenarios' own schema takes the first place in the authoring JSON schema and is checked
      // after this one (src/worlds/templates/lessonJson.ts); core reads only what every scenario has.
      Type.Array(Type.Union([OtherScenarioSchema, WorldScenarioSchema]), {
        maxItems: MAX_SCENARIOS,
        description:
          'Load scenarios: the learner\'s program driven tick by tick beside the reference and baselines (docs/authoring.md, "Scenarios").',
      }),
    ),
    fuzz: Type.Optional(
      Type.Object(
        { transcripts: Type.Integer({ minimum: 0, maximum: 500 }), length: Type.Integer({ minimum: 2, maximum: 200 }) },
        { additionalProperties: false },
      ),
    ),
    hints: Type.Optional(
      Type.Object(
        {
          maxRung: Type.Integer({
            minimum: 1,
            maximum: 4,
            description:
              'The last rung of the hint ladder a learner may reach: 1 the question and the step, 2 the lines, 3 the smallest failing transcript, 4 a verified fix to their own file (the default).',
          }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type LessonManifest = Static<typeof LessonManifestSchema>;
export type Starter = Static<typeof StarterSchema>;
export type ReadStep = Static<typeof ReadStepSchema>;
export type Question = Static<typeof QuestionSchema>;
export type Mistake = Static<typeof MistakeSchema>;
export type Language = Static<typeof LanguageSchema>;
export const LANGUAGES: readonly Language[] = ['python', 'javascript', 'typescript'];
