import type { ReferenceModel } from './model';
import type { Execute, ProcessResult } from './process';
import { outputLines } from './segment';
import { simulate, type Outcome } from './simulate';

export interface BatchOptions {
  /** At most this many processes; lists not reached by then are `not-run`. */
  readonly maxRuns?: number;
  /** True when a run shows that further runs would fail the same way (e.g. an unwritten stub). */
  readonly hopeless?: (run: ProcessResult) => boolean;
}

export interface BatchResult {
  /** One outcome per command list, in order. */
  readonly outcomes: readonly Outcome[];
  /** Every process run, in order; the first one saw the whole batch. */
  readonly runs: readonly ProcessResult[];
  /** stdout lines that cannot be answers of this protocol (debug prints). */
  readonly strayLines: readonly string[];
}

/**
 * After a hang or a flood the rest is not run: each costs a whole time (or output) limit, and one already
 * says what is wrong. A flood otherwise restarts once per remaining list, each run printing the whole limit.
 */
const MAX_STOPPED = 1;

function endingOf(run: ProcessResult): Outcome['ending'] {
  if (run.timedOut) return 'timed-out';
  if (run.outputLimited) return 'output-limit';
  return run.exitCode === 0 ? 'finished' : 'crashed';
}

/**
 * Runs many command lists through as few processes as possible. Each list is prefixed with the
 * protocol's reset command, so one process can answer them all. When a process dies part-way, the
 * lists it never reached are run again in a fresh process, so one crash costs one extra run.
 */
export async function runBatch(
  model: ReferenceModel,
  execute: Execute,
  lists: readonly (readonly string[])[],
  options: BatchOptions = {},
): Promise<BatchResult> {
  const outcomes: Outcome[] = [];
  const runs: ProcessResult[] = [];
  const strayLines: string[] = [];
  let stopped = 0;
  while (outcomes.length < lists.length) {
    const pending = lists.slice(outcomes.length);
    if (stopped >= MAX_STOPPED || runs.length >= (options.maxRuns ?? Infinity) || (runs.length > 0 && options.hopeless?.(runs[runs.length - 1]!))) {
      for (let i = 0; i < pending.length; i++) outcomes.push({ lines: [], ending: 'not-run' });
      break;
    }
    const input = pending.map((commands) => [model.resetCommand, ...commands].join('\n')).join('\n') + '\n';
    const run = await execute(input);
    runs.push(run);
    if (run.startError || run.prepareError) {
      for (let i = 0; i < pending.length; i++) outcomes.push({ lines: [], ending: 'crashed' });
      break;
    }
    if (run.timedOut || run.outputLimited) stopped += 1;
    const lines = answerLinesOf(model, run, pending, strayLines);
    const consumedBefore = outcomes.length;
    let at = 0;
    for (const commands of pending) {
      const full = [model.resetCommand, ...commands];
      const taken: string[] = [];
      let answered = 0;
      for (const command of full) {
        const shape = model.answerShape(command);
        if (shape.kind === 'one') {
          if (at >= lines.length) break;
          taken.push(lines[at++]!);
        } else {
          // A many-line answer at the very end of a dead process cannot be told from "never answered".
          if (at >= lines.length && endingOf(run) !== 'finished') break;
          while (at < lines.length && shape.line.test(lines[at]!)) taken.push(lines[at++]!);
        }
        answered += 1;
      }
      const answerLines = taken.slice(model.resetAnswer.length);
      if (answered < full.length) {
        const ending = endingOf(run);
        outcomes.push({ lines: answerLines, ending: ending === 'finished' ? 'crashed' : ending });
        if (answered === 0 && outcomes.length === consumedBefore + 1) {
          // A fresh process did not even answer the reset command: the program fails before answering
          // anything (a syntax error, an import error, a main() that is never called, even with exit code 0),
          // and every further process would fail the same way.
          while (outcomes.length < lists.length) outcomes.push({ lines: [], ending: 'not-run' });
        }
        break;
      }
      outcomes.push({ lines: answerLines, ending: 'finished' });
    }
    // A process that answered nothing new would loop forever; count what is left as lost to it.
    if (outcomes.length === consumedBefore) outcomes.push({ lines: [], ending: endingOf(run) === 'finished' ? 'crashed' : endingOf(run) });
  }
  return { outcomes, runs, strayLines };
}

/**
 * The run's stdout lines that are answers. A line no answer of this protocol could look like is either a
 * debug print or a wrong answer (a pick that returns "<b>x</b>"). Which one shows in the count: debug prints
 * make more lines than the reference answers, a wrong answer the same number. Only prints are dropped.
 */
function answerLinesOf(model: ReferenceModel, run: ProcessResult, pending: readonly (readonly string[])[], strayLines: string[]): string[] {
  const all = outputLines(run.stdout);
  const answers = all.filter((line) => model.isAnswerLine(line));
  if (answers.length === all.length) return all;
  const expected = pending.flatMap((commands) => [...model.resetAnswer, ...simulate(model, commands).outcome.lines]);
  // A run cut short (crash, hang, flood) printed only part of its answers, so there the counts say nothing;
  // which reading lines up with the reference's answers does. A tie (e.g. a flood after the last answer) is prints.
  const agreement = (lines: readonly string[]): number => lines.reduce((n, line, i) => n + (line === expected[i] ? 1 : 0), 0);
  const dropStrays =
    endingOf(run) === 'finished' ? Math.abs(answers.length - expected.length) < Math.abs(all.length - expected.length) : agreement(answers) >= agreement(all);
  if (!dropStrays) return all;
  for (const line of all) if (!model.isAnswerLine(line) && strayLines.length < 20) strayLines.push(line);
  return answers;
}
