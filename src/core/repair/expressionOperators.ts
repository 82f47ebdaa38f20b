/**
 * Operators on expressions and calls: an ordering or copy taken away, an expression replaced by one of its parts,
 * a floor at 0, a guard for an empty pool, ties broken by the name.
 */
import { childByField, namedChildren, type SyntaxNode, type TextEdit } from './tree';
import { CALLS, callArguments, replace, type Context, type Proposal } from './proposal';

/** `sorted(names)` → `names`, `[...names].sort()` → `[...names]`: an ordering or a copy that changes which tie wins. */
export function unwrapCall(node: SyntaxNode, ctx: Context, parent: SyntaxNode | null): Proposal[] {
  // A call that is a whole statement leaves a bare name behind: taking the statement out says it plainly.
  if (!CALLS.has(node.type) || parent?.type === 'expression_statement') return [];
  const out: Proposal[] = [];
  const args = callArguments(node);
  const fn = childByField(node, 'function');
  // One positional argument, with keywords or not: `sorted(pool, reverse=True)` → `pool`.
  const positional = args.filter((a) => a.type !== 'keyword_argument');
  if (positional.length === 1 && args[0] === positional[0] && args[0]!.type !== 'spread_element') {
    out.push({
      operator: 'unwrap-call',
      edits: [replace(node, ctx.text(args[0]!))],
      description: `\`${ctx.text(fn ?? node)}(…)\` taken away`,
      at: node,
      // With keywords (`key=`), the call does more than order or copy: after the plain ones.
      weight: args.length > 1 ? 2 : 0,
    });
  }
  if (fn && (fn.type === 'member_expression' || fn.type === 'attribute')) {
    const object = childByField(fn, 'object');
    const method = childByField(fn, ctx.python ? 'attribute' : 'property');
    // `xs.map((b) => ({ ...b }))` → `[...xs]`: a copy of the array, not of the objects a later write must reach.
    if (object && method && !ctx.python && ctx.text(method) === 'map')
      out.push({
        operator: 'unwrap-call',
        edits: [replace(node, `[...${ctx.text(object)}]`)],
        description: `\`.map(…)\` made a copy of the array`,
        at: node,
        weight: 1,
      });
    if (object && method)
      out.push({
        operator: 'unwrap-call',
        edits: [replace(node, ctx.text(object))],
        description: `\`.${ctx.text(method)}(…)\` taken away`,
        at: node,
        weight: 1,
      });
  }
  return out;
}

/** An expression replaced by one of its parts: a tie key `(count, name)` by `count`, `a or b` by `a`, `-x` by `x`. */
export function keepPart(node: SyntaxNode, ctx: Context): Proposal[] {
  const parts: SyntaxNode[] = [];
  if (['tuple', 'array', 'parenthesized_expression'].includes(node.type)) parts.push(...namedChildren(node));
  else if (['boolean_operator', 'unary_operator', 'not_operator', 'unary_expression'].includes(node.type))
    parts.push(...namedChildren(node));
  else if (node.type === 'binary_expression' && ['||', '&&', '??'].includes(ctx.text(childByField(node, 'operator')!)))
    parts.push(...namedChildren(node));
  else if (node.type === 'conditional_expression' || node.type === 'ternary_expression')
    parts.push(...namedChildren(node).slice(node.type === 'ternary_expression' ? 1 : 0));
  if (node.type === 'parenthesized_expression' || parts.length === 0) return [];
  return parts.map((part, i) => ({
    operator: 'keep-part',
    edits: [replace(node, ctx.text(part))],
    description: `\`${ctx.text(node)}\` made \`${ctx.text(part)}\``,
    at: node,
    weight: i,
  }));
}

/**
 * `x - 1` → `max(0, x - 1)`, `x -= 1` → `x = max(0, x - 1)`, `x--` → `x = Math.max(0, x - 1)`: a count that cannot
 * go below 0. A BigInt count (`x - 1n`, which Math.max refuses) gets `x >= 1n ? x - 1n : 0n`.
 */
