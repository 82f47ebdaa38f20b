/** The problems a check reports besides named mistakes, each in the learner's words. */
import type { BatchResult } from '../check/batch';
import { clipLine } from '../text/clip';
import type { Case } from '../check/cases';
import type { Diagnosis, Finding } from '../diagnosis/diagnose';
import type { ReferenceModel } from '../model/model';
import type { AnswerDifference, Probe } from '../check/probe';
import type { ProcessResult } from '../check/process';
import type { Counterexample, Problem } from './report';
import { segmentAnswers } from '../model/segment';
import type { Outcome } from '../model/simulate';
import type { UnaskedLines } from '../check/unasked';
import type { UnexplainedStep } from '../diagnosis/stepwise';

export interface ProblemInputs {
  readonly model: ReferenceModel;
  readonly main: BatchResult;
  readonly runProblems: (run: ProcessResult) => Problem[];
  readonly findings: readonly Finding[];
  readonly diagnosis: Diagnosis | undefined;
  readonly probe: Probe | undefined;
  readonly cases: readonly Case[];
  readonly counterexample: Counterexample | null;
}

const answerText = (lines: readonly string[] | null): string =>
  lines === null ? 'nothing' : lines.length === 0 ? '(nothing)' : clipLine(lines.join(' / '));

/**
 * Where a problem happened in a transcript: its command and the transcript, by name. No row number: a problem
 * card has no table of its own, and the table on screen (the smallest failing transcript) numbers another
 * transcript, or a shortened one, its own way (issue 30: one numbering per card).
 */
const inTranscript = (command: string, transcript: string): string => `at \`${command}\` in "${transcript}"`;

/** Where two runs differ; `runs` names the two runs (the label and the answers are never rewritten). */
function differenceText(
  d: AnswerDifference,
  probed: string,
  runs: readonly [string, string] = ['one run', 'the other'],
): string {
  return `${inTranscript(d.command, d.transcript ?? probed)} ${runs[0]} answered ${answerText(d.first)}, ${runs[1]} ${answerText(d.second)}`;
}

/**
 * A difference where one run gave no answer at all is not state carried over or randomness: the program
 * stopped answering there (it closed its output, or ended, after so many lines).
 */
function stoppedAnswering(d: AnswerDifference | undefined): d is AnswerDifference {
  return d !== undefined && (d.first === null) !== (d.second === null);
}

function stopProblem(d: AnswerDifference, probed: string): Problem {
  const when =
    d.first === null
      ? 'when it ran first'
      : d.seen === 'after-others'
        ? 'when it ran after the other transcripts'
        : d.seen === 'twice'
          ? 'the second time it ran in one process'
          : 'on one of two runs';
  return {
    kind: 'timeout',
    message: `Your program stopped answering ${inTranscript(d.command, d.transcript ?? probed)} ${when}: it gave no answer there, and none after.`,
    advice:
      'Answer every command until the input ends: read stdin to its end, do not close stdout or exit after a number of commands or lines, and do not end while a thread or a timer still has answers to print (join the thread).',
  };
}

