import { Value } from '@sinclair/typebox/value';
import { parseTree, findNodeAtLocation, visit, type Node, type ParseError, printParseErrorCode } from 'jsonc-parser';
import { checkPattern } from './patternSafety';
import { isWorldScenario } from '../world/worldScenarioSchema';
import { checkWorldScenario } from '../world/worldRules';
import { LessonManifestSchema, type LessonManifest } from './schema';
import { matchesManifestSchema } from './manifestCheck';

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

/**
 * Bounds checked before the JSON parser sees the text: the parser (and later the validator) recurse once
 * per level, so `[[[[…]]]]` 100,000 deep overflows the stack, and a few megabytes of JSON cost seconds.
 * A real lesson.json is about 20 KB and 6 levels deep.
 */
export const MANIFEST_MAX_CHARS = 1024 * 1024;
export const MANIFEST_MAX_DEPTH = 32;

/** The first place the text nests deeper than `max`, found in one pass without parsing. */
function tooDeepAt(text: string, max: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return undefined;
}

function lengthProblem(text: string, file: string): ManifestProblem | undefined {
  if (text.length <= MANIFEST_MAX_CHARS) return undefined;
  return {
    file,
    line: 1,
    column: 1,
    path: '',
    message: `lesson.json is ${Math.round(text.length / 1024)} KiB; a lesson.json may be at most ${MANIFEST_MAX_CHARS / 1024} KiB (put long texts in fewer words, and transcripts in transcript files)`,
  };
}

function depthProblem(text: string, file: string): ManifestProblem | undefined {
  const deep = tooDeepAt(text, MANIFEST_MAX_DEPTH);
  if (deep === undefined) return undefined;
  return {
    file,
    ...position(text, deep),
    path: '',
    message: `lesson.json nests lists and objects more than ${MANIFEST_MAX_DEPTH} levels deep here; a lesson needs about 6, so this is not a lesson manifest`,
  };
}

function sizeProblem(text: string, file: string): ManifestProblem | undefined {
  return lengthProblem(text, file) ?? depthProblem(text, file);
}

/** The parse tree of the last text located in: validation locates dozens of problems in the same text. */
let lastTree: { text: string; tree: Node | undefined } | undefined;
export function treeOf(text: string): Node | undefined {
  // parseTree recurses once per level: a text too deep to be a manifest has no tree worth a stack overflow.
  if (lastTree?.text !== text) lastTree = { text, tree: sizeProblem(text, '') ? undefined : parseTree(text) };
  return lastTree.tree;
}

/** Parses and validates lesson.json, giving every problem a file, line and column. */
export interface ParseOptions {
  /**
   * Analyse read-order patterns for catastrophic backtracking (validate, bundle, install and the engine do).
   * Listing packs skips it: the analyser costs a tenth of a second to load, and the editor matches patterns
   * with a time bound off its thread anyway (src/node/packs/patternMatch.ts).
   */
  readonly checkPatterns?: boolean;
}

export function parseManifest(raw: string, file: string, options: ParseOptions = {}): ManifestResult {
  const text = withoutBom(raw);
  const tooLong = lengthProblem(text, file);
  if (tooLong) return { ok: false, problems: [tooLong] };
  // The native parser first: a valid lesson.json (the usual case) needs no parse tree, which costs far more.
  // JSON.parse refuses what the strict tree parser refuses (comments, trailing commas); the tree then says where.
  let data: unknown;
  let parsed = true;
  try {
    data = JSON.parse(text);
  } catch {
    parsed = false;
  }
  // JSON.parse does not recurse; the tree parser and the validator do. The depth is read from the parsed value
  // where there is one (walking the text by hand cost 3 ms of a `lessons` start).
  const shape = parsed ? shapeOf(data) : undefined;
  const tooDeep = shape?.deeperThanMax === false ? undefined : depthProblem(text, file);
  if (tooDeep) return { ok: false, problems: [tooDeep] };
  if (!parsed || text.trim() === '') {
    const errors: ParseError[] = [];
    parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
    return {
      ok: false,
      problems: errors.length
        ? errors.map((e) => ({
            file,
            ...position(text, e.offset),
            path: '',
            message: `JSON syntax: ${printParseErrorCode(e.error)}`,
          }))
        : [{ file, line: 1, column: 1, path: '', message: 'the file is empty' }],
    };
  }
  // JSON.parse keeps the last of two equal keys: the author's first value would be lost without a word.
  const twice = keysInText(text) === shape!.keys ? [] : duplicateKeys(text, file);
  if (twice.length > 0) return { ok: false, problems: twice };
  if (matchesManifestSchema(data)) {
    const problems = ruleProblems(data, text, file, options.checkPatterns !== false);
    return problems.length === 0 ? { ok: true, manifest: data } : { ok: false, problems };
  }
  const tree = treeOf(text)!;
  const problems: ManifestProblem[] = [];
  const seen = new Set<string>();
  for (const error of Value.Errors(LessonManifestSchema, data)) {
    const { node, exact } = nodeOrAncestor(tree, segments(error.path));
    // A missing property also fails its type ("Expected string"); the first message ("required") says it all.
    const key = exact ? `${error.path}|${error.message}` : `${error.path}|missing`;
    if (seen.has(key) || problems.length >= 50) continue;
    seen.add(key);
    problems.push({
      file,
      ...position(text, node.offset),
      path: error.path,
      message: describe(error.path, error.message),
    });
  }
  return { ok: false, problems };
}

