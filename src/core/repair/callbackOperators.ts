/**
 * Operators on the tie inside a callback: a comparator given to `sort` (`(a, b) => c[a] - c[b] || a.localeCompare(b)`,
 * Python's `cmp_to_key(lambda a, b: …)`) and a pick that keeps the better of two (`reduce((best, b) => c[b] < c[best]
 * ? b : best)`, `b if c[b] < c[best] else best`). The tie there goes the wrong way or to the wrong key: the secondary
 * key is reversed, made the name in code-point order, or made the pool's order; a comparator or a pick with no
 * secondary key gets the name as one. (A comparison flipped, `<` for `<=`, and a secondary key dropped are
 * flipComparison's and keepPart's.)
 */
import { childByField, namedChildren, walk, type SyntaxNode } from './tree';
import { CALLS, callArguments, replace, type Context, type Proposal } from './proposal';

const FUNCTIONS = new Set(['arrow_function', 'function_expression', 'function', 'lambda']);
const ORDERINGS = new Set(['<', '<=', '>', '>=']);
/** Fields a backend object is named by, most likely first: `a.name` when the callback compares objects. */
const NAME_FIELDS = ['name', 'addr', 'address', 'dial', 'host', 'id'];

/** A callback's two parameters' names, or undefined when it does not take exactly two plain ones. */
function twoParameters(fn: SyntaxNode, ctx: Context): [string, string] | undefined {
  const params = childByField(fn, 'parameters') ?? childByField(fn, 'parameter');
  if (!params) return undefined;
  const names = namedChildren(params).map((p) => {
    const pattern = p.type === 'identifier' ? p : childByField(p, 'pattern');
    return pattern?.type === 'identifier' ? ctx.text(pattern) : undefined;
  });
  if (names.length !== 2 || names.some((n) => n === undefined)) return undefined;
  return names as [string, string];
}

/** The expression a callback returns: its body, or the last `return` of a block body. */
function returned(fn: SyntaxNode): SyntaxNode | undefined {
  let body = childByField(fn, 'body');
  if (body?.type === 'statement_block') {
    const last = namedChildren(body).at(-1);
    body = last?.type === 'return_statement' ? namedChildren(last)[0] : undefined;
  }
  while (body?.type === 'parenthesized_expression') body = namedChildren(body)[0];
  return body;
}

/** `text` with the identifiers `a` and `b` in `node` swapped: the same key, read the other way. */
function swapNames(node: SyntaxNode, ctx: Context, a: string, b: string): string {
  let out = '';
  let at = node.start;
  for (const n of walk(node)) {
    if (n.type !== 'identifier' || n.start < at) continue;
    const name = ctx.text(n);
    if (name !== a && name !== b) continue;
    out += ctx.file.source.slice(at, n.start) + (name === a ? b : a);
    at = n.end;
  }
  return out + ctx.file.source.slice(at, node.end);
}

/** How the callback names a backend: the parameter itself, or its name field when it compares objects. */
function nameOf(ctx: Context, scope: SyntaxNode, param: string): string | undefined {
  const text = ctx.text(scope);
  if (!new RegExp(`\\b${param}\\s*\\.\\s*[A-Za-z_]`).test(text)) return param;
  const field = NAME_FIELDS.find((f) => new RegExp(`\\.${f}\\b`).test(ctx.file.source));
  return field ? `${param}.${field}` : undefined;
}

/** `(a < b ? -1 : a > b ? 1 : 0)`, Python `((a > b) - (a < b))`: the name in plain code-point order. */
function byName(ctx: Context, a: string, b: string): string {
  return ctx.python ? `((${a} > ${b}) - (${a} < ${b}))` : `(${a} < ${b} ? -1 : ${a} > ${b} ? 1 : 0)`;
}

/** The array a sort orders, when it is plainly one (`xs`, `this.pool`, `[...xs]`, `xs.slice()`), to index it. */
function sortedArray(call: SyntaxNode, ctx: Context): string | undefined {
  let array = ctx.python ? callArguments(call)[0] : childByField(childByField(call, 'function')!, 'object');
  if (
    array?.type === 'array' &&
    namedChildren(array).length === 1 &&
    namedChildren(array)[0]!.type === 'spread_element'
  )
    array = namedChildren(namedChildren(array)[0]!)[0];
  if (array && CALLS.has(array.type) && /\.slice$/.test(ctx.text(childByField(array, 'function') ?? array)))
    array = childByField(childByField(array, 'function')!, 'object');
  if (!array || !['identifier', 'member_expression', 'attribute'].includes(array.type)) return undefined;
  return ctx.text(array);
}

/** The comparator a call sorts with: `xs.sort(f)`, `xs.toSorted(f)`, `sorted(xs, key=cmp_to_key(f))`. */
function comparatorOf(call: SyntaxNode, ctx: Context): SyntaxNode | undefined {
  const fn = childByField(call, 'function');
  if (!fn) return undefined;
  if (!ctx.python) {
    const method = fn.type === 'member_expression' ? ctx.text(childByField(fn, 'property') ?? fn) : '';
    const arg = callArguments(call)[0];
    return ['sort', 'toSorted'].includes(method) && arg && FUNCTIONS.has(arg.type) ? arg : undefined;
  }
  if (!['sorted', 'min', 'max'].includes(ctx.text(fn)) && !/\.sort$/.test(ctx.text(fn))) return undefined;
  const key = callArguments(call).find(
    (a) => a.type === 'keyword_argument' && ctx.text(childByField(a, 'name') ?? a) === 'key',
  );
  const value = key && childByField(key, 'value');
  if (!value || !CALLS.has(value.type) || !/(^|\.)cmp_to_key$/.test(ctx.text(childByField(value, 'function')!)))
    return undefined;
  const arg = callArguments(value)[0];
  return arg?.type === 'lambda' ? arg : undefined;
}

