/**
 * Cutting a traced run's line records into commands (pure). The records are written by hand in the shape
 * the bootstraps print; test/node/lineTrace.test.ts runs the real tracers.
 */
import * as assert from 'node:assert/strict';
import { r, shares } from './traceRecords';

describe('attributing traced lines to commands', () => {
  it('cuts at each stdin line when the program reads one line and answers it before taking the next', () => {
    // Start-up (1, 2) belongs to no command; after its answer, a command's tail (9) is still its own.
    const records = [
      r('R', 0, [1, 2]),
      r('A', 1, [5]),
      r('R', 1, [9]),
      r('A', 2, [6, 7]),
      r('R', 2, [9]),
      r('A', 3, [6, 8]),
      r('E', 3, [9]),
      r('X', 0, [3]),
    ];
    assert.deepEqual(shares(records, [1, 1, 1], 3), {
      by: 'reads',
      lines: [
        [5, 9],
        [6, 7, 9],
        [6, 8, 9],
      ],
    });
  });

  it('keeps a command that answers nothing when cutting by reads', () => {
    // The empty answer is complete as soon as the one before it is: the first answer line completes two.
    const records = [r('R', 0), r('A', 2, [5]), r('R', 1), r('R', 2, [7]), r('A', 3, [6]), r('E', 3), r('X', 0)];
    assert.deepEqual(shares(records, [1, 0, 1], 3).lines, [[5], [7], [6]]);
  });

  it('cuts at each answer when the program read ahead, and drops what ran before it first read', () => {
    // All three lines handed out before the first answer (readline's async iterator, a lookahead parser).
    const records = [
      r('R', 0, [1]),
      r('R', 1),
      r('R', 2),
      r('A', 1, [5]),
      r('A', 2, [6]),
      r('A', 3, [6, 8]),
      r('E', 3, [9]),
      r('X', 0),
    ];
    assert.deepEqual(shares(records, [1, 1, 1], 3), { by: 'answers', lines: [[5], [6], [6, 8]] });
    // The same with one bulk read (sys.stdin.read()).
    const bulk = [r('B', 0, [1]), r('A', 1, [5]), r('A', 2, [6]), r('A', 3, [6, 8]), r('X', 0, [9])];
    assert.deepEqual(shares(bulk, [1, 1, 1], 3), { by: 'answers', lines: [[5], [6], [6, 8]] });
  });

  it('when cutting by answers, leaves a command that answers nothing, and the next one, undefined', () => {
    const records = [r('B', 0), r('A', 2, [5]), r('A', 3, [7, 6]), r('A', 4, [6]), r('X', 0)];
    assert.deepEqual(shares(records, [1, 0, 1, 1], 4).lines, [[5], undefined, undefined, [6]]);
  });

  it('leaves every command undefined when the answers were written all at once', () => {
    const records = [r('B', 0), r('A', 3, [5, 6, 7]), r('X', 0)];
    assert.deepEqual(shares(records, [1, 1, 1], 3).lines, [undefined, undefined, undefined]);
  });

  it('leaves the first command undefined when nothing separates it from the start-up', () => {
    // The program reads stdin in a way the tracer does not see (os.read(0, …)).
    const records = [r('A', 1, [1, 5]), r('A', 2, [6]), r('X', 0)];
    assert.deepEqual(shares(records, [1, 1], 2).lines, [undefined, [6]]);
  });

  it('gives a crashed command the lines up to the crash, and none to the commands after it', () => {
    const records = [r('R', 0), r('A', 1, [5]), r('R', 1, [9]), r('A', 2, [6]), r('R', 2, [9]), r('X', 0, [6, 7])];
    assert.deepEqual(shares(records, [1, 1], 4).lines, [[5, 9], [6, 9], [6, 7], undefined]);
    const byAnswers = [r('B', 0), r('A', 1, [5]), r('A', 2, [6]), r('X', 0, [6, 7])];
    assert.deepEqual(shares(byAnswers, [1, 1], 4).lines, [[5], [6], [6, 7], undefined]);
  });

  it('does not trust the command it was on when the run was stopped from outside', () => {
    const records = [r('R', 0), r('A', 1, [5]), r('R', 1, [9]), r('A', 2, [6]), r('R', 2, [9])];
    assert.deepEqual(shares(records, [1, 1], 3).lines, [[5, 9], [6, 9], undefined]);
  });

  it("reports a command where none of the learner's lines ran (a driver command) as an empty set, not undefined", () => {
    const records = [r('R', 0), r('A', 1), r('R', 1), r('A', 2, [5]), r('E', 2), r('X', 0)];
    assert.deepEqual(shares(records, [1, 1], 2).lines, [[], [5]]);
  });
});
