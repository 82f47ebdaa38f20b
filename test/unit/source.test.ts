// Where a breakpoint goes so that it stops when the function is called, not when it is defined.
import * as assert from 'node:assert/strict';
import { blankCommentLines, firstBodyLine, functionBodyLines, locateFunction } from '../../src/core/text/source';

describe('core/source: the first line of a function body', () => {
  it('Python: skips a multi-line signature, a docstring and comments', () => {
    const source = [
      'class Balancer:',
      '    def pick(self,',
      '             pool: list[str]) -> str | None:',
      '        """Choose the backend with the fewest requests in flight.',
      '',
      '        Ties go to the first in pool order."""',
      '        # the least busy first',
      '        best = None',
      '        return best',
    ].join('\n');
    const def = locateFunction(source, 'python', 'pick')!;
    assert.equal(def, 2);
    assert.equal(firstBodyLine(source, 'python', def - 1), 7);
    assert.equal(firstBodyLine('def f():\n    """One line."""\n    return 1\n', 'python', 0), 2);
  });

  it("JavaScript and TypeScript: the line after the brace, or the brace's own line for a one-line body", () => {
    const js = [
      'function pick(pool, opts = {}) {',
      '  // fewest first',
      '  /* a block',
      '     comment */',
      '  let best = null;',
      '  return best;',
      '}',
    ].join('\n');
    assert.equal(firstBodyLine(js, 'javascript', 0), 4);
    assert.equal(firstBodyLine('  pick(): string | null { return null; }\n', 'typescript', 0), 0);
    assert.equal(firstBodyLine('function empty() {\n}\n', 'javascript', 0), null);
  });

  it('the lines of a body: by indentation in Python, by braces in JavaScript', () => {
    assert.deepEqual(
      functionBodyLines('def f():\n    a = 1\n\n    return a\n\ndef g():\n    pass\n', 'python', 1),
      [2, 4],
    );
    assert.deepEqual(
      functionBodyLines('  done(b) {\n    if (x) {\n      y();\n    }\n  }\n  other() {}\n', 'javascript', 1),
      [2, 3, 4],
    );
  });
});

describe('core/source: comment lines blanked for a read-order pattern', () => {
  it('keeps every index and blanks comments and docstrings, so `pick\\s*\\(` lands on the definition', () => {
    const python = [
      '"""The balancer.',
      'pick() answers a name."""',
      '# What pick() returns when every backend is down',
      'def pick(self):',
      '    return "x"  # pick() again',
    ].join('\n');
    const blanked = blankCommentLines(python, 'python');
    assert.equal(blanked.length, python.length);
    assert.equal(/pick\s*\(/.exec(blanked)!.index, python.indexOf('def pick(') + 4);
    const js = ['// pick() is below', '/* pick() */', 'function pick() {}'].join('\r\n');
    assert.equal(/pick\s*\(/.exec(blankCommentLines(js, 'javascript'))!.index, js.indexOf('function pick(') + 9);
  });
});
