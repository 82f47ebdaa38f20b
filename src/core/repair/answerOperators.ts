/**
 * Code that is not there, written from the lesson's own answer: where the model answered `EMPTY` (or `ERROR
 * ValueError`) and the program crashed or answered otherwise, a guard before the statement that takes from an
 * empty collection (`if not under: return "EMPTY"`, `if (backends.length === 0) throw new RangeError(…)`), or the
 * statement itself replaced by that answer (a fallback that picks where there is nothing to pick). The answer
 * comes from the failing transcript (Context.answers); how it is given back (returned, printed, raised) from
 * what the function around it already does.
 */
import { childByField, indentAt, namedChildren, walk, type SyntaxNode } from './tree';
import { CALLS, STATEMENT_PARENTS, callArguments, replace, type Context, type Proposal } from './proposal';
import { ownLineStatements } from './statementOperators';

const FUNCTIONS = new Set([
  'function_definition',
  'function_declaration',
  'method_definition',
  'arrow_function',
  'function_expression',
  'function',
]);
/** JavaScript's own error classes; a Python-style name (`ValueError`) is thrown as the nearest, a RangeError. */
const JS_ERRORS = new Set(['Error', 'RangeError', 'TypeError', 'ReferenceError', 'SyntaxError']);
const MESSAGE = 'nothing to choose from';
/** Calls that fail, or answer nothing useful, on an empty collection: Python's by name, JavaScript's by method. */
const PY_TAKES_FIRST = new Set(['min', 'max', 'sorted', 'choice', 'random.choice', 'next']);
const PY_TAKES_SECOND = new Set(['reduce', 'functools.reduce']);
const JS_TAKES = new Set(['reduce', 'reduceRight', 'sort', 'toSorted', 'at']);
const COLLECTION = new Set(['identifier', 'member_expression', 'attribute', 'subscript']);

/** The innermost function around a node, found from the root (operators see only a node and its parent). */
export function enclosingFunction(root: SyntaxNode, node: SyntaxNode): SyntaxNode | undefined {
  let found: SyntaxNode | undefined;
  let at: SyntaxNode | undefined = root;
  while (at) {
    if (FUNCTIONS.has(at.type) && at !== node) found = at;
    at = at.children.find((c) => c.start <= node.start && node.end <= c.end && c !== node);
  }
  return found;
}

/** A statement's own nodes: not those of the functions (a callback) or the blocks (an `if`'s body) inside it. */
function* outsideFunctions(node: SyntaxNode): Generator<SyntaxNode> {
  yield node;
  for (const child of node.children)
    if (!FUNCTIONS.has(child.type) && !STATEMENT_PARENTS.has(child.type) && !child.type.endsWith('_clause'))
      yield* outsideFunctions(child);
}

