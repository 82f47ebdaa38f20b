// The bounds a pack is held to where it is read (pure parts): read-order patterns, transcript limits,
// lesson.json size, depth and ids, archive path rules, and answers that must fit the output limit.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bombRatio, pathClash, ARCHIVE_LIMITS } from '../../src/core/pack/archive';
import { parseLessonJson as parseManifest } from '../../src/worlds/templates/lessonJson';
import { friendlyManifestMessage } from '../../src/core/pack/manifestMessages';
import type { ReferenceModel } from '../../src/core/model/model';
import { checkPattern } from '../../src/core/pack/patternSafety';
import { parseTranscripts, TranscriptSyntaxError, TRANSCRIPT_LIMITS } from '../../src/core/model/transcript';
import { checkOutputFits } from '../../src/core/validation/validate';

const FILE = 'lessons/least-connections/lesson.json';
const GOOD = fs.readFileSync(path.join(__dirname, '..', '..', FILE), 'utf8');

function transcriptError(text: string): TranscriptSyntaxError {
  try {
    parseTranscripts(text, 't.txt');
  } catch (error) {
    assert.ok(error instanceof TranscriptSyntaxError, String(error));
    return error;
  }
  assert.fail('accepted');
}

function manifestProblems(edit: (m: Record<string, any>) => void): string[] {
  const manifest = JSON.parse(GOOD);
  edit(manifest);
  const text = JSON.stringify(manifest, null, 2);
  const result = parseManifest(text, FILE);
  assert.equal(result.ok, false, 'refused');
  return result.ok ? [] : result.problems.map((p) => friendlyManifestMessage(p.message, p.path, text));
}

describe('read-order patterns', () => {
  it('refuses nested repetition that backtracks exponentially, naming the text that triggers it', () => {
    for (const pattern of ['(a+)+$', '(\\w+\\s?)*$', '([a-z]+)*$', '(.*)*$']) {
      const verdict = checkPattern(pattern);
      assert.equal(verdict.ok, false, pattern);
      assert.ok(
        !verdict.ok &&
          verdict.reason === 'exponential' &&
          /can take exponential time: on a line like "(.)\1\1"…/.test(verdict.message),
        pattern,
      );
    }
  });

  it('accepts the patterns lessons use, warns about polynomial ones, and refuses broken ones', () => {
    for (const pattern of [
      'class\\s+Balancer',
      '(def|\\b)pick\\s*\\(',
      '(def|function)\\s+main\\s*\\(',
      '^\\s*def\\s+done\\b',
    ]) {
      const verdict = checkPattern(pattern);
      assert.ok(verdict.ok && verdict.polynomial === undefined, pattern);
    }
    const slowish = checkPattern('\\d*\\w+$');
    assert.ok(slowish.ok && slowish.polynomial !== undefined);
    const broken = checkPattern('(');
    assert.ok(!broken.ok && broken.reason === 'invalid' && /not a valid regular expression/.test(broken.message));
  });

  it('are checked when lesson.json is parsed', () => {
    const problems = manifestProblems((m) => (m.readOrder[1].pattern = '(a+)+$'));
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /^readOrder\.1\.pattern: step 2: "pattern" \/\(a\+\)\+\$\/ can take exponential time/);
  });
});

describe('transcript bounds', () => {
  it('reads a byte order mark and CR-only line ends as nothing and as line ends', () => {
    const plain = parseTranscripts('=== t\n> POOL a\nOK\n> PICK\na\n', 't.txt');
    assert.deepEqual(parseTranscripts('\ufeff=== t\n> POOL a\nOK\n> PICK\na\n', 't.txt'), plain);
    assert.deepEqual(parseTranscripts('=== t\r> POOL a\rOK\r> PICK\ra\r', 't.txt'), plain);
    assert.deepEqual(parseTranscripts('=== t\r\n> POOL a\rOK\n> PICK\r\na', 't.txt'), plain);
  });

  it('refuses control characters, with the line, column and code point', () => {
    const error = transcriptError('=== t\n> PICK\n\u001b[32ma\u001b[0m\n');
    assert.deepEqual(
      [error.line, error.reason],
      [
        3,
        'the line holds a control character (U+001B) at column 1; transcripts are plain text, one command or answer per line',
      ],
    );
    assert.equal(parseTranscripts('=== t\n> PICK\na\tb\n', 't.txt')[0]!.steps[0]!.expected[0], 'a\tb', 'a tab is text');
  });

  it('bounds line length, words per command, commands per transcript and answer lines per command', () => {
    assert.match(
      transcriptError(`=== t\n> POOL ${'b '.repeat(600)}\n`).reason,
      /the line is 1207 characters long; a transcript line may be at most 1000/,
    );
    assert.match(
      transcriptError(`=== t\n> POOL ${'b '.repeat(300)}\n`).reason,
      /the command has 301 words; a command may have at most 200/,
    );
    const many = `=== t\n${'> PICK\n'.repeat(TRANSCRIPT_LIMITS.commandsPerTranscript + 1)}`;
    assert.match(transcriptError(many).reason, /transcript "t" has more than 10000 commands; split it/);
    const tall = `=== t\n> STATUS\n${'a:0\n'.repeat(TRANSCRIPT_LIMITS.answerLinesPerCommand + 1)}`;
    assert.match(transcriptError(tall).reason, /the answer to `STATUS` \(line 2\) has more than 1000 lines/);
  });
});

