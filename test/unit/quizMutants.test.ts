// What learners and authors see from src/core/quiz/quiz.ts at the edges of answer reading, feedback lookup,
// predict questions and authoring checks: the cases quiz.test.ts leaves to chance. Every question is built inside
// its test, so mutation coverage (perTest) credits the authoring it runs (normalising, hashing) to that test.
import * as assert from 'node:assert/strict';
import { authored, SALT, scryptHex, sha256 } from './quizAuthoring';
import { model as leastConnectionsModel } from '../../lessons/least-connections/model/model';
import {
  answerHash,
  checkAnswer,
  hasCheapShortAnswer,
  MISSING_ANSWER_HASHES,
  questionProblems,
  revealAnswer,
  type QuizDeps,
} from '../../src/core/quiz/quiz';
import { SCRYPT_LIMITS, type AnswerHashes, type Mistake, type Question } from '../../src/core/pack/schema';
import type { ReferenceModel } from '../../src/core/model/model';

const RERUN = 'run `lesson-companion author-answers` again';
const FALLBACK = 'Not quite. Re-read the step this question points to, then try again.';

const deps: QuizDeps = { sha256, scrypt: scryptHex };
const mistakes: Mistake[] = [
  {
    id: 'late-increment',
    title: 'The pick is counted too late',
    explanation: 'x',
    function: 'pick',
    hint: 'Count it inside pick().',
    mutants: ['no-increment'],
  },
];
const withModel: QuizDeps = { sha256, scrypt: scryptHex, model: leastConnectionsModel, mistakes };

/** What a single question answers to something that names none of its choices. */
function oneChoiceReason(choices: readonly string[]): string {
  const lastLetter = String.fromCharCode('a'.charCodeAt(0) + choices.length - 1);
  return `Answer with the number, letter or text of one choice: 1–${choices.length} (or a–${lastLetter}).`;
}

function everyChoiceReason(choices: readonly string[]): string {
  const lastLetter = String.fromCharCode('a'.charCodeAt(0) + choices.length - 1);
  return `Answer with the numbers or letters of every choice you pick, e.g. "1, 3"; choices are 1–${choices.length} (or a–${lastLetter}).`;
}

/** The lesson's model, except that one command makes it crash (the real reference never does). */
function crashingOn<S>(model: ReferenceModel<S>, bad: string): ReferenceModel<S> {
  return {
    ...model,
    step: (state, command, on, observed) =>
      command === bad
        ? { state, answer: { kind: 'crash', error: `${bad} crashed` } }
        : model.step(state, command, on, observed),
  };
}

describe('quiz (edges): short answers', () => {
  it('ignores runs of spaces, a run of final stops or bangs, and a stop typed after a space', async () => {
    const q = authored({ id: 'q-ws', prompt: 'Which?', kind: 'short', explanation: 'It is checked first.' }, [
      'the empty check',
    ]);
    for (const answer of ['the   empty\t\tcheck', 'The empty check!!', 'the empty check...', 'the empty check .']) {
      assert.deepEqual(
        await checkAnswer(q, answer, deps),
        { correct: true, feedback: 'Right.', explanation: 'It is checked first.' },
        JSON.stringify(answer),
      );
    }
  });

  it('keeps a full stop inside the answer: "counts.active" is not "countsactive"', async () => {
    const q = authored({ id: 'q-dot', prompt: 'Which attribute?', kind: 'short', hint: 'Look at the dict.' }, [
      'counts.active',
    ]);
    assert.equal((await checkAnswer(q, 'Counts.Active.', deps)).correct, true);
    assert.deepEqual(await checkAnswer(q, 'countsactive', deps), { correct: false, feedback: 'Look at the dict.' });
  });

  it('asks for an answer when nothing was typed, with the step', async () => {
    const q = authored({ id: 'q-empty', prompt: 'Which?', kind: 'short', step: 4 }, ['s1']);
    assert.deepEqual(await checkAnswer(q, ' \t ', deps), {
      correct: false,
      feedback: 'Type an answer.',
      unreadable: true,
      step: 4,
    });
  });

  it('without a hint or feedback entries, a wrong answer gets the default advice; a right one just "Right."', async () => {
    const q: Question = {
      id: 'q-bare',
      prompt: 'Which?',
      kind: 'short',
      answer: { salt: SALT, sha256: [answerHash(sha256, SALT, 's1')] },
    };
    assert.deepEqual(await checkAnswer(q, 'S1', deps), { correct: true, feedback: 'Right.' });
    assert.deepEqual(await checkAnswer(q, 's2', deps), { correct: false, feedback: FALLBACK });
  });

  it('a question authored without answer hashes is never right, and still answers with its hint', async () => {
    const q: Question = { id: 'q-unhashed', prompt: 'Which?', kind: 'short', hint: 'Run author-answers.' };
    assert.deepEqual(await checkAnswer(q, 's1', deps), { correct: false, feedback: 'Run author-answers.' });
  });

  it('a question that is not predict-the-output is checked against its hashes even when the model is at hand', async () => {
    const q = authored({ id: 'q-short-model', prompt: 'Which?', kind: 'short', hint: 'All tied at 0.' }, ['s1']);
    assert.equal((await checkAnswer(q, 's1', withModel)).correct, true);
    assert.deepEqual(await checkAnswer(q, 's2', withModel), { correct: false, feedback: 'All tied at 0.' });
  });
});