/** The collections a statement takes from that an empty one breaks: `min(xs)`, `xs.reduce(f)`, `[...xs]`, `xs[0]`. */
function consumed(statement: SyntaxNode, ctx: Context): string[] {
  const out: string[] = [];
  const add = (node: SyntaxNode | undefined): void => {
    if (!node || !COLLECTION.has(node.type) || [...walk(node)].some((n) => CALLS.has(n.type))) return;
    if (node.type === 'subscript' && !/^["']/.test(ctx.text(childByField(node, 'subscript') ?? node))) return;
    if (!out.includes(ctx.text(node))) out.push(ctx.text(node));
  };
  if (['for_statement', 'for_in_statement'].includes(statement.type)) add(childByField(statement, 'right'));
  for (const node of outsideFunctions(statement)) {
    const fn = childByField(node, 'function');
    const positional = callArguments(node).filter((a) => a.type !== 'keyword_argument');
    if (ctx.python && node.type === 'call' && fn) {
      if (PY_TAKES_FIRST.has(ctx.text(fn))) add(positional[0]);
      if (PY_TAKES_SECOND.has(ctx.text(fn))) add(positional[1]);
    } else if (!ctx.python && node.type === 'call_expression' && fn?.type === 'member_expression') {
      if (JS_TAKES.has(ctx.text(childByField(fn, 'property') ?? fn))) add(childByField(fn, 'object'));
    } else if (node.type === 'spread_element') add(namedChildren(node)[0]);
    else if (['subscript', 'subscript_expression'].includes(node.type)) {
      const index = childByField(node, ctx.python ? 'subscript' : 'index');
      if (index && ['0', '-1'].includes(ctx.text(index))) add(childByField(node, ctx.python ? 'value' : 'object'));
    }
  }
  return out.slice(0, 2);
}

/** `EMPTY` when the file names the answer so (`EMPTY = "EMPTY"`, `const EMPTY = 'EMPTY'`), else the string. */
function literal(ctx: Context, answer: string): string {
  const escaped = answer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const named = new RegExp(
    `^(?:export )?(?:const |let |var )?([A-Z][A-Z0-9_]*)\\s*(?::[^=\\n]+)?=\\s*(['"])${escaped}\\2`,
    'm',
  ).exec(ctx.file.source);
  if (named) return named[1]!;
  return ctx.python ? JSON.stringify(answer) : `'${answer.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

interface Delivery {
  /** The statements, one a line. */
  readonly lines: readonly string[];
  readonly what: string;
  readonly weight: number;
}

/** How the function gives the answer back: raised for an error answer, else returned and/or printed. */
function deliveries(ctx: Context, answer: string, fn: SyntaxNode): Delivery[] {
  const error = /\b([A-Z][A-Za-z]*Error)\b/.exec(answer)?.[1];
  if (error) {
    const thrown = ctx.python || JS_ERRORS.has(error) ? error : 'RangeError';
    const line = ctx.python ? `raise ${thrown}("${MESSAGE}")` : `throw new ${thrown}('${MESSAGE}');`;
    return [{ lines: [line], what: `raises ${thrown}`, weight: 0 }];
  }
  const lit = literal(ctx, answer);
  const body = ctx.text(fn);
  const prints = /\bprint\(|console\.log\(|stdout\.write\(/.test(body);
  const returns = [...walk(fn)].some((n) => n.type === 'return_statement' && namedChildren(n).length > 0);
  const out: Delivery[] = [];
  const returned = { lines: [ctx.python ? `return ${lit}` : `return ${lit};`], what: `returns ${lit}` };
  const printed = {
    lines: ctx.python ? [`print(${lit})`, 'return'] : [`console.log(${lit});`, 'return;'],
    what: `prints ${lit}`,
  };
  if (returns || !prints) out.push({ ...returned, weight: 0 });
  if (prints) out.push({ ...printed, weight: returns ? 1 : 0 });
  return out;
}

/** `if not xs:` / `if (xs.length === 0)` and the answer, as lines at the statement's indentation. */
function guard(ctx: Context, collection: string, delivery: Delivery, indent: string): string {
  if (ctx.python)
    return [`${indent}if not ${collection}:`, ...delivery.lines.map((l) => `${indent}    ${l}`)].join('\n');
  const body = delivery.lines.length === 1 ? delivery.lines[0]! : `{ ${delivery.lines.join(' ')} }`;
  return `${indent}if (${collection}.length === 0) ${body}`;
}

const REPLACEABLE = new Set(['return_statement', 'expression_statement']);

/** For each statement of a block: a guard before it for the collections it takes from, or it made the answer. */
export function answerGuard(block: SyntaxNode, ctx: Context): Proposal[] {
  if (ctx.answers.length === 0 || !STATEMENT_PARENTS.has(block.type)) return [];
  const statements = ownLineStatements(block, ctx.file.source);
  if (!statements) return [];
  const out: Proposal[] = [];
  for (const statement of statements) {
    const fn = enclosingFunction(ctx.file.root, statement);
    if (!fn) continue;
    const indent = indentAt(ctx.file.source, statement.start);
    const lineStart = statement.start - indent.length;
    for (const answer of ctx.answers)
      for (const delivery of deliveries(ctx, answer, fn)) {
        for (const collection of consumed(statement, ctx))
          out.push({
            operator: 'answer-guard',
            edits: [{ start: lineStart, end: lineStart, text: `${guard(ctx, collection, delivery, indent)}\n` }],
            description: `an empty \`${collection}\` ${delivery.what}`,
            at: statement,
            weight: delivery.weight,
          });
        if (REPLACEABLE.has(statement.type))
          out.push({
            operator: 'answer-guard',
            edits: [{ start: statement.start, end: statement.end, text: delivery.lines.join(`\n${indent}`) }],
            description: `\`${ctx.text(statement).split('\n')[0]}\` made: ${delivery.what}`,
            at: statement,
            weight: delivery.weight + 1,
          });
      }
  }
  return out;
}