export function assembleProblems(p: ProblemInputs): Problem[] {
  const problems: Problem[] = [];
  const probed = p.probe?.probed.label ?? '';
  const stop = [p.probe?.freshDifference, p.probe?.resetDifference].find(stoppedAnswering);
  if (stop) problems.push(stopProblem(stop, probed));
  else if (p.probe?.freshDifference) {
    const freeChoice = p.findings.some((f) => f.nondeterministic);
    problems.push({
      kind: 'nondeterministic',
      message: `Your program answers differently on two runs of the same commands: ${differenceText(p.probe.freshDifference, probed)}.`,
      advice: freeChoice
        ? 'The lesson has one right answer for every command: a choice among equals has a rule (see the card below), not a coin toss.'
        : 'Look for randomness (random.choice, Math.random) or a loop over something whose order is not fixed (a set, a Go map).',
    });
  }
  if (
    !stop &&
    p.probe?.resetDifference &&
    !p.findings.some((f) => f.steps.some((s) => s.stream >= p.main.streams.length))
  ) {
    problems.push({
      kind: 'stale-state',
      message:
        p.probe.resetDifference.seen === 'after-others'
          ? `Something carries over from one transcript to the next: ${differenceText(p.probe.resetDifference, probed, ['run alone it', 'run after the other transcripts'])}.`
          : `Something carries over from one transcript to the next: run twice in one process, ${differenceText(p.probe.resetDifference, probed, ['the first run', 'the second'])}.`,
      advice: `\`${p.model.resetCommand}\` must start from scratch: clear every count, list and cursor, and keep no state at module level.`,
    });
  }
  if (p.main.strayLines.length > 0) {
    problems.push({
      kind: 'stray-output',
      message: `Your program printed lines that are not answers, e.g. ${shownLine(mostFrequent(p.main.strayLines))}. They were ignored for the checks below.`,
      advice: 'Print debugging to stderr instead (Python: print(..., file=sys.stderr); JavaScript: console.error).',
    });
  }
  const runIssues = p.main.runs.flatMap((r) => p.runProblems(r));
  for (const kind of ['crash', 'timeout', 'output-limit'] as const) {
    const found = runIssues.find((problem) => problem.kind === kind);
    // A run's own timeout says the same as a stop found by the probe, with its own numbers: it replaces it.
    if (found && kind === 'timeout' && stop) problems.splice(0, 1, found);
    else if (found) problems.push(found);
  }
  const unexplained = p.diagnosis?.unexplained ?? [];
  const crashesOnly = unexplained.every((u) => u.sentence.includes('your program crashed'));
  const explainedElsewhere =
    (crashesOnly && problems.some((x) => x.kind === 'crash')) ||
    problems.some((x) => x.kind === 'stale-state') ||
    stop !== undefined;
  // A program that answered nothing at all has no difference to walk through: it is told what it did instead.
  if (unexplained.length > 0 && !explainedElsewhere)
    problems.push(noAnswersProblem(p.main) ?? unrecognisedProblem(p, unexplained));
  return floodFirst(problems);
}

/** The first difference no mistake names, by transcript and in the learner's words, and how many there are. */
function unrecognisedProblem(p: ProblemInputs, unexplained: readonly UnexplainedStep[]): Problem {
  const first = unexplained[0]!;
  const where = p.cases[first.step.list];
  const more = unexplained.length > 1 ? ` It differs like this at ${unexplained.length} commands.` : '';
  // The transcript by name and no row number: the table on screen may be another one, or a shortened copy of
  // it, whose rows are numbered otherwise.
  return {
    kind: 'unrecognised-difference',
    message: `Your program differs from the reference in a way this lesson has no name for: ${first.sentence} (${first.step.listIndex < 0 ? 'at the start of' : 'in'} "${where?.label ?? 'a transcript'}").${more}`,
    advice: first.form
      ? 'Print each line in the form the lesson gives, character for character (its words, its punctuation, its spacing): the check compares answers as text.'
      : // Where the table stands depends on the surface (above the cards in the CLI): never "below".
        `Walk through ${p.counterexample ? 'the failing transcript shown with this check' : `"${where?.label ?? 'that transcript'}"`} by hand, keeping the counts on paper, and compare each answer with the rules.`,
  };
}

/**
 * Every run of the check ended by itself (exit code 0) without one line on stdout: nothing it did can be compared
 * with a rule, so no difference is walked through on paper. What it wrote to stderr, if anything, is where its
 * answers went; else the usual causes are said (a main() never called, a thread the program does not wait for).
 */
