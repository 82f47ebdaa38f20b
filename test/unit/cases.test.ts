/**
 * The transcripts a check runs (core `cases`): hidden ones as the pack wrote them, seeded random ones inside
 * the lesson's bounds, and `mapLimit`, which runs work side by side without more than the machine's cores.
 */
import * as assert from 'node:assert/strict';
import { generatedCases, hiddenCases, mapLimit } from '../../src/core/check/cases';
import { simulate } from '../../src/core/model/simulate';
import { model } from './fakeLesson';

describe('cases', () => {
  it("takes a hidden transcript's description as its label, its name when it has none", () => {
    const step = (command: string, expected: string[]) => ({ command, expected, line: 1 });
    const [described, bare] = hiddenCases([
      {
        name: 'ties',
        description: 'ties go to pool order',
        file: 'a.txt',
        line: 1,
        steps: [step('POOL a b', ['OK']), step('PICK', ['a'])],
      },
      { name: 'bare', description: '', file: 'a.txt', line: 5, steps: [] },
    ]);
    assert.deepEqual(described, {
      name: 'ties',
      label: 'ties go to pool order',
      commands: ['POOL a b', 'PICK'],
      expected: { lines: ['OK', 'a'], ending: 'finished' },
      hidden: true,
    });
    assert.deepEqual([bare!.label, bare!.hidden], ['bare', true]);
  });

  it('makes random tests of 2 to `length` commands, numbered from 1, not hidden, with the reference answers', () => {
    const cases = generatedCases(model, 1, 300, 6);
    const lengths = new Set(cases.map((c) => c.commands.length));
    assert.equal(Math.min(...lengths), 2);
    assert.equal(Math.max(...lengths), 6);
    assert.deepEqual(
      [cases[0]!.name, cases[0]!.label, cases[299]!.name, cases[299]!.label],
      ['generated-1', 'a random test (#1)', 'generated-300', 'a random test (#300)'],
    );
    assert.ok(cases.every((c) => !c.hidden));
    for (const c of cases.slice(0, 20)) assert.deepEqual(c.expected, simulate(model, c.commands).outcome);
    assert.ok(
      generatedCases(model, 1, 50, 1).every((c) => c.commands.length === 2),
      'a length under 2 still makes 2 commands',
    );
  });

  it('runs at most `limit` at a time, at least one, and keeps the order of the results', async () => {
    const run = async (count: number, limit: number): Promise<{ results: number[]; most: number }> => {
      let now = 0;
      let most = 0;
      const results = await mapLimit(
        Array.from({ length: count }, (_, i) => i),
        limit,
        async (item, index) => {
          now += 1;
          most = Math.max(most, now);
          // Later items finish first: the results must still come back in order.
          for (let k = 0; k < count - item; k++) await new Promise((resolve) => setImmediate(resolve));
          now -= 1;
          return item * 10 + index;
        },
      );
      return { results, most };
    };
    assert.deepEqual(await run(5, 2), { results: [0, 11, 22, 33, 44], most: 2 });
    assert.deepEqual((await run(5, 0)).most, 1);
    assert.deepEqual((await run(2, 8)).most, 2);
    assert.deepEqual(await mapLimit([], 3, async () => 1), []);
  });
});