describe('quiz (edges): orderless short answers', () => {
  it('drops the word "and", a trailing separator and any depth of brackets around the list', async () => {
    const q = authored({ id: 'q-dict', prompt: 'Contents?', kind: 'short', orderless: true }, ['s1:2, s4:0']);
    for (const answer of ['s4:0 and s1:2', 's1:2, s4:0,', '[[s1:2, s4:0]]', '({s4: 0, s1: 2})'])
      assert.equal((await checkAnswer(q, answer, deps)).correct, true, answer);
  });

  it('keeps a stray bracket inside the list as part of an item', async () => {
    const q = authored({ id: 'q-dict', prompt: 'Contents?', kind: 'short', orderless: true, hint: 'Two entries.' }, [
      's1:2, s4:0',
    ]);
    for (const answer of ['s1:2), s4:0', 's1:2, (s4:0'])
      assert.deepEqual(await checkAnswer(q, answer, deps), { correct: false, feedback: 'Two entries.' }, answer);
  });

  it('keeps the items apart: "12, 3" is not "1, 23"', async () => {
    const q = authored(
      { id: 'q-ids', prompt: 'Which request ids?', kind: 'short', orderless: true, hint: 'Two ids.' },
      ['1, 23'],
    );
    assert.equal((await checkAnswer(q, '23 1', deps)).correct, true);
    assert.deepEqual(await checkAnswer(q, '12, 3', deps), { correct: false, feedback: 'Two ids.' });
  });
});

describe('quiz (edges): single choice', () => {
  const choices = ['The empty check', 'The name in the key', 'The default of 0'];
  let single: Question;
  beforeEach(() => {
    single = authored({ id: 'q-single', prompt: 'Why?', kind: 'single', choices, step: 3 }, ['2']);
  });

  it('reads a letter with spaces or brackets around it', async () => {
    for (const answer of ['b) ', '( b )', '(b', ' 2. '])
      assert.equal((await checkAnswer(single, answer, deps)).correct, true, JSON.stringify(answer));
  });

  it('names the range of choices for anything that is not one of them', async () => {
    const unreadable = { correct: false, feedback: oneChoiceReason(choices), unreadable: true, step: 3 };
    assert.equal(unreadable.feedback, 'Answer with the number, letter or text of one choice: 1–3 (or a–c).');
    for (const answer of ['0', '4', 'd', 'a different answer', '0x2', '2.5', '1, 2'])
      assert.deepEqual(await checkAnswer(single, answer, deps), unreadable, answer);
  });

  it('reads a number with its closing bracket or stop only on one line: "1" then "." on the next line is no choice', async () => {
    const xy = ['x', 'y'];
    const q = authored({ id: 'q-xy', prompt: 'Which?', kind: 'single', choices: xy, hint: 'Not x.' }, ['2']);
    assert.deepEqual(await checkAnswer(q, '1.', deps), { correct: false, feedback: 'Not x.' });
    for (const answer of ['1\n.', '1\n)'])
      assert.deepEqual(
        await checkAnswer(q, answer, deps),
        { correct: false, feedback: oneChoiceReason(xy), unreadable: true },
        JSON.stringify(answer),
      );
  });

  it('reads two-digit choice numbers, with or without a closing bracket', async () => {
    const many = Array.from({ length: 11 }, (_, i) => `backend ${String.fromCharCode(65 + i)}`);
    const q = authored({ id: 'q-many', prompt: 'Which?', kind: 'single', choices: many, hint: 'Count the calls.' }, [
      '10',
    ]);
    assert.equal((await checkAnswer(q, '10', deps)).correct, true);
    assert.equal((await checkAnswer(q, 'j', deps)).correct, true);
    assert.deepEqual(await checkAnswer(q, '11)', deps), { correct: false, feedback: 'Count the calls.' });
    assert.deepEqual(await checkAnswer(q, '12', deps), {
      correct: false,
      feedback: oneChoiceReason(many),
      unreadable: true,
    });
  });

  it('a question authored without choices reads no answer as a choice', async () => {
    const q: Question = { id: 'q-nochoices', prompt: 'Why?', kind: 'single' };
    const result = await checkAnswer(q, '1', deps);
    assert.equal(result.unreadable, true);
    assert.match(result.feedback, /^Answer with the number, letter or text of one choice/);
  });
});

