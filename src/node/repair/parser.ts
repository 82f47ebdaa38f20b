/**
 * Parsing a learner file with tree-sitter, the WebAssembly build VS Code itself ships (@vscode/tree-sitter-wasm:
 * its own runtime, tree-sitter.js + tree-sitter.wasm, ABI-compatible with its grammars). The runtime and a
 * language's grammar are loaded the first time a fix is asked for in that language, never at a check.
 * In the bundles they are copied to dist/tree-sitter/ (esbuild.mjs); from source, read from node_modules.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import type { Language } from '../../core/pack/schema';
import type { ParsedFile, SyntaxNode } from '../../core/repair/tree';

/** The part of the runtime's API used here (its own .d.ts is not a module this project can import). */
interface TsPoint {
  readonly row: number;
}
interface TsCursor {
  readonly nodeType: string;
  readonly nodeIsNamed: boolean;
  readonly currentFieldName: string | null;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly startPosition: TsPoint;
  readonly endPosition: TsPoint;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
}
interface TsTree {
  readonly rootNode: { readonly hasError: boolean; walk(): TsCursor };
  delete(): void;
}
interface TsParser {
  setLanguage(language: unknown): void;
  parse(source: string): TsTree | null;
}
interface TsRuntime {
  Parser: { init(options: { locateFile: (file: string) => string }): Promise<void>; new (): TsParser };
  Language: { load(bytes: Uint8Array): Promise<unknown> };
}

const GRAMMAR: Record<Language, string> = {
  python: 'tree-sitter-python.wasm',
  javascript: 'tree-sitter-javascript.wasm',
  typescript: 'tree-sitter-typescript.wasm',
};

/** The folder holding tree-sitter.js, tree-sitter.wasm and the three grammars. */
export function grammarFolder(): string {
  const bundled = path.join(__dirname, 'tree-sitter');
  if (fs.existsSync(path.join(bundled, 'tree-sitter.js'))) return bundled;
  // From source (tests, benchmarks): the package itself, from src/node/repair.
  return path.join(__dirname, '..', '..', '..', 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm');
}

let runtime: Promise<TsRuntime> | undefined;
const parsers = new Map<Language, Promise<TsParser>>();

function loadRuntime(): Promise<TsRuntime> {
  runtime ??= (async () => {
    const folder = grammarFolder();
    // Required from its folder at run time, so that it finds its tree-sitter.wasm beside it.
    const loaded = createRequire(path.join(folder, 'x.js'))('./tree-sitter.js') as TsRuntime;
    await loaded.Parser.init({ locateFile: (file) => path.join(folder, file) });
    return loaded;
  })();
  return runtime;
}

function parserFor(language: Language): Promise<TsParser> {
  let parser = parsers.get(language);
  if (!parser) {
    parser = (async () => {
      const ts = await loadRuntime();
      const grammar = await ts.Language.load(fs.readFileSync(path.join(grammarFolder(), GRAMMAR[language])));
      const made = new ts.Parser();
      made.setLanguage(grammar);
      return made;
    })();
    parser.catch(() => parsers.delete(language));
    parsers.set(language, parser);
  }
  return parser;
}

/** The tree as data, by a cursor walk (one object per node, tokens included). */
function toData(cursor: TsCursor): SyntaxNode {
  const children: SyntaxNode[] = [];
  const node = {
    type: cursor.nodeType,
    named: cursor.nodeIsNamed,
    ...(cursor.currentFieldName ? { field: cursor.currentFieldName } : {}),
    start: cursor.startIndex,
    end: cursor.endIndex,
    startLine: cursor.startPosition.row + 1,
    endLine: cursor.endPosition.row + 1,
    children,
  };
  if (cursor.gotoFirstChild()) {
    do children.push(toData(cursor));
    while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }
  return node;
}

/** The file's tree, or undefined when it does not parse cleanly (tree-sitter's ERROR or MISSING nodes). */
export async function parseSource(language: Language, source: string): Promise<ParsedFile | undefined> {
  const parser = await parserFor(language);
  const tree = parser.parse(source);
  if (!tree) return undefined;
  try {
    if (tree.rootNode.hasError) return undefined;
    return { language, source, root: toData(tree.rootNode.walk()) };
  } finally {
    tree.delete();
  }
}

/** True when the source parses without an error: a candidate that does not is never run. */
export async function parsesCleanly(language: Language, source: string): Promise<boolean> {
  const parser = await parserFor(language);
  const tree = parser.parse(source);
  if (!tree) return false;
  const clean = !tree.rootNode.hasError;
  tree.delete();
  return clean;
}