export function floor(node: SyntaxNode, ctx: Context): Proposal[] {
  const max = ctx.python ? 'max' : 'Math.max';
  const text = ctx.text(node);
  const proposal = (edit: TextEdit): Proposal[] => [
    { operator: 'floor', edits: [edit], description: `a floor at 0 for \`${text}\``, at: node, weight: 0 },
  ];
  const floored = (left: string, right: string): string =>
    !ctx.python && /^\d+n$/.test(right)
      ? `${left} >= ${right} ? ${left} - ${right} : 0n`
      : `${max}(0, ${left} - ${right})`;
  if (node.type === 'binary_operator' || node.type === 'binary_expression') {
    const op = childByField(node, 'operator');
    const left = childByField(node, 'left');
    const right = childByField(node, 'right');
    if (op && left && right && ctx.text(op) === '-') {
      const bigint = !ctx.python && /^\d+n$/.test(ctx.text(right));
      return proposal(replace(node, bigint ? `(${floored(ctx.text(left), ctx.text(right))})` : `${max}(0, ${text})`));
    }
  }
  if (node.type === 'augmented_assignment' || node.type === 'augmented_assignment_expression') {
    const left = childByField(node, 'left');
    const op = childByField(node, 'operator');
    const right = childByField(node, 'right');
    // `counts -= Counter([name])` drops every entry that reaches 0 (and never makes one): one entry floored instead.
    const one = ctx.python && right ? /^(?:collections\.)?Counter\(\[([^,\]]+)\]\)$/.exec(ctx.text(right)) : null;
    if (left && one) {
      const entry = `${ctx.text(left)}[${one[1]}]`;
      return proposal(replace(node, `${entry} = max(0, ${entry} - 1)`));
    }
    if (left && op && right && ctx.text(op) === '-=')
      return proposal(replace(node, `${ctx.text(left)} = ${floored(ctx.text(left), ctx.text(right))}`));
  }
  if (node.type === 'update_expression' && text.includes('--')) {
    const target = text.replace('--', '').trim();
    return proposal(replace(node, `${target} = ${max}(0, ${target} - 1)`));
  }
  return [];
}

/** `min(xs, key=…)` → `min(xs, key=…, default=None)`; in JavaScript, `.reduce(f)` on an empty array gets a guard. */
export function guardEmpty(node: SyntaxNode, ctx: Context): Proposal[] {
  if (!CALLS.has(node.type)) return [];
  const fn = childByField(node, 'function');
  const args = childByField(node, 'arguments');
  if (!fn || !args) return [];
  const name = ctx.text(fn);
  if (ctx.python && (name === 'min' || name === 'max') && !ctx.text(args).includes('default=')) {
    const close = args.end - 1;
    return [
      {
        operator: 'guard-empty',
        edits: [{ start: close, end: close, text: ', default=None' }],
        description: `\`${name}\` of an empty pool gives None`,
        at: node,
        weight: 0,
      },
    ];
  }
  if (!ctx.python && fn.type === 'member_expression' && /\.reduce$/.test(name)) {
    const object = childByField(fn, 'object');
    if (object)
      return [
        {
          operator: 'guard-empty',
          edits: [replace(node, `(${ctx.text(object)}.length === 0 ? undefined : ${ctx.text(node)})`)],
          description: `\`${name}\` of an empty pool gives undefined`,
          at: node,
          weight: 0,
        },
      ];
  }
  return [];
}

/**
 * Ties broken by the name, then (Python): `min(xs, key=f)` → `min(xs, key=lambda x: (f(x), x))`, the lambda's
 * own body made `(body, x)`; and a random pick among the tied, `random.choice(ts)`, made `min(ts)`.
 */