describe('quiz (edges): multiple choice', () => {
  const choices = ['The empty check', 'The name in the key', 'The default of 0'];
  let multi: Question;
  beforeEach(() => {
    multi = authored({ id: 'q-multi', prompt: 'Which?', kind: 'multiple', choices, hint: 'Two of them.' }, ['1, 3']);
  });

  it('takes a trailing separator, blank lines, and a letter on one line with a text on the next', async () => {
    for (const answer of ['1, 3,', ', a c', 'The empty check\n   \nThe default of 0\n', 'a\nThe default of 0']) {
      assert.deepEqual(
        await checkAnswer(multi, answer, deps),
        { correct: true, feedback: 'Right.' },
        JSON.stringify(answer),
      );
    }
  });

  it('asks for the numbers or letters of the choices when nothing was picked', async () => {
    const unreadable = { correct: false, feedback: everyChoiceReason(choices), unreadable: true };
    assert.equal(
      unreadable.feedback,
      'Answer with the numbers or letters of every choice you pick, e.g. "1, 3"; choices are 1–3 (or a–c).',
    );
    for (const answer of ['', '   ', '1, 4'])
      assert.deepEqual(await checkAnswer(multi, answer, deps), unreadable, JSON.stringify(answer));
  });

  it('reads bare numbers and letters as a list only when nothing else is on the line', async () => {
    const verbs = ['POOL', 'PICK', 'DONE'];
    const q = authored({ id: 'q-verbs', prompt: 'Which print OK?', kind: 'multiple', choices: verbs }, ['1, 3']);
    assert.equal((await checkAnswer(q, 'POOL\nDONE', deps)).correct, true);
    for (const answer of ['POOL, c', 'a c)'])
      assert.deepEqual(
        await checkAnswer(q, answer, deps),
        { correct: false, feedback: everyChoiceReason(verbs), unreadable: true },
        answer,
      );
  });

  it('reads two-digit choice numbers in a list', async () => {
    const many = Array.from({ length: 11 }, (_, i) => `backend ${String.fromCharCode(65 + i)}`);
    const q = authored({ id: 'q-many', prompt: 'Which?', kind: 'multiple', choices: many }, ['10, 11']);
    assert.equal((await checkAnswer(q, '11, 10', deps)).correct, true);
    assert.equal((await checkAnswer(q, 'k; j', deps)).correct, true);
  });

  it('keeps the picked choices apart: "s1" and "s2" together are not the choice "s1s2"', async () => {
    const q = authored(
      { id: 'q-join', prompt: 'Which names?', kind: 'multiple', choices: ['s1', 's2', 's1s2'], hint: 'Just one.' },
      ['3'],
    );
    assert.equal((await checkAnswer(q, 'c', deps)).correct, true);
    assert.deepEqual(await checkAnswer(q, '1, 2', deps), { correct: false, feedback: 'Just one.' });
  });

  it('a question authored without choices reads no answer as a choice', async () => {
    const q: Question = { id: 'q-nochoices', prompt: 'Which?', kind: 'multiple' };
    const result = await checkAnswer(q, '1', deps);
    assert.equal(result.unreadable, true);
    assert.match(result.feedback, /^Answer with the numbers or letters of every choice you pick/);
  });
});

