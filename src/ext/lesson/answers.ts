/**
 * Answers to a lesson's questions, checked by the engine (src/node/packs/quiz.ts → core/quiz.ts) and turned
 * into what the panel shows. Nothing here decides whether an answer is right.
 */
import { answerQuestion, showAnswer, UnknownQuestionError } from '../../node/packs/quiz';
import type { LoadedPack } from '../../node/packs/packs';
import type { AnswerView } from '../../shared/messages';

/** Asynchronous: a `short` answer's scrypt hash is computed off the extension host's thread. */
export async function checkAnswer(
  pack: LoadedPack,
  questionId: string,
  answer: string,
): Promise<AnswerView | undefined> {
  try {
    const result = await answerQuestion(pack, questionId, answer);
    return {
      answer,
      correct: result.correct,
      feedback: result.feedback,
      ...(result.explanation ? { explanation: result.explanation } : {}),
      ...(result.step !== undefined ? { step: result.step } : {}),
    };
  } catch (error) {
    // A panel restored from an older pack version may still show a question the pack no longer has.
    if (error instanceof UnknownQuestionError) return undefined;
    throw error;
  }
}

/** The worked answer the learner asked to see, as the panel shows it; undefined for a question the pack no longer has. */
export function revealedAnswer(
  pack: LoadedPack,
  questionId: string,
  lastAnswer: string | undefined,
): AnswerView | undefined {
  try {
    const shown = showAnswer(pack, questionId);
    return {
      answer: lastAnswer ?? '',
      correct: false,
      revealed: true,
      feedback: 'The answer',
      explanation: shown.explanation,
      ...(shown.expectedOutput ? { expectedOutput: shown.expectedOutput } : {}),
    };
  } catch (error) {
    if (error instanceof UnknownQuestionError) return undefined;
    throw error;
  }
}
