/**
 * Questions authored for quiz tests as `author-answers` does it: accepted and wrong answers normalised, then
 * hashed with a fixed salt. Shared by quiz.test.ts and quizMutants.test.ts.
 */
import { createHash, scrypt as nodeScrypt } from 'node:crypto';
import { answerHash, normaliseAnswer, type Scrypt } from '../../src/core/quiz/quiz';
import type { Question } from '../../src/core/pack/schema';

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
export const scryptHex: Scrypt = (password, salt, cost) =>
  new Promise((resolve, reject) =>
    nodeScrypt(
      password,
      salt,
      cost.keyLength,
      { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r },
      (e, key) => (e ? reject(e) : resolve(key.toString('hex'))),
    ),
  );
export const SALT = 'unit-test-salt';

/** A question whose accepted and wrong answers are hashed the way author-answers does it. */
export function authored(
  base: Omit<Question, 'answer' | 'feedback'>,
  accept: string[],
  wrong: Record<string, string> = {},
): Question {
  const normal = (text: string): string => {
    const n = normaliseAnswer(base as Question, text);
    if (!n.ok) throw new Error(`test setup: ${text}: ${n.reason}`);
    return n.text;
  };
  return {
    ...base,
    answer: { salt: SALT, sha256: accept.map((a) => answerHash(sha256, SALT, normal(a))) },
    feedback: Object.entries(wrong).map(([answer, text]) => ({
      sha256: answerHash(sha256, SALT, normal(answer)),
      text,
    })),
  };
}