describe('quiz (edges): numbers', () => {
  it('reads a decimal however it is spelled', async () => {
    const q = authored({ id: 'q-ratio', prompt: 'Ratio?', kind: 'number' }, ['0.25']);
    for (const answer of ['.25', '0.250', '2.5e-1', '25E-02', '+0.25'])
      assert.equal((await checkAnswer(q, answer, deps)).correct, true, answer);
    const big = authored({ id: 'q-count', prompt: 'Count?', kind: 'number' }, ['12']);
    for (const answer of ['12', '12.0', '1.2e1'])
      assert.equal((await checkAnswer(big, answer, deps)).correct, true, answer);
  });

  it('does not read sums, words or units around a number', async () => {
    const q = authored({ id: 'q-count', prompt: 'Count?', kind: 'number', step: 2 }, ['11']);
    for (const answer of ['1+1', 'about 11', '11 connections', '--11']) {
      assert.deepEqual(
        await checkAnswer(q, answer, deps),
        { correct: false, feedback: 'Answer with a number, e.g. 3.', unreadable: true, step: 2 },
        answer,
      );
    }
  });
});

describe('quiz (edges): predict the output', () => {
  it('stores the documented normal form: lower-case tokens joined by single spaces', async () => {
    // Hashed from the normal form as written in the module's documentation, not through normaliseAnswer.
    const q: Question = {
      id: 'q-doc',
      prompt: 'Predict.',
      kind: 'predict',
      commands: ['POOL a b', 'PICK'],
      answer: { salt: SALT, sha256: [answerHash(sha256, SALT, 'ok a')] },
    };
    assert.deepEqual(await checkAnswer(q, 'OK\nA\n', deps), { correct: true, feedback: 'Right.' });
  });

  it('ignores quotes around the predicted lines', async () => {
    const q = authored({ id: 'q-quotes', prompt: 'Predict.', kind: 'predict', commands: ['POOL a b', 'PICK'] }, [
      'OK a',
    ]);
    assert.equal((await checkAnswer(q, '"OK" \u2018a\u2019', withModel)).correct, true);
  });

  it('asks for the lines when the prediction has none', async () => {
    const q = authored({ id: 'q-none', prompt: 'Predict.', kind: 'predict', commands: ['POOL a b', 'PICK'], step: 6 }, [
      'OK a',
    ]);
    assert.deepEqual(await checkAnswer(q, ' , / \n', withModel), {
      correct: false,
      feedback: 'Type every line the commands print, in order.',
      unreadable: true,
      step: 6,
    });
  });

  it('with the model, the model decides, not a stored hash that went stale', async () => {
    // Stored for 'OK b', but the reference picks a (ties go to pool order).
    const stale = authored(
      {
        id: 'q-stale',
        prompt: 'Predict.',
        kind: 'predict',
        commands: ['POOL a b', 'PICK'],
        hint: 'Ties go to pool order.',
      },
      ['OK b'],
    );
    assert.deepEqual(await checkAnswer(stale, 'OK a', withModel), { correct: true, feedback: 'Right.' });
    assert.deepEqual(await checkAnswer(stale, 'OK b', withModel), {
      correct: false,
      feedback: 'Your first answer is right; the next one is not. Ties go to pool order.',
    });
    assert.equal((await checkAnswer(stale, 'OK b', deps)).correct, true, 'without the model only the hash can say');
  });

  it('with the model but no mistakes, says how far the prediction holds', async () => {
    const q = authored(
      { id: 'q-nomistakes', prompt: 'Predict.', kind: 'predict', commands: ['POOL a b', 'PICK', 'PICK'], step: 2 },
      ['OK a b'],
    );
    const modelOnly: QuizDeps = { sha256, scrypt: scryptHex, model: leastConnectionsModel };
    assert.deepEqual(await checkAnswer(q, 'OK a a', modelOnly), {
      correct: false,
      feedback: `Your first 2 answers are right; the next one is not. ${FALLBACK}`,
      step: 2,
    });
  });

  it('a predict question authored without commands expects no output, not what an unknown command prints', async () => {
    const q: Question = { id: 'q-nocommands', prompt: 'Predict.', kind: 'predict', hint: 'Read the commands.' };
    assert.deepEqual(await checkAnswer(q, 'ERROR', withModel), {
      correct: false,
      feedback: 'Your first answer already differs. Read the commands.',
    });
    assert.deepEqual(revealAnswer(q, { model: leastConnectionsModel }), {
      explanation: 'This question has no written-out answer. Re-read the step it points to.',
      expectedOutput: [],
    });
  });
});