describe('lesson.json bounds', () => {
  it('refuses nesting deeper than 32 levels before parsing, at the place it happens', () => {
    const text = `{\n  "id": "x",\n  "deep": ${'['.repeat(40)}${']'.repeat(40)}\n}`;
    const result = parseManifest(text, FILE);
    assert.ok(!result.ok);
    assert.deepEqual([result.problems.length, result.problems[0]!.line, result.problems[0]!.column], [1, 3, 11 + 31]);
    assert.match(result.problems[0]!.message, /nests lists and objects more than 32 levels deep here/);
    const inString = parseManifest(`{"title": "${'['.repeat(100)}"}`, FILE);
    assert.ok(
      !inString.ok && !inString.problems.some((p) => /nests/.test(p.message)),
      'brackets inside strings are text',
    );
  });

  it('refuses a lesson.json over 1 MiB in one problem', () => {
    const result = parseManifest(`{"title": "${'x'.repeat(1024 * 1024)}"}`, FILE);
    assert.ok(!result.ok);
    assert.equal(result.problems.length, 1);
    assert.match(result.problems[0]!.message, /lesson\.json is 1024 KiB; a lesson\.json may be at most 1024 KiB/);
  });

  it('bounds mistakes, mutants and questions, and wants ids and mutants unique', () => {
    assert.deepEqual(
      manifestProblems(
        (m) =>
          (m.mistakes[0].mutants = Array(17)
            .fill(0)
            .map((_, i) => `m${i}`)),
      ),
      ['mistakes.0.mutants: has 17 items; a lesson pack may have at most 16 here'],
    );
    assert.deepEqual(
      manifestProblems((m) => (m.mistakes[0].mutants = ['tiebreak-name', 'tiebreak-name'])),
      ['mistakes.0.mutants: lists "tiebreak-name" more than once; each entry must appear once'],
    );
    assert.deepEqual(
      manifestProblems((m) => (m.mistakes = Array(65).fill(m.mistakes[0]))),
      ['mistakes: has 65 items; a lesson pack may have at most 64 here'],
    );
    // mistakes[3] is named by no scenario's `shows`, so renaming it leaves no dangling reference.
    assert.deepEqual(
      manifestProblems((m) => (m.mistakes[3].id = m.mistakes[0].id)),
      [
        `mistakes.3.id: mistake id "${JSON.parse(GOOD).mistakes[0].id}" is used twice (first at mistakes.0); ids must be unique`,
      ],
    );
    const q = { id: 'same', prompt: 'Which?', kind: 'short' };
    assert.deepEqual(
      manifestProblems((m) => ((m.failureQuestions = [q]), (m.quiz = [q]))),
      ['quiz.0.id: question id "same" is used twice (first at failureQuestions.0); ids must be unique'],
    );
  });

  it('wants run commands on one line of plain text', () => {
    assert.deepEqual(
      manifestProblems((m) => (m.readOrder[0].run = 'python3 balancer.py\nrm -rf ~')),
      [
        'readOrder.0.run: must be one line of plain text: no line break, control, bidi or invisible character (it holds a line break), so that what the learner sees is what runs',
      ],
    );
    assert.deepEqual(
      manifestProblems((m) => (m.readOrder[0].run = { python: 'python3 x.py', javascript: 'node x.js \u2066' })),
      [
        'readOrder.0.run.javascript: must be one line of plain text: no line break, control, bidi or invisible character (it holds U+2066), so that what the learner sees is what runs',
      ],
    );
  });
});

describe('archive rules shared by bundle and install', () => {
  it('pathClash: the same path twice, twice in other case, a file that another path needs as a folder', () => {
    assert.equal(pathClash(['a/b.txt', 'a/c.txt', 'b']), undefined);
    assert.equal(pathClash(['lesson.json', 'lesson.json']), '"lesson.json" is listed twice');
    assert.equal(
      pathClash(['Model/m.ts', 'model/m.ts']),
      '"Model/m.ts" and "model/m.ts" differ only in upper/lower case, which Windows and macOS cannot tell apart',
    );
    assert.equal(
      pathClash(['model', 'model/model.ts']),
      '"model" is a file, but "model/model.ts" needs a folder of that name',
    );
    assert.equal(pathClash(['a/b/c.txt', 'A/B']), '"A/B" is a file, but "a/b/c.txt" needs a folder of that name');
  });

  it('bombRatio: only large entries compressed beyond the ratio', () => {
    const mib = 1024 * 1024;
    assert.equal(bombRatio(mib - 1, 10), undefined, 'small files may compress as well as they like');
    assert.equal(bombRatio(2 * mib, (2 * mib) / ARCHIVE_LIMITS.compressionRatio), undefined);
    assert.equal(bombRatio(2 * mib, 1000), (2 * mib) / 1000);
  });
});

describe('answers must fit the output limit', () => {
  const model = { resetAnswer: ['OK'] } as unknown as ReferenceModel;
  const transcript = (name: string, lines: number) => ({
    name,
    description: '',
    file: 't.txt',
    line: 1,
    steps: [{ command: 'STATUS', expected: Array(lines).fill('b1:0'), line: 2 }],
  });

  it('an error past the limit, a warning near it, nothing well below it', () => {
    assert.deepEqual(checkOutputFits(model, [transcript('a', 100)], 1000), []);
    const near = checkOutputFits(model, [transcript('a', 170)], 1000);
    assert.deepEqual(
      near.map((p) => p.severity),
      ['warning'],
    );
    const over = checkOutputFits(model, [transcript('a', 100), transcript('big', 150)], 1000);
    assert.deepEqual(
      over.map((p) => p.severity),
      ['error'],
    );
    assert.match(over[0]!.message, /add up to 0\.00 MiB, more than the 0\.00 MiB .* \(the largest is "big"/);
  });
});
