/**
 * More of finding code by text (core `source`): signatures and bodies in the shapes learners write them
 * (annotations, comments after the opener, spacing, generators, one-line bodies), the enclosing function
 * in more forms, comment blanking line by line, and text made safe for a terminal (core `text`).
 */
import * as assert from 'node:assert/strict';
import { clipLine, clipLines } from '../../src/core/text/clip';
import { blankCommentLines, enclosingFunction, firstBodyLine, functionBodyLines } from '../../src/core/text/source';
import { terminalSafe } from '../../src/core/text/text';

describe('source: the first line of a body, in more shapes', () => {
  it('Python: an annotated multi-line signature ends at its last line, a comment after the colon included', () => {
    const src = ['def pick(self, pool: list,', '         n: int) -> str:  # the rule', '    return pool[0]'].join('\n');
    assert.equal(firstBodyLine(src, 'python', 0), 2);
    assert.equal(firstBodyLine('def pick(self):  # fewest first\n\n    # a note\n    return 1', 'python', 0), 3);
  });

  it('Python: a prefixed docstring is skipped, on one line or several', () => {
    assert.equal(firstBodyLine('def f():\n    r"""Raw one-liner."""\n    return 1', 'python', 0), 2);
    assert.equal(firstBodyLine("def f():\n    b'''Starts here\n    ends here'''\n    return 1", 'python', 0), 3);
  });

  it('null for a signature that never opens a body, and for a body that is only comments', () => {
    assert.equal(firstBodyLine('def broken(self,\n    pool', 'python', 0), null);
    assert.equal(firstBodyLine('function broken(a,\n  b)', 'javascript', 0), null);
    assert.equal(firstBodyLine('def f():\n    # only a comment', 'python', 0), null);
  });

  it('JavaScript: a comment after the brace is not the body, nor is a closing brace; block comments of several lines are skipped', () => {
    assert.equal(firstBodyLine('function f() { // note\n  return 1;\n}', 'javascript', 0), 1);
    assert.equal(
      firstBodyLine('function f() { /* note */\n  return 1;\n}', 'javascript', 0),
      0,
      'a block comment opener is text on the line',
    );
    assert.equal(firstBodyLine('function f() {\n  /* one\n     two\n  */\n  go();\n}', 'javascript', 0), 4);
    assert.equal(firstBodyLine('function f() {\n  /* one line */\n  // another\n\n  go();\n}', 'javascript', 0), 4);
    assert.equal(
      firstBodyLine('function f() { }\nnext();', 'javascript', 0),
      1,
      'nothing on the brace line but its close',
    );
  });
});

describe('source: the lines of a body, in more shapes', () => {
  it('Python: stops at the first line back at the def indentation, blank lines inside skipped', () => {
    const src = [
      'class B:',
      '    def pick(self):',
      '        a = 1',
      '',
      '        return a',
      '    def done(self):',
      '        pass',
    ].join('\n');
    assert.deepEqual(functionBodyLines(src, 'python', 2), [3, 5]);
    assert.deepEqual(functionBodyLines('def f():\n\n\n    x = 1\ny = 2', 'python', 1), [4]);
    assert.deepEqual(functionBodyLines('def f(): pass\ny = 1', 'python', 1), []);
    assert.deepEqual(functionBodyLines('x = 1', 'python', 5), [], 'a line past the end');
  });

  it('JavaScript: from the brace to its match, a brace on a line of its own in, the closing brace line left out', () => {
    assert.deepEqual(functionBodyLines('function f()\n{\n  a();\n}\ng();', 'javascript', 1), [2, 3]);
    assert.deepEqual(functionBodyLines('function f() {\n  a();\n  b(); }\ng();', 'javascript', 1), [2, 3]);
    assert.deepEqual(functionBodyLines('function f() {}\ng();', 'javascript', 1), []);
  });
});