describe('quiz (edges): showing the answer', () => {
  it("shows a predict question's output from the model, one answer per line", () => {
    const q = authored(
      {
        id: 'q-show',
        prompt: 'Predict.',
        kind: 'predict',
        commands: ['POOL a b', 'PICK', 'PICK'],
        explanation: 'Pool order, then the count.',
      },
      ['OK a b'],
    );
    assert.deepEqual(revealAnswer(q, { model: leastConnectionsModel }), {
      explanation: 'Pool order, then the count.',
      expectedOutput: ['OK', 'a', 'b'],
    });
    assert.deepEqual(
      revealAnswer(q, {}),
      { explanation: 'Pool order, then the count.' },
      'without the model, only the explanation',
    );
  });

  it('shows only the explanation for other kinds, or says there is none', () => {
    const q = authored(
      { id: 'q-show-short', prompt: 'Which?', kind: 'short', explanation: 'The smallest name wins.' },
      ['s1'],
    );
    assert.deepEqual(revealAnswer(q, { model: leastConnectionsModel }), { explanation: 'The smallest name wins.' });
    const bare = authored({ id: 'q-show-bare', prompt: 'Which?', kind: 'short' }, ['s1']);
    assert.deepEqual(revealAnswer(bare, {}), {
      explanation: 'This question has no written-out answer. Re-read the step it points to.',
    });
  });
});

