/**
 * No file under src/ imports a file that imports it back, directly or through others. A cycle makes the order
 * in which modules initialise matter, and it hides which file a concern really lives in. The graph is read
 * from the source text (every relative `import … from`, `export … from`, `import(…)` and `require(…)`), type
 * imports included: a type-only cycle still ties two files' meanings together.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const srcRoot = path.resolve(__dirname, '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const specifierPattern = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}\/[^'"]+)\1/gm;

export function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const targets = new Set<string>();
    for (const match of text.matchAll(specifierPattern)) {
      const base = path.resolve(path.dirname(file), match[2]);
      const target = [base, `${base}.ts`, path.join(base, 'index.ts')].find((candidate) => known.has(candidate));
      if (target) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Tarjan's strongly connected components; a component of more than one file is a cycle. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('import cycles under src/', () => {
  const files = sourceFiles(srcRoot);
  const graph = importGraph(files);

  it('reads the imports it is meant to judge (the graph is not empty)', () => {
    assert.ok(files.length > 80, `only ${files.length} files found under ${srcRoot}`);
    const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
    assert.ok(edges > files.length, `only ${edges} imports found`);
  });

  it('finds a cycle when there is one (the detector itself)', () => {
    const a = '/x/a.ts',
      b = '/x/b.ts',
      c = '/x/c.ts',
      d = '/x/d.ts';
    assert.deepEqual(
      cycles(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, [a]],
          [d, [a]],
        ]),
      ).map((cycle) => cycle.sort()),
      [[a, b, c]],
    );
    assert.deepEqual(
      cycles(
        new Map([
          [a, [b]],
          [b, []],
        ]),
      ),
      [],
    );
  });

  it('has no file that imports a file that imports it back', () => {
    const found = cycles(graph).map((cycle) =>
      cycle
        .map((file) => path.relative(srcRoot, file))
        .sort()
        .join(' ↔ '),
    );
    assert.deepEqual(found, []);
  });
});
