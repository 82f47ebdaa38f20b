/**
 * A write that should not be there, taken out together with what it was propping up: `pick()` storing a 0 for
 * every backend it has no entry for (`set(b, 0)`, `setdefault(b, 0)`), or `done()` returning early for a name
 * with no entry, goes, and every read of the same map in that function reads a missing entry as 0
 * (`m.get(k) ?? 0`, `d.get(k, 0)`), in one edit: either half alone changes nothing or makes things worse.
 */
import { childByField, namedChildren, pathTo, walk, type SyntaxNode, type TextEdit } from './tree';
import { CALLS, STATEMENT_PARENTS, callArguments, lineSpan, replace, type Context, type Proposal } from './proposal';
import { ownLineStatements } from './statementOperators';
import { enclosingFunction } from './answerOperators';

/** The map a statement writes a 0 entry into (`m.set(k, 0)`, `d[k] = 0`, `d.setdefault(k, 0)`) or tests (`m.has(k)`). */
function propped(statement: SyntaxNode, ctx: Context): string | undefined {
  for (const node of walk(statement)) {
    const fn = CALLS.has(node.type) ? childByField(node, 'function') : undefined;
    const method = fn && childByField(fn, ctx.python ? 'attribute' : 'property');
    const object = fn && childByField(fn, 'object');
    const args = callArguments(node);
    if (method && object && ['set', 'setdefault'].includes(ctx.text(method)) && args[1] && ctx.text(args[1]) === '0')
      return ctx.text(object);
    if (method && object && ctx.text(method) === 'has' && statement.type === 'if_statement') return ctx.text(object);
    const right = node.type === 'assignment' ? childByField(node, 'right') : undefined;
    // `x: int` is an assignment with no right side.
    if (ctx.python && right && ctx.text(right) === '0') {
      const left = childByField(node, 'left');
      if (left?.type === 'subscript') return ctx.text(childByField(left, 'value')!);
    }
    if (
      ctx.python &&
      node.type === 'comparison_operator' &&
      / in /.test(ctx.text(node)) &&
      statement.type === 'if_statement'
    )
      return ctx.text(namedChildren(node).at(-1)!);
  }
  return undefined;
}

/** The reads of `map` in a function made to read a missing entry as 0 (not inside `skip`, the statement taken out). */
function defaultedReads(fn: SyntaxNode, map: string, skip: SyntaxNode, ctx: Context): TextEdit[] {
  const edits: TextEdit[] = [];
  const inside = (n: SyntaxNode): boolean => n.start >= skip.start && n.end <= skip.end;
  for (const node of walk(fn)) {
    if (inside(node)) continue;
    if (!ctx.python && node.type === 'call_expression' && ctx.text(childByField(node, 'function')!) === `${map}.get`) {
      const after = ctx.file.source.slice(node.end).trimStart();
      if (!/^(\?\?|\|\|)/.test(after)) edits.push(replace(node, `(${ctx.text(node)} ?? 0)`));
    } else if (ctx.python && node.type === 'subscript' && ctx.text(childByField(node, 'value')!) === map) {
      const before = ctx.file.source.slice(node.end).trimStart();
      // An assignment's target is a write, not a read.
      if (!/^([-+*/]?=)(?!=)/.test(before))
        edits.push(replace(node, `${map}.get(${ctx.text(childByField(node, 'subscript')!)}, 0)`));
    } else if (
      ctx.python &&
      node.type === 'attribute' &&
      /^(__getitem__|get)$/.test(ctx.text(childByField(node, 'attribute')!))
    ) {
      const object = childByField(node, 'object');
      const called = node.field === 'function';
      if (object && ctx.text(object) === map && !called) edits.push(replace(node, `lambda k: ${map}.get(k, 0)`));
    }
  }
  return edits;
}

/** Climbs from a statement to the loop or `if` whose whole body it is, so nothing is left empty. */
function wholeStatement(statement: SyntaxNode, fn: SyntaxNode): SyntaxNode {
  let at = statement;
  for (;;) {
    const path = pathTo(fn, at);
    const [owner, block] = [path.at(-3), path.at(-2)];
    if (!owner || !block || owner === fn || !STATEMENT_PARENTS.has(block.type)) return at;
    if (namedChildren(block).length !== 1 || !/^(for|if|while|for_in)_statement$/.test(owner.type)) return at;
    at = owner;
  }
}

export function dropWrite(block: SyntaxNode, ctx: Context): Proposal[] {
  if (!STATEMENT_PARENTS.has(block.type) || block.type === 'module' || block.type === 'program') return [];
  const out: Proposal[] = [];
  for (const statement of ownLineStatements(block, ctx.file.source) ?? []) {
    const map = propped(statement, ctx);
    const fn = map && enclosingFunction(ctx.file.root, statement);
    if (!map || !fn) continue;
    const gone = wholeStatement(statement, fn);
    const reads = defaultedReads(fn, map, gone, ctx);
    if (reads.length === 0) continue;
    out.push({
      operator: 'drop-write',
      edits: [{ ...lineSpan(ctx.file.source, gone), text: '' }, ...reads],
      description: `\`${ctx.text(gone).split('\n')[0]}\` taken out, and a missing entry of \`${map}\` read as 0`,
      at: statement,
      weight: 0,
    });
  }
  return out;
}