function noAnswersProblem(main: BatchResult): Problem | undefined {
  const ended = (r: ProcessResult): boolean =>
    r.exitCode === 0 && !r.timedOut && !r.outputLimited && !r.startError && !r.prepareError;
  if (main.runs.length === 0 || !main.runs.every((r) => ended(r) && r.stdout.trim() === '')) return undefined;
  const toStderr = main.runs
    .flatMap((r) => r.stderr.split('\n'))
    .map((line) => line.trim())
    .find((line) => line !== '');
  return {
    kind: 'no-answers',
    message: 'Given the commands of a transcript, your program ended (exit code 0) without one line on stdout.',
    advice: toStderr
      ? `It wrote to stderr instead, e.g. ${shownLine(toStderr)}: print each answer to stdout (Python: print(...); JavaScript: console.log(...)) and keep stderr for debugging.`
      : 'Check that the command loop runs and prints each answer as it reads its command. A program ends without a word when its main() is never called (`main` without its parentheses; Python: `if __name__ == "__main__":` spelled otherwise), when the thread or timer that prints the answers is not waited for (join the thread), or when the answers are collected and never printed.',
  };
}

/**
 * A flood is the whole story of the run it stopped: said first, and what the runs printed around it is no
 * evidence of state carried over (a flood told first 'state leaks between transcripts', with advice about
 * module-level state, and its real cause last).
 */
function floodFirst(problems: Problem[]): Problem[] {
  const flood = problems.find((x) => x.kind === 'output-limit');
  if (!flood) return problems;
  return [flood, ...problems.filter((x) => x !== flood && x.kind !== 'stale-state')];
}

/** The hang or flood problem, said at the command where the program stopped answering. */
export function stoppedProblem(
  model: ReferenceModel,
  c: Case,
  outcome: Outcome,
  problems: readonly Problem[],
): Problem | undefined {
  const kind =
    outcome.ending === 'timed-out' ? 'timeout' : outcome.ending === 'output-limit' ? 'output-limit' : undefined;
  const existing = problems.find((x) => x.kind === kind);
  if (!kind || !existing) return undefined;
  // A flood after the last answer stopped at the last command: its number and its text must name the same one.
  const index = Math.min(segmentAnswers(model, c.commands, outcome.lines, false).length, c.commands.length - 1);
  const at = inTranscript(c.commands[index]!, c.label);
  const message =
    kind === 'timeout'
      ? existing.message.replace(/^Your program stopped answering/, `Your program stopped answering ${at}`)
      : `${existing.message.replace(/, so it was stopped\.$/, '')} ${at}, so it was stopped.`;
  return { ...existing, message };
}

/** A printed line as a sentence shows it: an empty one has no quotes to stand between. */
const shownLine = (line: string): string => (line.trim() === '' ? 'an empty line' : `"${clipLine(line)}"`);

/** The line seen most often (the first of those on a tie): a heartbeat's dot, not the one blank line a race left. */
/** The stray line printed most often; a line with something on it before an empty one, which says less (a
 * writer's print split in two halves leaves empty lines, often more of them than of its own text). */
function mostFrequent(lines: readonly string[]): string {
  const filled = lines.filter((line) => line.trim() !== '');
  const tally = new Map<string, number>();
  for (const line of filled.length > 0 ? filled : lines) tally.set(line, (tally.get(line) ?? 0) + 1);
  return [...tally].reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

/** Lines no command asks for, printed a different number of times on two runs of the same commands. */
export function unaskedProblem(unasked: UnaskedLines, probed: string): Problem {
  const [a, b] = unasked.counts;
  const shown = unasked.lines.map(shownLine).join(', ');
  return {
    kind: 'stray-output',
    message:
      `Your program printed lines no command asks for (${shown}) between its answers: ${
        unasked.seen === 'repeated'
          ? `${a} of them when "${probed}" ran once, and ${b} (not ${2 * a}) when it ran twice in one process`
          : a === b
            ? `on two runs of "${probed}" they came at different places`
            : `${a === 0 ? 'none' : `${a} of them`} on one run of "${probed}" and ${b === 0 ? 'none' : b} on another run of the same commands`
      }. ` + 'Its output does not follow the commands, so its answers could not be checked, and no mistake is named.',
    advice:
      'Print only the answer to each command, when the command comes: progress or heartbeat lines from a thread, a timer or a child process go to stderr (or nowhere).',
  };
}
