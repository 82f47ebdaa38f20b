/**
 * Ties that move, made fixed (src/core/repair/fixedTieOperators.ts), and three small edits beside them: a tie key
 * that reads a missing entry as 0 (`key=d.__getitem__`), a "no limit" test that reads 0 as none (`cap is not
 * None`), a copy of the array instead of copies of its objects. Snippets written as learners write them (the
 * real-style corpus's shapes); each fix is in the search's first round of 16 edits for its mistake at the located
 * line. Without the operators none of these fixes is proposed at all.
 */
import { assertProposed } from './repairProposed';

describe('repair: ties that move, made fixed', function () {
  this.timeout(20_000);

  it('a rotation through the tied becomes the first of them or the first by name (JavaScript, Python)', async () => {
    const js = [
      'let turn = 0;',
      '',
      'function pick(counts, backends) {',
      '  const load = (b) => counts.active.get(b) ?? 0;',
      '  const fewest = Math.min(...backends.map(load));',
      '  const tied = backends.filter((b) => load(b) === fewest);',
      '  const chosen = tied[turn % tied.length];',
      '  turn += 1;',
      '  return chosen;',
      '}',
      '',
    ].join('\n');
    const targets = [{ mistake: 'tiebreak', lines: [6, 7, 8] }];
    await assertProposed('javascript', js, targets, js.replace('tied[turn % tied.length]', '[...tied].sort()[0]'));
    await assertProposed('javascript', js, targets, js.replace('tied[turn % tied.length]', 'tied[0]'));
    const py =
      '    def pick(self):\n        chosen = self.tied()[self.turn % len(self.tied())]\n        return chosen\n';
    const cls = `class RoundRobin:\n${py}`;
    await assertProposed(
      'python',
      cls,
      [{ mistake: 'tiebreak', lines: [3] }],
      cls.replace('self.tied()[self.turn % len(self.tied())]', 'min(self.tied())'),
    );
  });

  it('a scan that starts one place further each pick starts at the same place (JavaScript)', async () => {
    const js = [
      'let turn = 0;',
      '',
      'class Balancer {',
      '  pick() {',
      '    const n = this.pool.length;',
      '    let bestIndex = -1;',
      '    for (let step = 0; step < n; step++) {',
      '      const i = (turn + step) % n;',
      '      if (bestIndex === -1 || this.inFlight.get(this.pool[i]) < this.inFlight.get(this.pool[bestIndex])) bestIndex = i;',
      '    }',
      '    turn += 1;',
      '    return this.pool[bestIndex];',
      '  }',
      '}',
      '',
    ].join('\n');
    await assertProposed(
      'javascript',
      js,
      [{ mistake: 'tiebreak', lines: [5, 6, 7, 8, 9, 11, 12] }],
      js.replace('const i = (turn + step) % n;', 'const i = step;'),
    );
  });

  it("a reservoir's random replacement becomes a replacement by the smaller name (JavaScript)", async () => {
    const js = [
      'function pick(counts, backends) {',
      '  let best = null;',
      '  let count = 0;',
      '  let least = -1;',
      '  for (const backend of backends) {',
      '    const n = counts.active.get(backend) ?? 0;',
      '    if (least === -1 || n < least) {',
      '      least = n;',
      '      count = 0;',
      '    }',
      '    if (n === least) {',
      '      count += 1;',
      '      if (count === 1 || Math.floor(Math.random() * count) === 0) best = backend;',
      '    }',
      '  }',
      '  return best;',
      '}',
      '',
    ].join('\n');
    await assertProposed(
      'javascript',
      js,
      [{ mistake: 'tiebreak', lines: [13] }],
      js.replace('Math.floor(Math.random() * count) === 0', 'backend < best'),
    );
  });

  it('a tie key through __getitem__ also reads a missing entry as 0 (Python)', async () => {
    const py = [
      'def pick(counts, backends):',
      '    if not backends:',
      '        raise ValueError("nothing to pick from")',
      '    _ensure(counts.active, backends)',
      '    return min(backends, key=counts.active.__getitem__)',
      '',
    ].join('\n');
    await assertProposed(
      'python',
      py,
      [{ mistake: 'tiebreak', lines: [5] }],
      py.replace('key=counts.active.__getitem__', 'key=lambda item: (counts.active.get(item, 0), item)'),
    );
  });

  it('a cap that starts as None reads CAP 0 as no limit (Python)', async () => {
    const py = [
      'class Balancer:',
      '    def full(self, name):',
      '        return self.cap is not None and self.in_flight[name] >= self.cap',
      '',
    ].join('\n');
    await assertProposed(
      'python',
      py,
      [{ mistake: 'cap-zero', lines: [3] }],
      py.replace('self.cap is not None and', 'self.cap and'),
    );
  });

  it('sorts a copy of the array, not copies of its objects, so the count reaches the pool (JavaScript)', async () => {
    const js = [
      'class Balancer {',
      '  pick() {',
      '    if (this.backends.length === 0) return null;',
      '    const [best] = this.backends.map((b) => ({ ...b })).sort((x, y) => x.active - y.active);',
      '    best.active += 1;',
      '    return best.name;',
      '  }',
      '}',
      '',
    ].join('\n');
    await assertProposed(
      'javascript',
      js,
      [{ mistake: 'late-increment', lines: [3, 4, 5, 6] }],
      js.replace('this.backends.map((b) => ({ ...b }))', '[...this.backends]'),
    );
  });

  it('floors one entry of a Counter instead of Counter subtraction, which drops the entries at 0 (Python)', async () => {
    const py = 'def connection_closed(counts, backend):\n    counts.active -= Counter([backend])\n';
    await assertProposed(
      'python',
      py,
      [{ mistake: 'unseen-close', lines: [2] }],
      py.replace('counts.active -= Counter([backend])', 'counts.active[backend] = max(0, counts.active[backend] - 1)'),
    );
  });

  it('takes away a sort with keywords that decides a tie (Python sorted(pool, reverse=True))', async () => {
    const py = [
      'def pick(pool, active):',
      '    by_name = sorted(pool, reverse=True)',
      '    best = min(by_name, key=lambda b: active[b])',
      '    return best',
      '',
    ].join('\n');
    await assertProposed(
      'python',
      py,
      [{ mistake: 'tiebreak', lines: [2, 3] }],
      py.replace('sorted(pool, reverse=True)', 'pool'),
    );
  });
});
