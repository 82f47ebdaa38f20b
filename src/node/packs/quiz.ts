/**
 * Answering a lesson's questions from Node: the CLI `answer` command and the VS Code panel use this.
 *
 * API
 *   listQuestions(pack): QuestionInfo[]
 *       Every question of the pack, failure questions first, then the quiz. `n` is the 1-based position
 *       in that order (what `lesson-companion answer --question <n>` takes); `id` is the manifest id,
 *       stable across versions of the pack, and the key to use for storing progress.
 *   findQuestion(pack, ref): QuestionInfo | undefined
 *       `ref` is an id, or a number n as above (an id that happens to be digits wins).
 *   answerQuestion(pack, ref, answer): Promise<AnswerResult>
 *       Checks one typed answer: `correct`, `feedback` (the author's feedback for that wrong answer when
 *       there is one, else the question's hint; for a right answer, "Right."), `explanation` once right,
 *       `step`/`stepTitle` pointing into the read order, `unreadable` when the text is not an answer of
 *       that kind at all (e.g. a word for a number question). Rejects with UnknownQuestionError for a bad
 *       ref. Asynchronous: a `short` answer stored as scrypt takes tens of milliseconds to hash, on
 *       libuv's thread pool, so the extension host is not held while it computes.
 *   showAnswer(pack, ref): RevealedAnswer
 *       The worked answer a learner asked for: the explanation, and for a predict question what the
 *       reference prints. Throws UnknownQuestionError for a bad ref.
 *   sha256Hex(text), scryptHex(password, salt, cost): the hashes the packs use (node:crypto), for authoring tools.
 *
 * Nothing here reads files, starts processes or runs pack code: a predict question is checked against the
 * hash author-answers stored (validate keeps it in step with the pack's model).
 */
import { checkAnswer, revealAnswer, type CheckedAnswer, type RevealedAnswer } from '../../core/quiz/quiz';
import type { Question } from '../../core/pack/schema';
import { scryptHex, sha256Hex } from '../cache/hash';
import type { LoadedPack } from './packs';

export { scryptHex, sha256Hex };

export interface QuestionInfo {
  /** 1-based: failure questions first, then the quiz. */
  readonly n: number;
  readonly id: string;
  readonly section: 'failure' | 'quiz';
  readonly kind: Question['kind'];
  readonly prompt: string;
  readonly choices?: readonly string[];
  /** Predict questions: the commands whose output the learner predicts. */
  readonly commands?: readonly string[];
  readonly orderless?: boolean;
  readonly step?: number;
  readonly stepTitle?: string;
  readonly question: Question;
}

export interface AnswerResult extends CheckedAnswer {
  readonly questionId: string;
  readonly n: number;
  readonly stepTitle?: string;
}

export class UnknownQuestionError extends Error {
  constructor(
    readonly ref: string,
    readonly available: readonly QuestionInfo[],
  ) {
    super(
      available.length === 0
        ? `this lesson has no questions`
        : `no question "${ref}": use 1–${available.length} or an id (${available.map((q) => q.id).join(', ')})`,
    );
    this.name = 'UnknownQuestionError';
  }
}

export function listQuestions(pack: LoadedPack): QuestionInfo[] {
  const { manifest } = pack;
  const tagged = [
    ...manifest.failureQuestions.map((q) => ({ q, section: 'failure' as const })),
    ...(manifest.quiz ?? []).map((q) => ({ q, section: 'quiz' as const })),
  ];
  return tagged.map(({ q, section }, i) => {
    const stepTitle = q.step !== undefined ? manifest.readOrder[q.step - 1]?.title : undefined;
    return {
      n: i + 1,
      id: q.id,
      section,
      kind: q.kind,
      prompt: q.prompt,
      ...(q.choices ? { choices: q.choices } : {}),
      ...(q.commands ? { commands: q.commands } : {}),
      ...(q.orderless ? { orderless: true } : {}),
      ...(q.step !== undefined ? { step: q.step } : {}),
      ...(stepTitle ? { stepTitle } : {}),
      question: q,
    };
  });
}

export function findQuestion(pack: LoadedPack, ref: string): QuestionInfo | undefined {
  const all = listQuestions(pack);
  const trimmed = ref.trim();
  // An id wins over a number: ids may be digits too, and the panel always sends ids.
  return all.find((q) => q.id === trimmed) ?? (/^\d+$/.test(trimmed) ? all[Number(trimmed) - 1] : undefined);
}

export async function answerQuestion(pack: LoadedPack, questionRef: string, answer: string): Promise<AnswerResult> {
  const info = findQuestion(pack, questionRef);
  if (!info) throw new UnknownQuestionError(questionRef, listQuestions(pack));
  const checked = await checkAnswer(info.question, answer, {
    sha256: sha256Hex,
    scrypt: scryptHex,
    model: pack.model,
    mistakes: pack.manifest.mistakes,
  });
  return {
    questionId: info.id,
    n: info.n,
    ...checked,
    ...(checked.step !== undefined && info.stepTitle ? { stepTitle: info.stepTitle } : {}),
  };
}

export function showAnswer(pack: LoadedPack, questionRef: string): RevealedAnswer & { readonly questionId: string } {
  const info = findQuestion(pack, questionRef);
  if (!info) throw new UnknownQuestionError(questionRef, listQuestions(pack));
  return { questionId: info.id, ...revealAnswer(info.question, { model: pack.model }) };
}
