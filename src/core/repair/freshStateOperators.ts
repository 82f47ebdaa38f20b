/**
 * State that must start again: one container shared by every instance or kept over a reset. An instance that
 * takes a module-level or static container (`this.active = active`, `active = ConnCounts.registry`) gets a fresh
 * one of its own (the container's own initialiser); a Python class attribute holding a container becomes an
 * instance attribute set in `__init__`; a module-level container a reset never empties is cleared at the start
 * of the function (`downNames.clear()`); a reload that carries a value over (`d.get(k, 0)`, `m.get(k) ?? 0`)
 * takes the fresh value.
 */
import { childByField, namedChildren, walk, type SyntaxNode } from './tree';
import { CALLS, callArguments, replace, type Context, type Proposal } from './proposal';

const JS_FRESH = /^(new\s+(Map|Set|Array|WeakMap|WeakSet)\b[\s\S]*|\{\s*\}|\[\s*\])$/;
const PY_FRESH =
  /^(\{\s*\}|\[\s*\]|(dict|list|set|Counter|defaultdict|OrderedDict|deque|collections\.\w+)\([\s\S]*\))$/;
const FUNCTION_BODIES = new Set(['function_definition', 'function_declaration', 'method_definition']);

const isFresh = (ctx: Context, text: string): boolean => (ctx.python ? PY_FRESH : JS_FRESH).test(text.trim());

/** A module-level container: its name and its initialiser (`const active = new Map()`, `_ACTIVE = {}`). */
function moduleContainers(ctx: Context): Map<string, string> {
  const out = new Map<string, string>();
  for (const top of namedChildren(ctx.file.root)) {
    const statement = top.type === 'export_statement' ? namedChildren(top)[0] : top;
    if (!statement) continue;
    if (ctx.python && statement.type === 'expression_statement') {
      const assignment = namedChildren(statement)[0];
      const [left, right] = [childByField(assignment!, 'left'), childByField(assignment!, 'right')];
      if (assignment?.type === 'assignment' && left?.type === 'identifier' && right && isFresh(ctx, ctx.text(right)))
        out.set(ctx.text(left), ctx.text(right));
    } else if (!ctx.python && ['lexical_declaration', 'variable_declaration'].includes(statement.type)) {
      for (const declarator of namedChildren(statement)) {
        const [name, value] = [childByField(declarator, 'name'), childByField(declarator, 'value')];
        if (name?.type === 'identifier' && value && isFresh(ctx, ctx.text(value)))
          out.set(ctx.text(name), ctx.text(value));
      }
    }
  }
  return out;
}

/** A class's static container fields, by `Class.field` (`static readonly registry = new Map()`, Python class body). */
function staticContainers(ctx: Context): Map<string, string> {
  const out = new Map<string, string>();
  for (const node of walk(ctx.file.root)) {
    if (!['class_declaration', 'class_definition', 'class'].includes(node.type)) continue;
    const className = childByField(node, 'name');
    const body = childByField(node, 'body');
    if (!className || !body) continue;
    for (const member of namedChildren(body)) {
      const field = classField(member, ctx);
      if (field && (ctx.python || /^static\b|\sstatic\s/.test(` ${ctx.text(member)}`)))
        out.set(`${ctx.text(className)}.${field.name}`, field.init);
    }
  }
  return out;
}

/** A container field of a class body: `x = {}` (Python, typed or not), `static x = new Map()` (JavaScript). */
function classField(member: SyntaxNode, ctx: Context): { name: string; init: string } | undefined {
  const assignment = ctx.python && member.type === 'expression_statement' ? namedChildren(member)[0] : member;
  if (!assignment) return undefined;
  const isField = ['assignment', 'public_field_definition', 'field_definition'].includes(assignment.type);
  const name = childByField(assignment, ctx.python ? 'left' : 'name') ?? childByField(assignment, 'property');
  const value = childByField(assignment, ctx.python ? 'right' : 'value');
  if (!isField || !name || !value || !['identifier', 'property_identifier'].includes(name.type)) return undefined;
  return isFresh(ctx, ctx.text(value)) ? { name: ctx.text(name), init: ctx.text(value) } : undefined;
}

/** `this.active = active` → `this.active = new Map()`: an instance's own container, not the shared one. */
export function freshState(node: SyntaxNode, ctx: Context): Proposal[] {
  const assigned = ['assignment', 'assignment_expression'].includes(node.type)
    ? childByField(node, 'right')
    : ['public_field_definition', 'field_definition'].includes(node.type)
      ? childByField(node, 'value')
      : undefined;
  if (!assigned || !['identifier', 'member_expression', 'attribute'].includes(assigned.type)) return [];
  const shared = ctx.text(assigned);
  const init = (assigned.type === 'identifier' ? moduleContainers(ctx) : staticContainers(ctx)).get(shared);
  if (!init) return [];
  return [
    {
      operator: 'fresh-state',
      edits: [replace(assigned, init)],
      description: `a fresh \`${init}\` of its own instead of the shared \`${shared}\``,
      at: node,
      weight: 0,
    },
  ];
}

