/**
 * Answers to a lesson's questions, checked by the engine (src/node/quiz.ts → core/quiz.ts) and turned
 * into what the panel shows. Nothing here decides whether an answer is right.
 */
import { answerQuestion, UnknownQuestionError } from '../node/quiz';
import type { LoadedPack } from '../node/packs';
import type { AnswerView } from '../shared/messages';

export function checkAnswer(pack: LoadedPack, questionId: string, answer: string): AnswerView | undefined {
  try {
    const result = answerQuestion(pack, questionId, answer);
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
