/**
 * Code that is not there (src/core/repair/answerOperators.ts, guardOperators.ts): a guard for an empty pool that
 * gives the lesson model's own answer (from the failing transcript, never written per lesson), a fallback made
 * that answer, a write only for a name with an entry, a decrement only above 0, a lookup's miss. Snippets written
 * as learners write them (the real-style corpus's shapes); each fix is in the search's first round of 16 edits for
 * its mistake at the located line. Without the operators none of these fixes is proposed at all.
 */
import * as assert from 'node:assert/strict';
import { assertProposed, firstEdits } from './repairProposed';

describe('repair: code that is not there', function () {
  this.timeout(20_000);

  it("guards an empty pool with the model's answer: an error raised (TypeScript module, driver lesson)", async () => {
    const ts = [
      'export function pick(counts: ConnCounts, backends: readonly string[]): string {',
      '  const load = (b: string): number => counts.active.get(b) ?? 0;',
      '  return backends.reduce((best, b) => (load(b) < load(best) ? b : best));',
      '}',
      '',
    ].join('\n');
    const guard = "  if (backends.length === 0) throw new RangeError('nothing to choose from');\n";
    const fixed = ts.replace('  return backends', `${guard}  return backends`);
    await assertProposed(
      'typescript',
      ts,
      [{ mistake: 'empty-backends', lines: [3], answer: 'ERROR ValueError' }],
      fixed,
    );
    const py = 'def pick(counts, backends):\n    return min(backends, key=lambda b: (counts.active.get(b, 0), b))\n';
    const raised = py.replace(
      '    return min',
      '    if not backends:\n        raise ValueError("nothing to choose from")\n    return min',
    );
    await assertProposed('python', py, [{ mistake: 'empty-backends', lines: [2], answer: 'ERROR ValueError' }], raised);
  });

  it('guards the filtered list a min() takes from, returning the answer the caller prints (Python)', async () => {
    const py = [
      'def pick():',
      '    healthy = [b for b in state["pool"] if state["healthy"][b]]',
      '    under = [b for b in healthy if state["cap"] == 0 or state["count"][b] < state["cap"]]',
      '    if healthy and not under:',
      '        return "BUSY"',
      '    best = min(under, key=lambda b: state["count"][b])',
      '    state["count"][best] += 1',
      '    return best',
      '',
    ].join('\n');
    const fixed = py.replace('    best = min', '    if not under:\n        return "EMPTY"\n    best = min');
    await assertProposed('python', py, [{ mistake: 'no-healthy-crash', lines: [6], answer: 'EMPTY' }], fixed);
  });

  it("makes a fallback give the answer, by the file's own constant, and prints where the function prints (Python, JavaScript)", async () => {
    const py = [
      'EMPTY = "EMPTY"',
      '',
      'class Balancer:',
      '    def pick(self):',
      '        healthy = [name for name in self.pool if self.healthy[name]]',
      '        if healthy:',
      '            chosen = min(healthy, key=lambda name: self.in_flight[name])',
      '        else:',
      '            chosen = self.pool[0]  # fallback: still pick one',
      '        self.in_flight[chosen] += 1',
      '        return chosen',
      '',
    ].join('\n');
    const fixed = py.replace('chosen = self.pool[0]', 'return EMPTY');
    await assertProposed('python', py, [{ mistake: 'fallback-first', lines: [9], answer: 'EMPTY' }], fixed);
    const js = [
      'function handlePick() {',
      '  const best = pool.reduce((a, b) => (inFlight.get(b) < inFlight.get(a) ? b : a));',
      '  inFlight.set(best, inFlight.get(best) + 1);',
      '  console.log(best);',
      '}',
      '',
    ].join('\n');
    const printed = js.replace(
      '  const best',
      "  if (pool.length === 0) { console.log('EMPTY'); return; }\n  const best",
    );
    await assertProposed('javascript', js, [{ mistake: 'empty-pool', lines: [2], answer: 'EMPTY' }], printed);
  });

  it("takes no answer from a mistake an answer does not undo (a tie's answer is a backend's name)", async () => {
    const js = 'function pick(pool) {\n  return pool.reduce((a, b) => (n(b) <= n(a) ? b : a));\n}\n';
    const edits = await firstEdits('javascript', js, [{ mistake: 'tiebreak', lines: [2], answer: 'alpha' }], 500);
    assert.ok(edits.every((e) => !e.source.includes('alpha')));
  });

  it('writes a count back only for a name that has one (JavaScript Map, Python defaultdict)', async () => {
    const js = [
      '  release(name) {',
      '    const load = this.active.get(name) || 0;',
      '    this.active.set(name, Math.max(0, load - 1));',
      '  }',
    ].join('\n');
    const cls = `class Pool {\n${js}\n}\n`;
    const fixed = cls.replace('    this.active.set', '    if (this.active.has(name)) this.active.set');
    await assertProposed('javascript', cls, [{ mistake: 'unknown-backend', lines: [4] }], fixed);
    const py = [
      'class Balancer:',
      '    def done(self, backend):',
      '        self.in_flight[backend] = max(0, self.in_flight[backend] - 1)',
      '',
    ].join('\n');
    const guarded = py.replace(
      '        self.in_flight[backend] = max',
      '        if backend in self.in_flight:\n            self.in_flight[backend] = max',
    );
    await assertProposed('python', py, [{ mistake: 'unknown-done', lines: [3] }], guarded);
  });

  it('lowers a count that wraps around only above 0 (Python uint64, JavaScript Atomics)', async () => {
    const py = [
      'class Backend:',
      '    def dec(self):',
      '        self.conns = (self.conns + MAX_UINT64) & MAX_UINT64  # add ^uint64(0): subtract one',
      '',
    ].join('\n');
    const fixed = py.replace('        self.conns = (', '        if self.conns > 0:\n            self.conns = (');
    await assertProposed('python', py, [{ mistake: 'negative-count', lines: [3] }], fixed);
    const js = 'function put(pool, addr) {\n  const i = pool.index.get(addr);\n  Atomics.sub(pool.inUse, i, 1);\n}\n';
    const atomics = js.replace('  Atomics.sub', '  if (Atomics.load(pool.inUse, i) > 0) Atomics.sub');
    await assertProposed('javascript', js, [{ mistake: 'negative-count', lines: [3] }], atomics);
  });

  it('returns early when a lookup found nothing, before reading its fields (JavaScript find)', async () => {
    const js = [
      '  done(name) {',
      '    const backend = this.backends.find((b) => b.name === name);',
      '    if (backend.active > 0) backend.active--;',
      '  }',
    ].join('\n');
    const cls = `class Balancer {\n${js}\n}\n`;
    const fixed = cls.replace('    if (backend.active', '    if (!backend) return;\n    if (backend.active');
    await assertProposed('javascript', cls, [{ mistake: 'unknown-backend', lines: [4] }], fixed);
  });

  it("tells an empty filtered list's two cases apart by the filter's first condition (JavaScript, Python)", async () => {
    const js = [
      '  pick() {',
      '    const candidates = this.pool.filter(',
      '      (name) => this.healthy.get(name) && (this.cap === 0 || this.inFlight.get(name) < this.cap),',
      '    );',
      '    if (candidates.length === 0) return EMPTY;',
      '    return candidates[0];',
      '  }',
    ].join('\n');
    const cls = `class Balancer {\n${js}\n}\n`;
    const busy =
      "if (candidates.length === 0 && this.pool.some((name) => this.healthy.get(name))) return 'BUSY';\n    if (candidates";
    await assertProposed(
      'javascript',
      cls,
      [{ mistake: 'empty-busy', lines: [6], answer: 'BUSY' }],
      cls.replace('if (candidates', busy),
    );
    const py = [
      'def pick(self):',
      '    room = [b for b in self.pool if self.healthy[b] and self.count[b] < self.cap]',
      '    if not room:',
      '        return "BUSY"',
      '    return room[0]',
      '',
    ].join('\n');
    const empty =
      '    if not room and not any(self.healthy[b] for b in self.pool):\n        return "EMPTY"\n    if not room:';
    await assertProposed(
      'python',
      py,
      [{ mistake: 'empty-busy', lines: [3], answer: 'EMPTY' }],
      py.replace('    if not room:', empty),
    );
  });

  it('makes a returned answer another answer the function gives (two answers the wrong way round, JavaScript)', async () => {
    const js = [
      '  pick() {',
      '    const healthy = this.pool.filter((name) => this.healthy.get(name));',
      '    if (this.pool.length === 0) return EMPTY;',
      '    if (healthy.length === 0) return BUSY;',
      '    const withRoom = healthy.filter((name) => this.cap === 0 || this.inFlight.get(name) < this.cap);',
      '    if (withRoom.length === 0) return EMPTY;',
      '    return withRoom[0];',
      '  }',
    ].join('\n');
    const cls = `class Balancer {\n${js}\n}\n`;
    const targets = [{ mistake: 'empty-busy', lines: [5, 7], answer: 'EMPTY' }];
    await assertProposed('javascript', cls, targets, cls.replace('return BUSY;', 'return EMPTY;'));
    const second = cls.replace('(withRoom.length === 0) return EMPTY;', '(withRoom.length === 0) return BUSY;');
    await assertProposed('javascript', cls, targets, second);
  });
});
