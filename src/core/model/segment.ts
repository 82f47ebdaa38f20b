import type { ReferenceModel } from './model';
import { simulate } from './simulate';

/**
 * Cuts the answer to `commands[index]` out of `lines` from position `at`; undefined when the program never
 * answered it. A many-line answer takes every line of its shape, except that two many-line commands in a row
 * (the same read-only command twice) cannot be told apart by shape: then the first takes as many lines as `expectedLength`
 * says (the reference's answer), when there are that many.
 */
export function cutAnswer(
  model: ReferenceModel,
  commands: readonly string[],
  index: number,
  lines: readonly string[],
  at: number,
  finished: boolean,
  expectedLength?: number,
): string[] | undefined {
  const shape = model.answerShape(commands[index]!);
  if (shape.kind === 'one') return at < lines.length ? [lines[at]!] : undefined;
  if (at >= lines.length && !finished) return undefined;
  let end = manyAnswerEnd(model, shape.line, lines, at);
  const next = commands[index + 1];
  if (next === undefined || model.answerShape(next).kind !== 'many') return lines.slice(at, end);
  // The same read-only command several times in a row answers the same lines each time: split the run evenly.
  let repeats = 1;
  while (commands[index + repeats] === commands[index]) repeats++;
  const run = end - at;
  if (repeats > 1 && run % repeats === 0) {
    const size = run / repeats;
    const chunk = lines.slice(at, at + size).join('\n');
    let even = true;
    for (let r = 1; r < repeats && even; r++)
      even = lines.slice(at + r * size, at + (r + 1) * size).join('\n') === chunk;
    if (even) return lines.slice(at, at + size);
  }
  if (expectedLength !== undefined && run > expectedLength) end = at + expectedLength;
  return lines.slice(at, end);
}

/**
 * Cuts a program's stdout lines back into one answer per command, using the protocol's answer shapes
 * (and, where shapes are ambiguous, the reference's `expected` answers). Commands past the end of the
 * output get no entry, so `answers.length` says how far the program got. `finished` is false for a program
 * that crashed or was stopped: then a many-line answer at the very end of its output cannot be told from
 * "never answered", and counts as not answered (as in the batch runner).
 */
export function segmentAnswers(
  model: ReferenceModel,
  commands: readonly string[],
  lines: readonly string[],
  finished = true,
  expected?: readonly (readonly string[])[],
): string[][] {
  const answers: string[][] = [];
  let at = 0;
  const many = (i: number): boolean => i < commands.length && model.answerShape(commands[i]!).kind === 'many';
  const ambiguous = commands.some((_, i) => many(i) && many(i + 1));
  const hints = expected ?? (ambiguous ? simulate(model, commands).steps.map((s) => s.answer) : undefined);
  for (let i = 0; i < commands.length; i++) {
    const answer = cutAnswer(model, commands, i, lines, at, finished, hints?.[i]?.length);
    if (!answer) break;
    answers.push(answer);
    at += answer.length;
  }
  return answers;
}

/**
 * Where a many-line answer starting at `at` ends: past every line of its shape, and past a line of the answer's
 * form beside one of them or seen fitting it before, whatever it holds (`zz:NaN` among `a:0` lines). That is a
 * wrong value, not the next command's answer: taken for one, a wrong count looked like state carried over.
 */
