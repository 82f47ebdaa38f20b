/**
 * A differing command said in the learner's words (stepwise.ts): what the program answered beside the reference, or
 * that the form of its rows is not the lesson's.
 */
import type { ReferenceModel, StepResult } from '../model/model';
import { clipLine, SHOWN_ANSWER_CHARS } from '../text/clip';
import { inShapeForm } from '../model/segment';
import type { ProgramAnswer, StepRef, UnexplainedStep } from './steps';

/** A differing command said in the learner's words: its form first, when that is what differs. */
export function unexplainedStep(
  model: ReferenceModel,
  ref: StepRef,
  state: unknown,
  expected: StepResult<unknown>,
  answer: ProgramAnswer,
): UnexplainedStep {
  const expectedLines = expected.answer.kind === 'lines' ? expected.answer.lines : [];
  const form = answer.kind === 'crash' ? undefined : otherForm(model, ref.command, expectedLines, answer.lines);
  if (form) return { step: ref, sentence: form, form: true };
  return { step: ref, sentence: describe(model, state, ref.command, expected, answer) };
}

function describe(
  model: ReferenceModel,
  state: unknown,
  command: string,
  expected: StepResult<unknown>,
  answer: ProgramAnswer,
): string {
  const expectedLines = expected.answer.kind === 'lines' ? expected.answer.lines : [];
  if (answer.kind === 'crash') {
    const what = answer.ended ? 'your program had ended without answering' : 'your program crashed';
    return `at \`${command}\` ${what}, where the reference answers "${expectedLines.join(' / ') || '(nothing)'}"`;
  }
  let custom: unknown;
  try {
    custom = model.describeDifference?.(state, command, expectedLines, answer.lines);
  } catch {
    custom = undefined; // a sentence is a courtesy; the generic one below is still true
  }
  if (typeof custom === 'string' && custom !== '') return clipLine(custom, 4 * SHOWN_ANSWER_CHARS);
  return `\`${command}\` answered "${clipLine(answer.lines.join(' / ')) || '(nothing)'}" where the reference answers "${clipLine(expectedLines.join(' / ')) || '(nothing)'}"`;
}

/**
 * A many-line answer whose rows are in another form than the lesson's, word for word (`a=1` where the reference
 * prints `a:1`): the format is what differs, said as such, not as counts the model would read into it.
 */
function otherForm(
  model: ReferenceModel,
  command: string,
  expected: readonly string[],
  actual: readonly string[],
): string | undefined {
  const shape = model.answerShape(command);
  if (shape.kind !== 'many' || expected.length === 0) return undefined;
  const row = actual.find((line) => !model.isAnswerLine(line) && !inShapeForm(model, shape.line, line));
  if (row === undefined) return undefined;
  const words = (line: string): string[] => line.match(/[\p{L}\p{N}_.+-]+/gu) ?? [];
  const like = expected.find((line) => words(line).join(' ') === words(row).join(' ')) ?? expected[0]!;
  return `\`${command}\` printed "${clipLine(row)}", which is not in the form of the lesson's answers: the reference prints "${clipLine(like)}"`;
}
