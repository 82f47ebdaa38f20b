/** What to trace for a named mistake: the runs of the learner's program whose lines tell where it went wrong. */
import type { Stream } from './batch';
import type { Case } from './cases';
import type { Finding } from '../diagnosis/diagnose';
import type { ReferenceModel } from '../model/model';
import { buildCounterexample } from './counterexample';
import type { Counterexample, Location } from '../report/report';
import { segmentAnswers } from '../model/segment';
import { simulate } from '../model/simulate';

/** A run of the program to trace: the full stdin (reset command first), its answers, the first wrong one. */
export interface LocateAttempt {
  readonly commands: readonly string[];
  readonly answers: readonly (readonly string[])[];
  readonly failingIndex: number;
  /** Other commands whose answers were wrong too: they are not counted among the right ones. */
  readonly otherFailing: readonly number[];
  /** Where the failing command is, for the report (not used by the tracer): see `Location.at`. */
  readonly origin?: Location['at'];
  /**
   * Traced runs at most, while the traced run answers otherwise than `answers` (a program that draws at random):
   * 1 to MAX_TRACE_TRIES; the tracer decides when absent.
   */
  readonly tries?: number;
  /**
   * May be traced in one process after the attempts before it: the probe saw the program answer a transcript after
   * others as it does alone, so one run can trace them all.
   */
  readonly alongside?: boolean;
}

/** Traced runs of one attempt at most. */
export const MAX_TRACE_TRIES = 4;

/**
 * What to trace for a finding: its counterexample, and (when that has no right command of the same kind to
 * compare with) the transcript the finding was first seen in, up to that command.
 */
export function locateAttempts(
  model: ReferenceModel,
  example: Counterexample | null,
  finding: Finding | undefined,
  streams: readonly Stream[],
  cases: readonly Case[],
): LocateAttempt[] {
  const attempts: LocateAttempt[] = [];
  // The table's run when nothing of its kind was answered right in it: its lines can say where, not what.
  let uncompared: LocateAttempt | undefined;
  const verb = (command: string): string => command.trim().split(/\s+/)[0] ?? '';
  // A mistake in the bookkeeping (a count that goes negative) shows at a later command, but is made at the
  // command where the mutant's counts first part from the reference's: that is where the lines are wrong.
  const atCause = (a: LocateAttempt): LocateAttempt => {
    if (!finding || finding.nondeterministic) return a;
    const mutant = simulate(model, a.commands, new Set([finding.mutation])).steps;
    const reference = simulate(model, a.commands).steps;
    const cause = reference.findIndex(
      (step, i) => i < a.failingIndex && JSON.stringify(step.snapshot) !== JSON.stringify(mutant[i]?.snapshot),
    );
    return cause < 0
      ? a
      : { ...a, failingIndex: cause, otherFailing: [...new Set([...a.otherFailing, a.failingIndex])] };
  };
  // Only worth a run when a command of the same kind was answered right, to compare the lines with.
  const worthTracing = hasComparison;
  if (example?.reproduced) {
    const answered = example.trace.filter((row) => row.actual !== null);
    const attempt: LocateAttempt = {
      commands: [model.resetCommand, ...example.commands],
      answers: [model.resetAnswer, ...answered.map((row) => row.actual!)],
      failingIndex: example.divergesAt + 1,
      otherFailing: example.trace.map((row, i) => (row.matches ? -1 : i + 1)).filter((i) => i > example.divergesAt + 1),
    };
    // The reset is command 0 here, so the failing command's index is its row in the table.
    const traced = atCause(attempt);
    if (worthTracing(traced)) attempts.push({ ...traced, origin: { table: true, row: traced.failingIndex } });
    else uncompared = { ...traced, origin: { table: true, row: traced.failingIndex } };
  }
  // A whole transcript the finding is seen in: its other commands of that kind are the right ones.
  // Once per transcript and kind of command: a first named command with nothing of its kind to compare with
  // (the only LIST) must not hide a later one of another kind that has (a GET after a right GET).
  const tried = new Set<string>();
  for (const step of finding?.steps.slice(0, 20) ?? []) {
    const stream = streams[step.stream];
    const segment = stream?.segments.find((s) => step.index >= s.start && step.index < s.start + s.length);
    const key = `${step.stream}:${segment?.start}:${verb(step.command)}`;
    if (!stream || !segment || stream.ending === 'timed-out' || stream.ending === 'output-limit' || tried.has(key))
      continue;
    tried.add(key);
    const commands = stream.commands.slice(segment.start, segment.start + segment.length);
    const upto = stream.commands.slice(0, segment.start + segment.length);
    const answers = segmentAnswers(model, upto, stream.lines, stream.ending === 'finished').slice(segment.start);
    const expected = simulate(model, commands).steps.map((s) => s.answer);
    const differs = (i: number): boolean =>
      !answers[i] ||
      answers[i]!.length !== expected[i]?.length ||
      answers[i]!.some((line, k) => line !== expected[i]![k]);
    const failingIndex = step.index - segment.start;
    const attempt = atCause({
      commands,
      answers,
      failingIndex,
      otherFailing: commands.map((_, i) => i).filter((i) => i !== failingIndex && differs(i)),
    });
    if (worthTracing(attempt)) {
      const source = cases[segment.list];
      attempts.push(
        source ? { ...attempt, origin: { table: false, transcript: source.name, label: source.label } } : attempt,
      );
      break;
    }
  }
  return uncompared ? [...attempts, uncompared] : attempts;
}

/**
 * The attempt `locate` is asked for first when the program answers the counterexample `commands` as the finding's
 * mutant does: its traced run can start beside the run that confirms them. Undefined when no traced run would be
 * asked for (a crash's traceback names its line; nothing of the failing command's kind answered right to compare
 * with).
 */
export function expectedAttempt(
  model: ReferenceModel,
  finding: Finding,
  commands: readonly string[],
  streams: readonly Stream[],
  cases: readonly Case[],
): LocateAttempt | undefined {
  const mutant = simulate(model, commands, new Set([finding.mutation])).outcome;
  if (mutant.ending !== 'finished') return undefined;
  const source = { transcript: '', label: '', shrunkFrom: commands.length, reproduced: true };
  const example = buildCounterexample(model, source, commands, mutant);
  const [first] = locateAttempts(model, example, finding, streams, cases);
  return first && hasComparison(first) ? first : undefined;
}

/** True when the attempt has a command of the failing one's kind answered right, whose lines can be compared. */
export function hasComparison(a: LocateAttempt): boolean {
  const verb = (command: string): string => command.trim().split(/\s+/)[0] ?? '';
  return a.commands.some(
    (c, i) =>
      i !== a.failingIndex &&
      !a.otherFailing.includes(i) &&
      i < a.answers.length &&
      verb(c) === verb(a.commands[a.failingIndex]!),
  );
}
