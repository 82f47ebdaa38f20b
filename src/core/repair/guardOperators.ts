/**
 * Guards around a statement that should not always run: a write to an entry only for a name that has one
 * (`if backend in counts:`, `if (m.has(k))`), a decrement only above 0 (`if self.conns > 0:`, for the counts
 * that wrap around as well as those that go negative), and a looked-up value used only when the lookup found
 * one (`if (!backend) return;`).
 */
import { childByField, indentAt, namedChildren, walk, type SyntaxNode } from './tree';
import { CALLS, STATEMENT_PARENTS, callArguments, type Context, type Proposal } from './proposal';
import { ownLineStatements } from './statementOperators';
import { enclosingFunction } from './answerOperators';

const TARGETS = new Set(['identifier', 'member_expression', 'attribute', 'subscript', 'subscript_expression']);

/** The statement wrapped in `if condition`: on its own line in JavaScript, an indented block in Python. */
function wrapped(ctx: Context, statement: SyntaxNode, condition: string): { start: number; end: number; text: string } {
  const text = ctx.text(statement);
  if (!ctx.python) return { start: statement.start, end: statement.end, text: `if (${condition}) ${text}` };
  const indent = indentAt(ctx.file.source, statement.start);
  return {
    start: statement.start,
    end: statement.end,
    text: `if ${condition}:\n${indent}    ${text.split('\n').join(`\n    `)}`,
  };
}

/** What a simple statement writes: the assignment's target, or a Map's `set(k, v)` (map, key, value). */
function written(
  statement: SyntaxNode,
  ctx: Context,
): { target?: SyntaxNode; map?: SyntaxNode; key?: SyntaxNode; value?: SyntaxNode; op?: string } | undefined {
  if (statement.type !== 'expression_statement') return undefined;
  const expression = namedChildren(statement)[0];
  if (!expression) return undefined;
  if (CALLS.has(expression.type)) {
    const fn = childByField(expression, 'function');
    const [key, value] = callArguments(expression);
    if (fn?.type !== 'member_expression' || ctx.text(childByField(fn, 'property')!) !== 'set' || !value)
      return undefined;
    return { map: childByField(fn, 'object')!, key: key!, value };
  }
  const target = childByField(expression, 'left') ?? childByField(expression, 'argument');
  if (!target || !TARGETS.has(target.type)) return undefined;
  const op = expression.children.find((c) => !c.named && /=|--|\+\+/.test(c.type))?.type;
  return { target, value: childByField(expression, 'right')!, ...(op ? { op } : {}) };
}

/** `counts[name] = …` only for a name that has an entry: `if name in counts:` / `if (counts.has(name))`. */
export function membershipGuard(block: SyntaxNode, ctx: Context): Proposal[] {
  if (!STATEMENT_PARENTS.has(block.type) || block.type === 'module' || block.type === 'program') return [];
  const out: Proposal[] = [];
  for (const statement of ownLineStatements(block, ctx.file.source) ?? []) {
    const write = written(statement, ctx);
    let condition: string | undefined;
    if (write?.map && write.key) condition = `${ctx.text(write.map)}.has(${ctx.text(write.key)})`;
    else if (write?.target && ['subscript', 'subscript_expression'].includes(write.target.type)) {
      const map = childByField(write.target, ctx.python ? 'value' : 'object');
      const key = childByField(write.target, ctx.python ? 'subscript' : 'index');
      if (map && key) condition = `${ctx.text(key)} in ${ctx.text(map)}`;
    }
    if (!condition) continue;
    out.push({
      operator: 'membership-guard',
      edits: [wrapped(ctx, statement, condition)],
      description: `\`${ctx.text(statement).split('\n')[0]}\` only when \`${condition}\``,
      at: statement,
      weight: 0,
    });
  }
  return out;
}

/** The count a decrementing statement lowers, as an expression to test: `self.conns`, `m.get(k)`, `Atomics.load(a, i)`. */
function lowered(statement: SyntaxNode, ctx: Context): string | undefined {
  const write = written(statement, ctx);
  if (write?.target) {
    const target = ctx.text(write.target);
    if (write.op === '-=' || write.op === '--') return target;
    const value = write.value && ctx.text(write.value);
    return value && value.includes(target) && /[-&%]/.test(value) ? target : undefined;
  }
  if (write?.map && write.key && write.value) {
    const read = `${ctx.text(write.map)}.get(${ctx.text(write.key)})`;
    return ctx.text(write.value).includes(read) && ctx.text(write.value).includes('-') ? read : undefined;
  }
  const call = namedChildren(statement)[0];
  if (statement.type === 'expression_statement' && call && CALLS.has(call.type)) {
    const [array, index] = callArguments(call);
    if (ctx.text(childByField(call, 'function')!) === 'Atomics.sub' && array && index)
      return `Atomics.load(${ctx.text(array)}, ${ctx.text(index)})`;
  }
  return undefined;
}

/** A decrement only above 0: `if self.conns > 0:` around it (a floor that also holds for a count that wraps). */
export function floorGuard(block: SyntaxNode, ctx: Context): Proposal[] {
  if (!STATEMENT_PARENTS.has(block.type) || block.type === 'module' || block.type === 'program') return [];
  const out: Proposal[] = [];
  for (const statement of ownLineStatements(block, ctx.file.source) ?? []) {
    const count = lowered(statement, ctx);
    if (!count) continue;
    out.push({
      operator: 'floor-guard',
      edits: [wrapped(ctx, statement, `${count} > 0`)],
      description: `\`${ctx.text(statement).split('\n')[0]}\` only when \`${count} > 0\``,
      at: statement,
      weight: 0,
    });
  }
  return out;
}

/** A local the statement reads a field of, assigned from a lookup that can find nothing (`.find(…)`, `.get(…)`). */
function lookedUp(statement: SyntaxNode, fn: SyntaxNode, ctx: Context): string[] {
  const fields = new Set<string>();
  for (const node of walk(statement))
    if (['member_expression', 'attribute'].includes(node.type)) {
      const object = childByField(node, 'object');
      if (object?.type === 'identifier') fields.add(ctx.text(object));
    }
  const text = ctx.text(fn);
  return [...fields].filter((name) => {
    const declared = new RegExp(`\\b${name}\\s*(?::[^=\\n]+)?=\\s*[^=\\n]*(\\.find|\\.get|next)\\(`).test(text);
    const tested = new RegExp(`\\b${name}\\s*(&&|is not None|is None|!==?|===?)|!\\s*${name}\\b`).test(
      ctx.text(statement),
    );
    return declared && !tested;
  });
}

/** `if (!backend) return;` before a statement that reads a field of what a lookup may not have found. */
export function missingGuard(block: SyntaxNode, ctx: Context): Proposal[] {
  if (!STATEMENT_PARENTS.has(block.type) || block.type === 'module' || block.type === 'program') return [];
  const out: Proposal[] = [];
  for (const statement of ownLineStatements(block, ctx.file.source) ?? []) {
    const fn = enclosingFunction(ctx.file.root, statement);
    if (!fn || /^(lexical_declaration|variable_declaration)$/.test(statement.type)) continue;
    const indent = indentAt(ctx.file.source, statement.start);
    for (const name of lookedUp(statement, fn, ctx)) {
      const guard = ctx.python
        ? `if ${name} is None:\n${indent}    return\n${indent}`
        : `if (!${name}) return;\n${indent}`;
      out.push({
        operator: 'membership-guard',
        edits: [{ start: statement.start, end: statement.start, text: guard }],
        description: `nothing done when \`${name}\` was not found`,
        at: statement,
        weight: 1,
      });
    }
  }
  return out;
}
