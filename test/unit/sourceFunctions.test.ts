/**
 * Finding functions in a learner's file by text (core `source`): where a function is defined (so a mistake's
 * card points at its line), which function holds a traced line, and the lesson a file's header declares.
 * By text on purpose: it must work on code that does not parse yet.
 */
import * as assert from 'node:assert/strict';
import { declaredLesson, enclosingFunction, locateFunction } from '../../src/core/text/source';

describe('source: where a function is defined', () => {
  it('Python: a def (also async, indented as a method) or a class, by its exact name', () => {
    const py = [
      'import sys',
      '',
      'class Balancer:',
      '    async def pick (self):',
      '        pass',
      'def picker():',
      '    pass',
      'def done(self, name):',
      '    pass',
    ].join('\n');
    assert.equal(locateFunction(py, 'python', 'pick'), 4);
    assert.equal(locateFunction(py, 'python', 'picker'), 6);
    assert.equal(locateFunction(py, 'python', 'done'), 8);
    assert.equal(locateFunction(py, 'python', 'Balancer'), 3);
    assert.equal(locateFunction(py, 'python', 'status'), null);
    assert.equal(
      locateFunction('x = pick()\n# def pick(', 'python', 'pick'),
      null,
      'a call or a comment is not a definition',
    );
  });

  it('reads the name as text, not as a pattern', () => {
    assert.equal(locateFunction('def p_ck():\n  pass', 'python', 'p.ck'), null);
    assert.equal(locateFunction('function $pick() {}', 'javascript', '$pick'), 1);
  });

  it('JavaScript and TypeScript: functions, generators, consts, methods, object members, classes and types', () => {
    const ts = [
      'export async function pick(pool) {', // 1
      'function* names<T>(xs) {}', // 2
      'export const done = (name) => {};', // 3
      'let status: () => string = () => "";', // 4
      'class Balancer {', // 5
      '  private static async choose<T>(a: T[]): T {', // 6
      '  reset(): void {', // 7
      '}', // 8
      'const api = {', // 9
      '  remove: async function () {},', // 10
      '  add: (x) => x,', // 11
      '};', // 12
      'export abstract class Pool {}', // 13
      'interface Backend {}', // 14
      'type Counts = Map<string, number>;', // 15
    ].join('\n');
    const at = (name: string): number | null => locateFunction(ts, 'typescript', name);
    assert.deepEqual(
      [
        'pick',
        'names',
        'done',
        'status',
        'Balancer',
        'choose',
        'reset',
        'remove',
        'add',
        'Pool',
        'Backend',
        'Counts',
      ].map(at),
      [1, 2, 3, 4, 5, 6, 7, 10, 11, 13, 14, 15],
    );
    assert.equal(at('api'), 9);
    assert.equal(locateFunction('pick(pool);\nif (pick) {}', 'javascript', 'pick'), null, 'a call is not a definition');
  });

  it('finds the first definition, on Windows line endings too', () => {
    assert.equal(locateFunction('# a\r\ndef pick():\r\n  pass\r\ndef pick():\r\n  pass', 'python', 'pick'), 2);
  });
});

describe('source: the function a line is in', () => {
  const py = [
    'COUNTS = {}', // 1
    'def pick(pool):', // 2
    '    best = None', // 3
    '    def rank(name):', // 4
    '        return COUNTS[name]', // 5
    '', // 6
    '    for name in pool:', // 7
    '        best = name', // 8
    '    return best', // 9
    'async def done(name):', // 10
    '    COUNTS[name] -= 1', // 11
    'print(pick([]))', // 12
  ].join('\n');

  it('Python: the nearest def above at a smaller indentation, nested ones included', () => {
    assert.equal(enclosingFunction(py, 'python', 3), 'pick');
    assert.equal(enclosingFunction(py, 'python', 5), 'rank');
    assert.equal(enclosingFunction(py, 'python', 8), 'pick', 'not the nested rank(), which ended above');
    assert.equal(enclosingFunction(py, 'python', 9), 'pick');
    assert.equal(enclosingFunction(py, 'python', 11), 'done');
    assert.equal(enclosingFunction(py, 'python', 2), 'pick', "a def's own line is in it");
  });

  it('Python: null at module level, past the end, or before any def', () => {
    assert.equal(enclosingFunction(py, 'python', 1), null);
    assert.equal(enclosingFunction(py, 'python', 12), null);
    assert.equal(enclosingFunction(py, 'python', 99), null);
  });

  it('JavaScript and TypeScript: the nearest function, arrow const or method above, never a keyword', () => {
    const js = [
      'export async function pick(pool) {', // 1
      '  if (pool.length === 0) {', // 2
      '    return null;', // 3
      '  }', // 4
      '}', // 5
      'const done = async (name) => {', // 6
      '  counts[name]--;', // 7
      '};', // 8
      'const bare = name => name;', // 9
      'class Balancer {', // 10
      '  protected override choose<T>(a: T[]): T {', // 11
      '    for (const x of a) {', // 12
      '      while (x) {', // 13
      '        return x;', // 14
      '      }', // 15
      '    }', // 16
      '  }', // 17
      '}', // 18
      'let f = function () {', // 19
      '  go();', // 20
      '};', // 21
    ].join('\n');
    assert.equal(enclosingFunction(js, 'javascript', 3), 'pick', 'past the if');
    assert.equal(enclosingFunction(js, 'javascript', 7), 'done');
    assert.equal(enclosingFunction(js, 'javascript', 9), 'bare');
    assert.equal(enclosingFunction(js, 'typescript', 14), 'choose', 'past the for and the while');
    assert.equal(enclosingFunction(js, 'javascript', 20), 'f');
    assert.equal(enclosingFunction('go();\nif (x) {\n  y();\n}', 'javascript', 3), null);
  });

  it('does not give a JavaScript line to a method that ended above it (the command loop after a class)', () => {
    const js = [
      'class B {',
      '  done(name) {',
      "    if (name) this.counts.set(name, '}');",
      '  }',
      '}',
      "rl.on('line', (raw) => {",
      "  if (raw === 'DONE') {",
      '    b.done(raw);',
      '  }',
      '});',
    ].join('\n');
    assert.equal(enclosingFunction(js, 'javascript', 3), 'done', 'a brace in a string does not close it');
    assert.equal(enclosingFunction(js, 'javascript', 8), null);
  });
});

describe('source: the lesson a file declares', () => {
  it('reads `lesson-companion: <id>` or `lesson-companion: lesson=<id>` in the first 15 lines', () => {
    assert.equal(declaredLesson('# lesson-companion: least-connections\nimport sys'), 'least-connections');
    assert.equal(declaredLesson('// lesson-companion: lesson = round-robin-2\n'), 'round-robin-2');
    assert.equal(declaredLesson('// lesson-companion: lesson=rr\n'), 'rr');
    assert.equal(declaredLesson(`${'\n'.repeat(14)}# lesson-companion: late`), 'late', 'line 15');
    assert.equal(declaredLesson(`${'\n'.repeat(15)}# lesson-companion: late`), undefined, 'line 16 is too far');
    assert.equal(declaredLesson('# lesson-companion: Upper'), undefined, 'ids are lower case');
    assert.equal(declaredLesson('print(1)'), undefined);
  });
});
