/** Operators on statements: one moved within its block, or taken out. */
import { indentAt, namedChildren, type SyntaxNode } from './tree';
import { STATEMENT_PARENTS, lineSpan, type Context, type Proposal } from './proposal';

const NOT_MOVABLE = new Set([
  'function_definition',
  'class_definition',
  'decorated_definition',
  'function_declaration',
  'class_declaration',
  'method_definition',
  'import_statement',
  'import_from_statement',
  'comment',
]);

/** The statements of a block, when each starts and ends a line of its own (so moving lines moves them whole). */
export function ownLineStatements(block: SyntaxNode, source: string): SyntaxNode[] | undefined {
  const statements = namedChildren(block).filter((s) => !s.type.endsWith('_clause') || s.type === 'else_clause');
  for (const s of statements) {
    const before = source.slice(source.lastIndexOf('\n', s.start - 1) + 1, s.start);
    const afterEnd = source.indexOf('\n', s.end);
    const after = source.slice(s.end, afterEnd < 0 ? source.length : afterEnd);
    if (before.trim() !== '' || !/^\s*;?\s*(\/\/.*|#.*)?$/.test(after)) return undefined;
  }
  return statements;
}

/** A statement moved up to 3 places within its block: an increment before the return or the next decision. */
export function moveStatement(block: SyntaxNode, ctx: Context): Proposal[] {
  if (!STATEMENT_PARENTS.has(block.type)) return [];
  const statements = ownLineStatements(block, ctx.file.source);
  if (!statements || statements.length < 2) return [];
  const out: Proposal[] = [];
  statements.forEach((moved, i) => {
    if (NOT_MOVABLE.has(moved.type) || moved.type === 'else_clause') return;
    const from = lineSpan(ctx.file.source, moved);
    const lines = ctx.file.source.slice(from.start, from.end);
    const withNewline = lines.endsWith('\n') ? lines : `${lines}\n`;
    for (let j = Math.max(0, i - 3); j <= Math.min(statements.length - 1, i + 3); j++) {
      if (j === i || statements[j]!.type === 'else_clause') continue;
      const target = lineSpan(ctx.file.source, statements[j]!);
      const at = j < i ? target.start : target.end;
      out.push({
        operator: 'move-statement',
        edits: [
          { start: from.start, end: from.end, text: '' },
          { start: at, end: at, text: withNewline },
        ],
        description: `\`${ctx.text(moved).split('\n')[0]}\` moved ${j < i ? 'up' : 'down'} ${Math.abs(j - i)} statement${Math.abs(j - i) > 1 ? 's' : ''}`,
        at: moved,
        weight: Math.abs(j - i) - 1,
      });
    }
  });
  return out;
}

export function deleteStatement(block: SyntaxNode, ctx: Context): Proposal[] {
  if (!STATEMENT_PARENTS.has(block.type) || block.type === 'module' || block.type === 'program') return [];
  const statements = ownLineStatements(block, ctx.file.source);
  if (!statements) return [];
  return statements
    .filter((s) => !NOT_MOVABLE.has(s.type) && s.type !== 'else_clause')
    .map((s): Proposal | undefined => {
      const span = lineSpan(ctx.file.source, s);
      const only = statements.length === 1;
      // Python's block cannot be empty.
      const text = only && ctx.python ? `${indentAt(ctx.file.source, s.start)}pass\n` : '';
      if (only && !ctx.python && block.type !== 'statement_block') return undefined;
      return {
        operator: 'delete-statement',
        edits: [{ ...span, text }],
        description: `\`${ctx.text(s).split('\n')[0]}\` taken out`,
        at: s,
        weight: s.endLine - s.startLine,
      };
    })
    .filter((p): p is Proposal => p !== undefined);
}
