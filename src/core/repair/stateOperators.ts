/** Operators on kept state: a reset that sets a count again, a missing entry read as 0. */
import { childByField, type SyntaxNode, type TextEdit } from './tree';
import { callArguments, lineSpan, replace, type Context, type Proposal } from './proposal';

/** `counts.setdefault(name, 0)` → `counts[name] = 0`: a reset that starts every count again. */
export function rebuildState(node: SyntaxNode, ctx: Context): Proposal[] {
  if (!ctx.python || node.type !== 'call') return [];
  const fn = childByField(node, 'function');
  const args = callArguments(node);
  if (!fn || fn.type !== 'attribute' || args.length !== 2) return [];
  const object = childByField(fn, 'object');
  if (!object || ctx.text(childByField(fn, 'attribute')!) !== 'setdefault') return [];
  const whole = ctx.text(node);
  // As a statement of its own it reads as an assignment; inside an expression it must stay one.
  const standalone = ctx.file.source.slice(lineSpan(ctx.file.source, node).start, node.start).trim() === '';
  const [key, value] = [ctx.text(args[0]!), ctx.text(args[1]!)];
  return [
    {
      operator: 'rebuild-state',
      edits: [
        replace(
          node,
          standalone ? `${ctx.text(object)}[${key}] = ${value}` : `${ctx.text(object)}.__setitem__(${key}, ${value})`,
        ),
      ],
      description: `\`${whole}\` sets the value again`,
      at: node,
      weight: 0,
    },
  ];
}

/**
 * A missing entry read as 0 instead of failing or being stored: `d[k]` → `d.get(k, 0)`, `d[k] += 1` →
 * `d[k] = d.get(k, 0) + 1` (Python); `m.get(k)` → `(m.get(k) ?? 0)` (JavaScript).
 */
export function defaultEntry(node: SyntaxNode, ctx: Context, parent: SyntaxNode | null): Proposal[] {
  const proposal = (edit: TextEdit, weight = 0): Proposal => ({
    operator: 'default-entry',
    edits: [edit],
    description: `a missing entry of \`${ctx.text(node)}\` read as 0`,
    at: node,
    weight,
  });
  if (ctx.python && node.type === 'subscript') {
    const value = childByField(node, 'value');
    const key = childByField(node, 'subscript');
    if (!value || !key) return [];
    const read = `${ctx.text(value)}.get(${ctx.text(key)}, 0)`;
    const isTarget =
      parent && ['assignment', 'augmented_assignment'].includes(parent.type) && childByField(parent, 'left') === node;
    // A read that also stores the 0, for a program whose later code expects the entry to be there.
    const stored = `${ctx.text(value)}.setdefault(${ctx.text(key)}, 0)`;
    if (!isTarget) return [proposal(replace(node, read)), proposal(replace(node, stored), 1)];
    const op = parent.type === 'augmented_assignment' ? childByField(parent, 'operator') : undefined;
    const right = childByField(parent, 'right');
    if (!op || !right) return [];
    return [
      proposal(replace(parent, `${ctx.text(node)} = ${read} ${ctx.text(op).replace('=', '')} ${ctx.text(right)}`)),
    ];
  }
  if (!ctx.python && node.type === 'call_expression') {
    const fn = childByField(node, 'function');
    if (!fn || fn.type !== 'member_expression' || ctx.text(childByField(fn, 'property') ?? fn) !== 'get') return [];
    if (callArguments(node).length !== 1) return [];
    if (
      parent?.type === 'binary_expression' &&
      ['??', '||'].includes(ctx.text(childByField(parent, 'operator') ?? parent))
    )
      return [];
    return [proposal(replace(node, `(${ctx.text(node)} ?? 0)`))];
  }
  return [];
}
