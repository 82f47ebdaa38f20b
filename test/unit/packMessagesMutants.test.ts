/**
 * The sentences validate and install show for a broken lesson.json (src/core/pack/manifestMessages.ts), for the
 * schema problems the other tests leave to the validator's own words: run commands that are not one plain line,
 * values outside their bounds, patterns of ids, versions, hashes and paths, lists with an entry twice, missing
 * and unknown fields, and a field written twice (JSON keeps the last value; the message must still make sense).
 * An instructor acts on these words, so the tests assert the field, the value shown and the limit named. Every
 * manifest is built inside its test, so mutation coverage (perTest) credits that test.
 */
import * as assert from 'node:assert/strict';
import { parseManifest } from '../../src/core/pack/manifest';
import { friendlyManifestMessage } from '../../src/core/pack/manifestMessages';
import { editedLesson, friendlyProblems, lessonJson, lessonObject } from './packAuthoring';

const ONE_LINE = 'must be one line of plain text: no line break, control, bidi or invisible character';

/** The one friendly message of a lesson.json with `edit` applied. */
function onlyMessage(edit: (m: Record<string, any>) => void): string {
  const problems = friendlyProblems(editedLesson(edit));
  assert.equal(problems.length, 1, JSON.stringify(problems));
  return problems[0]!.message;
}

/** Index of the first question in failureQuestions that `has` holds for. */
const questionIndex = (m: Record<string, any>, has: (q: Record<string, any>) => boolean): number => {
  const i = (m.failureQuestions as Record<string, any>[]).findIndex(has);
  assert.ok(i >= 0, 'the lesson has such a question');
  return i;
};

describe('lesson.json messages: run commands', () => {
  it('names the line break in a command, also in the eleventh step', () => {
    assert.ok(
      onlyMessage((m) => (m.readOrder[0].run = 'python3 balancer.py\nrm -rf ~')).startsWith(
        `readOrder.0.run: ${ONE_LINE} (it holds a line break)`,
      ),
    );
    const message = onlyMessage((m) => {
      while (m.readOrder.length < 11) m.readOrder.push({ title: `Step ${m.readOrder.length + 1}` });
      m.readOrder[10].run = 'python3 x.py\nrm -rf ~';
    });
    assert.ok(message.startsWith(`readOrder.10.run: ${ONE_LINE} (it holds a line break)`), message);
  });

  it('names other characters by their four-digit, upper-case code point', () => {
    assert.match(
      onlyMessage((m) => (m.readOrder[0].run = 'ls \u202e')),
      /^readOrder\.0\.run: must be one line .*\(it holds U\+202E\)/,
    );
    assert.match(
      onlyMessage((m) => (m.readOrder[0].run = 'ls \u0007')),
      /\(it holds U\+0007\)/,
    );
    assert.match(
      onlyMessage((m) => (m.readOrder[0].run = { python: 'python3 x.py', typescript: 'tsx x.ts \u200f' })),
      /^readOrder\.0\.run\.typescript: .*\(it holds U\+200F\)/,
    );
  });

  it('allows 300 characters, so a 300-character command with a line break is told about the line break', () => {
    const message = onlyMessage((m) => (m.readOrder[0].run = `${'a'.repeat(299)}\n`));
    assert.match(message, /^readOrder\.0\.run: must be one line .*\(it holds a line break\)/);
    assert.doesNotMatch(message, /characters long/);
  });

  it('gives the length of a command over 300 characters', () => {
    assert.match(
      onlyMessage((m) => (m.readOrder[0].run = 'x'.repeat(301))),
      /^readOrder\.0\.run: is 301 characters long; a command may have at most 300$/,
    );
    assert.match(
      onlyMessage((m) => (m.readOrder[0].run = { python: 'y'.repeat(302) })),
      /^readOrder\.0\.run\.python: is 302 characters long; a command may have at most 300$/,
    );
  });

  it('still names the field when the command is no text at all, empty, or for an unknown language', () => {
    for (const run of [null, 5, '', { perl: 'perl x.pl' }, [1]]) {
      const message = onlyMessage((m) => (m.readOrder[0].run = run));
      assert.equal(typeof message, 'string', JSON.stringify(run));
      assert.match(message, /^readOrder\.0\.run: \S/, JSON.stringify(run));
      assert.doesNotMatch(message, /one line of plain text|characters long/, JSON.stringify(run));
    }
  });

  it('does not call a question kind or a hash a command, whatever characters it holds', () => {
    const kind = onlyMessage((m) => (m.failureQuestions[0].kind = 'short\n'));
    assert.match(kind, /^failureQuestions\.0\.kind: \S/);
    assert.doesNotMatch(kind, /one line of plain text/);
    const hash = onlyMessage(
      (m) => (m.failureQuestions[questionIndex(m, (q) => q.answer?.scrypt)].answer.scrypt.hashes[0] = 'zz\n'),
    );
    assert.match(hash, /^failureQuestions\.\d+\.answer\.scrypt\.hashes\.0: \S/);
    assert.doesNotMatch(hash, /one line of plain text/);
  });

  it("says the same of a predict question's commands, and keeps the validator's words for an empty one", () => {
    const index = questionIndex(lessonObject(), (q) => q.kind === 'predict');
    const broken = onlyMessage((m) => (m.failureQuestions[index].commands[0] = 'PICK\n'));
    assert.match(
      broken,
      new RegExp(`^failureQuestions\\.${index}\\.commands\\.0: must be one line .*\\(it holds a line break\\)`),
    );
    const empty = friendlyProblems(editedLesson((m) => (m.failureQuestions[index].commands = [''])));
    assert.ok(empty.length >= 1);
    for (const p of empty)
      assert.match(p.message, new RegExp(`^failureQuestions\\.${index}\\.commands\\.0: \\S`), JSON.stringify(p));
  });
});

