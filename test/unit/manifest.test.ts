import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { locate, parseManifest, type ManifestProblem } from '../../src/core/pack/manifest';

const FILE = 'lessons/least-connections/lesson.json';
const GOOD = fs.readFileSync(path.join(__dirname, '..', '..', FILE), 'utf8');

/** 1-based line and column of the first occurrence of `needle` in `text`, counted independently of the parser. */
function positionOf(text: string, needle: string): { line: number; column: number } {
  const offset = text.indexOf(needle);
  assert.ok(offset >= 0, `"${needle}" is in the text`);
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

function problemsOf(text: string): ManifestProblem[] {
  const result = parseManifest(text, FILE);
  assert.equal(result.ok, false, 'the manifest should be rejected');
  return result.ok ? [] : result.problems;
}

/** `text` with `from` replaced once; fails loudly if the edit did not apply, so no test checks the untouched file. */
function edit(text: string, from: string, to: string): string {
  assert.ok(text.includes(from), `"${from}" is in the manifest`);
  return text.replace(from, to);
}

describe('lesson manifest parsing', () => {
  it('accepts the least-connections manifest', () => {
    const result = parseManifest(GOOD, FILE);
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
    assert.equal(result.manifest.id, 'least-connections');
    assert.equal(result.manifest.mistakes.length, 7);
  });

  it('accepts a manifest saved with a byte order mark (the author cannot see it)', () => {
    const result = parseManifest('\uFEFF' + GOOD, FILE);
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
  });

  it('reports a JSON syntax error at its line and column', () => {
    // A missing comma: the parser notices at the start of the next property.
    const broken = edit(GOOD, '"model": "model/model.ts",', '"model": "model/model.ts"');
    const [problem, ...rest] = problemsOf(broken);
    assert.equal(rest.length, 0);
    assert.deepEqual({ line: problem!.line, column: problem!.column }, positionOf(broken, '"protocol"'));
    assert.equal(problem!.file, FILE);
    assert.equal(problem!.path, '');
    assert.match(problem!.message, /^JSON syntax: CommaExpected/);
  });

  it('rejects comments and trailing commas, which JSON does not allow', () => {
    const comment = edit(GOOD, '"id": "least-connections",', '"id": "least-connections", // the id');
    assert.deepEqual(
      problemsOf(comment).map((p) => ({ line: p.line, column: p.column })),
      [positionOf(comment, '// the id')],
    );
    const trailing = edit(GOOD, '"length": 16', '"length": 16,');
    assert.match(problemsOf(trailing)[0]!.message, /JSON syntax/);
  });

  it('reports an empty file at line 1, column 1', () => {
    const [problem] = problemsOf('');
    assert.deepEqual({ line: problem!.line, column: problem!.column }, { line: 1, column: 1 });
  });

  it('puts a schema error on the offending value, with its JSON pointer', () => {
    const broken = edit(GOOD, '"id": "tiebreak"', '"id": "Tie Break"');
    const [problem, ...rest] = problemsOf(broken);
    assert.equal(rest.length, 0);
    assert.equal(problem!.path, '/mistakes/0/id');
    assert.deepEqual({ line: problem!.line, column: problem!.column }, positionOf(broken, '"Tie Break"'));
    assert.match(problem!.message, /^mistakes\.0\.id: /);
  });

  it('puts an unknown property on the property', () => {
    const broken = edit(GOOD, '"length": 16', '"length": 16, "seed": 3');
    const [problem] = problemsOf(broken);
    assert.equal(problem!.path, '/fuzz/seed');
    const key = positionOf(broken, '"seed": 3');
    assert.deepEqual(
      { line: problem!.line, column: problem!.column },
      { line: key.line, column: key.column + '"seed": '.length },
    );
  });

  it('puts a missing property on the object that lacks it, once', () => {
    // Before: line 1, column 1 (the pointer names a value that does not exist), and a second "Expected string".
    const hint = /"hint": "Walk the pool[^"]*",\s*/;
    assert.match(GOOD, hint);
    const broken = GOOD.replace(hint, '');
    const problems = problemsOf(broken);
    assert.deepEqual(
      problems.map((p) => p.path),
      ['/mistakes/0/hint'],
    );
    const mistakeObject = broken.indexOf('{', broken.indexOf('"mistakes"'));
    const before = broken.slice(0, mistakeObject).split('\n');
    assert.deepEqual(
      { line: problems[0]!.line, column: problems[0]!.column },
      { line: before.length, column: before[before.length - 1]!.length + 1 },
    );
    assert.match(problems[0]!.message, /required/i);
  });

  it('reports a wrong root type at the start of the document', () => {
    const [problem] = problemsOf('\n\n  []');
    assert.deepEqual(
      { line: problem!.line, column: problem!.column, path: problem!.path },
      { line: 3, column: 3, path: '' },
    );
  });

  it('locate() finds a pointer after validation, and the nearest object for one that does not exist', () => {
    const model = locate(GOOD, FILE, '/model', 'unknown model');
    assert.deepEqual({ line: model.line, column: model.column }, positionOf(GOOD, '"model/model.ts",\n  "protocol"'));
    assert.equal(model.message, 'model: unknown model');
    const missing = locate(GOOD, FILE, '/mistakes/1/no-such-field', 'no such field');
    const second = GOOD.lastIndexOf('{', GOOD.indexOf('"id": "negative-count"'));
    const before = GOOD.slice(0, second).split('\n');
    assert.deepEqual(
      { line: missing.line, column: missing.column },
      { line: before.length, column: before[before.length - 1]!.length + 1 },
    );
  });
});