export function tieKey(node: SyntaxNode, ctx: Context): Proposal[] {
  if (!ctx.python || node.type !== 'call') return [];
  const fn = childByField(node, 'function');
  const args = callArguments(node);
  if (!fn) return [];
  const name = ctx.text(fn);
  const proposal = (edit: TextEdit, what: string): Proposal[] => [
    { operator: 'tie-key', edits: [edit], description: what, at: node, weight: 0 },
  ];
  if (/(^|\.)choice$/.test(name) && args.length === 1)
    return proposal(
      replace(node, `min(${ctx.text(args[0]!)})`),
      `\`${name}(…)\` made \`min(…)\`: ties to the first name`,
    );
  if (!['min', 'max', 'sorted'].includes(name)) return [];
  const key = args.find((a) => a.type === 'keyword_argument' && ctx.text(childByField(a, 'name') ?? a) === 'key');
  const value = key && childByField(key, 'value');
  if (!value) return [];
  if (value.type === 'lambda') {
    const params = childByField(value, 'parameters');
    const body = childByField(value, 'body');
    if (!params || !body || body.type === 'tuple') return [];
    return proposal(
      replace(body, `(${ctx.text(body)}, ${ctx.text(params)})`),
      `ties in \`${name}\` broken by the name`,
    );
  }
  const getter = /^(.*)\.(__getitem__|get)$/.exec(ctx.text(value));
  return [
    ...proposal(
      replace(value, `lambda item: (${ctx.text(value)}(item), item)`),
      `ties in \`${name}\` broken by the name`,
    ),
    // `key=d.__getitem__` / `key=d.get` read through the dict: a missing entry read as 0 with it.
    ...(getter
      ? proposal(
          replace(value, `lambda item: (${getter[1]}.get(item, 0), item)`),
          `ties in \`${name}\` broken by the name, a missing entry read as 0`,
        )
      : []),
  ];
}

/**
 * A random pick among the tied made a fixed one: `random.choice(ts)` → `ts[0]` (the first tied, in the order the
 * list was built: the pool's); `Math.random()`, `random.random()` → `0` (the first index) or just under 1 (the
 * last index, and a reservoir that never replaces its first); `random.randrange(n)` → `0` or `n - 1`.
 */
export function randomTie(node: SyntaxNode, ctx: Context): Proposal[] {
  if (!CALLS.has(node.type)) return [];
  const fn = childByField(node, 'function');
  if (!fn) return [];
  const name = ctx.text(fn);
  const args = callArguments(node);
  const proposal = (text: string, what: string, weight: number): Proposal => ({
    operator: 'random-tie',
    edits: [replace(node, text)],
    description: `\`${ctx.text(node)}\` made \`${text}\`: ${what}`,
    at: node,
    weight,
  });
  const plain = args.every((a) => a.type !== 'keyword_argument' && a.type !== 'list_splat');
  if (ctx.python && /(^|\.)choice$/.test(name) && args.length === 1 && plain)
    return [proposal(`${ctx.text(args[0]!)}[0]`, 'ties to the first tied', 0)];
  if (ctx.python && /(^|\.)randrange$/.test(name) && plain && (args.length === 1 || args.length === 2)) {
    const [low, high] = args.length === 1 ? ['0', ctx.text(args[0]!)] : [ctx.text(args[0]!), ctx.text(args[1]!)];
    return [proposal(low, 'the first index', 0), proposal(`(${high}) - 1`, 'the last index', 1)];
  }
  if (ctx.python && /(^|\.)randint$/.test(name) && plain && args.length === 2)
    return [proposal(ctx.text(args[0]!), 'the first index', 0), proposal(ctx.text(args[1]!), 'the last index', 1)];
  const random = ctx.python ? /(^|\.)random$/.test(name) && name !== 'random' : name === 'Math.random';
  if (random && args.length === 0)
    return [proposal('0', 'the first index', 0), proposal('0.9999999999', 'the last index', 1)];
  return [];
}
