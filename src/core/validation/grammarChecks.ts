/**
 * `validate` against the model's command grammar (ReferenceModel.grammar), when it declares one: every command
 * of every hidden transcript, the reset and observe commands, predict questions' commands and the model's own
 * generated commands must fit it, and the lists of names they hold must keep to the model's `poolSize`. A model
 * without a grammar is not checked here.
 */
import { grammarProblem, listSize } from '../model/grammar';
import type { CommandGrammar, ReferenceModel } from '../model/model';
import { seededRandom } from '../model/random';
import type { Transcript } from '../model/transcript';
import type { LessonManifest } from '../pack/schema';
import type { ValidationProblem } from './problem';
import { locate } from '../pack/manifest';

const GENERATED = 100;
const LENGTH = 24;

export function checkGrammar(input: {
  readonly model: ReferenceModel;
  readonly transcripts: readonly Transcript[];
  readonly manifest: Pick<LessonManifest, 'failureQuestions' | 'quiz'>;
  readonly manifestFile: string;
  /** lesson.json's text: with it, a predict question's command outside the grammar is reported at its line. */
  readonly manifestText?: string;
  readonly modelFile?: string | undefined;
  readonly seed: number;
}): ValidationProblem[] {
  const grammar = input.model.grammar;
  const model = input.modelFile ? { file: input.modelFile } : {};
  if (!grammar)
    return input.model.poolSize
      ? [
          {
            severity: 'warning',
            area: 'model',
            ...model,
            message: 'the model declares `poolSize` but no `grammar`, so no command is known to hold a list of names',
            advice: "Declare the grammar, with `names` for the list argument (`SETUP: ['names']`).",
          },
        ]
      : [];
  const problems: ValidationProblem[] = [];
  const advice =
    'Fix the command, or add its form to the model\'s `grammar` (argument kinds: "name", "number", "names").';
  for (const t of input.transcripts) {
    for (const step of t.steps) {
      const problem = grammarProblem(grammar, step.command);
      if (problem)
        problems.push({
          severity: 'error',
          area: 'transcripts',
          file: t.file,
          line: step.line,
          message: `transcript "${t.name}": ${problem}`,
          advice,
        });
    }
  }
  for (const [what, command] of [
    ['resetCommand', input.model.resetCommand],
    ['observeCommand', input.model.observeCommand],
  ] as const) {
    const problem = command === undefined ? undefined : grammarProblem(grammar, command);
    if (problem)
      problems.push({ severity: 'error', area: 'model', ...model, message: `the model's ${what}: ${problem}`, advice });
  }
  const lists = [
    ['failureQuestions', input.manifest.failureQuestions],
    ['quiz', input.manifest.quiz ?? []],
  ] as const;
  for (const [list, questions] of lists) {
    for (const [i, question] of questions.entries()) {
      const commands = question.commands ?? [];
      const k = commands.findIndex((c) => grammarProblem(grammar, c) !== undefined);
      if (k < 0) continue;
      const message = `predict question "${question.id}": ${grammarProblem(grammar, commands[k]!)!}`;
      const where =
        input.manifestText === undefined
          ? undefined
          : locate(input.manifestText, input.manifestFile, `/${list}/${i}/commands/${k}`, message);
      problems.push({
        severity: 'error',
        area: 'questions',
        file: input.manifestFile,
        ...(where ? { line: where.line, column: where.column } : {}),
        message,
        advice,
      });
    }
  }
  problems.push(...generatedProblems(input.model, grammar, input.seed, model));
  return problems;
}

/** The model's own generated transcripts: a command outside the grammar (once), lists outside its `poolSize`. */
function generatedProblems(
  model: ReferenceModel,
  grammar: CommandGrammar,
  seed: number,
  where: { file?: string },
): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  const random = seededRandom(seed);
  const generated: string[][] = [];
  for (let i = 0; i < GENERATED; i++) {
    const commands = model.generate(random, 2 + random.int(LENGTH - 1));
    generated.push(commands);
    const bad = commands.map((c) => grammarProblem(grammar, c)).find((p) => p !== undefined);
    if (bad) {
      problems.push({
        severity: 'warning',
        area: 'model',
        ...where,
        message: `the model's generate() makes a command outside its grammar: ${bad}`,
        advice: 'Checks leave such commands out of the generated transcripts; make generate() and `grammar` agree.',
      });
      break;
    }
  }
  const sizes = generated.flat().flatMap((c) => listSize(grammar, c) ?? []);
  const pool = poolSizeProblem(model, sizes, generated.length);
  if (pool) problems.push({ severity: 'warning', area: 'model', ...where, ...pool });
  return problems;
}

/** Whether the lists of names generate() makes keep to the model's declared `poolSize` and reach its `max`. */
function poolSizeProblem(
  model: ReferenceModel,
  sizes: readonly number[],
  transcripts: number,
): { message: string; advice: string } | undefined {
  const range = model.poolSize;
  if (!range) return undefined;
  const advice = "Make generate() draw its lists' sizes from `poolSize` (most small, a few up to `max`), or change it.";
  const outside = sizes.find((n) => n < range.min || n > range.max);
  if (outside !== undefined)
    return {
      message: `generate() made a list of ${outside} names, outside the model's poolSize (${range.min} to ${range.max})`,
      advice,
    };
  if (sizes.length === 0)
    return { message: 'the model declares `poolSize`, but generate() made no command with a list of names', advice };
  if (!sizes.includes(range.max))
    return {
      message: `generate() never made a list of ${range.max} names (poolSize.max) in ${transcripts} transcripts: the most was ${Math.max(...sizes)}`,
      advice,
    };
  return undefined;
}
