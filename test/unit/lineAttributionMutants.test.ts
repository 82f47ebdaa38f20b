/**
 * The attribution's corners that test/unit/lineAttribution.test.ts leaves open (its surviving mutants):
 * commands at the start that answer nothing, a program that reads its first commands one at a time and the
 * rest in one go, a first read that is already end of input, more lines read than there were commands,
 * runs stopped after end of input or while reading ahead, lines that ran after the program's end (an exit
 * handler), and a trace with no records at all. Which command a line lands on is what the spectrum later
 * compares, so a line given to the wrong command points the learner at the wrong code.
 */
import * as assert from 'node:assert/strict';
import { attributeLines } from '../../src/core/diagnosis/lineAttribution';
import { r, shares } from './traceRecords';

describe('attributing traced lines to commands: the surviving mutants', () => {
  it('cuts by reads when the first command answers nothing, and gives it what ran after its line was handed out', () => {
    // Answers [] and one line: the first answer line completes both commands (A 2).
    const records = [r('R', 0, [1]), r('R', 1, [5]), r('A', 2, [6]), r('E', 2), r('X', 0)];
    assert.deepEqual(shares(records, [0, 1], 2), { by: 'reads', lines: [[5], [6]] });
  });

  it('when cutting by answers, leaves the commands that answer nothing at the start, and the first that answers, undefined', () => {
    // Their work cannot be told from the first answering command's: only the command after it is known.
    const records = [r('B', 0, [1]), r('A', 2, [5]), r('A', 3, [6]), r('X', 0)];
    const { by, lines } = shares(records, [0, 1, 1], 3);
    assert.equal(by, 'answers');
    assert.deepEqual(lines, [undefined, undefined, [6]]);
  });

  it('cuts by answers when the program read its first commands one line at a time and the rest in one go', () => {
    // After two line reads it read stdin in bulk (B): the third command had no read of its own.
    const records = [
      r('R', 0, [1]),
      r('A', 1, [5]),
      r('R', 1, [9]),
      r('A', 2, [6]),
      r('B', 2),
      r('A', 3, [7]),
      r('X', 0),
    ];
    // From the end of one answer to the end of the next: the loop line (9) belongs to the second command.
    assert.deepEqual(shares(records, [1, 1, 1], 3), { by: 'answers', lines: [[5], [6, 9], [7]] });
  });

  it('takes a first read that is already end of input as the end of the start-up', () => {
    // The program read its commands in a way the tracer does not see, then asked for one more line.
    const records = [r('E', 0, [1]), r('A', 1, [5]), r('A', 2, [6]), r('X', 0)];
    assert.deepEqual(shares(records, [1, 1], 2), { by: 'answers', lines: [[5], [6]] });
  });

  it('gives no command the lines that ran after a read past the last command, and does not fail on them', () => {
    // Two commands, three lines handed out (a stray carriage return split the second command in two).
    const records = [
      r('R', 0),
      r('A', 1, [5]),
      r('R', 1, [9]),
      r('A', 2, [6]),
      r('R', 2, [7]),
      r('E', 3, [8]),
      r('X', 0, [3]),
    ];
    const attribution = attributeLines(records, [1, 1], 2);
    assert.equal(attribution.perCommand.length, 2);
    assert.deepEqual(shares(records, [1, 1], 2), {
      by: 'reads',
      lines: [
        [5, 9],
        [6, 7],
      ],
    });
  });

  it("keeps the last command's lines when the run was stopped from outside after it read end of input", () => {
    // It answered both commands, read end of input, then hung until the time limit stopped it (no X).
    const records = [r('R', 0), r('A', 1, [5]), r('R', 1, [9]), r('A', 2, [6]), r('E', 2, [7])];
    assert.deepEqual(shares(records, [1, 1], 2), {
      by: 'reads',
      lines: [
        [5, 9],
        [6, 7],
      ],
    });
  });

  it('when cutting by answers, does not trust the command it was on when the run was stopped from outside', () => {
    // It read all three lines ahead, answered the first, and was stopped while on the second (no X).
    const records = [r('R', 0, [1]), r('R', 1), r('R', 2), r('A', 1, [5]), r('E', 3, [6])];
    assert.deepEqual(shares(records, [1], 3), { by: 'answers', lines: [[5], undefined, undefined] });
  });

  it('gives no command the lines that ran after the program ended (an exit handler that prints)', () => {
    // The last answer is printed after the tracer's X: its lines (7) are not the second command's.
    const byReads = [r('R', 0), r('A', 1, [5]), r('R', 1, [9]), r('X', 0, [6]), r('A', 2, [7])];
    assert.deepEqual(shares(byReads, [1, 1], 2), { by: 'reads', lines: [[5, 9], [6]] });
    const byAnswers = [r('B', 0), r('A', 1, [5]), r('X', 0, [6]), r('A', 2, [7])];
    assert.deepEqual(shares(byAnswers, [1, 1], 2), { by: 'answers', lines: [[5], [6]] });
    // No read the tracer saw before the end: the first command's lines are mixed with the start-up's.
    const unread = [r('X', 0, [1, 5]), r('A', 1, [6])];
    assert.deepEqual(shares(unread, [1], 1), { by: 'answers', lines: [undefined] });
  });

  it('attributes nothing, and does not fail, when the trace has no records at all', () => {
    assert.deepEqual(attributeLines([], [], 0), { perCommand: [], by: 'reads' });
    const commandCount = 3;
    assert.deepEqual(
      shares([], [], commandCount).lines,
      Array.from({ length: commandCount }, () => undefined),
    );
  });
});
