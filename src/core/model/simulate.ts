import type { ReferenceModel } from './model';

/** What a program (real or simulated) did with one transcript's commands. */
export interface Outcome {
  /** Answer lines in order, flattened across commands. */
  readonly lines: readonly string[];
  /**
   * How it ended: ran to the end of input, crashed, or was stopped; `not-run` when an earlier hang
   * made running it pointless (it is then no evidence either way).
   */
  readonly ending: 'finished' | 'crashed' | 'timed-out' | 'output-limit' | 'not-run';
}

export interface SimulatedStep {
  readonly command: string;
  readonly answer: readonly string[];
  readonly crashed: boolean;
  readonly snapshot: Readonly<Record<string, number | string>>;
  /** How many other answers a nondeterministic mutation would accept here (0 for a deterministic step). */
  readonly alternatives: number;
}

export interface Simulation {
  readonly steps: readonly SimulatedStep[];
  readonly outcome: Outcome;
}

/** Runs commands through a model with the given mutations on; stops at a simulated crash, as a process would. */
export function simulate(
  model: ReferenceModel,
  commands: readonly string[],
  mutations: ReadonlySet<string> = new Set(),
): Simulation {
  let state = model.initial();
  const steps: SimulatedStep[] = [];
  const lines: string[] = [];
  for (const command of commands) {
    const result = model.step(state, command, mutations);
    state = result.state;
    if (result.answer.kind === 'crash') {
      steps.push({ command, answer: [], crashed: true, snapshot: model.snapshot(state), alternatives: 0 });
      return { steps, outcome: { lines, ending: 'crashed' } };
    }
    lines.push(...result.answer.lines);
    steps.push({
      command,
      answer: result.answer.lines,
      crashed: false,
      snapshot: model.snapshot(state),
      alternatives: result.alternatives?.length ?? 0,
    });
  }
  return { steps, outcome: { lines, ending: 'finished' } };
}

/**
 * True when the model with these mutations says exactly `lines` and ends as `ending` says; it stops at the
 * first line that differs and takes no snapshots, so ruling a candidate out costs only the steps up to there.
 */
export function simulatesAs(
  model: ReferenceModel,
  commands: readonly string[],
  mutations: ReadonlySet<string>,
  expected: Outcome,
): boolean {
  const { lines, ending } = expected;
  let state = model.initial();
  let said = 0;
  for (const command of commands) {
    const result = model.step(state, command, mutations);
    state = result.state;
    // A dead or stopped process: the mutant must have said the same up to where the program stopped
    // (and, for a crash, crashed right there).
    if (result.answer.kind === 'crash') return ending !== 'finished' && said === lines.length;
    for (const line of result.answer.lines) {
      if (said === lines.length) return ending === 'timed-out' || ending === 'output-limit' || ending === 'not-run';
      if (line !== lines[said]) return false;
      said += 1;
    }
  }
  // The mutant ran to the end: a program that crashed is not explained; any other must have said all it said.
  return ending !== 'crashed' && said === lines.length;
}

export function sameOutcome(a: Outcome, b: Outcome): boolean {
  return a.ending === b.ending && a.lines.length === b.lines.length && a.lines.every((line, i) => line === b.lines[i]);
}

/** Index of the first answer line where two outcomes differ, or -1 when they agree. */
export function firstDifferentLine(a: Outcome, b: Outcome): number {
  const n = Math.min(a.lines.length, b.lines.length);
  for (let i = 0; i < n; i++) if (a.lines[i] !== b.lines[i]) return i;
  if (a.lines.length !== b.lines.length || a.ending !== b.ending) return n;
  return -1;
}
