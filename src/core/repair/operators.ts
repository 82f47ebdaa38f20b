/**
 * Edit operators over a learner file's syntax tree: each proposes small edits that invert one kind of
 * mistake (a comparison flipped or made strict, min for max, a tie key dropped, a floor added, a statement
 * moved, a guard for an empty pool), or generic ones (a statement deleted, a condition made constant, an
 * expression replaced by one of its parts). They only propose: plan.ts orders them, the node side runs them.
 */
import type { Language } from '../pack/schema';
import {
  childByField,
  indentAt,
  namedChildren,
  textOf,
  walkWithParent,
  type ParsedFile,
  type SyntaxNode,
  type TextEdit,
} from './tree';

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
  | 'tie-key';

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

const COMPARISON_SWAPS: Record<string, readonly string[]> = {
  '<': ['<=', '>'],
  '<=': ['<', '>='],
  '>': ['>=', '<'],
  '>=': ['>', '<='],
  '==': ['!='],
  '!=': ['=='],
  '===': ['!=='],
  '!==': ['==='],
};
const LOGIC_SWAPS: Record<string, string> = { and: 'or', or: 'and', '&&': '||', '||': '&&' };
const STATEMENT_PARENTS = new Set(['block', 'statement_block', 'module', 'program', 'switch_case', 'else_clause']);
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
const CALLS = new Set(['call', 'call_expression']);
const CONDITIONED = new Set([
  'if_statement',
  'while_statement',
  'elif_clause',
  'conditional_expression',
  'ternary_expression',
]);

interface Context {
  readonly file: ParsedFile;
  readonly python: boolean;
  readonly text: (node: SyntaxNode) => string;
}

function context(file: ParsedFile): Context {
  return { file, python: file.language === 'python', text: (node) => textOf(file.source, node) };
}

const replace = (node: SyntaxNode, text: string): TextEdit => ({ start: node.start, end: node.end, text });

function flipComparison(node: SyntaxNode, ctx: Context): Proposal[] {
  if (node.named) return [];
  const swaps = COMPARISON_SWAPS[node.type];
  if (swaps) {
    return swaps.map((to, i) => ({
      operator: 'flip-comparison',
      edits: [replace(node, to)],
      description: `\`${node.type}\` made \`${to}\``,
      at: node,
      weight: i,
    }));
  }
  const logic = LOGIC_SWAPS[node.type];
  if (logic && ctx.text(node) === node.type)
    return [
      {
        operator: 'swap-logic',
        edits: [replace(node, logic)],
        description: `\`${node.type}\` made \`${logic}\``,
        at: node,
        weight: 1,
      },
    ];
  return [];
}

function swapMinMax(node: SyntaxNode, ctx: Context): Proposal[] {
  if (node.type !== 'identifier' && node.type !== 'property_identifier') return [];
  const name = ctx.text(node);
  const to = name === 'min' ? 'max' : name === 'max' ? 'min' : undefined;
  if (!to) return [];
  return [
    {
      operator: 'swap-min-max',
      edits: [replace(node, to)],
      description: `\`${name}\` made \`${to}\``,
      at: node,
      weight: 0,
    },
  ];
}

function callArguments(node: SyntaxNode): SyntaxNode[] {
  const args = childByField(node, 'arguments');
  return args ? namedChildren(args) : [];
}