describe('lesson.json messages: patterns', () => {
  it('shows a path as the author typed it, backslashes and all, and says what a pack path must be', () => {
    const message = onlyMessage((m) => (m.model = '..\\secret.ts'));
    assert.ok(message.startsWith('model: "..\\secret.ts" must be a path inside the pack folder'), message);
    for (const rule of ['relative', 'with "/" between folders', 'no leading "/"', 'no drive letter', 'no ".." segment'])
      assert.ok(message.includes(rule), rule);
  });

  it('says what an id must be, showing the id', () => {
    assert.match(
      onlyMessage((m) => (m.mistakes[0].id = 'Bad Id')),
      /^mistakes\.0\.id: "Bad Id" must be lower-case letters, digits and dashes, starting with a letter or digit$/,
    );
  });

  it('says what a version must be, showing the version', () => {
    assert.match(
      onlyMessage((m) => (m.version = 'v1')),
      /^version: "v1" must be a version like 1\.0\.0 \(major\.minor\.patch\)$/,
    );
  });

  it('says what a SHA-256 hash must be, showing the hash', () => {
    const message = onlyMessage((m) => (m.failureQuestions[0].feedback = [{ sha256: 'abc', text: 'Not quite.' }]));
    assert.match(
      message,
      /^failureQuestions\.0\.feedback\.0\.sha256: "abc" must be a SHA-256 hash: 64 lower-case hex digits$/,
    );
  });
});

