import * as assert from 'node:assert/strict';
import { authored, SALT, scryptHex, sha256 } from './quizAuthoring';
import { model as leastConnectionsModel } from '../../lessons/least-connections/model/model';
import { answerHash, checkAnswer, questionProblems, type QuizDeps, type Scrypt } from '../../src/core/quiz/quiz';
import type { Mistake, Question } from '../../src/core/pack/schema';

const deps: QuizDeps = { sha256, scrypt: scryptHex };
const check = (q: Question, answer: string, d: QuizDeps = deps): ReturnType<typeof checkAnswer> =>
  checkAnswer(q, answer, d);

describe('quiz: checking answers', () => {
  // Authored per test: what authoring runs (normalising, hashing) is credited to the tests by mutation coverage.
  let short: Question;
  beforeEach(() => {
    short = authored(
      {
        id: 'q-short',
        prompt: 'Which backend?',
        kind: 'short',
        step: 3,
        hint: 'All tied at 0.',
        explanation: 'The smallest name wins.',
      },
      ['s1'],
      { s3: 'that is the tuple order, not the tiebreak' },
    );
  });

  it('short: accepts the answer whatever its case, quotes, spacing and final full stop', async () => {
    for (const answer of ['s1', ' S1 ', '"s1"', "'s1'.", '`s1`', '\u201Cs1\u201D']) {
      const result = await check(short, answer);
      assert.equal(result.correct, true, answer);
      assert.equal(result.explanation, 'The smallest name wins.');
      assert.equal(result.step, 3);
    }
  });

  it("short: a wrong answer gets the author's feedback for it, else the hint, always with the step", async () => {
    assert.deepEqual(await check(short, 'S3'), {
      correct: false,
      feedback: 'that is the tuple order, not the tiebreak',
      step: 3,
    });
    assert.deepEqual(await check(short, 's2'), { correct: false, feedback: 'All tied at 0.', step: 3 });
    assert.equal((await check(short, '   ')).unreadable, true);
  });

  it('short: code answers compare without the spaces around punctuation', async () => {
    const key = authored({ id: 'q-key', prompt: 'Tuple?', kind: 'short' }, [
      '(counts.active.get(backend, 0), backend)',
    ]);
    assert.equal((await check(key, '( counts.active.get( backend,0 ) , backend )')).correct, true);
    assert.equal((await check(key, '(backend, counts.active.get(backend, 0))')).correct, false);
  });

  it('short + orderless: any order, any separator, with or without braces', async () => {
    const dict = authored(
      { id: 'q-dict', prompt: 'Contents?', kind: 'short', orderless: true },
      ['{"s1": 2, "s4": 0}'],
      { 's1:1': 'each call adds one' },
    );
    for (const answer of ['{"s4": 0, "s1": 2}', 's1:2, s4:0', 's4: 0 s1: 2', "{'s1': 2; 's4': 0}"])
      assert.equal((await check(dict, answer)).correct, true, answer);
    assert.equal((await check(dict, '{"s1": 2}')).correct, false);
    const notOrderless = authored({ id: 'q-order', prompt: 'Order?', kind: 'short' }, ['a, b, c']);
    assert.equal(
      (await check(notOrderless, 'c, b, a')).correct,
      false,
      'order matters unless the question says orderless',
    );
  });

  it('number: compares the value, not the spelling, and says so when the answer is not a number', async () => {
    const q = authored({ id: 'q-num', prompt: 'Count?', kind: 'number', step: 5 }, ['0'], {
      '-1': 'that is without the floor',
    });
    for (const answer of ['0', ' 0.0 ', '+0', '-0', '0e3'])
      assert.equal((await check(q, answer)).correct, true, answer);
    assert.deepEqual(await check(q, '-1.0'), { correct: false, feedback: 'that is without the floor', step: 5 });
    const words = await check(q, 'zero');
    assert.equal(words.correct, false);
    assert.equal(words.unreadable, true);
    assert.match(words.feedback, /number/);
  });

  // Authored per test: what authoring runs (normalising, hashing) is credited to the tests by mutation coverage.
  let single: Question;
  beforeEach(() => {
    single = authored(
      {
        id: 'q-single',
        prompt: 'Why?',
        kind: 'single',
        choices: ['The empty check', 'The name in the key', 'The default of 0'],
        step: 3,
      },
      ['2'],
      { '1': 'that only handles an empty tuple' },
    );
  });

  it('single: by number, letter or text', async () => {
    for (const answer of ['2', 'b', 'B)', '(b)', 'the name in the key'])
      assert.equal((await check(single, answer)).correct, true, answer);
    assert.deepEqual(await check(single, 'a'), {
      correct: false,
      feedback: 'that only handles an empty tuple',
      step: 3,
    });
    assert.equal((await check(single, '3')).correct, false);
    assert.equal((await check(single, '4')).unreadable, true);
    assert.equal((await check(single, 'something else')).unreadable, true);
  });

  it('single: the hash is of the choice text, so re-ordering the choices keeps it valid', async () => {
    const reordered: Question = { ...single, choices: ['The name in the key', 'The empty check', 'The default of 0'] };
    assert.equal((await check(reordered, '1')).correct, true);
    assert.equal((await check(reordered, '2')).feedback, 'that only handles an empty tuple');
  });

  it('single: a choice whose text is a letter is matched by text first', async () => {
    const q = authored({ id: 'q-letters', prompt: 'Which?', kind: 'single', choices: ['c', 'a', 'b'] }, ['a']);
    assert.equal((await check(q, 'a')).correct, true);
    assert.equal((await check(q, '2')).correct, true);
    assert.equal((await check(q, 'c')).correct, false);
  });

  it('multiple: every right choice and no other, in any order', async () => {
    const q = authored(
      {
        id: 'q-multi',
        prompt: 'Which?',
        kind: 'multiple',
        choices: ['pick()', 'connection_opened()', 'connection_closed()'],
        hint: 'Which ones write?',
      },
      ['2, 3'],
      { '2': 'a close can change it too' },
    );
    for (const answer of ['2, 3', '3 2', 'b,c', 'C; B', 'connection_opened()\nconnection_closed()', '2, 3, 3'])
      assert.equal((await check(q, answer)).correct, true, answer);
    assert.deepEqual(await check(q, 'b'), { correct: false, feedback: 'a close can change it too' });
    assert.deepEqual(await check(q, '1, 2, 3'), { correct: false, feedback: 'Which ones write?' });
    assert.equal((await check(q, '2, 9')).unreadable, true);
  });
});

