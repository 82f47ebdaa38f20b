/**
 * Checking answers to failure questions and quizzes. Pure: the hash function (and, for predict-the-output
 * questions, the reference model) come in as arguments.
 *
 * Accepted answers are not in the pack, only their salted hashes, so a learner who opens lesson.json does
 * not read the answers off it. Two forms: `sha256(salt + ':' + normalised answer)` (cheap: a choice, a
 * number or a word from the lesson falls to a script in moments), and for `short` answers, as author-answers
 * writes them now, `scrypt(normalised answer, salt)` at a recorded cost (SHORT_ANSWER_SCRYPT: each guess
 * takes tens of milliseconds, so guessing through a word list takes minutes to hours, not a blink). Neither
 * is secrecy against a determined learner. Authors' likely wrong answers are hashed the same way as the
 * question's accepted ones (same salt, same form), so one hash of the learner's answer is compared with both.
 *
 * Normal forms, one per kind, shared by learners' answers and by `author-answers`:
 *   single    the chosen choice's text, normalised (so re-ordering choices keeps the hashes valid);
 *             the learner may type its number (1-based), its letter (a, b, …) or its text
 *   multiple  the chosen choices' normalised texts, sorted, joined by " | "; typed as "1, 3" or "a c"
 *   short     lower case, no quotes, whitespace collapsed, none around punctuation, no final full stop;
 *             with `orderless`, the comma/space separated items are sorted ("s4:0, s1:2" = "s1:2 s4:0")
 *   number    the number's canonical decimal ("2.0" → "2")
 *   predict   the output's tokens (split on whitespace, commas and slashes), lower case, space-joined:
 *             one answer per line or all on one line is the same prediction. Right means equal to the
 *             reference model's output for `commands`; no stored answer is needed for that, but
 *             author-answers stores its hash anyway so the pack loader notices when a model change
 *             alters what the question expects.
 */
import type { ReferenceModel } from '../model/model';
import { SCRYPT_LIMITS, type AnswerHashes, type Mistake, type Question, type ScryptCost } from '../pack/schema';
import { simulate } from '../model/simulate';

export type Sha256 = (text: string) => string;
/** scrypt(password, salt, cost.keyLength, {N, r, p}) as hex; asynchronous, so its time blocks no one. */
export type Scrypt = (password: string, salt: string, cost: ScryptCost) => Promise<string>;

/**
 * The cost author-answers writes for `short` answers: 16 MiB of memory, ~50–100 ms per guess on a laptop
 * core (measured in docs/authoring.md), so a learner's one check is quick and a word list is slow.
 */
export const SHORT_ANSWER_SCRYPT: ScryptCost = { N: 2 ** 14, r: 8, p: 1, keyLength: 32 };

export interface QuizDeps {
  readonly sha256: Sha256;
  readonly scrypt: Scrypt;
  /** Needed for predict questions. */
  readonly model?: ReferenceModel;
  /** With the model, lets a wrong prediction be recognised as "what a program with mistake X prints". */
  readonly mistakes?: readonly Mistake[];
}

export interface CheckedAnswer {
  readonly correct: boolean;
  readonly feedback: string;
  /** Read-order step (1-based) that answers the question. */
  readonly step?: number;
  /** Set once the answer is right. */
  readonly explanation?: string;
  /** The answer could not be read as an answer of this kind at all (e.g. "abc" for a number). */
  readonly unreadable?: boolean;
}

type Normalised = { ok: true; text: string } | { ok: false; reason: string };

const QUOTES = /[\u2018\u2019\u201A\u201B\u201C\u201D\u201E\u201F'"`]/g;

export function normaliseText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(QUOTES, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/ ?([,;:()[\]{}=<>+\-*/]) ?/g, '$1')
    .trim()
    .replace(/[.!]+$/, '')
    .trim();
}

function orderlessItems(text: string): string {
  const inner = text.replace(/^[([{]+|[)\]}]+$/g, '');
  return inner
    .split(/[,;\s]+/)
    .filter((item) => item !== '' && item !== 'and')
    .sort()
    .join(',');
}

