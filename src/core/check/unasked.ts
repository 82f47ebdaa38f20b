/**
 * Lines nobody asked for. A program that starts a writer of its own (a thread that prints a heartbeat, a
 * child process that reports progress on the same stdout) puts lines between its answers wherever the
 * writer happens to be: the answers no longer follow the commands, and whatever mistake a mutant "explains"
 * in them is an accident of timing. Two fresh runs of the same commands tell: they print lines that no command
 * of the transcript could be answered with (by the reference or any of the lesson's mistakes, whatever the
 * counts in them), a different number of them or at different places. A program that chooses at random prints
 * only lines some answer could be (a count other than the reference's is still a count); a debug print that
 * follows the commands prints the same lines at the same places every time.
 * Pure.
 */
import type { ReferenceModel } from '../model/model';
import type { Outcome } from '../model/simulate';

export interface UnaskedLines {
  /** The lines no command asks for, most frequent first (at most a few). */
  readonly lines: readonly string[];
  /**
   * How many such lines each of the two runs printed: two fresh runs of the transcript (`fresh`), or one run
   * of it and two in one process (`repeated`: as many answers twice over, yet not twice as many such lines).
   */
  readonly counts: readonly [number, number];
  readonly seen: 'fresh' | 'repeated';
}

/** A line's form: its numbers made one, since a count can be any number and still be an answer. */
export const lineForm = (line: string): string => line.replace(/-?\d+/g, '#');

/**
 * The form of every line an answer to these commands could be: the reference's and each mutation's, with
 * their alternatives.
 */
export function possibleAnswerForms(model: ReferenceModel, commands: readonly string[]): Set<string> {
  const possible = new Set<string>(model.resetAnswer.map(lineForm));
  for (const on of [new Set<string>(), ...model.mutations.map((m) => new Set([m.id]))]) {
    let state = model.initial();
    for (const command of commands) {
      const result = model.step(state, command, on);
      if (result.answer.kind === 'crash') break;
      for (const line of result.answer.lines) possible.add(lineForm(line));
      for (const alternative of result.alternatives ?? []) for (const line of alternative) possible.add(lineForm(line));
      state = result.state;
    }
  }
  return possible;
}

/**
 * The lines two fresh runs of the same commands printed that no answer could be, when the runs differ in how
 * many of them they printed or where: undefined otherwise (the runs agree, or differ only in lines an answer
 * could be, as a random choice does, or print the same such lines at the same places).
 */
export function unaskedLines(
  model: ReferenceModel,
  commands: readonly string[],
  a: Outcome,
  b: Outcome,
): UnaskedLines | undefined {
  if (a.ending === 'not-run' || b.ending === 'not-run') return undefined;
  const possible = possibleAnswerForms(model, commands);
  const tally = new Map<string, number>();
  const places = (lines: readonly string[]): string[] => {
    const at: string[] = [];
    for (const [i, line] of lines.entries()) {
      if (possible.has(lineForm(line))) continue;
      tally.set(line, (tally.get(line) ?? 0) + 1);
      // By form: a banner that states its pid or the time is the same line at the same place on every run.
      at.push(`${i}:${lineForm(line)}`);
    }
    return at;
  };
  const inA = places(a.lines);
  const inB = places(b.lines);
  if (inA.length + inB.length === 0 || (inA.length === inB.length && inA.every((place, k) => place === inB[k])))
    return undefined;
  const lines = [...tally]
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
    .slice(0, 3)
    .map(([line]) => line);
  return { lines, counts: [inA.length, inB.length], seen: 'fresh' };
}

/**
 * The whole output of a process that ran the transcript once and of one that ran it twice (each time after the
 * reset), reset answers included: lines no answer could be that are not twice as many in the second (a line
 * printed once at start, a timer's ticks) are not answers to anything. Undefined when there are none, or
 * exactly twice as many (a wrong answer of that form, given to the same command each time).
 */
export function unaskedAcrossRepeat(
  model: ReferenceModel,
  commands: readonly string[],
  once: readonly string[],
  twice: readonly string[],
): UnaskedLines | undefined {
  const possible = possibleAnswerForms(model, commands);
  const tally = new Map<string, number>();
  const count = (lines: readonly string[]): number =>
    lines.filter((line) => {
      if (possible.has(lineForm(line))) return false;
      tally.set(line, (tally.get(line) ?? 0) + 1);
      return true;
    }).length;
  const [x, y] = [count(once), count(twice)];
  if (x + y === 0 || y === 2 * x) return undefined;
  const lines = [...tally]
    .sort((p, q) => q[1] - p[1] || (p[0] < q[0] ? -1 : 1))
    .slice(0, 3)
    .map(([line]) => line);
  return { lines, counts: [x, y], seen: 'repeated' };
}