describe('lesson.json messages: bounds', () => {
  it('names a number above its maximum and the maximum', () => {
    assert.match(
      onlyMessage((m) => (m.mistakes[0].step = 101)),
      /^mistakes\.0\.step: 101 is more than 100, the most/,
    );
  });

  it('names a number below its minimum and the minimum, of one digit or several', () => {
    assert.match(
      onlyMessage((m) => (m.mistakes[0].step = 0)),
      /^mistakes\.0\.step: 0 is less than 1, the least/,
    );
    const index = questionIndex(lessonObject(), (q) => q.answer?.scrypt);
    const message = onlyMessage((m) => (m.failureQuestions[index].answer.scrypt.N = 512));
    assert.match(
      message,
      new RegExp(`^failureQuestions\\.${index}\\.answer\\.scrypt\\.N: 512 is less than 1024, the least`),
    );
  });

  it('gives the length of a text over its limit, and the limit', () => {
    assert.match(
      onlyMessage((m) => (m.title = 't'.repeat(121))),
      /^title: is 121 characters long; at most 120 are allowed/,
    );
  });

  it('gives the number of items in a list over its limit, and the limit', () => {
    assert.match(
      onlyMessage((m) => (m.outcomes = Array.from({ length: 21 }, (_, i) => `outcome ${i}`))),
      /^outcomes: has 21 items; a lesson pack may have at most 20 here$/,
    );
  });

  it('refuses a field written twice, whose first value JSON would drop in silence, at its second place', () => {
    const title = lessonObject();
    const twice = lessonJson(title).replace('\n  "title": ', '\n  "title": 5,\n  "title": ');
    const problems = friendlyProblems(twice);
    assert.deepEqual(
      problems.map((p) => [p.path, p.message.replace(/ \(first.*/, '')]),
      [['/title', 'title: the key "title" is written twice in the same object']],
    );
    const outcomes = lessonObject();
    const listTwice = lessonJson(outcomes).replace('\n  "outcomes": ', '\n  "outcomes": "see below",\n  "outcomes": ');
    assert.deepEqual(
      friendlyProblems(listTwice).map((p) => p.path),
      ['/outcomes'],
    );
  });

  it('finds a field written twice however it is written: escaped, deep in a list, beside strings that look like keys', () => {
    // The twice-written key is found by counting keys (the text's against the parsed value's) before the slower
    // search for where: each of these must still be counted as two.
    const escaped = lessonJson(lessonObject()).replace('\n  "title": ', '\n  "title": "x",\n  "\\u0074itle": ');
    assert.deepEqual(
      friendlyProblems(escaped).map((p) => p.path),
      ['/title'],
    );
    const deep = lessonObject();
    const text = lessonJson(deep).replace(/"mutants": \[/, '"mutants": "not: a key", "mutants": [');
    assert.deepEqual(
      friendlyProblems(text).map((p) => p.path),
      ['/mistakes/0/mutants'],
    );
    // Strings holding quotes, colons and braces are values, not keys: no problem is invented.
    const tricky = lessonObject();
    tricky.title = 'a "quoted": {title} \\ [x]';
    const parsed = parseManifest(lessonJson(tricky), 'lesson.json');
    assert.ok(parsed.ok, JSON.stringify(parsed));
  });
});

describe('lesson.json messages: lists, missing and unknown fields', () => {
  it('names the entry a list holds twice', () => {
    assert.match(
      onlyMessage((m) => (m.mistakes[0].mutants = ['first', 'second', 'second'])),
      /^mistakes\.0\.mutants: lists "second" more than once/,
    );
  });

  it('does not speak of entries twice for a list that is too short', () => {
    const message = onlyMessage((m) => (m.outcomes = []));
    assert.match(message, /^outcomes: \S/);
    assert.doesNotMatch(message, /more than once|undefined/);
  });

  it('says a missing field is required', () => {
    assert.match(
      onlyMessage((m) => delete m.mistakes[0].hint),
      /^mistakes\.0\.hint: this field is required$/,
    );
  });

  it('calls a field named "JSON syntax" an unknown field, not a syntax error', () => {
    const message = onlyMessage((m) => (m['JSON syntax'] = 1));
    assert.ok(message.startsWith('JSON syntax: unknown field "JSON syntax": check its spelling'), message);
  });
});

describe('lesson.json messages: the value a JSON pointer names', () => {
  it('reads keys holding "/" or "~" (escaped as ~1 and ~0) and keys that start with digits', () => {
    const text = '{"limits": {"a/b": 7, "c~d": 8, "2nd": 9}}';
    const above = (pointer: string): string =>
      friendlyManifestMessage(
        `${pointer.slice(1).replace(/\//g, '.')}: Expected integer to be less or equal to 5`,
        pointer,
        text,
      );
    assert.equal(above('/limits/a~1b'), 'limits.a~1b: 7 is more than 5, the most allowed here');
    assert.equal(above('/limits/c~0d'), 'limits.c~0d: 8 is more than 5, the most allowed here');
    assert.equal(above('/limits/2nd'), 'limits.2nd: 9 is more than 5, the most allowed here');
  });
});
