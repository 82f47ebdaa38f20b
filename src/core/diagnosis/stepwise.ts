/**
 * Step-by-step diagnosis. Each stream of evidence (every command one process was given, and its answers)
 * is walked command by command. Beside the reference, one trajectory per candidate (a mutation, or a pair)
 * answers each command from its own state; then every trajectory adopts what the program showed (the
 * choice it made, the counts it printed) and goes on. So one mistake does not hide the
 * next, and a program that chooses at random among ties stays in step with the models after each choice.
 *
 * At a command where the program answers like the reference, a candidate that answers otherwise is
 * contradicted: the program's own evidence says it does not make that mistake. At a command where the
 * program differs, every candidate that gives the program's answer explains it.
 */
import type { ReferenceModel, StepResult } from '../model/model';
import { clipLine, SHOWN_ANSWER_CHARS } from '../text/clip';
import { cutAnswer, inShapeForm, noteAnswerForms } from '../model/segment';

/** A place in the evidence: a command of a stream, and the transcript (list) it belongs to. */
export interface StepRef {
  readonly stream: number;
  /** Index into the stream's commands. */
  readonly index: number;
  /** The batch list (case) the command belongs to, and the command's index within that list (reset excluded). */
  readonly list: number;
  readonly listIndex: number;
  readonly command: string;
}

export interface Candidate {
  /** Mutation ids switched on together (one, or a pair). */
  readonly mutations: readonly string[];
  readonly nondeterministic: boolean;
}

export interface CandidateTally {
  readonly candidate: Candidate;
  /** Differing commands whose program answer this candidate gives (at most `MAX_REFS` kept; see `supportCount`). */
  readonly support: StepRef[];
  supportCount: number;
  /** Commands where the program answered like the reference and this candidate would not have. */
  against: number;
  /** The same, by the command's first word: evidence at a kind of command the program does not follow anyway is weak. */
  readonly againstByVerb: Map<string, number>;
  firstAgainst: StepRef | null;
  /**
   * Differing commands where this candidate answers something of its own, neither the reference's answer nor the
   * program's: a claim the program does not bear out (optional: a tally made elsewhere may leave it out).
   */
  otherAnswers?: number;
  /** Answered every command exactly as the program did, with its own first answer (never an alternative). */
  exact: boolean;
}

export interface UnexplainedStep {
  readonly step: StepRef;
  /** What the program did there, compared with the reference, in the learner's words. */
  readonly sentence: string;
  /** What differs there is the form of the answer's lines (`a=1` for `a:1`), not what they say. */
  readonly form?: true;
}

export interface Walk {
  readonly tallies: CandidateTally[];
  /** Every command where the program's answer differs from the reference's. */
  readonly differing: StepRef[];
  readonly differingCount: number;
  /** Every differing command with a sentence on how the program differs there, in evidence order (at most `MAX_REFS` kept). */
  readonly sentences: UnexplainedStep[];
  /** Keys (`stream:index`) of the differing commands. */
  readonly differingKeys: Set<string>;
}

export interface EvidenceStream {
  readonly commands: readonly string[];
  readonly lines: readonly string[];
  readonly ending: 'finished' | 'crashed' | 'timed-out' | 'output-limit' | 'not-run';
  readonly segments: readonly { readonly list: number; readonly start: number; readonly length: number }[];
}

const MAX_REFS = 400;

export const stepKey = (ref: Pick<StepRef, 'stream' | 'index'>): string => `${ref.stream}:${ref.index}`;

/** A command's first word: its kind. */
export const verbOf = (command: string): string => command.trim().split(/\s+/)[0] ?? '';

/** What the program did at a command: answered these lines, or died there (`ended`: it exited normally without answering). */
type ProgramAnswer =
  { readonly kind: 'lines'; readonly lines: readonly string[] } | { readonly kind: 'crash'; readonly ended?: boolean };

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

/** Whether a model step gives the program's answer: its own (`primary`), one of its alternatives, or not at all. */
function accepts(result: StepResult<unknown>, answer: ProgramAnswer): 'primary' | 'alternative' | false {
  if (answer.kind === 'crash') return result.answer.kind === 'crash' ? 'primary' : false;
  if (result.answer.kind === 'crash') return false;
  if (sameLines(result.answer.lines, answer.lines)) return 'primary';
  return result.alternatives?.some((alt) => sameLines(alt, answer.lines)) ? 'alternative' : false;
}

/**
 * The candidate's answer is farther from the program's than the reference's is: a claim of its own that the
 * program does not bear out (rows in an order it did not print), not a step towards what it did (one wrong row
 * fewer). Lines only; one line against one line is never farther (every wrong answer is as far as another).
 */
function fartherThanReference(
  candidate: StepResult<unknown>['answer'],
  reference: StepResult<unknown>['answer'],
  program: ProgramAnswer,
): boolean {
  if (candidate.kind === 'crash' || reference.kind === 'crash' || program.kind === 'crash') return false;
  return linesApart(candidate.lines, program.lines) > linesApart(reference.lines, program.lines);
}

