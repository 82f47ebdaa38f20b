import * as assert from 'node:assert/strict';
import { safeStrings, safeText, showInvisibles } from '../../src/core/text/text';

/** Nothing a terminal, an editor or a bidi algorithm acts on may survive. */
function assertInert(text: string): void {
  assert.doesNotMatch(
    text,
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u,
    JSON.stringify(text),
  );
}

describe('safeText: learner text made safe to show', () => {
  it('writes out ANSI CSI sequences (clear screen, colours, cursor moves) instead of passing them on', () => {
    const shown = safeText('\u001b[2J\u001b[H\u001b[31mred\u001b[0m');
    assert.equal(shown, '\\u001b[2J\\u001b[H\\u001b[31mred\\u001b[0m');
    assertInert(shown);
  });

  it('writes out OSC sequences: window titles and OSC 8 links, with BEL or ST terminators', () => {
    const title = safeText('\u001b]0;pwned\u0007');
    assert.equal(title, '\\u001b]0;pwned\\u0007');
    const link = safeText('\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\');
    assert.equal(link, '\\u001b]8;;https://evil.example/\\u001b\\click\\u001b]8;;\\u001b\\');
    assertInert(title);
    assertInert(link);
  });

  it('writes out C1 controls, including the one-byte CSI (U+009B) and OSC (U+009D)', () => {
    const shown = safeText('a\u009b2Jb\u009d0;t\u009cc\u0085d');
    assert.equal(shown, 'a\\u009b2Jb\\u009d0;t\\u009cc\\u0085d');
    assertInert(shown);
  });

  it('writes out bidi embeddings, overrides, isolates and marks, so text reads as it was printed', () => {
    for (const c of [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200e',
      '\u200f',
      '\u061c',
    ]) {
      const shown = safeText(`ok${c}ko`);
      assert.equal(shown, `ok\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}ko`);
      assertInert(shown);
    }
  });

  it('writes out invisible format characters: zero-width, word joiner, BOM, soft hyphen, tag characters', () => {
    assert.equal(safeText('a\u200bb\u200dc\u2060d\ufeffe\u00adf'), 'a\\u200bb\\u200dc\\u2060d\\ufeffe\\u00adf');
    assert.equal(safeText('x\u{e0041}\u{e007f}'), 'x\\u{e0041}\\u{e007f}');
  });

  it('writes out other C0 controls and DEL; on one line, line breaks and tabs too', () => {
    assert.equal(safeText('a\u0000b\u0008c\u007fd'), 'a\\u0000b\\u0008c\\u007fd');
    assert.equal(safeText('one\ntwo\r\tx'), 'one\\ntwo\\r\\tx');
  });

  it('keeps line breaks (also CRLF) and tabs where text is multi-line, and escapes the rest of each line', () => {
    assert.equal(
      safeText('Traceback:\r\n\tline 1\n\u001b[2Jboom', { multiline: true }),
      'Traceback:\n\tline 1\n\\u001b[2Jboom',
    );
    assert.equal(safeText('half\rline', { multiline: true }), 'half\\rline');
  });

  it('leaves ordinary text alone: accents, CJK, emoji, RTL letters (without controls), quotes', () => {
    const plain = 'Café · 日本 · 🙂 · שלום · "quoted" <b>';
    assert.equal(safeText(plain), plain);
    assert.equal(safeText(plain, { multiline: true }), plain);
  });
});

describe('showInvisibles: a trace cell', () => {
  it('shows whitespace that tells answers apart, and is as safe as safeText', () => {
    assert.equal(showInvisibles(' a\t '), '·a␉·');
    assert.equal(showInvisibles('a\r'), 'a␍');
    assert.equal(showInvisibles('\u001b[2Ja\u202e'), '\\u001b[2Ja\\u202e');
    assertInert(showInvisibles('\u001b]8;;x\u0007\u009b\u2067'));
  });
});

describe('safeStrings: every string of a panel message', () => {
  it('writes out a right-to-left override and a zero-width space in strings at any depth, keeping line breaks and tabs', () => {
    const message = {
      type: 'report',
      title: 'pick\u202Eevil',
      nested: { lines: ['a\u200Bb', 'ok\tfine\nnext'], count: 3, flag: true, none: null },
    };
    const safe = safeStrings(message);
    assert.equal(safe.title, 'pick\\u202eevil');
    assert.deepEqual(safe.nested.lines, ['a\\u200bb', 'ok\tfine\nnext']);
    assert.deepEqual([safe.nested.count, safe.nested.flag, safe.nested.none, safe.type], [3, true, null, 'report']);
    assertInert(JSON.stringify(safe));
  });

  it('copies objects and arrays rather than changing them, and returns a string with nothing to write out as it is', () => {
    const message = { text: 'x\u202Ey', list: ['\u200B'] };
    const safe = safeStrings(message);
    assert.notEqual(safe, message);
    assert.notEqual(safe.list, message.list);
    assert.deepEqual(message, { text: 'x\u202Ey', list: ['\u200B'] }, 'the original is untouched');
    assert.equal(safeStrings('plain'), 'plain');
    assert.equal(safeStrings('a\rb'), 'a\\rb', 'a carriage return is shown, not obeyed');
    assert.equal(safeStrings(7), 7);
  });
});
