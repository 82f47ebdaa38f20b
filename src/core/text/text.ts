/**
 * Learner text made safe to show. A learner's program decides its own stdout, stderr and exception text,
 * and that text reaches a terminal (the CLI report), VS Code (Test Explorer, diagnostics) and the panel.
 * Raw, an escape character can clear the screen, set the window title or plant an OSC 8 link; a bidi
 * control can make an answer read differently from what was printed; a zero-width character can make two
 * different answers look the same. This is the one function every surface uses: such characters are not
 * removed (the learner must see that they printed them) but written out as `\u001b`, `\u202e`, ….
 */

/**
 * Characters that are never shown raw: C0 controls (tab and line breaks are decided by the caller), DEL,
 * C1 controls (U+0080–U+009F, which include the one-byte CSI and OSC), every format character (bidi
 * embeddings, overrides and isolates, marks, zero-width characters, the word joiner, the BOM, Unicode tag
 * characters), line and paragraph separators, and lone surrogates.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

function codePointEscape(char: string): string {
  const code = char.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export interface SafeTextOptions {
  /** Keep line breaks as line breaks (details, stderr); otherwise they are shown as `\n`. Default false. */
  readonly multiline?: boolean;
}

/** `text` with every control, bidi and invisible format character written out visibly. */
export function safeText(text: string, options: SafeTextOptions = {}): string {
  const lines = options.multiline ? text.split(/\r?\n/) : [text];
  return lines
    .map((line) =>
      line.replace(UNSAFE, (char) => {
        if (char === '\t') return options.multiline ? '\t' : '\\t';
        if (char === '\n') return '\\n';
        if (char === '\r') return '\\r';
        return codePointEscape(char);
      }),
    )
    .join('\n');
}

/**
 * One answer line as a trace cell: safe, and with the whitespace that tells answers apart made visible,
 * so "a " and "a" do not look the same (trailing and leading spaces as `·`, tab `␉`, carriage return `␍`).
 */
export function showInvisibles(text: string): string {
  const visible = text
    .replace(/\r/g, '␍')
    .replace(/\t/g, '␉')
    .replace(/ (?= *$)/g, '·')
    .replace(/^ +/, (spaces) => '·'.repeat(spaces.length));
  return safeText(visible);
}

/** Our own colours (SGR: `ESC[…m`), the only escape sequences a terminal surface lets through, or one unsafe character. */
const COLOUR_OR_UNSAFE = /\u001b\[[0-9;]*m|[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** `\uXXXX` (a surrogate pair beyond the BMP): the same text read as JSON, visible on a terminal. */
function jsonEscape(char: string): string {
  return Array.from({ length: char.length }, (_, i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`).join(
    '',
  );
}

/**
 * Everything a command writes to a terminal, made safe at the last moment: whatever a pack's strings (a
 * scenario's title, a question, a lesson's summary) or a program's text hold, no control, bidi or invisible
 * format character reaches the terminal raw (OSC 52 writes the clipboard, `ESC[2J` clears the screen, a
 * one-byte C1 CSI does either). Line breaks and tabs stay, and so do our own colours; the rest is written as
 * `\uXXXX`, which inside a JSON string (`--json`) is the same character, so JSON output keeps its meaning.
 */
export function terminalSafe(text: string): string {
  return text.replace(COLOUR_OR_UNSAFE, (match) =>
    match.length > 1 && match.startsWith('\u001b[')
      ? match
      : match === '\n' || match === '\t'
        ? match
        : jsonEscape(match),
  );
}

/**
 * Every string inside `value` (a message for the lesson panel: pack text, rendered markdown, learner text)
 * with its control, bidi and invisible characters written out (`\u202e`), line breaks and tabs kept. In a
 * browser an escape character does nothing, but a right-to-left override reorders what the learner reads,
 * and a zero-width character hides a difference: the panel shows them as the terminal does. Objects are
 * copied, not changed; a string with nothing to write out is the same string.
 */
export function safeStrings<T>(value: T): T {
  if (typeof value === 'string')
    return (UNSAFE_TEST.test(value) ? safeText(value, { multiline: true }).replace(/\r/g, '\\r') : value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => safeStrings(item)) as T;
  if (value && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = safeStrings(item);
    return copy as T;
  }
  return value;
}

/** UNSAFE without the global flag (a /g regex's test() keeps state between calls), line feeds and tabs allowed. */
const UNSAFE_TEST = /(?![\n\t])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
