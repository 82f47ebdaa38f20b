/**
 * Ties that move, made fixed: a rotation through the tied (`tied[turn % tied.length]`) made the first of them or
 * the first by name, a scan that starts one place further each time (`(turn + step) % n`) made to start at one place,
 * and a reservoir's random replacement (`count === 1 || Math.floor(Math.random() * count) ===
 * 0`) made a replacement by the smaller name. (A random pick made the first tied is randomTie's.)
 */
import { childByField, namedChildren, pathTo, type SyntaxNode } from './tree';
import { CALLS, replace, type Context, type Proposal } from './proposal';

const NAME_FIELDS = ['name', 'addr', 'address', 'dial', 'host', 'id'];
const COMPARISONS = new Set(['==', '===', '!=', '!==', '<', '<=', '>', '>=']);

/** `(turn + step) % n` → `step` or `turn`: a scan that starts where the last one did, made to start at one place. */
function rotatedStart(node: SyntaxNode, ctx: Context): Proposal[] {
  if (!['binary_expression', 'binary_operator'].includes(node.type)) return [];
  if (ctx.text(childByField(node, 'operator')!) !== '%') return [];
  let sum = childByField(node, 'left');
  while (sum?.type === 'parenthesized_expression') sum = namedChildren(sum)[0];
  if (
    !sum ||
    !['binary_expression', 'binary_operator'].includes(sum.type) ||
    ctx.text(childByField(sum, 'operator')!) !== '+'
  )
    return [];
  return [childByField(sum, 'right')!, childByField(sum, 'left')!].map((part, i) => ({
    operator: 'random-tie' as const,
    edits: [replace(node, ctx.text(part))],
    description: `\`${ctx.text(node)}\` made \`${ctx.text(part)}\`: every scan starts at the same place`,
    at: node,
    weight: i,
  }));
}

/** `tied[turn % tied.length]` → `tied[0]`, or the first by name: `min(tied)`, `[...tied].sort()[0]`. */
export function rotationTie(node: SyntaxNode, ctx: Context): Proposal[] {
  if (node.type !== (ctx.python ? 'subscript' : 'subscript_expression')) return rotatedStart(node, ctx);
  const list = childByField(node, ctx.python ? 'value' : 'object');
  const index = childByField(node, ctx.python ? 'subscript' : 'index');
  if (!list || !index || !ctx.text(index).includes('%')) return [];
  const proposal = (text: string, what: string): Proposal => ({
    operator: 'random-tie',
    edits: [replace(node, text)],
    description: `\`${ctx.text(node)}\` made \`${text}\`: ${what}`,
    at: node,
    weight: 0,
  });
  const l = ctx.text(list);
  return [
    proposal(`${l}[0]`, 'the first of them, every time'),
    proposal(ctx.python ? `min(${l})` : `[...${l}].sort()[0]`, 'the first by name, every time'),
  ];
}

const isRandom = (node: SyntaxNode, ctx: Context): boolean =>
  CALLS.has(node.type) &&
  (ctx.python
    ? /(^|\.)(randrange|randint|random)$/.test(ctx.text(childByField(node, 'function')!))
    : ctx.text(childByField(node, 'function')!) === 'Math.random');

/** `best = b` as an `if`'s only statement: the kept name and the new one. */
function keeps(statement: SyntaxNode | undefined, ctx: Context): { kept: string; taken: string } | undefined {
  let body = statement;
  while (body && ['block', 'statement_block'].includes(body.type) && namedChildren(body).length === 1)
    body = namedChildren(body)[0];
  const assignment = body?.type === 'expression_statement' ? namedChildren(body)[0] : undefined;
  const [left, right] = [
    assignment && childByField(assignment, 'left'),
    assignment && childByField(assignment, 'right'),
  ];
  if (!left || !right || left.type !== 'identifier' || right.type !== 'identifier') return undefined;
  return { kept: ctx.text(left), taken: ctx.text(right) };
}

/** A reservoir's random replacement of the kept among the tied, made a replacement by the smaller name. */
export function reservoirTie(node: SyntaxNode, ctx: Context): Proposal[] {
  if (!isRandom(node, ctx)) return [];
  const path = pathTo(ctx.file.root, node);
  const at = path.map((n) => n.type).lastIndexOf('if_statement');
  const statement = path[at];
  const chosen = statement && keeps(childByField(statement, 'consequence'), ctx);
  if (!statement || !chosen) return [];
  // The comparison the random number is in, inside the `if`'s condition.
  const comparison = path
    .slice(at + 1)
    .reverse()
    .find(
      (n) =>
        ['binary_expression', 'comparison_operator'].includes(n.type) &&
        n.children.some((c) => COMPARISONS.has(c.type)),
    );
  if (!comparison) return [];
  const field = NAME_FIELDS.find((f) => new RegExp(`\\b${chosen.taken}\\.${f}\\b`).test(ctx.file.source));
  const [taken, kept] = field ? [`${chosen.taken}.${field}`, `${chosen.kept}.${field}`] : [chosen.taken, chosen.kept];
  return [
    {
      operator: 'random-tie',
      edits: [replace(comparison, `${taken} < ${kept}`)],
      description: `\`${ctx.text(comparison)}\` made \`${taken} < ${kept}\`: ties to the first name`,
      at: node,
      weight: 0,
    },
  ];
}
