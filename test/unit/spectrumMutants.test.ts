/**
 * The spectrum's corners that test/unit/spectrum.test.ts leaves open (its surviving mutants): which
 * commands count as the same kind (a command typed with a leading space, a wrong command of another kind),
 * how several wrong commands of one kind weigh a line, the words a finding uses for answers that are
 * many lines long, exactly 40 characters, missing or empty at several wrong commands, and the honest
 * fallback when no line tells the wrong commands from the right ones. Each run is built by hand as the
 * tracer would report it: a program whose command loop (lines 1-3) runs at every command, whose
 * choose() (lines 10-14) runs at every CHOOSE, and whose ADD code is lines 20-21.
 */
import * as assert from 'node:assert/strict';
import { rankSuspiciousLines, type SpectrumInput } from '../../src/core/diagnosis/spectrum';

const LOOP = [1, 2, 3];
const CHOOSE = [10, 11, 12, 14];
/** choose()'s tie branch: the line a wrong CHOOSE ran and the right ones did not. */
const TIE = 13;
const ADD = [20, 21];

/** The commands and, per command, the learner's lines that ran there (the loop's added to each). */
function traced(rows: readonly (readonly [string, readonly number[]])[]): { commands: string[]; lines: Set<number>[] } {
  return { commands: rows.map(([command]) => command), lines: rows.map(([, lines]) => new Set([...LOOP, ...lines])) };
}

/** The indexes of the commands whose first word is `verb` and that are not among `wrong`. */
const rightOnes = (commands: readonly string[], verb: string, wrong: readonly number[]): number[] =>
  commands.flatMap((command, i) => (command.trim().split(' ')[0] === verb && !wrong.includes(i) ? [i] : []));

/** The lines that ran at every one of `wrong` and at none of `right`, in line order. */
function ranOnlyWhereWrong(
  lines: readonly Set<number>[],
  wrong: readonly number[],
  right: readonly number[],
): number[] {
  return [...lines[wrong[0]!]!]
    .filter((line) => wrong.every((i) => lines[i]!.has(line)) && !right.some((i) => lines[i]!.has(line)))
    .sort((a, b) => a - b);
}

/** ADD a, ADD b, then four CHOOSEs of which the third (index 4) took the tie branch and was wrong. */
function oneWrongChoose(): SpectrumInput & { lines: Set<number>[]; commands: string[] } {
  const run = traced([
    ['ADD a', ADD],
    ['ADD b', ADD],
    ['CHOOSE', CHOOSE],
    ['CHOOSE', CHOOSE],
    ['CHOOSE', [...CHOOSE, TIE]],
    ['CHOOSE', CHOOSE],
  ]);
  return { ...run, failingIndex: 4, failingAnswer: ['a'] };
}