export function manyAnswerEnd(model: ReferenceModel, shape: RegExp, lines: readonly string[], at: number): number {
  const forms = formsOf(model, shape);
  const fits = (k: number): boolean => {
    if (k < at || k >= lines.length || !shape.test(lines[k]!)) return false;
    if (forms.size < MAX_FORMS) forms.add(answerForm(lines[k]!));
    return true;
  };
  // Only a form with punctuation (`w:w`, not a bare word): a bare word could as well be the next command's answer.
  const beside = (k: number): boolean =>
    /[^w]/.test(answerForm(lines[k]!)) &&
    (forms.has(answerForm(lines[k]!)) ||
      (fits(k - 1) && answerForm(lines[k]!) === answerForm(lines[k - 1]!)) ||
      (fits(k + 1) && answerForm(lines[k]!) === answerForm(lines[k + 1]!)));
  // Rows of this answer written otherwise, not the next command's answer (taken for that, every later answer shifted
  // by one, and the shift was told as a mistake and as state carried over): a row of a known form with something
  // after it (`c:1 (down)` where the reference says `c:1 down`), several rows of known forms on one line
  // (`a:0 b:1 c:0`), or an empty line (those rows joined for an empty pool; no command answers an empty line).
  const rowWrittenOtherwise = (k: number): boolean => {
    const form = answerForm(lines[k]!);
    if (lines[k] === '') return true;
    if (model.isAnswerLine(lines[k]!)) return false;
    // The answer's row forms with punctuation (`w:w`), as `beside` takes them; a bare word could be any answer.
    const rowForms = [...forms].filter((f) => /[^w ]/.test(f));
    const pieces = form.split(' ');
    return (
      rowForms.some((f) => form.startsWith(`${f} `)) ||
      (pieces.length >= 2 && pieces.every((piece) => rowForms.includes(piece)))
    );
  };
  let end = at;
  while (end < lines.length && (fits(end) || beside(end) || rowWrittenOtherwise(end))) end++;
  if (end > at || at >= lines.length || model.isAnswerLine(lines[at]!) || !reformatted(forms, lines[at]!)) return end;
  // Rows in another form than the answer's, word for word like one of its forms (`a=1` for `a:1`): this answer in
  // the wrong format, not the next commands' answers (taken for those, every later answer shifted and the shift
  // looked like state carried over between transcripts).
  const form = answerForm(lines[at]!);
  while (end < lines.length && answerForm(lines[end]!) === form) end++;
  return end;
}

/**
 * The forms of the rows the many-line answers to these commands have been seen in (their shapes' forms): a row
 * like `ghost:NaN` is an answer where the reference lists no rows at all, never a debug print to drop.
 */
export function manyAnswerForms(model: ReferenceModel, commands: readonly string[]): Set<string> {
  const forms = new Set<string>();
  for (const command of commands) {
    const shape = model.answerShape(command);
    if (shape.kind === 'many') for (const form of formsOf(model, shape.line)) forms.add(form);
  }
  return forms;
}

/** Whether a line of a many-line answer is in a form of its shape, whatever it holds (`a:NaN` is, `a=1` is not). */
export function inShapeForm(model: ReferenceModel, shape: RegExp, line: string): boolean {
  return shape.test(line) || formsOf(model, shape).has(answerForm(line));
}

/** A line with punctuation in a form the shape has never had, with as many words as one it has had. */
function reformatted(forms: ReadonlySet<string>, line: string): boolean {
  const form = answerForm(line);
  const words = (f: string): number => f.split('w').length - 1;
  return /[^w]/.test(form) && !forms.has(form) && [...forms].some((known) => words(known) === words(form));
}

/**
 * Notes the forms of the reference's many-line answers to these commands as forms of their shapes: a program that
 * prints every row in another form (`a=1` for `a:1`) prints no row that fits, so its rows are only known for what
 * they are beside the reference's. Only lines the shape accepts are kept, as in manyAnswerEnd.
 */
export function noteAnswerForms(
  model: ReferenceModel,
  steps: readonly { command: string; answer: readonly string[] }[],
): void {
  for (const { command, answer } of steps) {
    const shape = model.answerShape(command);
    if (shape.kind !== 'many') continue;
    const forms = formsOf(model, shape.line);
    for (const line of answer) if (forms.size < MAX_FORMS && shape.line.test(line)) forms.add(answerForm(line));
  }
}

/** Forms kept per answer shape: a protocol's many-line answer has one or two. */
const MAX_FORMS = 8;
const seenForms = new WeakMap<ReferenceModel, Map<string, Set<string>>>();

/**
 * The forms (answerForm) of the lines seen fitting a many-line answer's shape, by model and shape: what lets a
 * line of that form count as part of such an answer when no line beside it fits (`zz:NaN` alone where the
 * reference lists nothing). Only lines the shape accepts are kept, so which ones were seen first changes nothing.
 */
function formsOf(model: ReferenceModel, line: RegExp): Set<string> {
  let byShape = seenForms.get(model);
  if (!byShape) seenForms.set(model, (byShape = new Map()));
  let forms = byShape.get(line.source);
  if (!forms) byShape.set(line.source, (forms = new Set()));
  return forms;
}

/** A line's punctuation with every word or number in it as one `w`: `a:0` and `Alpha:NaN` are both `w:w`. */
export function answerForm(line: string): string {
  return line.replace(/[\p{L}\p{N}_.+-]+/gu, 'w');
}

/** Splits stdout into lines, dropping only the final newline's empty tail. */
export function outputLines(stdout: string): string[] {
  if (stdout === '') return [];
  const lines = stdout.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
