/**
 * Reading lesson.json (src/core/pack/manifest.ts) at its edges: where a problem is put when the field's name holds
 * "/", "~" or digits, which of several problems at one place are kept, the 50-problem cap, the size and depth
 * limits at their boundary, the pattern check that listing packs skips, and world scenarios checked against the
 * lesson's mistakes. The instructor reads each problem at a line and column in their editor, so the tests assert
 * positions counted without the parser. Every manifest is built inside its test, so mutation coverage (perTest)
 * credits that test.
 */
import * as assert from 'node:assert/strict';
import { locate, parseManifest, MANIFEST_MAX_CHARS, MANIFEST_MAX_DEPTH } from '../../src/core/pack/manifest';
import {
  editedLesson,
  freshModule,
  LESSON_FILE,
  lessonJson,
  lessonObject,
  positionAfter,
  problemsOf,
} from './packAuthoring';

const at = (p: { line: number; column: number }): { line: number; column: number } => ({
  line: p.line,
  column: p.column,
});

/** A JSON text that nests `depth` levels: an object holding lists inside lists. */
const nested = (depth: number): string => `{"a": ${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

describe('lesson.json problems: where they are put', () => {
  it('puts an unknown field whose name holds "/" or "~" on its value', () => {
    const text = editedLesson((m) => Object.assign(m.fuzz, { 'a/b': 1, 'c~d': 2 }));
    const problems = problemsOf(text);
    assert.deepEqual(
      problems.map((p) => p.path),
      ['/fuzz/a~1b', '/fuzz/c~0d'],
    );
    assert.deepEqual(at(problems[0]!), positionAfter(text, '"a/b": '));
    assert.deepEqual(at(problems[1]!), positionAfter(text, '"c~d": '));
  });

  it('puts an unknown field whose name starts or ends with digits on its value, not on the whole file', () => {
    const text = editedLesson((m) => Object.assign(m, { step2: 'x', '2nd': 'y' }));
    const problems = problemsOf(text);
    assert.deepEqual(
      problems.map((p) => p.path),
      ['/step2', '/2nd'],
    );
    assert.deepEqual(at(problems[0]!), positionAfter(text, '"step2": '));
    assert.deepEqual(at(problems[1]!), positionAfter(text, '"2nd": '));
  });

  it('puts a problem in the eleventh item of a list on that item', () => {
    const text = editedLesson(
      (m) => (m.outcomes = [...Array.from({ length: 9 }, (_, i) => `outcome ${i + 1}`), 'the tenth outcome', '']),
    );
    const [problem, ...rest] = problemsOf(text);
    assert.equal(rest.length, 0);
    assert.equal(problem!.path, '/outcomes/10');
    assert.deepEqual(at(problem!), positionAfter(text, '"the tenth outcome",\n    '));
  });

  it('puts a missing top-level field on the document, once', () => {
    const text = editedLesson((m) => delete m.title);
    const problems = problemsOf(text);
    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.equal(problems[0]!.path, '/title');
    assert.deepEqual(at(problems[0]!), { line: 1, column: 1 });
    assert.match(problems[0]!.message, /^title: .*required/);
  });

  it('gives a problem about the whole document its message without a field prefix', () => {
    const [problem] = problemsOf('[]');
    assert.equal(problem!.path, '');
    assert.match(problem!.message, /^Expected object/);
    assert.equal(locate('{}', LESSON_FILE, '', 'this is not a lesson').message, 'this is not a lesson');
    assert.equal(locate('{"a": [1]}', LESSON_FILE, '/a/0', 'not one').message, 'a.0: not one');
  });

  it('locates in a text too deep to parse at its first line, without a parse tree', () => {
    const deep = nested(MANIFEST_MAX_DEPTH + 10);
    const problem = locate(deep, LESSON_FILE, '/a/0', 'too deep');
    assert.deepEqual(at(problem), { line: 1, column: 1 });
    assert.equal(problem.message, 'a.0: too deep');
  });

  it('locates in a fresh process, before anything was parsed', () => {
    const fresh = freshModule<typeof import('../../src/core/pack/manifest')>(
      require.resolve('../../src/core/pack/manifest'),
    );
    const text = '{\n  "id": "x",\n  "title": 5\n}';
    const problem = fresh.locate(text, LESSON_FILE, '/title', 'must be text');
    assert.deepEqual(at(problem), positionAfter(text, '"title": '));
    assert.equal(problem.message, 'title: must be text');
  });
});

describe('lesson.json problems: which are kept', () => {
  it('keeps two different problems with the same field, each once', () => {
    const text = editedLesson((m) => (m.id = 'A'.repeat(70)));
    const problems = problemsOf(text);
    assert.deepEqual(
      problems.map((p) => p.path),
      ['/id', '/id'],
    );
    assert.notEqual(problems[0]!.message, problems[1]!.message);
    assert.match(problems.map((p) => p.message).join('\n'), /length/);
  });

  it('keeps problems with different fields, and every missing field', () => {
    assert.deepEqual(
      problemsOf(editedLesson((m) => ((m.id = 'Bad'), (m.version = 'one')))).map((p) => p.path),
      ['/id', '/version'],
    );
    assert.deepEqual(
      problemsOf(editedLesson((m) => (delete m.title, delete m.version)))
        .map((p) => p.path)
        .sort(),
      ['/title', '/version'],
    );
  });

  it('lists at most 50 problems', () => {
    const text = editedLesson((m) => (m.readOrder = Array.from({ length: 60 }, () => ({ title: '' }))));
    const problems = problemsOf(text);
    assert.equal(problems.length, 50);
    assert.deepEqual([problems[0]!.path, problems[49]!.path], ['/readOrder/0/title', '/readOrder/49/title']);
  });
});

describe('lesson.json size and depth limits', () => {
  it('reads a text of exactly 1 MiB and refuses one character more, at the start of the file', () => {
    const frame = '{"title": ""}';
    const exactly = `{"title": "${'x'.repeat(MANIFEST_MAX_CHARS - frame.length)}"}`;
    assert.equal(exactly.length, MANIFEST_MAX_CHARS);
    assert.ok(!problemsOf(exactly).some((p) => /KiB/.test(p.message)), 'not refused for its size');
    const over = `{"title": "${'x'.repeat(MANIFEST_MAX_CHARS - frame.length + 1)}"}`;
    const problems = problemsOf(over);
    assert.equal(problems.length, 1);
    assert.deepEqual([problems[0]!.path, problems[0]!.line, problems[0]!.column], ['', 1, 1]);
    assert.match(problems[0]!.message, /a lesson\.json may be at most 1024 KiB/);
  });

  it('reads 32 levels of nesting and refuses 33, as a problem with the whole document', () => {
    assert.ok(!problemsOf(nested(MANIFEST_MAX_DEPTH)).some((p) => /nests/.test(p.message)));
    const problems = problemsOf(nested(MANIFEST_MAX_DEPTH + 1));
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.path, '');
    assert.match(problems[0]!.message, /nests lists and objects more than 32 levels deep/);
  });

  it('counts no bracket after an escaped quote inside a string', () => {
    const text = editedLesson((m) => (m.title = `"${'['.repeat(MANIFEST_MAX_DEPTH + 8)}`));
    assert.ok(text.includes('"\\"[[['), 'the title holds an escaped quote before the brackets');
    const result = parseManifest(text, LESSON_FILE);
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
  });
});

