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

/** Parses and validates lesson.json, giving every problem a file, line and column. */
export function parseManifest(text: string, file: string): ManifestResult {
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
    const key = `${error.path}|${error.message}`;
    if (seen.has(key) || problems.length >= 50) continue;
    seen.add(key);
    const node = findNodeAtLocation(tree, segments(error.path)) ?? tree;
    problems.push({ file, ...position(text, node.offset), path: error.path, message: describe(error.path, error.message) });
  }
  return { ok: false, problems };
}

function describe(path: string, message: string): string {
  return path === '' ? message : `${path.slice(1).replace(/\//g, '.')}: ${message}`;
}

/** Where in the document a JSON pointer points, for problems found after schema validation. */
export function locate(text: string, file: string, pointer: string, message: string): ManifestProblem {
  const tree = parseTree(text);
  const node = tree ? findNodeAtLocation(tree, segments(pointer)) : undefined;
  return { file, ...position(text, node?.offset ?? 0), path: pointer, message: describe(pointer, message) };
}
