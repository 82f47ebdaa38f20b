import type { ReferenceModel } from './model';
import type { Counterexample, TraceRow } from './report';
import { segmentAnswers } from './segment';
import { simulate, type Outcome } from './simulate';

/** Lays the reference's and the program's answers side by side, one row per command. */
export function buildCounterexample(
  model: ReferenceModel,
  transcript: string,
  commands: readonly string[],
  learner: Outcome,
  shrunkFrom: number,
): Counterexample {
  const reference = simulate(model, commands);
  const actualAnswers = segmentAnswers(model, commands, learner.lines, learner.ending === 'finished');
  const trace: TraceRow[] = commands.map((command, i) => {
    const step = reference.steps[i];
    const expected = step?.answer ?? [];
    const actual = actualAnswers[i] ?? null;
    const matches = actual !== null && actual.length === expected.length && actual.every((line, k) => line === expected[k]);
    return { command, expected, actual, counts: step?.snapshot ?? {}, matches };
  });
  const firstMismatch = trace.findIndex((row) => !row.matches);
  return {
    transcript,
    label: transcript,
    reproduced: true,
    commands,
    expected: reference.outcome.lines,
    actual: learner.lines,
    divergesAt: firstMismatch < 0 ? trace.length - 1 : firstMismatch,
    trace,
    shrunkFrom,
  };
}