describe('source: the function a line is in, more forms', () => {
  it('Python: spacing and async forms; a def in a string is no definition', () => {
    const src = ['async  def  spaced (x):', "    s = 'def fake(y)'", '    return s'].join('\n');
    assert.equal(enclosingFunction(src, 'python', 3), 'spaced');
    assert.equal(enclosingFunction(src, 'python', 2), 'spaced');
  });

  it('JavaScript and TypeScript: plain, exported, generator and spaced functions, typed and untyped arrows, modified methods', () => {
    const cases: [string, string][] = [
      ['function go() {', 'go'],
      ['export  function  spaced  (a) {', 'spaced'],
      ['export async  function x2(a) {', 'x2'],
      ['function* gen() {', 'gen'],
      ['function *star() {', 'star'],
      ['async function $d<T>(a) {', '$d'],
      ['const arrow = (a, b) => {', 'arrow'],
      ['export const typed: Handler = async (req: Req): Promise<void> => {', 'typed'],
      ['let bare = x => {', 'bare'],
      ['var  old  =  function () {', 'old'],
      ['const later=async(a)=>{', 'later'],
      ['  private  static  pick_1 (pool: string[]): string {', 'pick_1'],
      ['  readonly override choose<T>(a: T): T {', 'choose'],
      ['  protected async done(name) {', 'done'],
    ];
    for (const [line, name] of cases)
      assert.equal(enclosingFunction(`${line}\n  body();\n}`, 'typescript', 2), name, line);
    for (const keyword of [
      'if (x) {',
      'for (const a of b) {',
      'while (x) {',
      'switch (x) {',
      'catch (e) {',
      'return (x) {',
    ]) {
      assert.equal(enclosingFunction(`${keyword}\n  body();\n}`, 'javascript', 2), null, keyword);
    }
    assert.equal(
      enclosingFunction("x = 'function fake() {'\n  body();", 'javascript', 2),
      null,
      'a function in a string',
    );
    assert.equal(
      enclosingFunction('  // const f = () => {\n  body();', 'javascript', 2),
      null,
      'a function in a comment',
    );
  });

  it('JavaScript: an indented line under a less indented one still finds the function above (indentation counts only in Python)', () => {
    const js = ['function outer() {', 'const inner = 1;', '    deep();', '}'].join('\n');
    assert.equal(enclosingFunction(js, 'javascript', 3), 'outer');
  });
});

describe('source: comments blanked line by line', () => {
  it('JavaScript: //, /* and the * lines of a block; code with a comment after it stays', () => {
    const js = ['  // a', '  /* b', '   * c', '   */', 'x(); // d', 'y();'].join('\n');
    const blanked = blankCommentLines(js, 'javascript').split('\n');
    assert.deepEqual(
      blanked.map((l) => l.trim()),
      ['', '', '', '', 'x(); // d', 'y();'],
    );
  });

  it('Python: comment lines and docstring lines, not code with a string in it', () => {
    const py = [
      '  # a',
      'def f():',
      '    """Doc',
      '    more',
      '    """',
      "    s = '''not a docstring'''",
      '    return s',
    ].join('\n');
    const blanked = blankCommentLines(py, 'python').split('\n');
    assert.deepEqual(
      blanked.map((l) => l.trim()),
      ['', 'def f():', '', '', '', "s = '''not a docstring'''", 'return s'],
    );
    assert.equal(blankCommentLines('x = 1  # y', 'python'), 'x = 1  # y');
  });

  it('keeps each line break as it was, CRLF too', () => {
    const text = '# a\r\nx = 1\n# b';
    assert.equal(blankCommentLines(text, 'python'), '   \r\nx = 1\n   ');
  });
});

describe('text: clipping and the terminal', () => {
  it('keeps a line of exactly the limit, and clips one character more with its length said', () => {
    assert.equal(clipLine('x'.repeat(80)), 'x'.repeat(80));
    assert.equal(clipLine('x'.repeat(81)), `${'x'.repeat(79)}… (81 characters)`);
    assert.equal(clipLine('ab', 1), '… (2 characters)');
    assert.deepEqual(clipLines(['a', 'bbb'], 2), { lines: ['a', 'b… (3 characters)'], clipped: true });
    assert.deepEqual(clipLines(['a', 'bb'], 2), { lines: ['a', 'bb'], clipped: false });
  });

  it('lets our colours, line breaks and tabs through, and writes out every other control as JSON escapes', () => {
    assert.equal(terminalSafe('\u001b[31mred\u001b[0m\n\tnext'), '\u001b[31mred\u001b[0m\n\tnext');
    assert.equal(terminalSafe('\u001b[2J'), '\\u001b[2J', 'not a colour: clear screen');
    assert.equal(terminalSafe('\u001b]52;c;aGk=\u0007'), '\\u001b]52;c;aGk=\\u0007');
    assert.equal(terminalSafe('a\u009bb\r'), 'a\\u009bb\\u000d');
    assert.equal(terminalSafe('x\u202ey'), 'x\\u202ey');
    assert.equal(terminalSafe('tag\u{e0041}'), 'tag\\udb40\\udc41', 'a character beyond the BMP as its surrogate pair');
    assert.equal(terminalSafe('plain ünïcode ✓'), 'plain ünïcode ✓');
    assert.deepEqual(JSON.parse(`"${terminalSafe('\u001b[2J')}"`), '\u001b[2J', 'read as JSON, the same text');
  });
});
