/**
 * A learner file's syntax tree as plain data: what the parser (src/node/repair/parser.ts, tree-sitter) gives
 * the edit operators, so that they stay pure and testable without a parser. Offsets index the source string.
 */
import type { Language } from '../pack/schema';

export interface SyntaxNode {
  /** The grammar's node type: `comparison_operator`, `binary_expression`, `<`, `identifier`… */
  readonly type: string;
  /** Named nodes are the grammar's rules; the others are its tokens (operators, brackets, keywords). */
  readonly named: boolean;
  /** The field this node fills in its parent (`condition`, `operator`, `function`), when the grammar names one. */
  readonly field?: string;
  readonly start: number;
  readonly end: number;
  /** 1-based, as the report's lines. */
  readonly startLine: number;
  readonly endLine: number;
  readonly children: readonly SyntaxNode[];
}

export interface ParsedFile {
  readonly language: Language;
  readonly source: string;
  readonly root: SyntaxNode;
}

/** One replacement of the source's characters [start, end). */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export function textOf(source: string, node: SyntaxNode): string {
  return source.slice(node.start, node.end);
}

/** Every node, parents before children. */
export function* walk(node: SyntaxNode): Generator<SyntaxNode> {
  yield node;
  for (const child of node.children) yield* walk(child);
}

/** Each node with its parent, parents first. */
export function* walkWithParent(
  node: SyntaxNode,
  parent: SyntaxNode | null = null,
): Generator<{ node: SyntaxNode; parent: SyntaxNode | null }> {
  yield { node, parent };
  for (const child of node.children) yield* walkWithParent(child, node);
}

export function childByField(node: SyntaxNode, field: string): SyntaxNode | undefined {
  return node.children.find((c) => c.field === field);
}

export function namedChildren(node: SyntaxNode): SyntaxNode[] {
  return node.children.filter((c) => c.named && c.type !== 'comment');
}

/** The edits applied together; overlapping edits are refused (undefined). */
export function applyEdits(source: string, edits: readonly TextEdit[]): string | undefined {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < sorted.length; i++) if (sorted[i]!.start < sorted[i - 1]!.end) return undefined;
  let out = source;
  for (let i = sorted.length - 1; i >= 0; i--) {
    const edit = sorted[i]!;
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return out;
}

/** The 1-based lines of the original file an edit touches. */
export function editedLines(source: string, edits: readonly TextEdit[]): number[] {
  const lines = new Set<number>();
  const lineAt = (offset: number): number => source.slice(0, offset).split('\n').length;
  for (const edit of edits) {
    const last = Math.max(edit.start, edit.end - 1);
    for (let line = lineAt(edit.start); line <= lineAt(last); line++) lines.add(line);
  }
  return [...lines].sort((a, b) => a - b);
}

/** The indentation of the line an offset is on. */
export function indentAt(source: string, offset: number): string {
  const lineStart = source.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(source.slice(lineStart))![0];
}

/** The nodes from the root down to `node`, the root first and `node` last (operators see only a node and its parent). */
export function pathTo(root: SyntaxNode, node: SyntaxNode): SyntaxNode[] {
  const path: SyntaxNode[] = [];
  let at: SyntaxNode | undefined = root;
  while (at) {
    path.push(at);
    if (at === node) return path;
    at = at.children.find((c) => c.start <= node.start && node.end <= c.end);
  }
  return path;
}
