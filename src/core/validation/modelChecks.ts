/**
 * What `validate` checks of a pack's reference model, beyond loading it: that it is a function of its
 * input (the same commands give the same answers, the same seed the same generated transcripts), that
 * every mutation it declares changes some answer, that its generated transcripts are commands it answers
 * in its own answer shapes, and that a step is cheap enough for a diagnosis that takes tens of thousands.
 */
import type { ReferenceModel } from '../model/model';
import { seededRandom } from '../model/random';
import { leavesStateBehind } from '../check/batch';
import { simulate, sameOutcome } from '../model/simulate';
import type { Transcript } from '../model/transcript';
import type { ValidationProblem } from './problem';

export interface ModelCheckInput {
  readonly model: ReferenceModel;
  readonly transcripts: readonly Transcript[];
  readonly seed: number;
  /** The model file, relative to the pack, and its text (to point problems at lines). */
  readonly file: string;
  readonly source?: string;
  readonly clock: () => number;
}

const GENERATED = 60;
const LENGTH = 24;
/** A step slower than this makes a check of a failing program wait seconds. */
const SLOW_STEP_MS = 1;

/** 1-based line of the first line of `source` that contains `text`. */
function lineOf(source: string | undefined, text: string): number | undefined {
  if (!source) return undefined;
  const index = source.split(/\r?\n/).findIndex((line) => line.includes(text));
  return index < 0 ? undefined : index + 1;
}

type Where = { file: string; line?: number };

/** The problems found so far, and how each check says one: in the model file, at a line when it can tell. */
interface ModelProblems {
  readonly problems: ValidationProblem[];
  /** The model file, at the first line that holds `text`. */
  at(text: string): Where;
  error(message: string, advice: string, where?: Where): void;
}

function modelProblems(file: string, source: string | undefined): ModelProblems {
  const problems: ValidationProblem[] = [];
  return {
    problems,
    at: (text) => {
      const line = lineOf(source, text);
      return { file, ...(line ? { line } : {}) };
    },
    error: (message, advice, where = { file }) => {
      problems.push({ severity: 'error', area: 'model', ...where, message, advice });
    },
  };
}

/** Each check in turn, on the hidden transcripts and GENERATED generated ones. */
export function checkModel(input: ModelCheckInput): ValidationProblem[] {
  const say = modelProblems(input.file, input.source);
  const generated = generatedOnce(input, say);
  checkGeneratedCommands(generated, say);
  const lists = [...input.transcripts.map((t) => t.steps.map((s) => s.command)), ...generated];
  checkDeterministicAndCheap(input, lists, say);
  checkAnswersItsOwnCommands(input.model, generated, say);
  checkEveryMutationShows(input.model, lists, say);
  const dependent = dependentLists(input.model, input.transcripts, generated);
  if (dependent) {
    say.error(
      `${dependent.after} is answered otherwise when it runs after ${dependent.before} in one process: the reset command "${input.model.resetCommand}" keeps something ${dependent.before} set, and the check runs many transcripts in one process, so a right program would fail it`,
      'Make the reset command put everything back, or make every hidden transcript and every generated one set that state itself before it relies on it: a transcript that starts by setting it holds in any order.',
      say.at('resetCommand'),
    );
  }
  return say.problems;
}

/** The generated transcripts at the seed; generated twice, since the same seed must make the same ones. */
function generatedOnce(input: ModelCheckInput, say: ModelProblems): string[][] {
  const { model } = input;
  const generate = (): string[][] => {
    const random = seededRandom(input.seed);
    return Array.from({ length: GENERATED }, () => model.generate(random, 2 + random.int(LENGTH - 1)));
  };
  const first = generate();
  const second = generate();
  if (JSON.stringify(first) !== JSON.stringify(second)) {
    say.error(
      'generate() makes different transcripts from the same seed, so a reported seed would not reproduce a check',
      'Draw every random choice from the `random` it is given (random.int, random.pick): no Math.random, no clock, no state kept between calls.',
      say.at('generate('),
    );
  }
  return first;
}

function checkGeneratedCommands(generated: readonly string[][], say: ModelProblems): void {
  for (const [i, commands] of generated.entries()) {
    const bad = commands.find((c) => c.trim() === '' || /[\u0000-\u001f\u007f]/.test(c));
    if (bad !== undefined) {
      say.error(
        `generate() made a command that is empty or holds a control character: ${JSON.stringify(bad)} (generated transcript ${i + 1})`,
        'Generate one command per string, printable, without newlines.',
        say.at('generate('),
      );
      break;
    }
  }
}

/**
 * Deterministic: the same commands, run twice from a fresh initial(), give the same answers, also under every
 * mutation. Timed while at it: a diagnosis walks tens of thousands of commands.
 */
