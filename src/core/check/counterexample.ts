import { clipLines } from '../text/clip';
import type { ReferenceModel } from '../model/model';
import type { Counterexample, Replay, TraceRow } from '../report/report';
import { inShapeForm, segmentAnswers } from '../model/segment';
import { simulate, type Outcome } from '../model/simulate';

export interface CounterexampleSource {
  /** The transcript it was shrunk from, and its label in the learner's words. */
  readonly transcript: string;
  readonly label: string;
  readonly shrunkFrom: number;
  /** True when `learner` is a fresh process's run of exactly these commands. */
  readonly reproduced: boolean;
  readonly replay?: Replay;
}

/** The commands with the model's observe command after each one, so a run shows the program's counts. */
export function withObserve(model: ReferenceModel, commands: readonly string[]): string[] {
  const observe = model.observeCommand;
  return observe ? commands.flatMap((command) => [command, observe]) : [...commands];
}

/**
 * Splits a run of `withObserve(commands)` into the plain answers and, per command, the counts the program
 * printed right after it. Returns undefined when the plain answers differ from `plain` (the observe command
 * changed what the program did, or it is random): then its counts would not describe the shown run.
 */
export function splitObserved(
  model: ReferenceModel,
  commands: readonly string[],
  plain: Outcome,
  observedRun: Outcome,
): (readonly string[] | null)[] | undefined {
  if (!model.observeCommand) return undefined;
  const answers = segmentAnswers(
    model,
    withObserve(model, commands),
    observedRun.lines,
    observedRun.ending === 'finished',
  );
  const plainAnswers = segmentAnswers(model, commands, plain.lines, plain.ending === 'finished');
  // Counts printed in another form than the lesson's (`a=1` for `a:1`) are no counts to lay beside the
  // reference's: every row would look wrong from the start, though only the format is.
  const shape = model.answerShape(model.observeCommand);
  if (
    shape.kind === 'many' &&
    answers.some((lines, k) => k % 2 === 1 && lines.some((l) => !inShapeForm(model, shape.line, l)))
  )
    return undefined;
  const observed: (readonly string[] | null)[] = [];
  for (let i = 0; i < commands.length; i++) {
    const answer = answers[2 * i];
    const mine = plainAnswers[i];
    if (answer && mine && (answer.length !== mine.length || answer.some((line, k) => line !== mine[k])))
      return undefined;
    if (!answer !== !mine) return undefined;
    observed.push(answers[2 * i + 1] ?? null);
  }
  return observed;
}

/** Lays the reference's and the program's answers side by side, one row per command. */
export function buildCounterexample(
  model: ReferenceModel,
  source: CounterexampleSource,
  commands: readonly string[],
  learner: Outcome,
  observed?: readonly (readonly string[] | null)[],
): Counterexample {
  const reference = simulate(model, commands);
  const shouldBe = observed && model.observeCommand ? simulate(model, withObserve(model, commands)).steps : undefined;
  const actualAnswers = segmentAnswers(model, commands, learner.lines, learner.ending === 'finished');
  // Lines printed after the last answer belong to no command; shown with the last row, so a transcript that
  // failed on them alone does not mark a row that matches as its first difference.
  const answered = actualAnswers.reduce((n, answer) => n + (answer?.length ?? 0), 0);
  const after =
    learner.ending === 'finished' && actualAnswers.length === commands.length ? learner.lines.slice(answered) : [];
  if (after.length > 0) actualAnswers[commands.length - 1] = [...(actualAnswers[commands.length - 1] ?? []), ...after];
  const trace: TraceRow[] = commands.map((command, i) => {
    const step = reference.steps[i];
    const expected = step?.answer ?? [];
    const full = actualAnswers[i] ?? null;
    const matches = full !== null && full.length === expected.length && full.every((line, k) => line === expected[k]);
    const shown = full === null ? null : clipLines(full);
    const actual = shown === null ? null : shown.lines;
    const row: TraceRow = {
      command,
      expected,
      actual,
      counts: step?.snapshot ?? {},
      matches,
      ...(shown?.clipped ? { details: full!.join('\n') } : {}),
    };
    if (!observed || !shouldBe) return row;
    return { ...row, observed: observed[i] ?? null, shouldBe: shouldBe[2 * i + 1]?.answer ?? [] };
  });
  const firstMismatch = trace.findIndex((row) => !row.matches);
  const reset = simulate(model, [model.resetCommand]).steps[0];
  return {
    transcript: source.transcript,
    label: source.label,
    commands,
    expected: reference.outcome.lines,
    actual: learner.lines,
    divergesAt: firstMismatch < 0 ? trace.length - 1 : firstMismatch,
    trace,
    shrunkFrom: source.shrunkFrom,
    preamble: [{ command: model.resetCommand, expected: [...model.resetAnswer], counts: reset?.snapshot ?? {} }],
    ...(observed && shouldBe ? { observeCommand: model.observeCommand! } : {}),
    reproduced: source.reproduced,
    ...(source.replay ? { replay: source.replay } : {}),
  };
}