describe('quiz: predict the output', () => {
  const mistakes: Mistake[] = [
    {
      id: 'late-increment',
      title: 'The pick is counted too late',
      explanation: 'x',
      function: 'pick',
      hint: 'Count it inside pick().',
      mutants: ['no-increment'],
    },
    {
      id: 'unknown-backend',
      title: 'A stranger is not ignored',
      explanation: 'x',
      function: 'done',
      hint: 'Check the pool.',
      mutants: ['unknown-crash', 'unknown-added'],
    },
  ];
  const withModel: QuizDeps = { sha256, scrypt: scryptHex, model: leastConnectionsModel, mistakes };
  // Authored per test: what authoring runs (normalising, hashing) is credited to the tests by mutation coverage.
  let trace: Question;
  beforeEach(() => {
    trace = authored(
      {
        id: 'q-trace',
        prompt: 'Predict.',
        kind: 'predict',
        commands: ['POOL a b c', 'PICK', 'PICK', 'PICK', 'DONE b', 'PICK', 'PICK'],
        step: 6,
        hint: 'Keep the counts on paper.',
      },
      ['OK a b c OK b a'],
      { 'a b c b a': 'POOL and DONE print OK too' },
    );
  });

  it("is right when the tokens equal the model's output, one per line or all on one line", async () => {
    for (const answer of [
      'OK\na\nb\nc\nOK\nb\na\n',
      'ok a b c ok b a',
      'OK, a, b, c, OK, b, a',
      'OK / a / b / c / OK / b / a',
    ]) {
      assert.equal((await check(trace, answer, withModel)).correct, true, JSON.stringify(answer));
    }
  });

  it("gives the author's feedback, then a mistake's when a mutant prints the prediction, then how far it holds", async () => {
    assert.equal((await check(trace, 'a b c b a', withModel)).feedback, 'POOL and DONE print OK too');
    const late = await check(trace, 'OK a a a OK a a', withModel);
    assert.equal(late.correct, false);
    assert.match(late.feedback, /The pick is counted too late.*Count it inside pick\(\)/);
    assert.equal(late.step, 6);
    assert.match(
      (await check(trace, 'OK a b c OK b b', withModel)).feedback,
      /^Your first 6 answers are right; the next one is not\. Keep the counts on paper\.$/,
    );
    assert.match((await check(trace, 'OK b', withModel)).feedback, /^Your first answer is right;/);
    assert.match((await check(trace, 'a', withModel)).feedback, /^Your first answer already differs\./);
  });

  it('does not blame a mistake whose program crashes: a short prediction is more likely unfinished', async () => {
    const stranger = authored(
      { id: 'q-stranger', prompt: 'Predict.', kind: 'predict', commands: ['POOL a b', 'DONE ghost', 'STATUS'] },
      ['OK OK a:0 b:0'],
    );
    assert.match((await check(stranger, 'OK OK a:0 b:0 ghost:0', withModel)).feedback, /A stranger is not ignored/);
    assert.doesNotMatch((await check(stranger, 'OK', withModel)).feedback, /A stranger/);
  });

  it('checks a prediction without the model against the stored hash (the editor never runs pack code)', async () => {
    assert.equal((await check(trace, 'OK a b c OK b a', deps)).correct, true);
    assert.equal((await check(trace, 'OK a a a OK a a', deps)).correct, false);
    assert.equal((await check(trace, 'a b c b a', deps)).feedback, 'POOL and DONE print OK too');
  });
});