function checkDeterministicAndCheap(input: ModelCheckInput, lists: readonly string[][], say: ModelProblems): void {
  const { model } = input;
  const started = input.clock();
  let steps = 0;
  const deterministic = model.mutations.filter((m) => !m.nondeterministic).map((m) => m.id);
  for (const on of [[], ...deterministic.map((m) => [m])]) {
    const mutations = new Set(on);
    const drift = lists.find(
      (commands) =>
        !sameOutcome(simulate(model, commands, mutations).outcome, simulate(model, commands, mutations).outcome),
    );
    steps += lists.reduce((n, l) => n + 2 * l.length, 0);
    if (drift) {
      say.error(
        `step() answers differently on two runs of the same commands${on.length ? ` with mutation "${on[0]}"` : ''}, e.g. ${JSON.stringify(drift.slice(0, 6))}`,
        'A model must be a function of its state and the command: return new state objects instead of changing the one you were given, and keep nothing between calls (initial() must return a fresh state each time).',
        say.at('step('),
      );
      break;
    }
  }
  const perStep = (input.clock() - started) / Math.max(steps, 1);
  if (perStep > SLOW_STEP_MS) {
    say.problems.push({
      severity: 'warning',
      area: 'model',
      ...say.at('step('),
      message: `step() takes ${perStep.toFixed(2)} ms per command; a diagnosis walks tens of thousands of commands, so checks of failing programs will be slow`,
      advice: 'Keep the state small and copy only what a command changes.',
    });
  }
}

/** The reference answers its own generated commands, in its own answer shapes. */
function checkAnswersItsOwnCommands(model: ReferenceModel, generated: readonly string[][], say: ModelProblems): void {
  for (const commands of generated) {
    const run = simulate(model, commands);
    const crashed = run.outcome.ending === 'crashed';
    const misshapen = run.steps.find(
      (s) =>
        (model.answerShape(s.command).kind === 'one' && s.answer.length !== 1) ||
        s.answer.some((line) => !model.isAnswerLine(line)),
    );
    if (crashed || misshapen) {
      say.error(
        crashed
          ? `the reference crashes on a generated transcript: ${JSON.stringify(commands.slice(0, run.steps.length))}`
          : `the reference's answer to generated command "${misshapen!.command}" does not fit its answer shape or isAnswerLine: ${JSON.stringify(misshapen!.answer)}`,
        'generate() must make commands of the protocol, and the reference must answer each in the shape answerShape() gives, with lines isAnswerLine() accepts.',
        say.at('generate('),
      );
      break;
    }
  }
}

/** Every declared mutation makes some difference: a mutant no transcript can tell from the reference is no mistake. */
function checkEveryMutationShows(model: ReferenceModel, lists: readonly string[][], say: ModelProblems): void {
  for (const mutation of model.mutations) {
    const on = new Set([mutation.id]);
    const shows = mutation.nondeterministic
      ? lists.some((commands) => simulate(model, commands, on).steps.some((s) => s.alternatives > 0))
      : lists.some(
          (commands) => !sameOutcome(simulate(model, commands, on).outcome, simulate(model, commands).outcome),
        );
    if (!shows) {
      say.error(
        `mutation "${mutation.id}" changes no answer on the hidden transcripts or ${GENERATED} generated ones${mutation.nondeterministic ? ' (a nondeterministic mutation must offer alternatives somewhere)' : ''}`,
        'Make the mutation change what the model answers, or remove it; if only rare commands show it, generate them more often.',
        say.at(`'${mutation.id}'`).line ? say.at(`'${mutation.id}'`) : say.at(`"${mutation.id}"`),
      );
    }
  }
}

/**
 * Two lists a right program answers otherwise in one process than alone: the first leaves state behind the
 * reset, and the second relies on it being fresh. Only lists that leave state behind are tried first.
 */
function dependentLists(
  model: ReferenceModel,
  transcripts: readonly Transcript[],
  generated: readonly string[][],
): { before: string; after: string } | undefined {
  const named = [
    ...transcripts.map((t) => ({ name: `hidden transcript "${t.name}"`, commands: t.steps.map((s) => s.command) })),
    ...generated.map((commands, i) => ({ name: `generated transcript ${i + 1}`, commands })),
  ];
  for (const before of named.filter((l) => leavesStateBehind(model, l.commands))) {
    const beforeRun = simulate(model, before.commands).outcome;
    const skip = beforeRun.lines.length + model.resetAnswer.length;
    for (const after of named) {
      if (after === before) continue;
      const alone = simulate(model, after.commands).outcome;
      const together = simulate(model, [...before.commands, model.resetCommand, ...after.commands]).outcome;
      if (together.ending !== alone.ending || together.lines.slice(skip).join('\n') !== alone.lines.join('\n'))
        return { before: before.name, after: after.name };
    }
  }
  return undefined;
}
