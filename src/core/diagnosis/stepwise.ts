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
import { cutAnswer, noteAnswerForms } from '../model/segment';
import { unexplainedStep } from './stepSentences';
import type { ProgramAnswer, StepRef, UnexplainedStep } from './steps';

export type { ProgramAnswer, StepRef, UnexplainedStep } from './steps';

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

/**
 * Rows one answer has and the other has not (as multisets; a row changed in place counts once, not as one missing
 * and one extra), plus rows both have that stand at different places among the rows both have.
 */
function linesApart(a: readonly string[], b: readonly string[]): number {
  const inB = new Map<string, number>();
  for (const line of b) inB.set(line, (inB.get(line) ?? 0) + 1);
  const sharedInA: string[] = [];
  for (const line of a) {
    const n = inB.get(line) ?? 0;
    if (n > 0) {
      sharedInA.push(line);
      inB.set(line, n - 1);
    }
  }
  const inShared = new Map<string, number>();
  for (const line of sharedInA) inShared.set(line, (inShared.get(line) ?? 0) + 1);
  const sharedInB = b.filter((line) => {
    const n = inShared.get(line) ?? 0;
    if (n > 0) inShared.set(line, n - 1);
    return n > 0;
  });
  const unmatched = Math.max(a.length, b.length) - sharedInA.length;
  let misplaced = 0;
  for (let i = 0; i < sharedInA.length; i++) if (sharedInA[i] !== sharedInB[i]) misplaced += 1;
  return unmatched + misplaced;
}

function listOf(stream: EvidenceStream, index: number): { list: number; listIndex: number } {
  const segment = stream.segments.find((s) => index >= s.start && index < s.start + s.length);
  return segment ? { list: segment.list, listIndex: index - segment.start - 1 } : { list: -1, listIndex: index };
}

const NO_MUTATIONS: ReadonlySet<string> = new Set();

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

/** A candidate's tally over one stream (merged over the streams into a CandidateTally). */
type StreamTally = Omit<CandidateTally, 'candidate'>;

/** What one stream says: its differing commands, and each candidate's tally there. */
interface StreamShare {
  readonly differing: StepRef[];
  readonly differingKeys: string[];
  readonly sentences: UnexplainedStep[];
  /** By candidate (`candidateKey`): a stream is walked again only for candidates it has not been walked for. */
  readonly tallies: Map<string, StreamTally>;
}

const candidateKey = (c: Candidate): string => `${c.mutations.join('+')}${c.nondeterministic ? '~' : ''}`;

/**
 * Each stream's share of a walk, by the model, the stream and its place: a check diagnoses the same first batch
 * again with the probe's runs added, and a random program's verdict is settled over growing evidence, so most
 * streams of a walk were walked before for most candidates (the model is a pure function of state and command).
 */
const shares = new WeakMap<ReferenceModel, WeakMap<EvidenceStream, Map<number, StreamShare>>>();

/**
 * `untilMiss`: each candidate is followed only until its first command whose answer it would not give (contradicted
 * where the reference agrees, or not explaining where it differs): enough to tell whether it explains every command,
 * and its tally says no for one that missed; the rest of its tally is not kept for a walk that needs it.
 */
export function walkEvidence(
  model: ReferenceModel,
  streams: readonly EvidenceStream[],
  candidates: readonly Candidate[],
  untilMiss = false,
): Walk {
  const keys = candidates.map((c) => candidateKey(c) + (untilMiss ? '!' : ''));
  const byStream = shares.get(model) ?? new WeakMap<EvidenceStream, Map<number, StreamShare>>();
  shares.set(model, byStream);
  const parts = streams.map((stream, streamIndex) => {
    const byPlace = byStream.get(stream) ?? new Map<number, StreamShare>();
    byStream.set(stream, byPlace);
    const known = byPlace.get(streamIndex);
    const missing = candidates.filter((_, c) => !known?.tallies.has(keys[c]!));
    if (known && missing.length === 0) return known;
    const share = walkStream(model, stream, streamIndex, missing, known, untilMiss);
    byPlace.set(streamIndex, share);
    return share;
  });
  return mergedWalk(candidates, keys, parts);
}