/** `sorted(names)` → `names`, `[...names].sort()` → `[...names]`: an ordering or a copy that changes which tie wins. */
function unwrapCall(node: SyntaxNode, ctx: Context): Proposal[] {
  if (!CALLS.has(node.type)) return [];
  const out: Proposal[] = [];
  const args = callArguments(node);
  const fn = childByField(node, 'function');
  if (args.length === 1 && args[0]!.type !== 'keyword_argument' && args[0]!.type !== 'spread_element') {
    out.push({
      operator: 'unwrap-call',
      edits: [replace(node, ctx.text(args[0]!))],
      description: `\`${ctx.text(fn ?? node)}(…)\` taken away`,
      at: node,
      weight: 0,
    });
  }
  if (fn && (fn.type === 'member_expression' || fn.type === 'attribute')) {
    const object = childByField(fn, 'object');
    const method = childByField(fn, ctx.python ? 'attribute' : 'property');
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
function keepPart(node: SyntaxNode, ctx: Context): Proposal[] {
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

/** `x - 1` → `max(0, x - 1)`, `x -= 1` → `x = max(0, x - 1)`, `x--` → `x = Math.max(0, x - 1)`: a count that cannot go below 0. */
function floor(node: SyntaxNode, ctx: Context): Proposal[] {
  const max = ctx.python ? 'max' : 'Math.max';
  const text = ctx.text(node);
  const proposal = (edit: TextEdit): Proposal[] => [
    { operator: 'floor', edits: [edit], description: `a floor at 0 for \`${text}\``, at: node, weight: 0 },
  ];
  if (node.type === 'binary_operator' || node.type === 'binary_expression') {
    const op = childByField(node, 'operator');
    if (op && ctx.text(op) === '-') return proposal(replace(node, `${max}(0, ${text})`));
  }
  if (node.type === 'augmented_assignment' || node.type === 'augmented_assignment_expression') {
    const left = childByField(node, 'left');
    const op = childByField(node, 'operator');
    const right = childByField(node, 'right');
    if (left && op && right && ctx.text(op) === '-=')
      return proposal(replace(node, `${ctx.text(left)} = ${max}(0, ${ctx.text(left)} - ${ctx.text(right)})`));
  }
  if (node.type === 'update_expression' && text.includes('--')) {
    const target = text.replace('--', '').trim();
    return proposal(replace(node, `${target} = ${max}(0, ${target} - 1)`));
  }
  return [];
}

/** The statements of a block, when each starts and ends a line of its own (so moving lines moves them whole). */
function ownLineStatements(block: SyntaxNode, source: string): SyntaxNode[] | undefined {
  const statements = namedChildren(block).filter((s) => !s.type.endsWith('_clause') || s.type === 'else_clause');
  for (const s of statements) {
    const before = source.slice(source.lastIndexOf('\n', s.start - 1) + 1, s.start);
    const afterEnd = source.indexOf('\n', s.end);
    const after = source.slice(s.end, afterEnd < 0 ? source.length : afterEnd);
    if (before.trim() !== '' || !/^\s*;?\s*(\/\/.*|#.*)?$/.test(after)) return undefined;
  }
  return statements;
}

function lineSpan(source: string, node: SyntaxNode): { start: number; end: number } {
  const start = source.lastIndexOf('\n', node.start - 1) + 1;
  const newline = source.indexOf('\n', node.end);
  return { start, end: newline < 0 ? source.length : newline + 1 };
}

/** A statement moved up to 3 places within its block: an increment before the return or the next decision. */
function moveStatement(block: SyntaxNode, ctx: Context): Proposal[] {
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

function deleteStatement(block: SyntaxNode, ctx: Context): Proposal[] {
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

function conditions(node: SyntaxNode, ctx: Context): Proposal[] {
  if (!CONDITIONED.has(node.type)) return [];
  let condition = childByField(node, 'condition');
  if (!condition) return [];
  if (condition.type === 'parenthesized_expression' && !ctx.python)
    condition = namedChildren(condition)[0] ?? condition;
  const [yes, no] = ctx.python ? ['True', 'False'] : ['true', 'false'];
  const text = ctx.text(condition);
  const negated = ctx.python ? `not (${text})` : `!(${text})`;
  // A loop whose condition is made always true would only hang: not proposed.
  const always = node.type === 'while_statement' ? [] : [yes];
  return [
    ...always.map((value) => ({
      operator: 'constant-condition' as const,
      edits: [replace(condition!, value)],
      description: `\`${text}\` made \`${value}\``,
      at: condition!,
      weight: 1,
    })),
    {
      operator: 'constant-condition',
      edits: [replace(condition, no)],
      description: `\`${text}\` made \`${no}\``,
      at: condition,
      weight: 0,
    },
    {
      operator: 'negate-condition',
      edits: [replace(condition, negated)],
      description: `\`${text}\` negated`,
      at: condition,
      weight: 0,
    },
  ];
}

/** `min(xs, key=…)` → `min(xs, key=…, default=None)`; in JavaScript, `.reduce(f)` on an empty array gets a guard. */
function guardEmpty(node: SyntaxNode, ctx: Context): Proposal[] {
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

/** `counts.setdefault(name, 0)` → `counts[name] = 0`: a reset that starts every count again. */
function rebuildState(node: SyntaxNode, ctx: Context): Proposal[] {
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
function defaultEntry(node: SyntaxNode, ctx: Context, parent: SyntaxNode | null): Proposal[] {
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
    if (!isTarget) return [proposal(replace(node, read))];
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

/**
 * Ties broken by the name, then (Python): `min(xs, key=f)` → `min(xs, key=lambda x: (f(x), x))`, the lambda's
 * own body made `(body, x)`; and a random pick among the tied, `random.choice(ts)`, made `min(ts)`.
 */
function tieKey(node: SyntaxNode, ctx: Context): Proposal[] {
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
  return proposal(
    replace(value, `lambda item: (${ctx.text(value)}(item), item)`),
    `ties in \`${name}\` broken by the name`,
  );
}

function nudgeNumber(node: SyntaxNode, ctx: Context): Proposal[] {
  if (node.type !== 'integer' && node.type !== 'number') return [];
  const value = Number(ctx.text(node));
  if (!Number.isInteger(value) || Math.abs(value) > 1000) return [];
  return [value + 1, value - 1].map((to, i) => ({
    operator: 'nudge-number' as const,
    edits: [replace(node, String(to))],
    description: `\`${value}\` made \`${to}\``,
    at: node,
    weight: i,
  }));
}

const NODE_OPERATORS: ((node: SyntaxNode, ctx: Context, parent: SyntaxNode | null) => Proposal[])[] = [
  defaultEntry,
  tieKey,

  flipComparison,
  swapMinMax,
  unwrapCall,
  keepPart,
  floor,
  conditions,
  guardEmpty,
  rebuildState,
  nudgeNumber,
  moveStatement,
  deleteStatement,
];

/** Every proposal for the nodes `inScope` accepts (by their lines), in tree order. */
export function propose(file: ParsedFile, inScope: (node: SyntaxNode) => boolean): Proposal[] {
  const ctx = context(file);
  const out: Proposal[] = [];
  for (const { node, parent } of walkWithParent(file.root)) {
    const isBlock = STATEMENT_PARENTS.has(node.type);
    // A block is in scope through its statements; any other node by its own lines.
    if (!isBlock && !inScope(node)) continue;
    for (const operator of NODE_OPERATORS) {
      const proposals = operator(node, ctx, parent);
      out.push(...(isBlock ? proposals.filter((p) => inScope(p.at)) : proposals));
    }
  }
  return out;
}

export type { Language };