/** The primary and secondary keys of a comparator's `P || S` (Python `P or S`), or the primary alone. */
function keysOf(body: SyntaxNode, ctx: Context): { primary: SyntaxNode; secondary?: SyntaxNode } {
  const op = childByField(body, 'operator');
  const isOr = ctx.python
    ? body.type === 'boolean_operator' && op && ctx.text(op) === 'or'
    : op && ctx.text(op) === '||';
  if (!isOr || !['boolean_operator', 'binary_expression'].includes(body.type)) return { primary: body };
  return { primary: childByField(body, 'left')!, secondary: childByField(body, 'right') };
}

/** A comparator's tie: reversed, made the name, made the pool's order; or the name added as the tie key. */
export function comparatorTie(node: SyntaxNode, ctx: Context): Proposal[] {
  if (!CALLS.has(node.type)) return [];
  const comparator = comparatorOf(node, ctx);
  const params = comparator && twoParameters(comparator, ctx);
  const body = comparator && returned(comparator);
  if (!params || !body) return [];
  const [a, b] = params;
  const proposal = (at: SyntaxNode, text: string, description: string, weight: number): Proposal => ({
    operator: 'tie-callback',
    edits: [replace(at, text)],
    description,
    at: node,
    weight,
  });
  const { primary, secondary } = keysOf(body, ctx);
  const [nameA, nameB] = [nameOf(ctx, primary, a), nameOf(ctx, primary, b)];
  const array = sortedArray(node, ctx);
  const index = ctx.python ? 'index' : 'indexOf';
  const or = ctx.python ? 'or' : '||';
  if (!secondary) {
    if (!nameA || !nameB) return [];
    return [
      proposal(
        body,
        `${ctx.text(body)} ${or} ${byName(ctx, nameA, nameB)}`,
        'ties in the sort go to the first name',
        0,
      ),
      proposal(body, `${ctx.text(body)} ${or} ${byName(ctx, nameB, nameA)}`, 'ties in the sort go to the last name', 1),
    ];
  }
  const out = [
    proposal(secondary, swapNames(secondary, ctx, a, b), `the tie key \`${ctx.text(secondary)}\` reversed`, 0),
  ];
  const named = nameA && nameB ? byName(ctx, nameA, nameB) : undefined;
  // The same key with or without its parentheses is no edit.
  if (named && ![named, named.slice(1, -1)].includes(ctx.text(secondary)))
    out.push(proposal(secondary, named, `ties in the sort broken by the name's code points`, 0));
  if (array)
    out.push(
      proposal(secondary, `${array}.${index}(${a}) - ${array}.${index}(${b})`, 'ties in the sort go by pool order', 1),
    );
  return out;
}

/** `c ? x : y` (Python `x if c else y`): the condition, and the two names it chooses between. */
function choice(node: SyntaxNode, ctx: Context): { condition: SyntaxNode; taken: string; kept: string } | undefined {
  if (node.type !== 'ternary_expression' && node.type !== 'conditional_expression') return undefined;
  const parts = namedChildren(node);
  if (parts.length !== 3) return undefined;
  const [condition, taken, kept] = ctx.python ? [parts[1]!, parts[0]!, parts[2]!] : parts;
  if (taken.type !== 'identifier' || kept.type !== 'identifier' || ctx.text(taken) === ctx.text(kept)) return undefined;
  return { condition: condition!, taken: ctx.text(taken), kept: ctx.text(kept) };
}

/** The two sides and the operator of `l < r` (one comparison, not a chain). */
function ordering(node: SyntaxNode): { left: SyntaxNode; op: string; right: SyntaxNode } | undefined {
  let condition: SyntaxNode | undefined = node;
  while (condition?.type === 'parenthesized_expression') condition = namedChildren(condition)[0];
  if (!condition) return undefined;
  const tokens = condition.children.filter((c) => !c.named);
  const sides = namedChildren(condition);
  if (!['binary_expression', 'comparison_operator'].includes(condition.type) || sides.length !== 2) return undefined;
  const op = tokens.length === 1 ? tokens[0]!.type : '';
  return ORDERINGS.has(op) ? { left: sides[0]!, op, right: sides[1]! } : undefined;
}

/** A pick between two (`reduce((best, b) => c[b] < c[best] ? b : best)`) that also takes the smaller name on a tie. */
export function pickTie(node: SyntaxNode, ctx: Context): Proposal[] {
  const chosen = choice(node, ctx);
  const compared = chosen && ordering(chosen.condition);
  if (!chosen || !compared) return [];
  const taken = nameOf(ctx, chosen.condition, chosen.taken);
  const kept = nameOf(ctx, chosen.condition, chosen.kept);
  if (!taken || !kept) return [];
  const [l, r] = [ctx.text(compared.left), ctx.text(compared.right)];
  const strict = compared.op.replace('=', '');
  const tie = ctx.python ? `${l} == ${r} and ${taken} < ${kept}` : `${l} === ${r} && ${taken} < ${kept}`;
  const text = `${l} ${strict} ${r} ${ctx.python ? 'or' : '||'} (${tie})`;
  return [
    {
      operator: 'tie-callback',
      edits: [replace(chosen.condition, ctx.python ? text : `(${text})`)],
      description: `ties between \`${chosen.taken}\` and \`${chosen.kept}\` go to the first name`,
      at: node,
      weight: 0,
    },
  ];
}
