/**
 * State that must start again or entries that must not be written (src/core/repair/freshStateOperators.ts,
 * dropWriteOperators.ts, stateOperators.ts): a shared container made each instance's own, a module-level one
 * emptied by the reset, a reload that carries a value over, a write of 0 entries taken out with the reads it
 * propped up, a read that stores its 0. Snippets written as learners write them (the real-style corpus's shapes);
 * each fix is in the search's first round of 16 edits for its mistake at the located line. Without the operators
 * none of these fixes is proposed at all.
 */
import { assertProposed } from './repairProposed';

describe('repair: state kept or written where it should not be', function () {
  this.timeout(20_000);

  it('gives each instance a fresh container instead of a module-level or static one (JavaScript, TypeScript)', async () => {
    const js = [
      "'use strict';",
      '',
      'const active = new Map();',
      '',
      'class ConnCounts {',
      '  constructor() {',
      '    this.active = active;',
      '  }',
      '}',
      '',
    ].join('\n');
    await assertProposed(
      'javascript',
      js,
      [{ mistake: 'shared-counts', lines: [7] }],
      js.replace('this.active = active', 'this.active = new Map()'),
    );
    const ts = [
      'export class ConnCounts {',
      '  private static readonly registry = new Map<string, number>();',
      '  readonly active: Map<string, number> = ConnCounts.registry;',
      '}',
      '',
    ].join('\n');
    await assertProposed(
      'typescript',
      ts,
      [{ mistake: 'shared-counts', lines: [3] }],
      ts.replace('= ConnCounts.registry', '= new Map<string, number>()'),
    );
  });

  it("makes a Python class attribute each instance's own, in a new or the existing __init__", async () => {
    const py = [
      'class ConnCounts:',
      '    """In-flight connections per backend name."""',
      '',
      '    active: dict[str, int] = {}',
      '',
      '',
      'def pick(counts, backends):',
      '    return min(backends, key=lambda b: (counts.active.get(b, 0), b))',
      '',
    ].join('\n');
    const fixed = py.replace(
      '    active: dict[str, int] = {}',
      '    active: dict[str, int] = {}\n\n    def __init__(self):\n        self.active = {}',
    );
    await assertProposed('python', py, [{ mistake: 'shared-counts', lines: [], functionLine: 1 }], fixed);
    const withInit = 'class Pool:\n    names = []\n\n    def __init__(self, cap):\n        self.cap = cap\n';
    const set = withInit.replace('        self.cap = cap', '        self.names = []\n        self.cap = cap');
    await assertProposed('python', withInit, [{ mistake: 'shared-counts', lines: [2] }], set);
  });

  it('empties a module-level container in the reset that forgot it (TypeScript Set)', async () => {
    const ts = [
      'const downNames = new Set<string>();',
      '',
      'class LeastConn {',
      '  private counts = new Map<string, number>();',
      '',
      '  reload(order: string[]): void {',
      '    this.order = [...order];',
      '    this.counts = new Map(order.map((name) => [name, 0]));',
      '  }',
      '}',
      '',
    ].join('\n');
    const fixed = ts.replace('    this.order = [', '    downNames.clear();\n    this.order = [');
    await assertProposed('typescript', ts, [{ mistake: 'pool-not-fresh', lines: [7, 8] }], fixed);
  });

  it('a balancer rebuilt for a new pool keeps the field the program set on the old one (JavaScript)', async () => {
    const js = [
      'class Balancer {',
      '  constructor(pool, { cap = 0 } = {}) {',
      '    this.pool = [...pool];',
      '    this.cap = cap;',
      '  }',
      '}',
      '',
      'let balancer = new Balancer([]);',
      'function handle(command, args) {',
      "  if (command === 'POOL') balancer = new Balancer(args);",
      "  else if (command === 'CAP') balancer.cap = Number(args[0]);",
      '}',
      '',
    ].join('\n');
    await assertProposed(
      'javascript',
      js,
      [{ mistake: 'pool-drops-cap', lines: [3, 4] }],
      js.replace(
        'balancer = new Balancer(args);',
        'balancer = Object.assign(new Balancer(args), { cap: balancer.cap });',
      ),
    );
  });

  it('starts a reloaded count again instead of carrying it over (Python dict.get, JavaScript ??)', async () => {
    const py = [
      '    def reload(self, names):',
      '        self.pool = list(names)',
      '        self.in_flight = {name: self.in_flight.get(name, 0) for name in self.pool}',
    ].join('\n');
    const cls = `class Balancer:\n${py}\n`;
    await assertProposed(
      'python',
      cls,
      [{ mistake: 'stale-counts', lines: [3, 4] }],
      cls.replace('self.in_flight.get(name, 0) for', '0 for'),
    );
    const js = 'function reload(names) {\n  counts = new Map(names.map((n) => [n, counts.get(n) ?? 0]));\n}\n';
    await assertProposed(
      'javascript',
      js,
      [{ mistake: 'stale-counts', lines: [2] }],
      js.replace('counts.get(n) ?? 0]', '0]'),
    );
  });

  it('takes out a write of 0 entries with the reads it propped up (JavaScript pick, done returning early)', async () => {
    const pick = [
      'function pick(counts, backends) {',
      '  for (const b of backends) {',
      '    if (!counts.active.has(b)) counts.active.set(b, 0);',
      '  }',
      '  let best = backends[0];',
      '  for (const b of backends) {',
      '    const [n, m] = [counts.active.get(b), counts.active.get(best)];',
      '    if (n < m || (n === m && b < best)) best = b;',
      '  }',
      '  return best;',
      '}',
      '',
    ].join('\n');
    const dropped = pick
      .replace('  for (const b of backends) {\n    if (!counts.active.has(b)) counts.active.set(b, 0);\n  }\n', '')
      .replace(
        '[counts.active.get(b), counts.active.get(best)]',
        '[(counts.active.get(b) ?? 0), (counts.active.get(best) ?? 0)]',
      );
    await assertProposed('javascript', pick, [{ mistake: 'pick-writes', lines: [2, 3] }], dropped);
    const done = [
      'function connection_closed(counts, backend) {',
      '  if (!counts.active.has(backend)) return;',
      '  counts.active.set(backend, Math.max(0, counts.active.get(backend) - 1));',
      '}',
      '',
    ].join('\n');
    const kept = done
      .replace('  if (!counts.active.has(backend)) return;\n', '')
      .replace('Math.max(0, counts.active.get(backend) - 1)', 'Math.max(0, (counts.active.get(backend) ?? 0) - 1)');
    await assertProposed('javascript', done, [{ mistake: 'unseen-close', lines: [2] }], kept);
  });

  it('reads a missing entry as 0 and stores it (Python, a close that must leave an entry)', async () => {
    const py =
      'def connection_closed(counts, backend):\n    if counts.active[backend] > 0:\n        counts.active[backend] -= 1\n';
    await assertProposed(
      'python',
      py,
      [{ mistake: 'unseen-close', lines: [2] }],
      py.replace('if counts.active[backend] > 0', 'if counts.active.setdefault(backend, 0) > 0'),
    );
  });
});