describe('lesson.json read-order patterns', () => {
  it('refuses an exponential pattern by default and when asked, and lets listing packs skip the check', () => {
    const text = editedLesson((m) => (m.readOrder[1].pattern = '(a+)+$'));
    for (const options of [undefined, {}, { checkPatterns: true }]) {
      const result = parseManifest(text, LESSON_FILE, options);
      assert.ok(!result.ok, JSON.stringify(options));
      assert.deepEqual(
        result.problems.map((p) => p.path),
        ['/readOrder/1/pattern'],
      );
    }
    const skipped = parseManifest(text, LESSON_FILE, { checkPatterns: false });
    assert.ok(skipped.ok, JSON.stringify(!skipped.ok && skipped.problems));
  });
});

describe('lesson.json world scenarios', () => {
  it('reads a world scenario that shows a mistake of the lesson', () => {
    const manifest = lessonObject();
    const world = manifest.scenarios.find((s: object) => 'params' in s);
    world.shows = [manifest.mistakes[0].id];
    const result = parseManifest(lessonJson(manifest), LESSON_FILE);
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
  });

  it("refuses a world scenario showing a mistake the lesson does not have, at that entry, naming the lesson's mistakes", () => {
    const manifest = lessonObject();
    const index = manifest.scenarios.findIndex((s: object) => 'params' in s);
    manifest.scenarios[index].shows = [manifest.mistakes[0].id, 'no-such-mistake'];
    const text = lessonJson(manifest);
    const [problem, ...rest] = problemsOf(text);
    assert.equal(rest.length, 0);
    assert.equal(problem!.path, `/scenarios/${index}/shows/1`);
    assert.deepEqual(at(problem!), positionAfter(text, `"${manifest.mistakes[0].id}",\n${' '.repeat(8)}`));
    assert.match(problem!.message, /"no-such-mistake" is not a mistake of this lesson/);
    for (const mistake of manifest.mistakes) assert.ok(problem!.message.includes(mistake.id), mistake.id);
  });

  it('reads a lesson without scenarios or a quiz', () => {
    const result = parseManifest(
      editedLesson((m) => (delete m.scenarios, delete m.quiz)),
      LESSON_FILE,
    );
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
  });
});