/** Rows one answer has and the other has not (as multisets), plus rows at the same place that differ. */
function linesApart(a: readonly string[], b: readonly string[]): number {
  const left = new Map<string, number>();
  for (const line of a) left.set(line, (left.get(line) ?? 0) + 1);
  let shared = 0;
  for (const line of b) {
    const n = left.get(line) ?? 0;
    if (n > 0) {
      shared += 1;
      left.set(line, n - 1);
    }
  }
  let misplaced = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) misplaced += 1;
  return a.length + b.length - 2 * shared + misplaced;
}

function listOf(stream: EvidenceStream, index: number): { list: number; listIndex: number } {
  const segment = stream.segments.find((s) => index >= s.start && index < s.start + s.length);
  return segment ? { list: segment.list, listIndex: index - segment.start - 1 } : { list: -1, listIndex: index };
}

const NO_MUTATIONS: ReadonlySet<string> = new Set();

/** What a walk gathers over every stream, as it goes. */
interface WalkState {
  readonly tallies: CandidateTally[];
  readonly differing: StepRef[];
  readonly differingKeys: Set<string>;
  readonly sentences: UnexplainedStep[];
  differingCount: number;
}

/** One command of a stream as the program answered it, beside the reference. */
interface CommandSeen {
  readonly ref: StepRef;
  readonly verb: string;
  /** The program's answer lines, undefined where it gave none (then `answer` is a crash). */
  readonly observed: readonly string[] | undefined;
  readonly answer: ProgramAnswer;
  /** What the reference answered there, from the same state. */
  readonly referenceAnswer: StepResult<unknown>['answer'];
  readonly referenceAgrees: boolean;
}

export function walkEvidence(
  model: ReferenceModel,
  streams: readonly EvidenceStream[],
  candidates: readonly Candidate[],
): Walk {
  const walk: WalkState = {
    tallies: candidates.map((candidate) => ({
      candidate,
      support: [],
      supportCount: 0,
      against: 0,
      againstByVerb: new Map(),
      firstAgainst: null,
      otherAnswers: 0,
      exact: !candidate.nondeterministic,
    })),
    differing: [],
    differingKeys: new Set<string>(),
    sentences: [],
    differingCount: 0,
  };
  const sets = candidates.map((c) => new Set(c.mutations));
  streams.forEach((stream, streamIndex) => walkStream(model, stream, streamIndex, sets, walk));
  const { tallies, differing, differingCount, sentences, differingKeys } = walk;
  return { tallies, differing, differingCount, sentences, differingKeys };
}

/**
 * One stream, command by command: the reference and every candidate answer it from their own state, are
 * tallied against what the program answered, then follow the program's answer and go on.
 */
function walkStream(
  model: ReferenceModel,
  stream: EvidenceStream,
  streamIndex: number,
  sets: readonly ReadonlySet<string>[],
  walk: WalkState,
): void {
  const finished = stream.ending === 'finished';
  let reference = model.initial();
  const states = sets.map(() => model.initial());
  let at = 0;
  for (let index = 0; index < stream.commands.length; index++) {
    const command = stream.commands[index]!;
    const verb = command.trim().split(/\s+/)[0] ?? '';
    const expected = model.step(reference, command, NO_MUTATIONS);
    const cut = programAnswerAt(model, stream, index, at, expected);
    // Past the last answer: a process that crashed (or exited early) died at this command; a stopped one says nothing.
    if (!cut && stream.ending !== 'crashed' && stream.ending !== 'finished') break;
    const answer: ProgramAnswer = cut ? { kind: 'lines', lines: cut } : { kind: 'crash', ended: finished };
    if (cut) at += cut.length;
    const observed = cut;
    const where = listOf(stream, index);
    const ref: StepRef = { stream: streamIndex, index, list: where.list, listIndex: where.listIndex, command };
    const referenceStep = observed ? model.step(reference, command, NO_MUTATIONS, observed) : expected;
    const referenceAgrees = accepts(referenceStep, answer) !== false;
    if (!referenceAgrees) {
      walk.differingCount += 1;
      walk.differingKeys.add(stepKey(ref));
      if (walk.differing.length < MAX_REFS) walk.differing.push(ref);
    }
    const referenceAnswer = referenceStep.answer;
    tallyCandidates(model, states, sets, walk.tallies, {
      ref,
      verb,
      observed,
      answer,
      referenceAnswer,
      referenceAgrees,
    });
    if (!referenceAgrees && walk.sentences.length < MAX_REFS)
      walk.sentences.push(unexplainedStep(model, ref, reference, referenceStep, answer));
    if (referenceStep.answer.kind !== 'crash') reference = referenceStep.state;
    if (answer.kind === 'crash') break;
  }
}

