// A counterexample as a table on every surface: the learner's own counts beside what they should be,
// each differing `name:count` marked, the same in the panel cells, the CLI text and the markdown.
import * as assert from 'node:assert/strict';
import type { Counterexample } from '../../src/core/report/report';
import { compareCounts, countsNote, traceCells, traceTextLines } from '../../src/core/report/traceView';
import { buildCounterexample } from '../../src/core/check/counterexample';
import { model as leastConnections } from '../../lessons/least-connections/model/model';
import type { ReferenceModel } from '../../src/core/model/model';

/** The negative-count case a learner saw: DONE on an idle backend takes it to -1, and the next PICK goes there. */
const negative: Counterexample = {
  transcript: 'generated-24',
  label: 'a random test (#24)',
  reproduced: true,
  commands: ['POOL mid web2', 'DONE web2', 'PICK'],
  expected: ['OK', 'OK', 'mid'],
  actual: ['OK', 'OK', 'web2'],
  divergesAt: 2,
  shrunkFrom: 9,
  observeCommand: 'STATUS',
  trace: [
    {
      command: 'POOL mid web2',
      expected: ['OK'],
      actual: ['OK'],
      counts: { mid: 0, web2: 0 },
      matches: true,
      observed: ['mid:0', 'web2:0'],
      shouldBe: ['mid:0', 'web2:0'],
    },
    {
      command: 'DONE web2',
      expected: ['OK'],
      actual: ['OK'],
      counts: { mid: 0, web2: 0 },
      matches: true,
      observed: ['mid:0', 'web2:-1'],
      shouldBe: ['mid:0', 'web2:0'],
    },
    {
      command: 'PICK',
      expected: ['mid'],
      actual: ['web2'],
      counts: { mid: 1, web2: 0 },
      matches: false,
      observed: ['mid:0', 'web2:0'],
      shouldBe: ['mid:1', 'web2:0'],
    },
  ],
  replay: {
    stdin: 'RESET\nPOOL mid web2\nDONE web2\nPICK\n',
    shell: "printf 'RESET\\nPOOL mid web2\\nDONE web2\\nPICK\\n' | node balancer.js",
  },
};

describe("core/traceView: the trace with the learner's own counts", () => {
  it('shows two count columns and marks each name:count that differs, on both sides', () => {
    const cells = traceCells(negative);
    assert.equal(cells.columns, 'observed');
    assert.equal(cells.observeCommand, 'STATUS');
    assert.deepEqual(cells.rows[1]!.yours, [
      { text: 'mid:0', differs: false },
      { text: 'web2:-1', differs: true },
    ]);
    assert.deepEqual(cells.rows[1]!.shouldBe, [
      { text: 'mid:0', differs: false },
      { text: 'web2:0', differs: true },
    ]);
    assert.equal(cells.rows[0]!.countsDiffer, false);
    assert.equal(cells.rows[1]!.countsDiffer, true);
    // The counts go wrong one row before the wrong pick, and the note says so.
    assert.equal(cells.countsDivergeAt, 1);
    assert.equal(cells.divergesAt, 2);
    assert.match(
      countsNote(cells),
      /answer to STATUS after each command\. Your counts go wrong at command 2 \(DONE web2\), before the first wrong answer\./,
    );
  });

  it("keeps one column, the reference's counts labelled as such, for a lesson without an observe command", () => {
    const { observeCommand: _o, ...rest } = negative;
    const plain: Counterexample = {
      ...rest,
      trace: negative.trace.map(({ observed: _x, shouldBe: _y, ...row }) => row),
    };
    const cells = traceCells(plain);
    assert.equal(cells.columns, 'reference');
    assert.equal(cells.rows[0]!.yours, undefined);
    assert.ok(cells.rows.every((r) => r.shouldBe.every((c) => !c.differs)));
    assert.match(countsNote(cells), /^Reference counts: /);
    assert.match(traceTextLines(cells)[0]!, /reference counts/);
    assert.doesNotMatch(traceTextLines(cells)[0]!, /your counts/);
  });

  it('a program that gave no answer to the observe command shows "(no answer)", and the row differs', () => {
    const cells = traceCells({
      ...negative,
      trace: negative.trace.map((r, i) => (i === 2 ? { ...r, observed: null } : r)),
    });
    assert.equal(cells.rows[2]!.yours, null);
    assert.equal(cells.rows[2]!.countsDiffer, true);
    assert.match(traceTextLines(cells)[3]!, /\(no answer\)/);
  });

  it('splits a one-line answer into count tokens, and compares tokens not lines', () => {
    const c = compareCounts(['s1:1 s2:0'], ['s1:1', 's2:1']);
    assert.deepEqual(c.yours, [
      { text: 's1:1', differs: false },
      { text: 's2:0', differs: true },
    ]);
    assert.deepEqual(c.shouldBe, [
      { text: 's1:1', differs: false },
      { text: 's2:1', differs: true },
    ]);
  });

  it('lays the CLI text out in aligned columns, marking differing counts without colour', () => {
    const lines = traceTextLines(traceCells(negative));
    assert.match(lines[0]!, /#\s+command\s+expected\s+your answer\s+your counts\s+should be/);
    assert.match(lines[2]!, /mid:0 \*web2:-1\*\s+mid:0 \*web2:0\*/);
    assert.match(lines[3]!, /^→ 3 .*web2.*← first difference$/);
    const column = (l: string): number => l.indexOf('your counts');
    assert.equal(lines[2]!.indexOf('mid:0'), column(lines[0]!), 'the count columns line up');
  });

  it('shows the reset command as row 0, with its answer and the reference counts, so the example reads on its own', () => {
    const model = leastConnections as unknown as ReferenceModel;
    const example = buildCounterexample(
      model,
      { transcript: 't', label: 't', shrunkFrom: 4, reproduced: true },
      ['POOL a b', 'DONE a', 'PICK'],
      { lines: ['OK', 'OK', 'b'], ending: 'finished' },
    );
    assert.deepEqual(example.preamble, [{ command: 'POOL', expected: ['OK'], counts: {} }]);
    const cells = traceCells(example);
    const text = traceTextLines(cells);
    assert.match(text[1]!, /^ {2}0 {2}POOL {6}OK {8}– /, text.join('\n'));
    assert.match(text[2]!, /^ {2}1 {2}POOL a b/);
    assert.match(text[4]!, /^→ 3 {2}PICK/, 'numbering and the first difference are as before');
    assert.equal(cells.divergesAt, 2);
    assert.match(countsNote(cells), /Row 0, `POOL`, is sent before every transcript, to start from scratch\.$/);
    // A counterexample without a preamble (an older engine's) shows no row 0.
    assert.doesNotMatch(traceTextLines(traceCells(negative)).join('\n'), /^ {2}0 /m);
  });
});
