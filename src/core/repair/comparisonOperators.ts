/**
 * Operators on comparisons and conditions: a comparison flipped or made strict, `and` for `or`, `min` for `max`,
 * a condition made constant or negated, a number nudged by one.
 */
import { childByField, namedChildren, type SyntaxNode } from './tree';
import { replace, type Context, type Proposal } from './proposal';

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
const CONDITIONED = new Set([
  'if_statement',
  'while_statement',
  'elif_clause',
  'conditional_expression',
  'ternary_expression',
]);

export function flipComparison(node: SyntaxNode, ctx: Context): Proposal[] {
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

export function swapMinMax(node: SyntaxNode, ctx: Context): Proposal[] {
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

export function conditions(node: SyntaxNode, ctx: Context): Proposal[] {
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

export function nudgeNumber(node: SyntaxNode, ctx: Context): Proposal[] {
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

/** `cap is not None` → `cap` (Python), `cap !== null` → `cap`: a 0 that means "no limit" tested as such. */
export function truthyTest(node: SyntaxNode, ctx: Context): Proposal[] {
  if (!['comparison_operator', 'binary_expression'].includes(node.type)) return [];
  const text = ctx.text(node);
  const match = ctx.python
    ? /^([\w.[\]"']+) is (not )?None$/.exec(text)
    : /^([\w.[\]"']+) (!==?|===?) (null|undefined)$/.exec(text);
  if (!match) return [];
  const negated = ctx.python ? !match[2] : match[2]!.startsWith('=');
  const to = negated ? (ctx.python ? `not ${match[1]}` : `!${match[1]}`) : match[1]!;
  return [
    {
      operator: 'truthy-test',
      edits: [replace(node, to)],
      description: `\`${text}\` made \`${to}\``,
      at: node,
      weight: 0,
    },
  ];
}