describe('quiz: authoring problems', () => {
  const problems = (q: Question): string[] => questionProblems(q, { sha256, model: leastConnectionsModel });

  it('a well-formed question of each kind has none', async () => {
    assert.deepEqual(problems(authored({ id: 'a', prompt: 'p', kind: 'short' }, ['x'])), []);
    assert.deepEqual(problems(authored({ id: 'b', prompt: 'p', kind: 'single', choices: ['x', 'y'] }, ['x'])), []);
    assert.deepEqual(
      problems(authored({ id: 'c', prompt: 'p', kind: 'predict', commands: ['POOL a', 'PICK'] }, ['OK a'])),
      [],
    );
  });

  it('names what each kind is missing', async () => {
    assert.deepEqual(problems({ id: 'a', prompt: 'p', kind: 'single' }), [
      'a single question needs "choices"',
      'no "answer" hashes: run `lesson-companion author-answers` for this pack',
    ]);
    assert.match(
      problems({ id: 'b', prompt: 'p', kind: 'predict', answer: { salt: SALT, sha256: ['0'.repeat(64)] } }).join('\n'),
      /needs "commands"/,
    );
    assert.match(
      problems({
        id: 'c',
        prompt: 'p',
        kind: 'number',
        orderless: true,
        answer: { salt: SALT, sha256: ['0'.repeat(64)] },
      }).join('\n'),
      /orderless/,
    );
    assert.match(
      problems({
        id: 'd',
        prompt: 'p',
        kind: 'single',
        choices: ['X', 'x'],
        answer: { salt: SALT, sha256: ['0'.repeat(64)] },
      }).join('\n'),
      /same once normalised/,
    );
  });

  it("notices when the model's output no longer matches a predict question's stored answer", async () => {
    const stale = authored({ id: 'e', prompt: 'p', kind: 'predict', commands: ['POOL a b', 'PICK'] }, ['OK b']);
    assert.match(problems(stale).join('\n'), /no longer matches the model's output/);
  });
});

describe('quiz: short answers stored as scrypt', () => {
  const cost = { N: 1024, r: 8, p: 1, keyLength: 32 }; // cheap here: the cost is the pack's, the check is the same
  it('accepts the right answer, refuses a wrong one, gives feedback hashed the same way, with one hash per check', async () => {
    let calls = 0;
    const counting: Scrypt = async (password, salt, c) => {
      calls += 1;
      return scryptHex(password, salt, c);
    };
    const q: Question = {
      id: 'q-kdf',
      prompt: 'Which?',
      kind: 'short',
      hint: 'Think.',
      answer: { salt: SALT, scrypt: { ...cost, hashes: [await scryptHex('s1', SALT, cost)] } },
      feedback: [{ scrypt: await scryptHex('s3', SALT, cost), text: 'tuple order' }],
    };
    const d: QuizDeps = { sha256, scrypt: counting };
    assert.equal((await checkAnswer(q, ' S1. ', d)).correct, true);
    assert.deepEqual(await checkAnswer(q, 's3', d), { correct: false, feedback: 'tuple order' });
    assert.deepEqual(await checkAnswer(q, 's2', d), { correct: false, feedback: 'Think.' });
    assert.equal(calls, 3, 'one scrypt per answer checked');
    assert.deepEqual(questionProblems(q, { sha256 }), []);
    // The sha256 of the right answer is not accepted for a question stored as scrypt.
    const swapped: Question = {
      ...q,
      answer: { salt: SALT, scrypt: { ...cost, hashes: [answerHash(sha256, SALT, 's1')] } },
    };
    assert.equal((await checkAnswer(swapped, 's1', d)).correct, false);
  });
});
