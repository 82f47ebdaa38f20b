/**
 * Makes a bundle's text pure ASCII. esbuild escapes every non-ASCII character of strings and identifiers but
 * leaves them in comments and regular expression literals (a library's typographic quotes, our own `…`); one
 * such character makes V8 hold the whole 1.8 MB CLI bundle as a two-byte string, which costs a CLI start 5 to
 * 20 ms to decode and compile (measured on `lessons`). `\uXXXX` means the same character in a regular
 * expression, with or without the `u` flag (a surrogate pair escaped is still one code point under `u`), and
 * in a comment it is only text; a pattern's `.source` shows the escape, which a RegExp made from it reads the
 * same. A character escaped by a backslash of its own (`\…`) would change meaning, so the build stops there
 * instead. Lines after an escaped character are 5 columns wider per character, which the source map does not
 * know; only lines holding such a character are affected.
 */
import * as fs from 'node:fs';

/** The text with every non-ASCII UTF-16 unit written as `\uXXXX`. */
export function asciiOnly(text, name = 'the bundle') {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (text[i - 1] === '\\' && text[i - 2] !== '\\') {
      throw new Error(`${name}: a backslash escapes the non-ASCII character at offset ${i}; cannot write it as \\u`);
    }
    out += text.slice(from, i) + `\\u${unit.toString(16).padStart(4, '0')}`;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Rewrites each file in place where it holds a non-ASCII character. */
export function makeAsciiOnly(files) {
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const ascii = asciiOnly(text, file);
    if (ascii !== text) fs.writeFileSync(file, ascii);
  }
}
