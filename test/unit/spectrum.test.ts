/** Ranking the learner's lines by the Ochiai score (pure; the traced runs are in test/node/lineTrace.test.ts). */
import * as assert from 'node:assert/strict';
import { rankSuspiciousLines, type SpectrumInput } from '../../src/core/diagnosis/spectrum';

// A run like `POOL a b d c`, PICK, PICK, DONE b, PICK, PICK of a program whose pick() (lines 10-11) calls a
// helper (lines 20-27); line 26 is the helper's tie branch, taken only at the last PICK. Lines 40-44 are the
// command loop, 50 the DONE code.
const loop = [40, 41, 42];
const pickLines = [10, 11, 20, 21, 22, 23, 24, 27, 43];
const commands = ['POOL a b d c', 'PICK', 'PICK', 'DONE b', 'PICK', 'PICK'];
const lines: (Set<number> | undefined)[] = [
  new Set([...loop, 44]),
  new Set([...loop, ...pickLines]),
  new Set([...loop, ...pickLines]),
  new Set([...loop, 50]),
  new Set([...loop, ...pickLines]),
  new Set([...loop, ...pickLines, 26]),
];
const base: SpectrumInput = { commands, lines, failingIndex: 5, failingAnswer: ['c'] };

describe('ranking suspicious lines (Ochiai)', () => {
  it('puts the line that ran only at the wrong PICK first, and says so in words', () => {
    const ranked = rankSuspiciousLines(base);
    assert.deepEqual(ranked?.lines, [26]);
    assert.equal(ranked?.score, 1);
    assert.equal(ranked?.discriminating, true);
    assert.equal(
      ranked?.reason,
      'this line ran when PICK answered c, and not at the other 3 PICK commands, which were right',
    );
  });

  it('gives the lines with the top score in line order, at most the limit, and leaves weaker evidence out', () => {
    // 30 and 31 ran only at the wrong PICK (score 1); 25 also at one of the three right ones (1/sqrt(2)).
    const more = [...lines];
    more[5] = new Set([...lines[5]!, 31, 30, 25]);
    more[2] = new Set([...lines[2]!, 25]);
    const ranked = rankSuspiciousLines({ ...base, lines: more });
    assert.deepEqual(ranked?.lines, [26, 30, 31]);
    assert.equal(
      ranked?.reason,
      'these lines ran when PICK answered c, and not at the other 3 PICK commands, which were right',
    );
    assert.deepEqual(rankSuspiciousLines({ ...base, lines: more, limit: 2 })?.lines, [26, 30]);
    // Without the lines of score 1, the 1/sqrt(2) one is the best evidence there is.
    more[5] = new Set([...lines[4]!, 25]);
    const weaker = rankSuspiciousLines({ ...base, lines: more });
    assert.deepEqual([weaker?.lines, weaker?.score.toFixed(3)], [[25], '0.707']);
    assert.equal(
      weaker?.reason,
      'this line ran when PICK answered c, and at only 1 of the other 3 PICK commands, which were right',
    );
  });

  it('compares only with commands of the same kind that were right', () => {
    // 50 ran at the wrong PICK and at DONE: DONE is not a PICK, so 50 still ran only where PICK went wrong.
    const more = [...lines];
    more[5] = new Set([...lines[5]!, 50]);
    assert.deepEqual(rankSuspiciousLines({ ...base, lines: more })?.lines, [26, 50]);
    assert.match(rankSuspiciousLines({ ...base, lines: more })!.reason, /^these lines ran /);
    // A later PICK that was also wrong is not one of the right ones.
    const twoWrong = [...lines, new Set([...loop, ...pickLines, 26])];
    const ranked = rankSuspiciousLines({
      ...base,
      commands: [...commands, 'PICK'],
      lines: twoWrong,
      otherFailing: [6],
    });
    assert.deepEqual(ranked?.lines, [26]);
    assert.equal(
      ranked?.reason,
      'this line ran at the 2 PICK commands that went wrong (the first answered c), and not at the other 3 PICK commands, which were right',
    );
  });

  it('leaves out commands whose lines the trace could not tell, instead of counting them as having run nothing', () => {
    const unsure = [...lines];
    unsure[1] = undefined;
    unsure[2] = undefined;
    const ranked = rankSuspiciousLines({ ...base, lines: unsure });
    assert.equal(
      ranked?.reason,
      'this line ran when PICK answered c, and not at the other PICK command, which was right',
    );
  });

  it("words a crash, an empty answer, a long one, and the lesson's own phrasing", () => {
    assert.match(
      rankSuspiciousLines({ ...base, failingAnswer: null })!.reason,
      /^this line ran at the PICK where the program stopped, /,
    );
    assert.match(
      rankSuspiciousLines({ ...base, failingAnswer: [] })!.reason,
      /^this line ran when PICK answered nothing, /,
    );
    assert.match(rankSuspiciousLines({ ...base, failingAnswer: ['x'.repeat(60)] })!.reason, /answered x{39}…, /);
    // The caller's own words for what happened win.
    assert.match(
      rankSuspiciousLines({ ...base, failingEvent: 'when PICK chose c' })!.reason,
      /^this line ran when PICK chose c, and not at /,
    );
  });

  it('says honestly when the same lines ran at the right PICKs, and offers the lines of this command kind only', () => {
    // The wrong PICK ran exactly what the right ones ran: the mistake is in the values, not the path.
    const same = [...lines];
    same[5] = lines[4];
    const ranked = rankSuspiciousLines({ ...base, lines: same });
    assert.equal(ranked?.discriminating, false);
    // Not the command loop (it ran at every command), the PICK code first in line order.
    // Up to 10 of them: a function's body that tells nothing apart is not cut at its top five lines.
    assert.deepEqual(ranked?.lines, [10, 11, 20, 21, 22, 23, 24, 27, 43]);
    assert.deepEqual(rankSuspiciousLines({ ...base, lines: same, limit: 5 })?.lines, [10, 11, 20, 21, 22]);
    assert.equal(
      ranked?.reason,
      'the lines that ran when PICK answered c also ran at the other 3 PICK commands, which were right, so look at the values they compute',
    );
  });

  it('with nothing to compare with, gives the lines of that command that ran at the fewest others, and says so', () => {
    // No right PICK at all (a shrunk counterexample often ends at its first PICK): the loop (40) ran at the POOL too.
    assert.deepEqual(
      rankSuspiciousLines({
        commands: ['POOL b a', 'PICK'],
        lines: [new Set([40]), new Set([40, 26, 10])],
        failingIndex: 1,
        failingAnswer: ['a'],
      }),
      {
        lines: [10, 26],
        score: 0,
        reason: 'these lines ran when PICK answered a, and no other PICK command was answered right to compare with',
        discriminating: false,
      },
    );
    // Nothing else ran at all: no line is known to be this command's own.
    assert.equal(
      rankSuspiciousLines({ commands: ['PICK'], lines: [new Set([40, 10])], failingIndex: 0, failingAnswer: ['a'] }),
      undefined,
    );
  });

  it('gives nothing when the lines cannot say', () => {
    // The failing command's lines are unknown.
    const unknown = [...lines];
    unknown[5] = undefined;
    assert.equal(rankSuspiciousLines({ ...base, lines: unknown }), undefined);
    // Every line of the failing command ran at every other command too.
    const flat = commands.map(() => new Set(loop));
    assert.equal(rankSuspiciousLines({ ...base, lines: flat }), undefined);
  });
});
