/**
 * What every edit operator proposes (src/core/repair/operators.ts gathers them), and the helpers they share:
 * the file in hand, a node's text, a replacement, a call's arguments, the whole lines of a statement.
 */
import { childByField, namedChildren, textOf, type ParsedFile, type SyntaxNode, type TextEdit } from './tree';

export type OperatorName =
  | 'flip-comparison'
  | 'swap-min-max'
  | 'swap-logic'
  | 'unwrap-call'
  | 'keep-part'
  | 'floor'
  | 'move-statement'
  | 'delete-statement'
  | 'constant-condition'
  | 'negate-condition'
  | 'guard-empty'
  | 'rebuild-state'
  | 'nudge-number'
  | 'default-entry'
  | 'tie-key'
  | 'tie-callback'
  | 'random-tie'
  | 'answer-guard'
  | 'fresh-state'
  | 'membership-guard'
  | 'floor-guard'
  | 'drop-write'
  | 'truthy-test';

export interface Proposal {
  readonly operator: OperatorName;
  readonly edits: readonly TextEdit[];
  /** What the edit does, in words: "`<` made `<=`". */
  readonly description: string;
  /** The node the edit is about: its lines say how near the located lines it is. */
  readonly at: SyntaxNode;
  /** Extra cost within the operator (a longer move, a bigger deletion). */
  readonly weight: number;
}

/** The blocks whose children are statements. */
export const STATEMENT_PARENTS = new Set([
  'block',
  'statement_block',
  'module',
  'program',
  'switch_case',
  'else_clause',
]);
export const CALLS = new Set(['call', 'call_expression']);

export interface Context {
  readonly file: ParsedFile;
  readonly python: boolean;
  readonly text: (node: SyntaxNode) => string;
  /**
   * What the lesson's model answered where the program went wrong, for the mistakes an answer undoes (an empty
   * pool, a fallback): one line each, from the failing transcript (never written into core for a lesson).
   */
  readonly answers: readonly string[];
}

export function context(file: ParsedFile, answers: readonly string[] = []): Context {
  return { file, python: file.language === 'python', text: (node) => textOf(file.source, node), answers };
}

export const replace = (node: SyntaxNode, text: string): TextEdit => ({ start: node.start, end: node.end, text });

export function callArguments(node: SyntaxNode): SyntaxNode[] {
  const args = childByField(node, 'arguments');
  return args ? namedChildren(args) : [];
}

export function lineSpan(source: string, node: SyntaxNode): { start: number; end: number } {
  const start = source.lastIndexOf('\n', node.start - 1) + 1;
  const newline = source.indexOf('\n', node.end);
  return { start, end: newline < 0 ? source.length : newline + 1 };
}