/** The streams' shares added up, in stream order: the first MAX_REFS references of each list are the walk's. */
function mergedWalk(candidates: readonly Candidate[], keys: readonly string[], parts: readonly StreamShare[]): Walk {
  const tallies: CandidateTally[] = candidates.map((candidate, c) => {
    const tally: CandidateTally = {
      candidate,
      support: [],
      supportCount: 0,
      against: 0,
      againstByVerb: new Map(),
      firstAgainst: null,
      otherAnswers: 0,
      exact: !candidate.nondeterministic,
    };
    for (const part of parts) {
      const t = part.tallies.get(keys[c]!)!;
      tally.supportCount += t.supportCount;
      for (const ref of t.support) if (tally.support.length < MAX_REFS) tally.support.push(ref);
      tally.against += t.against;
      for (const [verb, n] of t.againstByVerb) tally.againstByVerb.set(verb, (tally.againstByVerb.get(verb) ?? 0) + n);
      tally.firstAgainst ??= t.firstAgainst;
      tally.otherAnswers = (tally.otherAnswers ?? 0) + (t.otherAnswers ?? 0);
      tally.exact &&= t.exact;
    }
    return tally;
  });
  const differing = parts.flatMap((part) => part.differing).slice(0, MAX_REFS);
  const sentences = parts.flatMap((part) => part.sentences).slice(0, MAX_REFS);
  const differingKeys = new Set(parts.flatMap((part) => part.differingKeys));
  return { tallies, differing, differingCount: differingKeys.size, sentences, differingKeys };
}

/**
 * One stream, command by command: the reference and every candidate answer it from their own state, are
 * tallied against what the program answered, then follow the program's answer and go on. `known` is what an
 * earlier walk of the stream found, for other candidates: its differing commands are kept, the new tallies added.
 */
function walkStream(
  model: ReferenceModel,
  stream: EvidenceStream,
  streamIndex: number,
  candidates: readonly Candidate[],
  known: StreamShare | undefined,
  untilMiss: boolean,
): StreamShare {
  const share: StreamShare = known
    ? { ...known, tallies: new Map(known.tallies) }
    : { differing: [], differingKeys: [], sentences: [], tallies: new Map() };
  const sets = candidates.map((c) => new Set(c.mutations));
  const tallies: StreamTally[] = candidates.map((c) => ({
    support: [],
    supportCount: 0,
    against: 0,
    againstByVerb: new Map(),
    firstAgainst: null,
    otherAnswers: 0,
    exact: !c.nondeterministic,
  }));
  const finished = stream.ending === 'finished';
  let reference = model.initial();
  const states = sets.map(() => model.initial());
  const missed = untilMiss ? sets.map(() => false) : undefined;
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
    if (!referenceAgrees && !known) {
      share.differingKeys.push(stepKey(ref));
      if (share.differing.length < MAX_REFS) share.differing.push(ref);
      if (share.sentences.length < MAX_REFS)
        share.sentences.push(unexplainedStep(model, ref, reference, referenceStep, answer));
    }
    const referenceAnswer = referenceStep.answer;
    tallyCandidates(
      model,
      states,
      sets,
      tallies,
      { ref, verb, observed, answer, referenceAnswer, referenceAgrees },
      missed,
    );
    if (referenceStep.answer.kind !== 'crash') reference = referenceStep.state;
    if (answer.kind === 'crash') break;
  }
  candidates.forEach((c, k) => share.tallies.set(candidateKey(c) + (untilMiss ? '!' : ''), tallies[k]!));
  return share;
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
  tallies: readonly StreamTally[],
  seen: CommandSeen,
  missed?: boolean[],
): void {
  const { ref, verb, observed, answer, referenceAgrees } = seen;
  for (let c = 0; c < sets.length; c++) {
    if (missed?.[c]) continue;
    const result = model.step(states[c], ref.command, sets[c]!, observed);
    const verdict = accepts(result, answer);
    if (verdict === false && missed) missed[c] = true;
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
