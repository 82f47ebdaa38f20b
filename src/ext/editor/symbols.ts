/**
 * Where a named symbol is in the learner's current document. The language's symbol provider knows best
 * (it sees methods inside classes, nested functions); when there is none (no Python extension) or it is
 * still starting, a pack's regular expression, then core's text search, still find a `def pick(`.
 */
import * as vscode from 'vscode';
import type { Language } from '../../core/pack/schema';
import { blankCommentLines, locateFunction } from '../../core/text/source';
import { searchPattern } from '../../node/packs/patternMatch';

/** A language server that is still starting must not hold up a click or a check for long. */
const PROVIDER_TIMEOUT_MS = 1500;

export interface Located {
  /** The whole symbol (for a highlight) and its name (for the selection). */
  readonly range: vscode.Range;
  readonly selection: vscode.Range;
  readonly how: 'symbol-provider' | 'pattern' | 'text-search' | 'top';
}

function withTimeout<T>(promise: Thenable<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    Promise.resolve(promise).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
    );
  });
}

/** Providers may name a method `pick`, `pick()` or `Balancer.pick`; all of them are `pick`. */
function sameName(symbolName: string, wanted: string): boolean {
  const bare = symbolName.replace(/\(.*\)$/, '').trim();
  return bare === wanted || bare.endsWith(`.${wanted}`);
}

function searchTree(symbols: readonly vscode.DocumentSymbol[], name: string): vscode.DocumentSymbol | undefined {
  for (const s of symbols) {
    if (sameName(s.name, name)) return s;
    const inner = searchTree(s.children ?? [], name);
    if (inner) return inner;
  }
  return undefined;
}

async function fromProvider(doc: vscode.TextDocument, name: string): Promise<Located | undefined> {
  const result = await withTimeout(
    vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>(
      'vscode.executeDocumentSymbolProvider',
      doc.uri,
    ),
    PROVIDER_TIMEOUT_MS,
  );
  if (!result || result.length === 0) return undefined;
  if ('children' in result[0]!) {
    const found = searchTree(result as vscode.DocumentSymbol[], name);
    return found ? { range: found.range, selection: found.selectionRange, how: 'symbol-provider' } : undefined;
  }
  const flat = (result as vscode.SymbolInformation[]).find((s) => sameName(s.name, name));
  return flat ? { range: flat.location.range, selection: flat.location.range, how: 'symbol-provider' } : undefined;
}

/** The line as the highlight; the name on it (like "Go to Symbol" does) or the line's start as the selection. */
function lineLocation(doc: vscode.TextDocument, line: number, how: Located['how'], name?: string): Located {
  const text = doc.lineAt(line);
  const start = new vscode.Position(line, text.firstNonWhitespaceCharacterIndex);
  const range = new vscode.Range(start, text.range.end);
  const at = name
    ? new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).exec(text.text)?.index
    : undefined;
  const selection =
    at !== undefined ? new vscode.Range(line, at, line, at + name!.length) : new vscode.Range(start, start);
  return { range, selection, how };
}

/**
 * The pack's regular expression, matched in a worker thread with a time bound: a slow pattern must not
 * freeze the extension host. A broken, slow or unmatched pattern is not the learner's problem; the caller
 * falls through to text search.
 */
async function fromPattern(
  doc: vscode.TextDocument,
  pattern: string,
  name: string | undefined,
  language: Language,
): Promise<Located | undefined> {
  const version = doc.version;
  // Comments blanked (indexes kept): a pattern for `pick(` must not land on a comment that mentions pick().
  const search = await searchPattern(pattern, blankCommentLines(doc.getText(), language));
  // The learner may have typed while the worker searched: an index into old text would point anywhere.
  if (!search.found || doc.version !== version) return undefined;
  return lineLocation(doc, doc.positionAt(search.index).line, 'pattern', name);
}

/**
 * A symbol's location in `doc`, trying the provider, then the definition by core's `locateFunction`
 * (`def pick(`, `class Balancer`), then `pattern` outside comments. Without a name only the pattern is
 * tried; "#top" is line 1.
 */
export async function locateSymbol(
  doc: vscode.TextDocument,
  name: string | undefined,
  language: Language,
  pattern?: string,
): Promise<Located | undefined> {
  if (name === '#top') return lineLocation(doc, 0, 'top');
  const provided = name ? await fromProvider(doc, name) : undefined;
  if (provided) return provided;
  const line = name ? locateFunction(doc.getText(), language, name) : null;
  if (line) return lineLocation(doc, line - 1, 'text-search', name);
  return pattern ? fromPattern(doc, pattern, name, language) : undefined;
}

/** The 0-based line of a function's definition, for diagnostics and test messages. */
export async function functionLine(
  doc: vscode.TextDocument,
  name: string,
  language: Language,
): Promise<number | undefined> {
  const found = await locateSymbol(doc, name, language);
  return found?.selection.start.line;
}