/** Tokens of a predicted (or actual) output; the shape of the lines does not matter, their content does. */
export function outputTokens(text: string): string[] {
  return text
    .normalize('NFKC')
    .split(/[\s,/]+/)
    .map((t) => t.replace(QUOTES, '').toLowerCase())
    .filter((t) => t !== '');
}

/**
 * A choice by text, 1-based number or letter; undefined when the answer names none of them. Text comes
 * first so that with choices like "c", "a", "b" typing "a" means the choice "a", not the first one.
 */
function choiceIndex(choices: readonly string[], answer: string): number | undefined {
  const wanted = normaliseText(answer);
  const found = choices.findIndex((c) => normaliseText(c) === wanted);
  if (found >= 0) return found;
  const raw = answer
    .trim()
    .replace(/^\(?(.*?)[).]?$/, '$1')
    .trim();
  if (/^\d+$/.test(raw)) {
    const n = Number(raw);
    return n >= 1 && n <= choices.length ? n - 1 : undefined;
  }
  if (/^[a-z]$/i.test(raw)) {
    const n = raw.toLowerCase().charCodeAt(0) - 97;
    return n < choices.length ? n : undefined;
  }
  return undefined;
}

function choiceRange(question: Question): string {
  const n = question.choices?.length ?? 0;
  return `1–${n} (or a–${String.fromCharCode(96 + n)})`;
}

/** The normal form of an answer for a question, or why it cannot be read as one. */
export function normaliseAnswer(question: Question, answer: string): Normalised {
  switch (question.kind) {
    case 'single': {
      const choices = question.choices ?? [];
      const index = choiceIndex(choices, answer);
      if (index === undefined)
        return { ok: false, reason: `Answer with the number, letter or text of one choice: ${choiceRange(question)}.` };
      return { ok: true, text: normaliseText(choices[index]!) };
    }
    case 'multiple': {
      const choices = question.choices ?? [];
      const parts = /^[\s,;]*([a-z]|\d+)([\s,;]+([a-z]|\d+))*[\s,;]*$/i.test(answer)
        ? answer.split(/[\s,;]+/)
        : answer.split(/[\n;|]+/);
      const indexes = parts.filter((p) => p.trim() !== '').map((p) => choiceIndex(choices, p));
      if (indexes.length === 0 || indexes.some((i) => i === undefined)) {
        return {
          ok: false,
          reason: `Answer with the numbers or letters of every choice you pick, e.g. "1, 3"; choices are ${choiceRange(question)}.`,
        };
      }
      const texts = [...new Set(indexes.map((i) => normaliseText(choices[i!]!)))].sort();
      return { ok: true, text: texts.join(' | ') };
    }
    case 'short': {
      const text = normaliseText(answer);
      if (text === '') return { ok: false, reason: 'Type an answer.' };
      return { ok: true, text: question.orderless ? orderlessItems(text) : text };
    }
    case 'number': {
      const raw = answer.trim().replace(/^\+/, '');
      if (!/^-?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(raw))
        return { ok: false, reason: 'Answer with a number, e.g. 3.' };
      const value = Number(raw);
      return { ok: true, text: String(Object.is(value, -0) ? 0 : value) };
    }
    case 'predict': {
      const tokens = outputTokens(answer);
      if (tokens.length === 0) return { ok: false, reason: 'Type every line the commands print, in order.' };
      return { ok: true, text: tokens.join(' ') };
    }
  }
}

export function answerHash(sha256: Sha256, salt: string, normalised: string): string {
  return sha256(`${salt}:${normalised}`);
}

/** The stored form of a normalised answer under a question's answer hashes: scrypt when they are scrypt. */
export async function storedAnswerHash(
  answer: AnswerHashes | undefined,
  normalised: string,
  deps: Pick<QuizDeps, 'sha256' | 'scrypt'>,
): Promise<string> {
  const salt = answer?.salt ?? '';
  if (answer?.scrypt) {
    const { N, r, p, keyLength } = answer.scrypt;
    return deps.scrypt(normalised, salt, { N, r, p, keyLength });
  }
  return answerHash(deps.sha256, salt, normalised);
}

