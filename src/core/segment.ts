import type { ReferenceModel } from './model';

/**
 * Cuts a program's stdout lines back into one answer per command, using the protocol's answer shapes.
 * Commands past the end of the output get no entry, so `answers.length` says how far the program got.
 * `finished` is false for a program that crashed or was stopped: then a many-line answer at the very end
 * of its output cannot be told from "never answered", and counts as not answered (as in the batch runner).
 */
export function segmentAnswers(model: ReferenceModel, commands: readonly string[], lines: readonly string[], finished = true): string[][] {
  const answers: string[][] = [];
  let at = 0;
  for (const command of commands) {
    const shape = model.answerShape(command);
    if (shape.kind === 'one') {
      if (at >= lines.length) break;
      answers.push([lines[at]!]);
      at += 1;
    } else {
      if (at >= lines.length && !finished) break;
      const taken: string[] = [];
      while (at < lines.length && shape.line.test(lines[at]!)) taken.push(lines[at++]!);
      answers.push(taken);
    }
  }
  return answers;
}

/** Splits stdout into lines, dropping only the final newline's empty tail. */
export function outputLines(stdout: string): string[] {
  if (stdout === '') return [];
  const lines = stdout.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
