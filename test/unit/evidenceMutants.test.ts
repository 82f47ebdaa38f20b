/**
 * Replaying a claim on a counterexample's trace (checkClaim in src/core/diagnosis/evidence.ts), and the counts a
 * card states, where test/unit/evidence.test.ts leaves them open (their surviving mutants): a wrong answer the
 * mistake would not give and the sentence that says so (with the program's counts just before it, or none at
 * the first command), a mistake or the program without it that would crash, answers a mistake allows as a set,
 * many-line and empty answers, counts the program printed (or did not) against the mistake's, a stop, and the
 * program's other mistakes on both sides of the comparison. The lessons are the one-count toy of
 * test/unit/evidenceToys.ts, written per test; what is asserted is what the learner is told: whether the
 * claim holds, at how many commands the program bore it out, and where and how it is contradicted.
 */
import * as assert from 'node:assert/strict';
import { checkClaim, statedCounts, traceNumbers } from '../../src/core/diagnosis/evidence';
import type { Counterexample } from '../../src/core/report/report';
import { blind, counter, countLine, traceOf } from './evidenceToys';

/** INC adds one, two under inc-two, three under inc-three; PICK answers a, b under pick-b, c under pick-c. */
const picker = () =>
  counter({
    answer: (command, on) => (command === 'PICK' ? [on.has('pick-c') ? 'c' : on.has('pick-b') ? 'b' : 'a'] : undefined),
    next: (command, on, n) => (command === 'INC' ? n + (on.has('inc-three') ? 3 : on.has('inc-two') ? 2 : 1) : n),
  });

/** The trace with every row changed by `change`. */
const rows = (
  example: Counterexample,
  change: (row: Counterexample['trace'][number]) => Counterexample['trace'][number],
): Counterexample => ({ ...example, trace: example.trace.map(change) });

