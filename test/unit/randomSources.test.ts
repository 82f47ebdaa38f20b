/**
 * Where a program draws at random (core `randomSources`, `randomLocation`): the line a random tie is chosen on,
 * which a tracer cannot tell from the lines that run whichever way the draw goes. Sources written as people
 * write them: `random.choice`, a name imported from `random`, reservoir sampling with `Math.random`, a set
 * walked in hash order.
 */
import * as assert from 'node:assert/strict';
import { randomLocation } from '../../src/core/check/randomLocation';
import { randomSources } from '../../src/core/text/randomSources';

const PY_CHOICE = [
  'import random', //                                              1
  'class Balancer:',
  '    def pick(self):',
  '        low = min(self.counts.values())',
  '        # random.choice spreads ties', //                        5
  '        chosen = random.choice([b for b in self.pool if self.counts[b] == low])',
  '        return chosen',
].join('\n');

const PY_IMPORTED = [
  'from random import randrange as rr, choice',
  'def pick(pool):',
  '    return pool[rr(len(pool))]',
].join('\n');

const PY_SET = [
  'class Balancer:',
  '    def __init__(self, names):',
  '        self.backends = set(names)',
  '        self.order = sorted(self.backends)',
  '    def pick(self):', //                                       5
  '        for name in self.backends:',
  '            pass',
  '        return min(self.backends, key=self.count)',
  '    def status(self):',
  '        return [n for n in sorted(self.backends)]', //          10
].join('\n');

const JS_RESERVOIR = [
  'class Balancer {',
  '  select() {',
  '    let count = 0;',
  '    for (const host of this.pool) {',
  '      // Math.random() gives each tied host a chance', //       5
  '      if (count === 1 || Math.floor(Math.random() * count) === 0) best = host;',
  '    }',
  '    return best;',
  '  }',
  '  pick() {', //                                                10
  '    return this.select();',
  '  }',
  '}',
].join('\n');

describe('where a program draws at random', () => {
  it('finds calls into random, by the module or by an imported name, and not in comments', () => {
    assert.deepEqual(randomSources(PY_CHOICE, 'python'), [{ line: 6, kind: 'draw' }]);
    assert.deepEqual(randomSources(PY_IMPORTED, 'python'), [{ line: 3, kind: 'draw' }]);
    assert.deepEqual(randomSources(JS_RESERVOIR, 'javascript'), [{ line: 6, kind: 'draw' }]);
    assert.deepEqual(randomSources('const x = [3, 1].sort();\n', 'typescript'), []);
  });

  it('finds a walk over a set in its own order, and not a sorted one', () => {
    assert.deepEqual(randomSources(PY_SET, 'python'), [
      { line: 6, kind: 'set-order' },
      { line: 8, kind: 'set-order' },
    ]);
    // A dict keeps insertion order: walking one is not random.
    assert.deepEqual(randomSources('counts = {"a": 0}\nfor n in counts:\n    pass\n', 'python'), []);
  });

  it("locates the draw in the mistake's function, else in the helper it is in, and says why", () => {
    assert.deepEqual(randomLocation(PY_CHOICE, 'python', 'pick'), {
      lines: [6],
      function: 'pick',
      reason: 'this line draws at random, and two fresh runs of the same commands answered differently',
    });
    // pick() draws nothing itself: the only draw is in select(), which it calls.
    const js = randomLocation(JS_RESERVOIR, 'javascript', 'pick');
    assert.deepEqual([js?.lines, js?.function], [[6], 'select']);
    assert.match(randomLocation(PY_SET, 'python', 'pick')!.reason, /^this loop walks a set, whose order changes/);
    assert.equal(randomLocation('def pick(pool):\n    return pool[0]\n', 'python', 'pick'), undefined);
  });

  it('says nothing when many lines elsewhere draw: which one chose is not known', () => {
    const many = [
      'import random',
      ...Array.from({ length: 4 }, (_, i) => `x${i} = random.random()`),
      'def pick():',
      '    return 1',
    ];
    assert.equal(randomLocation(many.join('\n'), 'python', 'pick'), undefined);
  });
});