/** A Python class attribute holding a container (one for every instance) set per instance in `__init__`. */
export function instanceAttribute(node: SyntaxNode, ctx: Context): Proposal[] {
  if (!ctx.python || node.type !== 'class_definition') return [];
  const body = childByField(node, 'body');
  if (!body) return [];
  const members = namedChildren(body);
  const init = members
    .map((m) => (m.type === 'decorated_definition' ? namedChildren(m).at(-1)! : m))
    .find((m) => m.type === 'function_definition' && ctx.text(childByField(m, 'name')!) === '__init__');
  const out: Proposal[] = [];
  for (const member of members) {
    const field = classField(member, ctx);
    if (!field) continue;
    const indent = ' '.repeat(member.start - ctx.file.source.lastIndexOf('\n', member.start - 1) - 1);
    const set = `self.${field.name} = ${field.init}`;
    const initBody = init && childByField(init, 'body');
    const first = initBody && namedChildren(initBody)[0];
    const edit = first
      ? { start: first.start, end: first.start, text: `${set}\n${indent}    ` }
      : { start: member.end, end: member.end, text: `\n\n${indent}def __init__(self):\n${indent}    ${set}` };
    out.push({
      operator: 'fresh-state',
      edits: [edit],
      description: `\`${field.name}\` made each instance's own (\`${set}\` in \`__init__\`)`,
      at: member,
      weight: 0,
    });
  }
  return out;
}

/** A module-level container cleared at the start of a function (the reset that forgot it): `downNames.clear()`. */
export function clearShared(node: SyntaxNode, ctx: Context): Proposal[] {
  if (!FUNCTION_BODIES.has(node.type)) return [];
  const body = childByField(node, 'body');
  const first = body && namedChildren(body).find((s) => s.type !== 'comment');
  if (!first) return [];
  const indent = ' '.repeat(first.start - ctx.file.source.lastIndexOf('\n', first.start - 1) - 1);
  const out: Proposal[] = [];
  for (const [name, init] of moduleContainers(ctx)) {
    const clear = !ctx.python && /^\[/.test(init) ? `${name}.length = 0;` : `${name}.clear()${ctx.python ? '' : ';'}`;
    if (ctx.text(body).includes(clear.replace(/;$/, ''))) continue;
    out.push({
      operator: 'fresh-state',
      edits: [{ start: first.start, end: first.start, text: `${clear}\n${indent}` }],
      description: `\`${name}\` emptied by \`${ctx.text(childByField(node, 'name') ?? node)}\``,
      at: node,
      weight: 1,
    });
  }
  return out;
}

/** A reload that keeps the old value: `d.get(k, 0)` → `0`, `m.get(k) ?? 0` → `0`. */
export function freshValue(node: SyntaxNode, ctx: Context): Proposal[] {
  let fresh: SyntaxNode | undefined;
  if (ctx.python && node.type === 'call' && callArguments(node).length === 2) {
    const fn = childByField(node, 'function');
    if (fn?.type === 'attribute' && ctx.text(childByField(fn, 'attribute')!) === 'get') fresh = callArguments(node)[1];
  } else if (!ctx.python && node.type === 'binary_expression' && ctx.text(childByField(node, 'operator')!) === '??') {
    const left = childByField(node, 'left');
    if (left && CALLS.has(left.type) && /\.get$/.test(ctx.text(childByField(left, 'function')!)))
      fresh = childByField(node, 'right');
  }
  if (!fresh) return [];
  return [
    {
      operator: 'rebuild-state',
      edits: [replace(node, ctx.text(fresh))],
      description: `\`${ctx.text(node)}\` starts again at \`${ctx.text(fresh)}\``,
      at: node,
      weight: 1,
    },
  ];
}

/** The class a file declares by this name, and its constructor (where the state a rebuild drops is set). */
function declaredClass(ctx: Context, name: string): SyntaxNode | undefined {
  for (const node of walk(ctx.file.root))
    if (['class_declaration', 'class'].includes(node.type) && ctx.text(childByField(node, 'name') ?? node) === name) {
      const body = childByField(node, 'body');
      return namedChildren(body ?? node).find(
        (m) => m.type === 'method_definition' && /^constructor\b/.test(ctx.text(m)),
      );
    }
  return undefined;
}

/**
 * `lb = new Lb(names)` where the program also sets `lb.limit = …` from outside: the rebuilt object keeps that field
 * (`Object.assign(new Lb(names), { limit: lb.limit })`), as a reset that must not drop it.
 */
export function carryField(node: SyntaxNode, ctx: Context): Proposal[] {
  if (ctx.python || node.type !== 'assignment_expression') return [];
  const [left, right] = [childByField(node, 'left'), childByField(node, 'right')];
  const made = right?.type === 'new_expression' ? ctx.text(childByField(right, 'constructor') ?? right) : undefined;
  const constructor = made && declaredClass(ctx, made);
  if (!left || left.type !== 'identifier' || !right || !constructor) return [];
  const object = ctx.text(left);
  const fields = new Set<string>();
  for (const n of walk(ctx.file.root)) {
    const target = n.type === 'assignment_expression' ? childByField(n, 'left') : undefined;
    if (target?.type === 'member_expression' && ctx.text(childByField(target, 'object')!) === object)
      fields.add(ctx.text(childByField(target, 'property')!));
  }
  return [...fields].slice(0, 2).map((field) => ({
    operator: 'rebuild-state' as const,
    edits: [replace(right, `Object.assign(${ctx.text(right)}, { ${field}: ${object}.${field} })`)],
    description: `the new \`${made}\` keeps \`${object}.${field}\``,
    // About what the constructor sets (and forgets): as near as the constructor is to the located lines.
    at: constructor,
    weight: 0,
  }));
}