describe('ranking suspicious lines: the surviving mutants', () => {
  it('takes a command typed with a leading space for the same kind as the others', () => {
    const input = oneWrongChoose();
    input.commands[4] = '  CHOOSE';
    const ranked = rankSuspiciousLines(input);
    const right = rightOnes(input.commands, 'CHOOSE', [4]);
    assert.deepEqual(ranked?.lines, ranOnlyWhereWrong(input.lines, [4], right));
    assert.equal(ranked?.discriminating, true);
    assert.match(ranked!.reason, new RegExp(`and not at the other ${right.length} CHOOSE commands, which were right$`));
  });

  it('does not count a wrong command of another kind, nor one the trace could not tell, as a wrong CHOOSE', () => {
    const input = oneWrongChoose();
    // ADD b (its own lines only) was wrong too, and so was the last CHOOSE, whose lines are unknown.
    const lines: (Set<number> | undefined)[] = [...input.lines];
    lines[5] = undefined;
    const ranked = rankSuspiciousLines({ ...input, lines, otherFailing: [1, 5] });
    const right = rightOnes(input.commands, 'CHOOSE', [4, 5]);
    assert.deepEqual(ranked?.lines, ranOnlyWhereWrong(input.lines, [4], right));
    assert.equal(ranked?.score, 1);
    // One wrong CHOOSE, said as one, compared with the two CHOOSEs known to be right.
    assert.match(
      ranked!.reason,
      new RegExp(`^this line ran when CHOOSE answered a, and not at the other ${right.length} CHOOSE commands`),
    );
  });

  it("gives nothing when none of the learner's lines ran at the first wrong command, whatever ran at a later wrong one", () => {
    const input = oneWrongChoose();
    // The first wrong CHOOSE (index 2) was answered by code outside the learner's file; the one at index 4,
    // which took the tie branch, is wrong too, and a fourth right CHOOSE follows.
    input.lines[2] = new Set();
    input.commands.push('CHOOSE');
    input.lines.push(new Set(input.lines[3]));
    assert.ok(
      rankSuspiciousLines({ ...input, failingIndex: 4, otherFailing: [2] }),
      'the tie branch stands out from the index-4 CHOOSE',
    );
    assert.equal(rankSuspiciousLines({ ...input, failingIndex: 2, otherFailing: [4] }), undefined);
  });

  it('weighs a line by how many of the wrong commands ran it: one that ran at only some of them is left out', () => {
    const input = oneWrongChoose();
    // The last CHOOSE is wrong too, and ran the tie branch and line 15 (which the first wrong one did not).
    input.lines[5] = new Set([...input.lines[4]!, 15]);
    const ranked = rankSuspiciousLines({ ...input, otherFailing: [5] });
    const right = rightOnes(input.commands, 'CHOOSE', [4, 5]);
    assert.deepEqual(ranked?.lines, ranOnlyWhereWrong(input.lines, [4, 5], right));
    assert.ok(!ranked?.lines.includes(15));
    assert.equal(ranked?.score, 1);
  });

  it('shows a many-line answer joined as the table does (" / "), and an answer of exactly 40 characters whole', () => {
    const input = oneWrongChoose();
    const many = ['a', 'b', 'c'];
    assert.ok(
      rankSuspiciousLines({ ...input, failingAnswer: many })!.reason.startsWith(
        `this line ran when CHOOSE answered ${many.join(' / ')}, and`,
      ),
    );
    const forty = 'b'.repeat(40);
    const reason = rankSuspiciousLines({ ...input, failingAnswer: [forty] })!.reason;
    assert.ok(reason.includes(`answered ${forty}, and`), reason);
    assert.ok(!reason.includes('…'));
  });

  it('says what the first of several wrong commands did: stopped the program, or answered nothing', () => {
    const input = oneWrongChoose();
    input.lines[5] = new Set(input.lines[4]);
    const wrong = [4, 5];
    const several = `this line ran at the ${wrong.length} CHOOSE commands that went wrong`;
    const stopped = rankSuspiciousLines({ ...input, otherFailing: [5], failingAnswer: null })!.reason;
    assert.ok(stopped.startsWith(`${several} (the first stopped the program), and not at`), stopped);
    const nothing = rankSuspiciousLines({ ...input, otherFailing: [5], failingAnswer: [] })!.reason;
    assert.ok(nothing.startsWith(`${several} (the first answered nothing), and not at`), nothing);
  });

  it("uses the lesson's words for what happened only when a single command went wrong", () => {
    const input = oneWrongChoose();
    const failingEvent = 'when CHOOSE took a';
    assert.ok(rankSuspiciousLines({ ...input, failingEvent })!.reason.startsWith(`this line ran ${failingEvent}, and`));
    input.lines[5] = new Set(input.lines[4]);
    const reason = rankSuspiciousLines({ ...input, failingEvent, otherFailing: [5] })!.reason;
    assert.ok(!reason.includes(failingEvent), reason);
    assert.ok(
      reason.startsWith('this line ran at the 2 CHOOSE commands that went wrong (the first answered a)'),
      reason,
    );
  });

  it('when no line tells them apart, offers the lines that ran at the fewest other commands first, in whatever order they were traced', () => {
    const input = oneWrongChoose();
    // The wrong CHOOSE ran what the right ones ran, among them a helper (line 30) that the first ADD calls too;
    // the tracer reported its lines last line first.
    for (const i of [0, 2, 3, 5]) input.lines[i] = new Set([...input.lines[i]!, 30]);
    input.lines[4] = new Set([...input.lines[2]!].sort((a, b) => b - a));
    const ranked = rankSuspiciousLines({ ...input, limit: 10 });
    assert.equal(ranked?.discriminating, false);
    // choose()'s lines ran at the 3 other CHOOSEs, line 30 at those and at ADD a; the loop ran everywhere.
    assert.deepEqual(ranked?.lines, [...CHOOSE, 30]);
    assert.deepEqual(rankSuspiciousLines({ ...input, limit: 2 })?.lines, CHOOSE.slice(0, 2));
  });

  it('says the lines ran "as often" at the right commands when some ran at only part of the wrong and the right ones', () => {
    // Two wrong CHOOSEs, two right ones; line 15 ran at one of each, choose() at all four.
    const input = traced([
      ['ADD a', ADD],
      ['CHOOSE', [...CHOOSE, 15]],
      ['CHOOSE', [...CHOOSE, 15]],
      ['CHOOSE', CHOOSE],
      ['CHOOSE', CHOOSE],
    ]);
    const ranked = rankSuspiciousLines({ ...input, failingIndex: 1, otherFailing: [3], failingAnswer: ['b'] });
    assert.equal(ranked?.discriminating, false);
    // Line 15 ran at one other command, choose()'s lines at three; the loop at all of them.
    assert.deepEqual(ranked?.lines, [15, ...CHOOSE]);
    const happened = 'at the 2 CHOOSE commands that went wrong (the first answered b)';
    assert.ok(
      ranked?.reason.startsWith(
        `the lines that ran ${happened} ran as often at the other 2 CHOOSE commands, which were right, so `,
      ),
      ranked?.reason,
    );
  });
});