describe('replaying a claim on its trace: the surviving mutants', () => {
  describe('an answer the mistake would not give', () => {
    it("is held against the claim, with the program's counts just before it", () => {
      const model = picker();
      const after = `\`PICK\` answered c while your counts were ${countLine(1)}`;
      assert.deepEqual(checkClaim(model, ['pick-b'], [], traceOf(model, ['INC', 'PICK', 'INC'], 'pick-c')), {
        holds: false,
        borneOut: 0,
        contradiction: { row: 1, shown: after },
      });
      // At the last command as well.
      assert.deepEqual(checkClaim(model, ['pick-b'], [], traceOf(model, ['INC', 'PICK'], 'pick-c')), {
        holds: false,
        borneOut: 0,
        contradiction: { row: 1, shown: after },
      });
    });

    it('is said without counts at the first command, and in a trace that has none', () => {
      const model = picker();
      const alone = { holds: false, borneOut: 0, contradiction: { row: 0, shown: '`PICK` answered c' } };
      assert.deepEqual(checkClaim(model, ['pick-b'], [], traceOf(model, ['PICK', 'INC'], 'pick-c')), alone);
      const unseen = blind(model);
      assert.deepEqual(checkClaim(unseen, ['pick-b'], [], traceOf(unseen, ['INC', 'PICK'], 'pick-c')), {
        ...alone,
        contradiction: { row: 1, shown: '`PICK` answered c' },
      });
    });

    it('counts unless the caller says choices say nothing (a random program), after the answers that bore the claim out', () => {
      // pick-c answers b while the count is 0, c after.
      const model = counter({
        answer: (command, on, n) =>
          command === 'PICK'
            ? [on.has('pick-c') && n > 0 ? 'c' : on.has('pick-b') || on.has('pick-c') ? 'b' : 'a']
            : undefined,
        next: (command, _on, n) => (command === 'INC' ? n + 1 : n),
      });
      const example = traceOf(model, ['PICK', 'INC', 'PICK'], 'pick-c');
      assert.deepEqual(checkClaim(model, ['pick-b'], [], example), {
        holds: false,
        borneOut: 1,
        contradiction: { row: 2, shown: `\`PICK\` answered c while your counts were ${countLine(1)}` },
      });
      assert.deepEqual(checkClaim(model, ['pick-b'], [], example, false), { holds: true, borneOut: 1 });
    });

    it('is not an answer the program got right where the mistake would answer otherwise (another rule that makes the same mistake)', () => {
      // pick-b always answers b; the program (pick-late) answers a, the right answer, while the count is 0, and b after.
      const model = counter({
        answer: (command, on, n) =>
          command === 'PICK' ? [on.has('pick-b') || (on.has('pick-late') && n > 0) ? 'b' : 'a'] : undefined,
        next: (command, _on, n) => (command === 'INC' ? n + 1 : n),
      });
      const example = traceOf(model, ['PICK', 'INC', 'PICK'], 'pick-late');
      assert.deepEqual(
        example.trace.map((row) => row.matches),
        [true, true, false],
      );
      assert.deepEqual(checkClaim(model, ['pick-b'], [], example), { holds: true, borneOut: 1 });
    });

    it('is shown word by word for a many-line answer, and as "(nothing)" for an empty one', () => {
      // LIST answers a b c; list-short only a, list-two a b, list-none nothing.
      const model = counter({
        answer: (command, on) =>
          command === 'LIST'
            ? on.has('list-short')
              ? ['a']
              : on.has('list-two')
                ? ['a', 'b']
                : on.has('list-none')
                  ? []
                  : ['a', 'b', 'c']
            : undefined,
      });
      const said = (shown: string) => ({ holds: false, borneOut: 0, contradiction: { row: 0, shown } });
      // Its first line is the mistake's whole answer: still not the mistake's answer.
      assert.deepEqual(
        checkClaim(model, ['list-short'], [], traceOf(model, ['LIST'], 'list-two')),
        said(`\`LIST\` answered ${['a', 'b'].join(' ')}`),
      );
      assert.deepEqual(
        checkClaim(model, ['list-short'], [], traceOf(model, ['LIST'], 'list-none')),
        said('`LIST` answered (nothing)'),
      );
    });
  });

  describe('a crash', () => {
    /** PICK crashes under pick-crash, answers b under pick-b (before the crash) and c under pick-c; INC as picker's. */
    const crashing = () =>
      counter({
        answer: (command, on) =>
          command === 'PICK'
            ? on.has('pick-b')
              ? ['b']
              : on.has('pick-crash')
                ? 'crash'
                : [on.has('pick-c') ? 'c' : 'a']
            : undefined,
        next: (command, on, n) => (command === 'INC' ? n + (on.has('inc-two') ? 2 : 1) : n),
      });

    it('of the mistake where the program answered otherwise contradicts it', () => {
      const model = crashing();
      assert.deepEqual(checkClaim(model, ['pick-crash'], [], traceOf(model, ['PICK'], 'pick-c')), {
        holds: false,
        borneOut: 0,
        contradiction: { row: 0, shown: '`PICK` answered c' },
      });
    });

    it("of the program without the mistake, where the program gave the mistake's answer, bears it out", () => {
      const model = crashing();
      assert.deepEqual(
        checkClaim(model, ['pick-b'], ['pick-crash'], traceOf(model, ['PICK'], 'pick-b', 'pick-crash')),
        { holds: true, borneOut: 1 },
      );
    });

    it('with and without the mistake says nothing about it, wherever the program answered', () => {
      const model = crashing();
      // inc-two is borne out at INC; at PICK the other named mistake crashes either way.
      assert.deepEqual(
        checkClaim(model, ['inc-two'], ['pick-crash'], traceOf(model, ['INC', 'PICK'], 'inc-two', 'pick-c')),
        { holds: true, borneOut: 1 },
      );
    });

    it('of the program bears out only a mistake that crashes there where the program without it would not', () => {
      const model = crashing();
      const example = traceOf(model, ['INC', 'PICK'], 'inc-two', 'pick-crash');
      assert.equal(example.trace[1]!.actual, null);
      assert.deepEqual(checkClaim(model, ['pick-crash'], ['inc-two'], example), { holds: true, borneOut: 1 });
      // inc-two's INC is borne out; its PICK would not crash, and with pick-crash on it crashes either way.
      assert.deepEqual(checkClaim(model, ['inc-two'], [], example), { holds: true, borneOut: 1 });
      assert.deepEqual(checkClaim(model, ['inc-two'], ['pick-crash'], example), { holds: true, borneOut: 1 });
    });
  });

  it('compares the answers a mistake allows with those allowed without it as sets', () => {
    // PICK answers a; a mistake may allow other answers as well (a nondeterministic one), or fix one.
    const model = counter({
      answer: (command, on) => {
        if (command !== 'PICK') return undefined;
        if (on.has('always-a')) return ['a'];
        if (on.has('b-or-a')) return { lines: ['b'], alternatives: [['a']] };
        if (on.has('a-or-b')) return { lines: ['a'], alternatives: [['b']] };
        if (on.has('a-or-c')) return { lines: ['a'], alternatives: [['c']] };
        return ['a'];
      },
    });
    const answeredB = traceOf(model, ['PICK'], 'b-or-a');
    assert.deepEqual(answeredB.trace[0]!.actual, ['b']);
    // Fewer answers than without it (a alone, where a or b was allowed): b is one it rules out.
    assert.deepEqual(checkClaim(model, ['always-a'], ['a-or-b'], answeredB), {
      holds: false,
      borneOut: 0,
      contradiction: { row: 0, shown: '`PICK` answered b' },
    });
    // As many, one of them another (a or b, where a or c was allowed): b is its own.
    assert.deepEqual(checkClaim(model, ['a-or-b'], ['a-or-c'], answeredB), { holds: true, borneOut: 1 });
    // The same answers, in another order (b or a, where a or b was allowed): it says nothing here.
    assert.deepEqual(checkClaim(model, ['b-or-a'], ['a-or-b'], answeredB), { holds: true, borneOut: 0 });
  });

  describe("the program's counts", () => {
    it("are held against the mistake's, with what they should be when the trace has it", () => {
      const model = picker();
      const example = traceOf(model, ['INC'], 'inc-three');
      const wrong = `after \`INC\` your counts were ${countLine(3)}`;
      assert.deepEqual(checkClaim(model, ['inc-two'], [], example), {
        holds: false,
        borneOut: 0,
        contradiction: { row: 0, shown: `${wrong} where they should be ${countLine(1)}` },
      });
      const unsaid = rows(example, ({ shouldBe: _, ...row }) => row);
      assert.deepEqual(checkClaim(model, ['inc-two'], [], unsaid), {
        holds: false,
        borneOut: 0,
        contradiction: { row: 0, shown: wrong },
      });
    });

    it('as they should be, against a mistake that changes them, are not said as the difference: the first wrong answer is', () => {
      // The program counts right (INC adds one) but answers b at PICK from a count of one, as inc-two's program would from two.
      const model = counter({
        answer: (command, on, n) =>
          command === 'PICK' ? [n >= (on.has('pick-early') ? 1 : 2) ? 'b' : 'a'] : undefined,
        next: (command, on, n) => (command === 'INC' ? n + (on.has('inc-two') ? 2 : 1) : n),
      });
      const example = traceOf(model, ['INC', 'PICK'], 'pick-early');
      assert.deepEqual(example.trace[0]!.observed, example.trace[0]!.shouldBe);
      const shown = `\`PICK\` answered b where the reference answers a while your counts were ${countLine(1)}`;
      assert.deepEqual(checkClaim(model, ['inc-two'], [], example), {
        holds: false,
        borneOut: 0,
        contradiction: { row: 0, shown },
      });
    });

    it('say nothing against a mistake that leaves them as they are without it', () => {
      const model = picker();
      // The program counts three at INC, for a reason pick-b does not explain.
      assert.deepEqual(checkClaim(model, ['pick-b'], [], traceOf(model, ['INC', 'PICK'], 'pick-b', 'inc-three')), {
        holds: true,
        borneOut: 1,
      });
    });

    it('say nothing where the mistake would crash printing them', () => {
      // broken answers b at PICK and crashes at COUNT.
      const model = counter({
        answer: (command, on) =>
          command === 'PICK'
            ? [on.has('broken') || on.has('pick-b') ? 'b' : 'a']
            : command === 'COUNT' && on.has('broken')
              ? 'crash'
              : undefined,
        next: (command, _on, n) => (command === 'INC' ? n + 1 : n),
      });
      assert.deepEqual(checkClaim(model, ['broken'], [], traceOf(model, ['INC', 'PICK', 'INC'], 'pick-b')), {
        holds: true,
        borneOut: 1,
      });
    });

    it('are read only where the program printed them, in a trace that says which command printed them', () => {
      const model = picker();
      const example = traceOf(model, ['INC'], 'inc-three');
      assert.equal(checkClaim(model, ['inc-two'], [], example).holds, false);
      // The program printed no counts after INC.
      assert.deepEqual(
        checkClaim(
          model,
          ['inc-two'],
          [],
          rows(example, (row) => ({ ...row, observed: null })),
        ),
        { holds: true, borneOut: 0 },
      );
      // Rows with counts, in a trace that does not say which command printed them.
      const { observeCommand: _, ...untold } = example;
      assert.deepEqual(checkClaim(model, ['inc-two'], [], untold), { holds: true, borneOut: 0 });
      // A trace built without counts, replayed on a lesson that has an observe command.
      assert.deepEqual(checkClaim(model, ['inc-two'], [], traceOf(blind(model), ['INC'], 'inc-three')), {
        holds: true,
        borneOut: 0,
      });
    });

    it("are replayed with the trace's own observe command, whatever the model names now", () => {
      const model = picker();
      const example = traceOf(model, ['INC'], 'inc-three');
      assert.deepEqual(checkClaim(blind(model), ['inc-two'], [], example), checkClaim(model, ['inc-two'], [], example));
      assert.equal(checkClaim(blind(model), ['inc-two'], [], example).holds, false);
    });
  });

  it('holds nothing against a claim on a trace not reproduced on the real program', () => {
    const model = picker();
    const example = traceOf(model, ['INC', 'PICK'], 'inc-three', 'pick-c');
    assert.equal(checkClaim(model, ['inc-two'], [], example).holds, false);
    assert.deepEqual(checkClaim(model, ['inc-two'], [], { ...example, reproduced: false }), {
      holds: true,
      borneOut: 0,
    });
  });

  it("replays the claim with the program's other mistakes on, with it and without it", () => {
    const model = picker();
    const example = traceOf(model, ['INC', 'PICK'], 'inc-two', 'pick-b');
    // pick-b's answer at PICK is the other mistake's, not inc-two's: one command bears inc-two out.
    assert.deepEqual(checkClaim(model, ['inc-two'], ['pick-b'], example), { holds: true, borneOut: 1 });
    // Among the others as well, the claim is still compared with the program without it.
    assert.deepEqual(checkClaim(model, ['inc-two'], ['inc-two', 'pick-b'], example), { holds: true, borneOut: 1 });
  });
});

describe('the numbers a card states and a trace shows', () => {
  it('takes a number of five digits or more as a count, and not one of four', () => {
    const wrapped = String(2 ** 16 - 1);
    assert.deepEqual(statedCounts(`a 16-bit count goes from 0 to ${wrapped}, not to 1024 or ${-1}`), [wrapped, '-1']);
  });

  it('finds every number the program printed, and nothing from lines without one', () => {
    const model = picker();
    // OK and a carry no number; the counts are 3 and 6.
    const example = traceOf(model, ['INC', 'PICK', 'INC'], 'inc-three');
    assert.deepEqual([...traceNumbers(example)].sort(), ['3', '6']);
  });
});
