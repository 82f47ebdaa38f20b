import { Value } from '@sinclair/typebox/value';
import { parseTree, findNodeAtLocation, type Node, type ParseError, printParseErrorCode } from 'jsonc-parser';
import { LessonManifestSchema, type LessonManifest } from './schema';

export interface ManifestProblem {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** JSON pointer of the offending value, "" for the whole document. */
  readonly path: string;
  readonly message: string;
}

export type ManifestResult = { ok: true; manifest: LessonManifest } | { ok: false; problems: ManifestProblem[] };

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

function segments(pointer: string): (string | number)[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** The node at `path`, or else its nearest ancestor that exists (a missing property is reported on its object). */
function nodeOrAncestor(tree: Node, path: (string | number)[]): { node: Node; exact: boolean } {
  for (let k = path.length; k > 0; k--) {
    const node = findNodeAtLocation(tree, path.slice(0, k));
    if (node) return { node, exact: k === path.length };
  }
  return { node: tree, exact: path.length === 0 };
}

/** Editors on Windows may save a byte order mark; it is not part of the JSON, and the author cannot see it. */
function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Parses and validates lesson.json, giving every problem a file, line and column. */
export function parseManifest(raw: string, file: string): ManifestResult {
  const text = withoutBom(raw);
  const errors: ParseError[] = [];
  const tree: Node | undefined = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length > 0 || !tree) {
    return {
      ok: false,
      problems: errors.length
        ? errors.map((e) => ({ file, ...position(text, e.offset), path: '', message: `JSON syntax: ${printParseErrorCode(e.error)}` }))
        : [{ file, line: 1, column: 1, path: '', message: 'the file is empty' }],
    };
  }
  const data: unknown = JSON.parse(text);
  if (Value.Check(LessonManifestSchema, data)) return { ok: true, manifest: data };
  const problems: ManifestProblem[] = [];
  const seen = new Set<string>();
  for (const error of Value.Errors(LessonManifestSchema, data)) {
    const { node, exact } = nodeOrAncestor(tree, segments(error.path));
    // A missing property also fails its type ("Expected string"); the first message ("required") says it all.
    const key = exact ? `${error.path}|${error.message}` : `${error.path}|missing`;
    if (seen.has(key) || problems.length >= 50) continue;
    seen.add(key);
    problems.push({ file, ...position(text, node.offset), path: error.path, message: describe(error.path, error.message) });
  }
  return { ok: false, problems };
}

function describe(path: string, message: string): string {
  return path === '' ? message : `${path.slice(1).replace(/\//g, '.')}: ${message}`;
}

/** Where in the document a JSON pointer points, for problems found after schema validation. */
export function locate(raw: string, file: string, pointer: string, message: string): ManifestProblem {
  const text = withoutBom(raw);
  const tree = parseTree(text);
  const node = tree ? nodeOrAncestor(tree, segments(pointer)).node : undefined;
  return { file, ...position(text, node?.offset ?? 0), path: pointer, message: describe(pointer, message) };
}
