/**
 * Turns the schema validator's and the JSON parser's terse messages into sentences an instructor can act
 * on ("must be a relative path inside the pack folder" rather than a 70-character regular expression).
 */
import { findNodeAtLocation, getNodeValue } from 'jsonc-parser';
import { treeOf } from './manifest';
import { PackPath, SINGLE_LINE_PATTERN } from './schema';

const JSON_SYNTAX: Record<string, string> = {
  InvalidSymbol: 'there is a character here that JSON does not allow (a quote of the wrong kind, or a stray letter?)',
  InvalidNumberFormat: 'this number is not valid JSON',
  PropertyNameExpected: 'a "quoted" field name was expected here; a comma after the last field is not allowed in JSON',
  ValueExpected: 'a value was expected here; a comma after the last item is not allowed in JSON',
  ColonExpected: 'a ":" is missing after the field name',
  CommaExpected: 'a comma is missing before this point',
  CloseBraceExpected: 'a "}" is missing: an object is not closed',
  CloseBracketExpected: 'a "]" is missing: a list is not closed',
  EndOfFileExpected: 'there is text after the end of the JSON document',
  InvalidCommentToken: 'comments are not allowed in lesson.json',
  UnexpectedEndOfComment: 'a comment is not closed',
  UnexpectedEndOfString: 'a string is not closed: a " is missing',
  UnexpectedEndOfNumber: 'a number is cut short',
  InvalidUnicode: 'a \\u escape is not valid',
  InvalidEscapeCharacter: 'a backslash escape is not valid JSON (write \\\\ for a backslash)',
  InvalidCharacter: 'a string contains a raw control character (a tab or a line break?)',
};

function valueAt(text: string, pointer: string): unknown {
  const tree = treeOf(text);
  if (!tree) return undefined;
  const segments = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  const node = findNodeAtLocation(tree, segments);
  return node ? getNodeValue(node) : undefined;
}

/** Why a `run` command (one string, or one per language) is not a single plain line, if it is not. */
function runProblem(value: unknown, path: string): string | undefined {
  if (typeof value === 'object' && value !== null) {
    for (const [language, command] of Object.entries(value)) {
      const problem = runProblem(command, `${path}.${language}`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (typeof value !== 'string') return undefined;
  if (value.length > 300) return `${path}: is ${value.length} characters long; a command may have at most 300`;
  const bad = [...value].find((c) => !new RegExp(SINGLE_LINE_PATTERN).test(c));
  if (bad === undefined) return undefined;
  const which = bad === '\n' ? 'a line break' : `U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return `${path}: must be one line of plain text: no line break, control, bidi or invisible character (it holds ${which}), so that what the learner sees is what runs`;
}

/** A clearer message for one problem from parseManifest, keeping its prefix (the field path). */
export function friendlyManifestMessage(message: string, pointer: string, text: string): string {
  const syntax = /^JSON syntax: (\w+)$/.exec(message);
  if (syntax) return `JSON syntax: ${JSON_SYNTAX[syntax[1]!] ?? syntax[1]}`;
  const prefix = pointer === '' ? '' : `${pointer.slice(1).replace(/\//g, '.')}: `;
  const body = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  const value = valueAt(text, pointer);
  if (body === 'Expected union value' && /^\/readOrder\/\d+\/run$/.test(pointer)) {
    const problem = runProblem(value, pointer.slice(1).replace(/\//g, '.'));
    if (problem) return problem;
  }
  const shown = typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
  const pattern = /^Expected string to match '(.*)'$/.exec(body)?.[1];
  if (pattern !== undefined) {
    if (pattern === PackPath.pattern) {
      return `${prefix}${shown} must be a path inside the pack folder: relative, with "/" between folders, no leading "/", no drive letter and no ".." segment`;
    }
    if (pattern === '^\\d+\\.\\d+\\.\\d+$') return `${prefix}${shown} must be a version like 1.0.0 (major.minor.patch)`;
    if (pattern === '^[a-z0-9][a-z0-9-]*$')
      return `${prefix}${shown} must be lower-case letters, digits and dashes, starting with a letter or digit`;
    if (pattern === '^[0-9a-f]{64}$') return `${prefix}${shown} must be a SHA-256 hash: 64 lower-case hex digits`;
    if (pattern === SINGLE_LINE_PATTERN) return runProblem(value, pointer.slice(1).replace(/\//g, '.')) ?? message;
  }
  const above = /^Expected integer to be less or equal to (\d+)$/.exec(body)?.[1];
  if (above !== undefined) return `${prefix}${shown} is more than ${above}, the most allowed here`;
  const below = /^Expected integer to be greater or equal to (\d+)$/.exec(body)?.[1];
  if (below !== undefined) return `${prefix}${shown} is less than ${below}, the least allowed here`;
  const most = /^Expected array length to be less or equal to (\d+)$/.exec(body)?.[1];
  if (most !== undefined)
    return `${prefix}has ${Array.isArray(value) ? value.length : 'too many'} items; a lesson pack may have at most ${most} here`;
  const longest = /^Expected string length less or equal to (\d+)$/.exec(body)?.[1];
  if (longest !== undefined)
    return `${prefix}is ${typeof value === 'string' ? value.length : 'too many'} characters long; at most ${longest} are allowed here`;
  if (body === 'Expected array elements to be unique' && Array.isArray(value)) {
    const twice = value.find((v, i) => value.indexOf(v) !== i);
    return `${prefix}lists ${JSON.stringify(twice)} more than once; each entry must appear once`;
  }
  if (body === 'Unexpected property') {
    const field = pointer.split('/').pop() ?? '';
    return `${prefix}unknown field "${field}": check its spelling against the schema (media/lesson.schema.json), or remove it`;
  }
  if (body.startsWith('Expected required property')) return `${prefix}this field is required`;
  return message;
}