/** The first condition of `xs.filter((p) => A && B)` / `[p for p in xs if A and B]`: the list, the name, A. */
function firstCondition(made: SyntaxNode, ctx: Context): { list: string; name: string; part: string } | undefined {
  let body: SyntaxNode | undefined;
  let list: SyntaxNode | undefined;
  let name: SyntaxNode | undefined;
  if (ctx.python && made.type === 'list_comprehension') {
    const clause = namedChildren(made).find((c) => c.type === 'for_in_clause');
    [list, name] = [clause && childByField(clause, 'right'), clause && childByField(clause, 'left')];
    body = namedChildren(namedChildren(made).find((c) => c.type === 'if_clause') ?? made)[0];
  } else if (!ctx.python && made.type === 'call_expression') {
    const fn = childByField(made, 'function');
    const callback = callArguments(made)[0];
    if (fn?.type !== 'member_expression' || ctx.text(childByField(fn, 'property')!) !== 'filter') return undefined;
    list = childByField(fn, 'object');
    name =
      callback &&
      (childByField(callback, 'parameter') ?? namedChildren(childByField(callback, 'parameters') ?? callback)[0]);
    body = callback && childByField(callback, 'body');
    // TypeScript's parameter is a `required_parameter` around the name.
    if (name?.type === 'required_parameter') name = childByField(name, 'pattern');
  }
  const and = ctx.python ? 'and' : '&&';
  if (!body || !list || name?.type !== 'identifier') return undefined;
  let part = body;
  while (
    ['boolean_operator', 'binary_expression'].includes(part.type) &&
    ctx.text(childByField(part, 'operator')!) === and
  )
    part = childByField(part, 'left')!;
  return part === body ? undefined : { list: ctx.text(list), name: ctx.text(name), part: ctx.text(part) };
}

/**
 * An empty filtered list answered one way (`if (open.length === 0) return EMPTY;`) where the model tells two cases
 * apart by the filter's first condition (nothing healthy: EMPTY; healthy but full: BUSY): the model's answer
 * first, when some (or none) of the list meets that condition.
 */
export function splitAnswer(block: SyntaxNode, ctx: Context): Proposal[] {
  if (ctx.answers.length === 0 || !STATEMENT_PARENTS.has(block.type)) return [];
  const out: Proposal[] = [];
  for (const statement of ownLineStatements(block, ctx.file.source) ?? []) {
    const condition = statement.type === 'if_statement' ? ctx.text(childByField(statement, 'condition')!) : '';
    const empty = (ctx.python ? /^not (\w+)$/ : /^\(?(\w+)\.length === 0\)?$/).exec(condition)?.[1];
    const fn = empty && enclosingFunction(ctx.file.root, statement);
    const made =
      fn &&
      [...walk(fn)].find(
        (n) =>
          /assignment|variable_declarator/.test(n.type) &&
          ctx.text(childByField(n, 'left') ?? childByField(n, 'name') ?? n) === empty,
      );
    const value = made && (childByField(made, 'right') ?? childByField(made, 'value'));
    const first = value && firstCondition(value, ctx);
    if (!first) continue;
    const indent = indentAt(ctx.file.source, statement.start);
    const some = ctx.python
      ? `any(${first.part} for ${first.name} in ${first.list})`
      : `${first.list}.some((${first.name}) => ${first.part})`;
    for (const answer of ctx.answers)
      for (const delivery of deliveries(ctx, answer, fn))
        for (const [test, weight] of [
          [some, 0],
          [ctx.python ? `not ${some}` : `!${some}`, 1],
        ] as const) {
          const both = ctx.python ? `not ${empty} and ${test}` : `${empty}.length === 0 && ${test}`;
          const text = ctx.python
            ? [`if ${both}:`, ...delivery.lines.map((l) => `${indent}    ${l}`)].join('\n')
            : `if (${both}) ${delivery.lines.length === 1 ? delivery.lines[0] : `{ ${delivery.lines.join(' ')} }`}`;
          out.push({
            operator: 'answer-guard',
            edits: [{ start: statement.start, end: statement.start, text: `${text}\n${indent}` }],
            description: `an empty \`${empty}\` ${delivery.what} when ${test}`,
            at: statement,
            weight: weight + delivery.weight,
          });
        }
  }
  return out;
}

/** A return of a constant (`return BUSY`, `return "EMPTY"`): the constant's text. */
function returnedConstant(statement: SyntaxNode, ctx: Context): SyntaxNode | undefined {
  if (statement.type !== 'return_statement') return undefined;
  const value = namedChildren(statement)[0];
  const isConstant = value && (/^[A-Z][A-Z0-9_]*$/.test(ctx.text(value)) || value.type === 'string');
  return isConstant ? value : undefined;
}

/**
 * `return BUSY` made `return EMPTY`, another answer the same function gives: two answers the wrong way round
 * (each swap is one edit; the search merges the two that each come closer).
 */
export function otherAnswer(statement: SyntaxNode, ctx: Context): Proposal[] {
  const value = ctx.answers.length ? returnedConstant(statement, ctx) : undefined;
  const fn = value && enclosingFunction(ctx.file.root, statement);
  if (!value || !fn) return [];
  const others = new Set<string>();
  for (const node of walk(fn)) {
    const other = returnedConstant(node, ctx);
    if (other && ctx.text(other) !== ctx.text(value)) others.add(ctx.text(other));
  }
  return [...others].map((other) => ({
    operator: 'answer-guard' as const,
    edits: [replace(value, other)],
    description: `\`${ctx.text(statement)}\` made \`return ${other}\``,
    at: statement,
    weight: 1,
  }));
}