/** The accepted answers' hashes, whichever form they are stored in. */
export function acceptedHashes(answer: AnswerHashes | undefined): readonly string[] {
  return answer?.scrypt?.hashes ?? answer?.sha256 ?? [];
}

/** A `short` question whose answer is stored as a cheap sha256: validate warns, author-answers rewrites it. */
export function hasCheapShortAnswer(question: Question): boolean {
  return question.kind === 'short' && question.answer?.sha256 !== undefined && question.answer.scrypt === undefined;
}

/** What the reference prints for a predict question, in normal form. */
export function expectedPrediction(question: Question, model: ReferenceModel): string {
  return outputTokens(simulate(model, question.commands ?? []).outcome.lines.join('\n')).join(' ');
}

/** A wrong prediction that is exactly what one of the lesson's mistakes would print. */
function mutantFeedback(question: Question, normalised: string, deps: QuizDeps): string | undefined {
  if (!deps.model || !deps.mistakes) return undefined;
  for (const mistake of deps.mistakes) {
    for (const mutation of mistake.mutants) {
      const outcome = simulate(deps.model, question.commands ?? [], new Set([mutation])).outcome;
      // A crashing mutant prints a prefix, and a prefix is more likely an unfinished prediction.
      if (outcome.ending === 'finished' && outputTokens(outcome.lines.join('\n')).join(' ') === normalised) {
        return `That is what a program with the mistake "${mistake.title}" would print. ${mistake.hint}`;
      }
    }
  }
  return undefined;
}

function agreeingPrefix(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n += 1;
  return n;
}

export async function checkAnswer(question: Question, answer: string, deps: QuizDeps): Promise<CheckedAnswer> {
  const step = question.step !== undefined ? { step: question.step } : {};
  const normalised = normaliseAnswer(question, answer);
  if (!normalised.ok) return { correct: false, feedback: normalised.reason, unreadable: true, ...step };
  const hash = await storedAnswerHash(question.answer, normalised.text, deps);
  let correct: boolean;
  if (question.kind === 'predict' && deps.model) {
    correct = normalised.text === expectedPrediction(question, deps.model);
  } else {
    // Without the model (the editor never runs pack code) a prediction is checked against the hash
    // author-answers stored, which validate keeps in step with the model.
    correct = acceptedHashes(question.answer).includes(hash);
  }
  if (correct) {
    return {
      correct: true,
      feedback: 'Right.',
      ...(question.explanation ? { explanation: question.explanation } : {}),
      ...step,
    };
  }
  const authored = question.feedback?.find((f) => (f.scrypt ?? f.sha256) === hash)?.text;
  if (authored) return { correct: false, feedback: authored, ...step };
  const fallback = question.hint ?? 'Not quite. Re-read the step this question points to, then try again.';
  if (question.kind === 'predict' && deps.model) {
    const mutant = mutantFeedback(question, normalised.text, deps);
    if (mutant) return { correct: false, feedback: mutant, ...step };
    // Say how far the prediction holds without giving the rest away.
    const expected = expectedPrediction(question, deps.model).split(' ');
    const right = agreeingPrefix(normalised.text.split(' '), expected);
    const where =
      right === 0
        ? 'Your first answer already differs.'
        : right === 1
          ? 'Your first answer is right; the next one is not.'
          : `Your first ${right} answers are right; the next one is not.`;
    return { correct: false, feedback: `${where} ${fallback}`, ...step };
  }
  return { correct: false, feedback: fallback, ...step };
}

export interface RevealedAnswer {
  /** The worked answer: the question's explanation. */
  readonly explanation: string;
  /** Predict questions: what the reference prints for the commands, one answer per line. */
  readonly expectedOutput?: readonly string[];
}

/**
 * The answer a learner asked to see ("Show answer"). Accepted answers are stored only as hashes, so the
 * explanation carries it; a predict question's output comes from the model.
 */
