/**
 * `validate` against the model's command grammar (ReferenceModel.grammar), when it declares one: every command
 * of every hidden transcript, the reset and observe commands, predict questions' commands and the model's own
 * generated commands must fit it. A model without a grammar is not checked here.
 */
import { grammarProblem } from '../model/grammar';
import type { ReferenceModel } from '../model/model';
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
  if (!grammar) return [];
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
  const model = input.modelFile ? { file: input.modelFile } : {};
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
  const random = seededRandom(input.seed);
  for (let i = 0; i < GENERATED; i++) {
    const bad = input.model
      .generate(random, 2 + random.int(LENGTH - 1))
      .map((c) => grammarProblem(grammar, c))
      .find((p) => p !== undefined);
    if (bad) {
      problems.push({
        severity: 'warning',
        area: 'model',
        ...model,
        message: `the model's generate() makes a command outside its grammar: ${bad}`,
        advice: 'Checks leave such commands out of the generated transcripts; make generate() and `grammar` agree.',
      });
      break;
    }
  }
  return problems;
}