/** The program's answer lines to the command at `index`, read from line `at`; undefined where it gave none. */
function programAnswerAt(
  model: ReferenceModel,
  stream: EvidenceStream,
  index: number,
  at: number,
  expected: StepResult<unknown>,
): string[] | undefined {
  const command = stream.commands[index]!;
  // The reference's rows tell what form this answer's rows have, whatever the program printed before.
  if (expected.answer.kind === 'lines') noteAnswerForms(model, [{ command, answer: expected.answer.lines }]);
  const cut = cutAnswer(
    model,
    stream.commands,
    index,
    stream.lines,
    at,
    stream.ending === 'finished',
    expected.answer.kind === 'lines' ? expected.answer.lines.length : undefined,
  );
  // A dead process's last many-line answer cannot be told from no answer. Where the reference prints
  // nothing, take it as answered: the program most likely died at a later command that prints something.
  if (
    !cut &&
    at >= stream.lines.length &&
    model.answerShape(command).kind === 'many' &&
    expected.answer.kind === 'lines' &&
    expected.answer.lines.length === 0 &&
    index + 1 < stream.commands.length
  )
    return [];
  return cut;
}

/**
 * Every candidate answers the command from its own state: where the reference agrees with the program, a
 * candidate that does not is contradicted; where it differs, one that gives the program's answer explains it.
 * Then each follows the program's answer (`observed`) to its next state.
 */
function tallyCandidates(
  model: ReferenceModel,
  states: unknown[],
  sets: readonly ReadonlySet<string>[],
  tallies: readonly CandidateTally[],
  seen: CommandSeen,
): void {
  const { ref, verb, observed, answer, referenceAgrees } = seen;
  for (let c = 0; c < sets.length; c++) {
    const result = model.step(states[c], ref.command, sets[c]!, observed);
    const verdict = accepts(result, answer);
    const tally = tallies[c]!;
    if (verdict !== 'primary') tally.exact = false;
    if (referenceAgrees) {
      if (verdict === false) {
        tally.against += 1;
        tally.againstByVerb.set(verb, (tally.againstByVerb.get(verb) ?? 0) + 1);
        tally.firstAgainst ??= ref;
      }
    } else if (verdict !== false) {
      tally.supportCount += 1;
      if (tally.support.length < MAX_REFS) tally.support.push(ref);
    } else if (fartherThanReference(result.answer, seen.referenceAnswer, answer)) {
      tally.otherAnswers = (tally.otherAnswers ?? 0) + 1;
    }
    if (result.answer.kind !== 'crash') states[c] = result.state;
  }
}

/** A differing command said in the learner's words: its form first, when that is what differs. */
function unexplainedStep(
  model: ReferenceModel,
  ref: StepRef,
  state: unknown,
  expected: StepResult<unknown>,
  answer: ProgramAnswer,
): UnexplainedStep {
  const expectedLines = expected.answer.kind === 'lines' ? expected.answer.lines : [];
  const form = answer.kind === 'crash' ? undefined : otherForm(model, ref.command, expectedLines, answer.lines);
  if (form) return { step: ref, sentence: form, form: true };
  return { step: ref, sentence: describe(model, state, ref.command, expected, answer) };
}

function describe(
  model: ReferenceModel,
  state: unknown,
  command: string,
  expected: StepResult<unknown>,
  answer: ProgramAnswer,
): string {
  const expectedLines = expected.answer.kind === 'lines' ? expected.answer.lines : [];
  if (answer.kind === 'crash') {
    const what = answer.ended ? 'your program had ended without answering' : 'your program crashed';
    return `at \`${command}\` ${what}, where the reference answers "${expectedLines.join(' / ') || '(nothing)'}"`;
  }
  let custom: unknown;
  try {
    custom = model.describeDifference?.(state, command, expectedLines, answer.lines);
  } catch {
    custom = undefined; // a sentence is a courtesy; the generic one below is still true
  }
  if (typeof custom === 'string' && custom !== '') return clipLine(custom, 4 * SHOWN_ANSWER_CHARS);
  return `\`${command}\` answered "${clipLine(answer.lines.join(' / ')) || '(nothing)'}" where the reference answers "${clipLine(expectedLines.join(' / ')) || '(nothing)'}"`;
}

/**
 * A many-line answer whose rows are in another form than the lesson's, word for word (`a=1` where the reference
 * prints `a:1`): the format is what differs, said as such, not as counts the model would read into it.
 */
function otherForm(
  model: ReferenceModel,
  command: string,
  expected: readonly string[],
  actual: readonly string[],
): string | undefined {
  const shape = model.answerShape(command);
  if (shape.kind !== 'many' || expected.length === 0) return undefined;
  const row = actual.find((line) => !model.isAnswerLine(line) && !inShapeForm(model, shape.line, line));
  if (row === undefined) return undefined;
  const words = (line: string): string[] => line.match(/[\p{L}\p{N}_.+-]+/gu) ?? [];
  const like = expected.find((line) => words(line).join(' ') === words(row).join(' ')) ?? expected[0]!;
  return `\`${command}\` printed "${clipLine(row)}", which is not in the form of the lesson's answers: the reference prints "${clipLine(like)}"`;
}