export function revealAnswer(question: Question, deps: Pick<QuizDeps, 'model'>): RevealedAnswer {
  const explanation = question.explanation ?? 'This question has no written-out answer. Re-read the step it points to.';
  if (question.kind === 'predict' && deps.model) {
    const run = simulate(deps.model, question.commands ?? []);
    return { explanation, expectedOutput: run.outcome.lines };
  }
  return { explanation };
}

/** The problem a question without hashes has: validate lists these together, as one warning, and checks the rest. */
export const MISSING_ANSWER_HASHES = 'no "answer" hashes: run `lesson-companion author-answers` for this pack';

/**
 * What is wrong with a question as authored, beyond the schema: what each kind needs, and (given the
 * model) that a predict question's commands run and its stored hash still matches the model's output.
 */
export function questionProblems(question: Question, deps: { sha256: Sha256; model?: ReferenceModel }): string[] {
  const problems: string[] = [];
  const choice = question.kind === 'single' || question.kind === 'multiple';
  if (choice && !question.choices) problems.push(`a ${question.kind} question needs "choices"`);
  if (!choice && question.choices) problems.push(`a ${question.kind} question has no "choices"`);
  if (question.choices) {
    const texts = question.choices.map(normaliseText);
    if (new Set(texts).size !== texts.length) problems.push('two choices are the same once normalised');
  }
  if (question.kind === 'predict' && !question.commands) problems.push('a predict question needs "commands"');
  if (question.kind !== 'predict' && question.commands) problems.push(`a ${question.kind} question has no "commands"`);
  if (question.orderless && question.kind !== 'short') problems.push('"orderless" is for short questions only');
  if (!question.answer) problems.push(MISSING_ANSWER_HASHES);
  else problems.push(...hashFormProblems(question, question.answer));
  if (question.kind === 'predict' && question.commands && deps.model && question.answer?.sha256) {
    const run = simulate(deps.model, question.commands);
    if (run.outcome.ending !== 'finished') problems.push('the reference model crashes on these commands');
    const hash = answerHash(deps.sha256, question.answer.salt, expectedPrediction(question, deps.model));
    if (!question.answer.sha256.includes(hash))
      problems.push(
        "the stored answer no longer matches the model's output: run `lesson-companion author-answers` again",
      );
  }
  return problems;
}

/** The answer and its feedback hashed in one form, and a scrypt cost a check can afford. */
function hashFormProblems(question: Question, answer: AnswerHashes): string[] {
  const rerun = 'run `lesson-companion author-answers` again';
  if (answer.sha256 && answer.scrypt)
    return [`"answer" holds both "sha256" and "scrypt" hashes; it holds one form: ${rerun}`];
  if (!answer.sha256 && !answer.scrypt) return [`"answer" holds no hashes ("sha256" or "scrypt"): ${rerun}`];
  const problems: string[] = [];
  const form = answer.scrypt ? 'scrypt' : 'sha256';
  if (answer.scrypt) {
    const { N, r, keyLength, hashes } = answer.scrypt;
    if (question.kind === 'predict')
      problems.push(`a predict question's answer is stored as "sha256" (the model computes it anyway): ${rerun}`);
    if ((N & (N - 1)) !== 0) problems.push(`the scrypt cost N is ${N}, not a power of two`);
    if (128 * N * r > SCRYPT_LIMITS.maxMemoryBytes)
      problems.push(
        `the scrypt cost needs ${Math.round((128 * N * r) / 2 ** 20)} MiB (128·N·r); at most ${SCRYPT_LIMITS.maxMemoryBytes / 2 ** 20} MiB is allowed`,
      );
    if (hashes.some((h) => h.length !== 2 * keyLength))
      problems.push(`a scrypt hash is not ${keyLength} bytes (keyLength) long`);
  }
  const mismatched = (question.feedback ?? []).filter((f) =>
    form === 'scrypt'
      ? f.scrypt === undefined || f.sha256 !== undefined
      : f.sha256 === undefined || f.scrypt !== undefined,
  );
  if (mismatched.length > 0)
    problems.push(
      `${mismatched.length === 1 ? 'a "feedback" entry is' : `${mismatched.length} "feedback" entries are`} not hashed as the answer is ("${form}" only): ${rerun}`,
    );
  return problems;
}
