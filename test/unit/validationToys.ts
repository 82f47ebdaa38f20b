/**
 * Small packs for tests of `validate` (src/core/validation), built per test: a toy reference model whose
 * answers come from one function of the command, the mutations on and the commands said before it, and a
 * lesson.json (object and text) with only the fields the checks read. Shared by the validationSurvivors tests.
 */
import type { LessonManifest } from '../../src/core/pack/schema';
import type { MutationInfo, ReferenceModel } from '../../src/core/model/model';

/** Lines, a crash, or lines with other answers just as right (a nondeterministic mutation). */
export type ToyAnswer =
  | readonly string[]
  | 'crash'
  | { readonly lines: readonly string[]; readonly alternatives: readonly (readonly string[])[] };

export interface ToySpec {
  /** Mutation ids (deterministic) or whole MutationInfos. */
  readonly mutations?: readonly (string | MutationInfo)[];
  /** The answer to `command` under `on`, after `before`: the commands since the start that RESET has not cleared. */
  readonly answer: (command: string, on: ReadonlySet<string>, before: readonly string[]) => ToyAnswer;
  /** The commands RESET leaves in `before` (a reset that keeps state); none unless given. */
  readonly keeps?: (command: string) => boolean;
  /** The commands generate() picks from at random; NOP unless given. */
  readonly commands?: readonly string[];
  /** A whole generate() instead. */
  readonly generate?: ReferenceModel['generate'];
}

/** The model "toy": RESET answers OK and clears what `keeps` does not keep; every other command answers `spec.answer`. */
export function toyModel(spec: ToySpec): ReferenceModel {
  const commands = spec.commands ?? ['NOP'];
  const model: ReferenceModel<readonly string[]> = {
    id: 'toy',
    description: 'a toy model for validation tests',
    mutations: (spec.mutations ?? []).map((m) => (typeof m === 'string' ? { id: m, description: m } : m)),
    resetCommand: 'RESET',
    resetAnswer: ['OK'],
    initial: () => [],
    step: (before, command, on) => {
      if (command === 'RESET')
        return { state: before.filter((c) => spec.keeps?.(c) ?? false), answer: { kind: 'lines', lines: ['OK'] } };
      const answer = spec.answer(command, on, before);
      const state = [...before, command];
      if (answer === 'crash') return { state, answer: { kind: 'crash', error: `${command} fails` } };
      if ('alternatives' in answer)
        return { state, answer: { kind: 'lines', lines: answer.lines }, alternatives: answer.alternatives };
      return { state, answer: { kind: 'lines', lines: answer as readonly string[] } };
    },
    snapshot: (before) => ({ before: before.join(' ') }),
    answerShape: () => ({ kind: 'many', line: /^.*$/ }),
    isAnswerLine: () => true,
    generate: spec.generate ?? ((random, length) => Array.from({ length }, () => random.pick(commands))),
  };
  return model as ReferenceModel;
}

/** A lesson.json with one read-order step and a python starter (main.py), and its text as JSON.stringify indents it. */
export function toyLesson(over: Record<string, unknown> = {}): { manifest: LessonManifest; text: string } {
  const manifest = {
    id: 'toy',
    readOrder: [{ title: 'start', symbol: '#top' }],
    starters: { python: { dir: 'starter/python', main: 'main.py' } },
    failureQuestions: [],
    quiz: [],
    mistakes: [],
    ...over,
  };
  return { manifest: manifest as unknown as LessonManifest, text: JSON.stringify(manifest, null, 2) };
}

/** 1-based line of the first line of `text` holding `needle` (0 when none does). */
export const lineOf = (text: string, needle: string): number =>
  text.split('\n').findIndex((l) => l.includes(needle)) + 1;
