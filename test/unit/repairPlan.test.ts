/**
 * The repair search's edits (src/core/repair) over trees from the real parser (tree-sitter's WebAssembly
 * build, src/node/repair/parser.ts; no process is started): each operator that inverts a named mistake
 * proposes the edit that undoes it, every proposal parses, and the plan puts the inverting edit at the
 * located line first.
 */
import * as assert from 'node:assert/strict';
import type { Language } from '../../src/core/pack/schema';
import { combine, singleEdits, type Candidate } from '../../src/core/repair/plan';
import { applyEdits, editedLines } from '../../src/core/repair/tree';
import { isFound, repairSentence, verifiedText } from '../../src/core/repair/result';
import { parsesCleanly, parseSource } from '../../src/node/repair/parser';

async function edits(language: Language, source: string, mistake: string, lines: number[]): Promise<string[]> {
  const parsed = await parseSource(language, source);
  assert.ok(parsed, 'the source parses');
  return singleEdits(parsed, [{ mistake, lines }]).map((c) => applyEdits(source, c.edits)!);
}

describe('repair edits', function () {
  this.timeout(20_000);

  it('refuses a file with a syntax error (tree-sitter ERROR nodes)', async () => {
    assert.equal(await parseSource('python', 'def f(:\n  return 1\n'), undefined);
    assert.equal(await parsesCleanly('javascript', 'function f( { return 1 }'), false);
    assert.equal(await parsesCleanly('typescript', 'const x: number = 1;\n'), true);
  });

  it('takes away the sort that decides a tie, first, at the located line (Python)', async () => {
    const source = [
      'def least(pool, active):',
      '    return min(sorted(pool), key=lambda n: active[n])',
      '',
      'def other(x):',
      '    return x < 3',
      '',
    ].join('\n');
    const fixes = await edits('python', source, 'tiebreak', [2]);
    assert.equal(fixes[0], source.replace('sorted(pool)', 'pool'));
    // Farther edits come later.
    assert.ok(fixes.indexOf(source.replace('x < 3', 'x <= 3')) > 1);
  });

  it('adds a floor to a decrement for a negative count (JavaScript and Python)', async () => {
    const js = 'function done(c, n) {\n  c[n]--;\n}\n';
    assert.ok(
      (await edits('javascript', js, 'negative-count', [2])).includes(
        js.replace('c[n]--', 'c[n] = Math.max(0, c[n] - 1)'),
      ),
    );
    const py = 'def done(c, n):\n    c[n] -= 1\n';
    assert.equal(
      (await edits('python', py, 'negative-count', [2]))[0],
      py.replace('c[n] -= 1', 'c[n] = max(0, c[n] - 1)'),
    );
  });

  it('floors a BigInt count without Math.max, which refuses BigInts (TypeScript)', async () => {
    const ts = 'function done(c: Map<string, bigint>, n: string, now: bigint): void {\n  c.set(n, now - 1n);\n}\n';
    const fixes = await edits('typescript', ts, 'negative-count', [2]);
    assert.ok(fixes.includes(ts.replace('now - 1n', '(now >= 1n ? now - 1n : 0n)')), fixes.join('\n---\n'));
    assert.ok(!fixes.some((f) => f.includes('Math.max(0, now - 1n)')));
    const assigned = 'let x = 3n;\nx -= 1n;\n';
    assert.ok(
      (await edits('typescript', assigned, 'negative-count', [2])).includes(
        'let x = 3n;\nx = x >= 1n ? x - 1n : 0n;\n',
      ),
    );
  });

  it('moves an increment before the return (late increment, TypeScript)', async () => {
    const ts = [
      'function pick(c: Record<string, number>, n: string): string {',
      '  const chosen = n;',
      '  return chosen;',
      '  c[chosen] += 1;',
      '}',
      '',
    ].join('\n');
    const moved = ts.replace('  return chosen;\n  c[chosen] += 1;\n', '  c[chosen] += 1;\n  return chosen;\n');
    const fixes = await edits('typescript', ts, 'late-increment', [4]);
    assert.ok(fixes.slice(0, 3).includes(moved), fixes.slice(0, 3).join('\n----\n'));
  });

  it('flips a comparison, swaps min for max, and guards an empty pool', async () => {
    const py = 'def f(xs, cap):\n    if len(xs) >= cap:\n        return None\n    return min(xs)\n';
    const fixes = await edits('python', py, 'cap-off-by-one', [2]);
    assert.ok(fixes.includes(py.replace('>= cap', '> cap')));
    assert.ok(fixes.includes(py.replace('min(xs)', 'max(xs)')));
    assert.ok(fixes.includes(py.replace('min(xs)', 'min(xs, default=None)')));
    for (const fixed of fixes) assert.notEqual(fixed, py);
  });

  it('reads a missing entry as 0 and breaks ties by the name (Python), and never makes a loop run forever', async () => {
    const py = 'def pick(c, bs):\n    return min(bs, key=lambda b: c[b])\n\ndef opened(c, b):\n    c[b] += 1\n';
    const fixes = await edits('python', py, 'unseen-backend', [2, 5]);
    assert.ok(fixes.includes(py.replace('key=lambda b: c[b]', 'key=lambda b: c.get(b, 0)')));
    assert.ok(fixes.includes(py.replace('c[b] += 1', 'c[b] = c.get(b, 0) + 1')));
    assert.ok(
      (await edits('python', py, 'tiebreak', [2])).includes(py.replace('lambda b: c[b]', 'lambda b: (c[b], b)')),
    );
    const chooser = 'import random\ndef pick(ts):\n    return random.choice(ts)\n';
    assert.ok(
      (await edits('python', chooser, 'tiebreak', [3])).includes(chooser.replace('random.choice(ts)', 'min(ts)')),
    );
    const js = 'function closed(m, k) {\n  while (m.get(k) > 5) m.set(k, m.get(k) - 1);\n}\n';
    const jsFixes = await edits('javascript', js, 'unseen-close', [2]);
    assert.ok(jsFixes.includes(js.replace('while (m.get(k) > 5)', 'while ((m.get(k) ?? 0) > 5)')));
    assert.ok(!jsFixes.some((f) => f.includes('while (true)')));
  });

  it('every proposal on a real-style program applies and almost all parse', async () => {
    const source = [
      'class Pool {',
      '  constructor(names) { this.names = names; this.counts = new Map(names.map((n) => [n, 0])); }',
      '  pick() {',
      '    if (this.names.length === 0) return null;',
      '    const best = [...this.names].sort((a, b) => this.counts.get(a) - this.counts.get(b) || (a < b ? -1 : 1))[0];',
      '    this.counts.set(best, this.counts.get(best) + 1);',
      '    return best;',
      '  }',
      '}',
      '',
    ].join('\n');
    const fixes = await edits('javascript', source, 'tiebreak', [5]);
    assert.ok(fixes.length > 10);
    let clean = 0;
    for (const fixed of fixes) if (await parsesCleanly('javascript', fixed)) clean++;
    assert.ok(clean >= fixes.length * 0.9, `${clean} of ${fixes.length} parse`);
    assert.ok(
      fixes.includes(source.replace(' || (a < b ? -1 : 1)', '')) ||
        fixes.some((f) => f.includes('(a < b ? -1 : 1)') === false),
    );
  });

  it('combines two edits that do not overlap, and says which lines they change', () => {
    const source = 'a = 1\nb = 2\nc = 3\n';
    const one: Candidate = {
      edits: [{ start: 4, end: 5, text: '9' }],
      operators: ['nudge-number'],
      description: 'one',
      cost: 1,
    };
    const two: Candidate = {
      edits: [{ start: 16, end: 17, text: '8' }],
      operators: ['nudge-number'],
      description: 'two',
      cost: 2,
    };
    const both = combine(one, two)!;
    assert.equal(applyEdits(source, both.edits), 'a = 9\nb = 2\nc = 8\n');
    assert.deepEqual(editedLines(source, both.edits), [1, 3]);
    assert.equal(combine(one, one), undefined);
    assert.equal(both.cost, 3);
  });

  it('says what was verified, or plainly that there is no fix', () => {
    const verified = { hidden: 16, generated: 80, seeds: [1, 2] };
    assert.equal(verifiedText(verified), 'passes all 16 hidden transcripts and 80 random tests (seeds 1 and 2)');
    const found = {
      mistake: 'tiebreak',
      patch: '--- a\n',
      changedLines: [14],
      verified,
      edit: 'x',
      searchMs: 1,
      candidates: 3,
    };
    assert.ok(isFound(found));
    assert.match(repairSentence(found), /line 14\) that passes all 16 hidden transcripts/);
    const none = {
      mistake: 'tiebreak',
      patch: null,
      reason: 'none of the 40 edits passes.',
      searchMs: 1,
      candidates: 40,
    };
    assert.equal(isFound(none), false);
    assert.equal(repairSentence(none), 'No fix found that passes every test: none of the 40 edits passes.');
  });
});