const pointerOf = (path: readonly (string | number)[]): string =>
  path.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/**
 * How many keys the text writes: every string of it matched in turn, a key being one followed by a colon. A
 * regular expression runs natively; walking the text with the tree parser's visitor, to find no duplicate in a
 * valid lesson.json, cost about 12 ms a pack as a command starts.
 */
function keysInText(text: string): number {
  let keys = 0;
  for (const match of text.matchAll(/"(?:[^"\\]|\\.)*"(\s*:)?/g)) if (match[1] !== undefined) keys++;
  return keys;
}

/**
 * How many keys the parsed value holds (fewer than the text writes when a key was written twice in one object),
 * and whether it nests deeper than a manifest may; without recursion, and not below that depth.
 */
function shapeOf(value: unknown): { keys: number; deeperThanMax: boolean } {
  let keys = 0;
  const open: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (open.length > 0) {
    const next = open.pop()!;
    if (typeof next.value !== 'object' || next.value === null) continue;
    const depth = next.depth + 1;
    if (depth > MANIFEST_MAX_DEPTH) return { keys, deeperThanMax: true };
    const children = Array.isArray(next.value) ? next.value : Object.values(next.value);
    if (!Array.isArray(next.value)) keys += children.length;
    for (const child of children) open.push({ value: child, depth });
  }
  return { keys, deeperThanMax: false };
}

/** Every key that appears twice in one object, at its second place. */
function duplicateKeys(text: string, file: string): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  const open: Map<string, number>[] = [];
  visit(text, {
    onObjectBegin: () => void open.push(new Map()),
    onObjectEnd: () => void open.pop(),
    onObjectProperty: (key, offset, _length, startLine, startCharacter, pathSupplier) => {
      const keys = open[open.length - 1];
      if (!keys || problems.length >= 50) return;
      const first = keys.get(key);
      if (first === undefined) return void keys.set(key, startLine + 1);
      const pointer = pointerOf([...pathSupplier(), key]);
      const where = { file, line: startLine + 1, column: startCharacter + 1, path: pointer };
      const message = `the key "${key}" is written twice in the same object (first at line ${first}); JSON keeps only the last one, so remove the one you do not mean`;
      problems.push({ ...where, message: describe(pointer, message) });
    },
  });
  return problems;
}

function describe(path: string, message: string): string {
  return path === '' ? message : `${path.slice(1).replace(/\//g, '.')}: ${message}`;
}

/** Where in the document a JSON pointer points, for problems found after schema validation. */
export function locate(raw: string, file: string, pointer: string, message: string): ManifestProblem {
  const text = withoutBom(raw);
  const tree = treeOf(text);
  const node = tree ? nodeOrAncestor(tree, segments(pointer)).node : undefined;
  return { file, ...position(text, node?.offset ?? 0), path: pointer, message: describe(pointer, message) };
}

/**
 * What the schema cannot say: ids unique by value (the lists are of objects), read-order patterns that
 * compile and cannot backtrack exponentially (see patternSafety.ts), and world scenarios that hold together
 * (worldRules.ts; template scenarios are checked above core, in src/worlds/templates/lessonJson.ts).
 */
function ruleProblems(manifest: LessonManifest, text: string, file: string, checkPatterns: boolean): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  const unique = (items: readonly { id: string; pointer: string }[], what: string): void => {
    const seen = new Map<string, string>();
    for (const { id, pointer } of items) {
      const first = seen.get(id);
      if (first !== undefined)
        problems.push(
          locate(
            text,
            file,
            `${pointer}/id`,
            `${what} id "${id}" is used twice (first at ${first.slice(1).replace(/\//g, '.')}); ids must be unique`,
          ),
        );
      else seen.set(id, pointer);
    }
  };
  unique(
    manifest.mistakes.map((m, i) => ({ id: m.id, pointer: `/mistakes/${i}` })),
    'mistake',
  );
  unique(
    [
      ...manifest.failureQuestions.map((q, i) => ({ id: q.id, pointer: `/failureQuestions/${i}` })),
      ...(manifest.quiz ?? []).map((q, i) => ({ id: q.id, pointer: `/quiz/${i}` })),
    ],
    'question',
  );
  manifest.readOrder.forEach((step, i) => {
    if (step.pattern === undefined || !checkPatterns) return;
    const verdict = checkPattern(step.pattern);
    if (!verdict.ok) problems.push(locate(text, file, `/readOrder/${i}/pattern`, `step ${i + 1}: ${verdict.message}`));
  });
  const mistakeIds = new Set(manifest.mistakes.map((m) => m.id));
  unique(
    (manifest.scenarios ?? []).map((s, i) => ({ id: s.id, pointer: `/scenarios/${i}` })),
    'scenario',
  );
  (manifest.scenarios ?? []).forEach((scenario, i) => {
    if (isWorldScenario(scenario))
      checkWorldScenario(scenario, `/scenarios/${i}`, mistakeIds, (pointer, message) =>
        problems.push(locate(text, file, pointer, message)),
      );
  });
  return problems;
}