describe('quiz (edges): authoring problems', () => {
  const problems = (q: Question, model: ReferenceModel = leastConnectionsModel): string[] =>
    questionProblems(q, { sha256, model });
  const cost = { N: 1024, r: 8, p: 1, keyLength: 32 };
  const hex = (bytes: number): string => 'ab'.repeat(bytes);
  const scryptAnswer = (over: Partial<NonNullable<AnswerHashes['scrypt']>> = {}): AnswerHashes => ({
    salt: SALT,
    scrypt: { ...cost, hashes: [hex(cost.keyLength)], ...over },
  });

  it('names what each kind needs and what it has no use for', () => {
    assert.deepEqual(problems({ id: 'a', prompt: 'p', kind: 'multiple' }), [
      'a multiple question needs "choices"',
      MISSING_ANSWER_HASHES,
    ]);
    const short = authored({ id: 'b', prompt: 'p', kind: 'short', choices: ['x', 'y'], commands: ['POOL a'] }, ['x']);
    assert.deepEqual(problems(short), ['a short question has no "choices"', 'a short question has no "commands"']);
    assert.deepEqual(problems({ id: 'c', prompt: 'p', kind: 'predict', commands: ['POOL a', 'PICK'] }), [
      MISSING_ANSWER_HASHES,
    ]);
  });

  it('a well-formed orderless short question, or one without feedback entries, has none', () => {
    assert.deepEqual(problems(authored({ id: 'a', prompt: 'p', kind: 'short', orderless: true }, ['a, b'])), []);
    assert.deepEqual(problems({ id: 'b', prompt: 'p', kind: 'number', answer: { salt: SALT, sha256: [hex(32)] } }), []);
  });

  it("says when the reference model crashes on a predict question's commands", () => {
    const q = authored({ id: 'a', prompt: 'p', kind: 'predict', commands: ['POOL a', 'PICK', 'BOOM'] }, ['OK a']);
    assert.deepEqual(problems(q, crashingOn(leastConnectionsModel, 'BOOM')), [
      'the reference model crashes on these commands',
    ]);
  });

  it('wants one form of hashes', () => {
    const both: AnswerHashes = { salt: SALT, sha256: [hex(32)], scrypt: { ...cost, hashes: [hex(32)] } };
    assert.deepEqual(problems({ id: 'a', prompt: 'p', kind: 'short', answer: both }), [
      `"answer" holds both "sha256" and "scrypt" hashes; it holds one form: ${RERUN}`,
    ]);
    assert.deepEqual(problems({ id: 'b', prompt: 'p', kind: 'short', answer: { salt: SALT } }), [
      `"answer" holds no hashes ("sha256" or "scrypt"): ${RERUN}`,
    ]);
  });

  it('wants a predict question stored as sha256', () => {
    const q: Question = { id: 'a', prompt: 'p', kind: 'predict', commands: ['POOL a', 'PICK'], answer: scryptAnswer() };
    assert.deepEqual(problems(q), [
      `a predict question's answer is stored as "sha256" (the model computes it anyway): ${RERUN}`,
    ]);
  });

  it('checks the scrypt cost: N a power of two, memory within the limit, hashes keyLength bytes long', () => {
    const short = (answer: AnswerHashes): Question => ({ id: 'a', prompt: 'p', kind: 'short', answer });
    assert.deepEqual(problems(short(scryptAnswer({ N: 1000 }))), ['the scrypt cost N is 1000, not a power of two']);
    const [N, r] = [2 ** 16, 16];
    const limitMiB = SCRYPT_LIMITS.maxMemoryBytes / 2 ** 20;
    assert.deepEqual(problems(short(scryptAnswer({ N, r }))), [
      `the scrypt cost needs ${(128 * N * r) / 2 ** 20} MiB (128·N·r); at most ${limitMiB} MiB is allowed`,
    ]);
    assert.equal(limitMiB, 64);
    // Exactly at the limit is allowed.
    assert.equal(128 * N * (r / 2), SCRYPT_LIMITS.maxMemoryBytes);
    assert.deepEqual(problems(short(scryptAnswer({ N, r: r / 2 }))), []);
    assert.deepEqual(problems(short(scryptAnswer({ hashes: [hex(cost.keyLength), hex(cost.keyLength - 1)] }))), [
      `a scrypt hash is not ${cost.keyLength} bytes (keyLength) long`,
    ]);
  });

  it("counts the feedback entries not hashed in the answer's form", () => {
    const shaOnly = { sha256: hex(32), text: 'sha256 only' };
    const scryptOnly = { scrypt: hex(32), text: 'scrypt only' };
    const both = { sha256: hex(32), scrypt: hex(32), text: 'both' };
    const neither = { text: 'neither' };
    const scryptQ: Question = {
      id: 'a',
      prompt: 'p',
      kind: 'short',
      answer: scryptAnswer(),
      feedback: [shaOnly, both, neither, scryptOnly],
    };
    assert.deepEqual(problems(scryptQ), [
      `3 "feedback" entries are not hashed as the answer is ("scrypt" only): ${RERUN}`,
    ]);
    const shaQ: Question = {
      id: 'b',
      prompt: 'p',
      kind: 'short',
      answer: { salt: SALT, sha256: [hex(32)] },
      feedback: [scryptOnly, both, neither, shaOnly],
    };
    assert.deepEqual(problems(shaQ), [
      `3 "feedback" entries are not hashed as the answer is ("sha256" only): ${RERUN}`,
    ]);
    assert.deepEqual(problems({ ...shaQ, feedback: [shaOnly, scryptOnly] }), [
      `a "feedback" entry is not hashed as the answer is ("sha256" only): ${RERUN}`,
    ]);
  });
});

describe('quiz (edges): short answers stored as a cheap sha256', () => {
  it('flags only a short question whose answer is sha256 and not scrypt', () => {
    const sha: AnswerHashes = { salt: SALT, sha256: ['ab'.repeat(32)] };
    const kdf: AnswerHashes = { salt: SALT, scrypt: { N: 1024, r: 8, p: 1, keyLength: 32, hashes: ['ab'.repeat(32)] } };
    assert.equal(hasCheapShortAnswer({ id: 'a', prompt: 'p', kind: 'short', answer: sha }), true);
    assert.equal(hasCheapShortAnswer({ id: 'b', prompt: 'p', kind: 'short', answer: kdf }), false);
    assert.equal(
      hasCheapShortAnswer({ id: 'c', prompt: 'p', kind: 'short', answer: { ...sha, scrypt: kdf.scrypt } }),
      false,
    );
    assert.equal(hasCheapShortAnswer({ id: 'd', prompt: 'p', kind: 'number', answer: sha }), false);
    assert.equal(hasCheapShortAnswer({ id: 'e', prompt: 'p', kind: 'short' }), false);
  });
});
