// How src/core/model/segment.ts cuts a program's stdout into one answer per command where segment.test.ts leaves
// it to chance: the same many-line command twice in a row (split evenly, or by the reference's answer), the hints
// segmentAnswers takes from `expected` or from simulating the reference, and a many-line shape that matches any
// word. Every model and input is built inside its test, so mutation coverage (perTest) credits the test that runs it.
import * as assert from 'node:assert/strict';
import { model } from '../../lessons/least-connections/model/model';
import type { ReferenceModel } from '../../src/core/model/model';
import { cutAnswer, outputLines, segmentAnswers } from '../../src/core/model/segment';
import { simulate } from '../../src/core/model/simulate';

/**
 * A protocol with one one-line command (`ADD <word>`, answered `OK`) and one many-line command whose lines are
 * any text matching `line`: `NAMES` lists the words added so far, one a line.
 */
function wordsModel(line: RegExp): ReferenceModel<readonly string[]> {
  return {
    id: 'words',
    description: 'ADD <word> / NAMES',
    mutations: [],
    resetCommand: 'RESET',
    resetAnswer: ['OK'],
    initial: () => [],
    step(state, command) {
      const [verb, word] = command.split(' ');
      if (verb === 'NAMES') return { state, answer: { kind: 'lines', lines: [...state] } };
      return { state: verb === 'ADD' && word ? [...state, word] : [], answer: { kind: 'lines', lines: ['OK'] } };
    },
    snapshot: (state) => ({ words: state.length }),
    answerShape: (command) => (command.startsWith('NAMES') ? { kind: 'many', line } : { kind: 'one' }),
    isAnswerLine: (text) => text === 'OK' || line.test(text),
    generate: () => ['NAMES'],
  };
}

/** The least-connections model, counting how often the engine runs a step of it. */
function countingModel(): { model: ReferenceModel; steps: () => number } {
  let steps = 0;
  const counting: ReferenceModel = {
    ...(model as unknown as ReferenceModel),
    step: (state, command, mutations, observed) => {
      steps += 1;
      return (model as unknown as ReferenceModel).step(state, command, mutations, observed);
    },
  };
  return { model: counting, steps: () => steps };
}

describe('cutting the answer of one command out of the output', () => {
  describe('the same STATUS twice or more in a row', () => {
    it('splits a run of identical parts evenly: the first STATUS takes one part', () => {
      const part = ['a:1', 'b:0'];
      assert.deepEqual(cutAnswer(model, ['STATUS', 'STATUS'], 0, [...part, ...part], 0, true), part);
      assert.deepEqual(cutAnswer(model, ['STATUS', 'STATUS', 'STATUS'], 0, [...part, ...part, ...part], 0, true), part);
    });

    it('splits from the position reached, with answers of earlier commands before it and of later ones after it', () => {
      const commands = ['POOL a b', 'PICK', 'STATUS', 'STATUS', 'PICK'];
      const lines = ['OK', 'a', 'a:1', 'b:0', 'a:1', 'b:0', 'b'];
      assert.deepEqual(cutAnswer(model, commands, 2, lines, 2, true), ['a:1', 'b:0']);
      // The second STATUS of the run is the last: it takes every STATUS line left.
      assert.deepEqual(cutAnswer(model, commands, 3, lines, 4, true), ['a:1', 'b:0']);
      assert.deepEqual(cutAnswer(model, ['POOL a', 'STATUS', 'STATUS'], 1, ['OK', 'a:1', 'a:1'], 1, true), ['a:1']);
    });

    it('does not split a run whose parts differ: without the reference, the first STATUS takes the whole run', () => {
      assert.deepEqual(cutAnswer(model, ['STATUS', 'STATUS'], 0, ['a:1', 'b:0'], 0, true), ['a:1', 'b:0']);
      // Parts 1 and 3 are the same, part 2 is not: still not an even split.
      const lines = ['a:1', 'a:2', 'a:1'];
      assert.deepEqual(cutAnswer(model, ['STATUS', 'STATUS', 'STATUS'], 0, lines, 0, true), lines);
      // A run that does not divide by the number of commands, without the reference's length.
      assert.deepEqual(
        cutAnswer(model, ['POOL a b', 'STATUS', 'STATUS', 'PICK'], 1, ['OK', 'a:0', 'b:0', 'a:0', 'a'], 1, true),
        ['a:0', 'b:0', 'a:0'],
      );
    });

    it('only counts repeats of the same command: STATUS then another many-line command is a run of one', () => {
      // `STATUS all` has the STATUS shape but is another command: no even split, only the reference's length.
      const lines = ['a:1', 'a:1'];
      assert.deepEqual(cutAnswer(model, ['STATUS', 'STATUS all'], 0, lines, 0, true), lines);
      assert.deepEqual(cutAnswer(model, ['STATUS', 'STATUS all'], 0, lines, 0, true, 1), ['a:1']);
      assert.deepEqual(cutAnswer(model, ['PICK', 'STATUS', 'STATUS all'], 1, ['a', ...lines], 1, true, 1), ['a:1']);
    });

    it("cuts an uneven run at the reference's answer length", () => {
      // The second STATUS printed one line fewer: the run of 3 cannot be halved, the reference says 2.
      const lines = ['OK', 'a:1', 'b:0', 'a:1', 'a'];
      assert.deepEqual(cutAnswer(model, ['POOL a b', 'STATUS', 'STATUS', 'PICK'], 1, lines, 1, true, 2), [
        'a:1',
        'b:0',
      ]);
      assert.deepEqual(cutAnswer(model, ['STATUS', 'STATUS'], 0, ['a:1', 'b:0', 'a:1'], 0, true, 2), ['a:1', 'b:0']);
      // An even split wins over the reference's length.
      assert.deepEqual(cutAnswer(model, ['STATUS', 'STATUS'], 0, ['a:1', 'a:1'], 0, true, 2), ['a:1']);
    });

    it("never takes more than the run because the reference's answer is longer", () => {
      // The first STATUS printed one line where the reference prints two; the next line is no STATUS line.
      assert.deepEqual(cutAnswer(model, ['STATUS', 'STATUS', 'PICK'], 0, ['a:1', 'EMPTY'], 0, true, 2), ['a:1']);
      assert.deepEqual(cutAnswer(model, ['PICK', 'STATUS', 'STATUS', 'PICK'], 1, ['a', 'a:1', 'EMPTY'], 1, true, 2), [
        'a:1',
      ]);
      // A run longer than the reference's answer, from further on: cut at the reference's length from there.
      assert.deepEqual(
        cutAnswer(model, ['PICK', 'STATUS', 'STATUS', 'PICK'], 1, ['a', 'a:1', 'b:0', 'a:1', 'EMPTY'], 1, true, 2),
        ['a:1', 'b:0'],
      );
    });
  });

  describe('a many-line shape that matches any word', () => {
    it('stops at the end of the output (a missing line is no answer line)', () => {
      const words = wordsModel(/^[a-z]+$/);
      assert.deepEqual(cutAnswer(words, ['NAMES', 'NAMES'], 0, ['x', 'y', 'x', 'y'], 0, true), ['x', 'y']);
      assert.deepEqual(cutAnswer(words, ['NAMES', 'NAMES'], 0, ['x', 'x'], 0, true), ['x']);
      assert.deepEqual(segmentAnswers(words, ['ADD x', 'NAMES', 'NAMES'], ['OK', 'x', 'x']), [['OK'], ['x'], ['x']]);
    });

    it('does not split one blank line between two commands: the first takes it', () => {
      const anything = wordsModel(/^.*$/);
      assert.deepEqual(cutAnswer(anything, ['NAMES', 'NAMES'], 0, [''], 0, true), ['']);
    });
  });
});

describe('segmenting a whole output with the reference as a guide', () => {
  it("cuts two STATUS in a row at the reference's answers when the program's two answers differ", () => {
    const commands = ['POOL a b', 'STATUS', 'STATUS'];
    // The reference answers a:0 and b:0 to each STATUS; this program left b out of the second.
    assert.deepEqual(
      simulate(model, commands).steps.map((s) => s.answer),
      [['OK'], ['a:0', 'b:0'], ['a:0', 'b:0']],
    );
    assert.deepEqual(segmentAnswers(model, commands, ['OK', 'a:0', 'b:0', 'a:0']), [['OK'], ['a:0', 'b:0'], ['a:0']]);
    // With the hint, a longer first answer is cut too: the rest goes to the second STATUS.
    assert.deepEqual(
      segmentAnswers(model, ['POOL a b', 'STATUS', 'STATUS', 'PICK'], ['OK', 'a:0', 'b:0', 'c:0', 'a:0', 'b:0', 'a']),
      [['OK'], ['a:0', 'b:0'], ['c:0', 'a:0', 'b:0'], ['a']],
    );
  });

  it('uses the expected answers given, not a simulation, to cut an ambiguous run', () => {
    const commands = ['POOL a b', 'STATUS', 'STATUS'];
    const lines = ['OK', 'a:0', 'b:0', 'a:0'];
    // A hidden transcript that expects one line from the first STATUS.
    const expected = [['OK'], ['a:0'], ['b:0', 'a:0']];
    assert.deepEqual(segmentAnswers(model, commands, lines, true, expected), expected);
  });

  it('cuts the commands past the expected answers given by shape alone', () => {
    const commands = ['POOL a', 'PICK', 'STATUS', 'PICK'];
    assert.deepEqual(segmentAnswers(model, commands, ['OK', 'a', 'a:1', 'a'], true, [['OK']]), [
      ['OK'],
      ['a'],
      ['a:1'],
      ['a'],
    ]);
    assert.deepEqual(segmentAnswers(model, commands, ['OK', 'a', 'a:1', 'a'], true, []), [
      ['OK'],
      ['a'],
      ['a:1'],
      ['a'],
    ]);
  });

  it('takes the program as finished unless told otherwise: a STATUS at the very end with nothing printed is answered', () => {
    assert.deepEqual(segmentAnswers(model, ['POOL', 'STATUS'], ['OK']), [['OK'], []]);
    assert.deepEqual(segmentAnswers(model, ['POOL a', 'PICK', 'STATUS'], ['OK', 'a']), [['OK'], ['a'], []]);
  });

  it('runs the reference only when two many-line commands are next to each other', () => {
    const plain = countingModel();
    const commands = ['POOL a b', 'PICK', 'STATUS', 'DONE a', 'STATUS', 'PICK'];
    const lines = ['OK', 'a', 'a:1', 'b:0', 'OK', 'a:0', 'b:0', 'a'];
    assert.deepEqual(segmentAnswers(plain.model, commands, lines), [
      ['OK'],
      ['a'],
      ['a:1', 'b:0'],
      ['OK'],
      ['a:0', 'b:0'],
      ['a'],
    ]);
    assert.equal(plain.steps(), 0, 'no STATUS follows a STATUS: shapes alone cut the output');

    const repeated = countingModel();
    const twice = ['POOL a', 'STATUS', 'STATUS'];
    assert.deepEqual(segmentAnswers(repeated.model, twice, ['OK', 'a:0', 'a:0']), [['OK'], ['a:0'], ['a:0']]);
    assert.equal(repeated.steps(), twice.length, 'the reference is simulated once over the whole list');

    const given = countingModel();
    segmentAnswers(given.model, twice, ['OK', 'a:0', 'a:0'], true, [['OK'], ['a:0'], ['a:0']]);
    assert.equal(given.steps(), 0, 'expected answers given: nothing to simulate');
  });

  it('a STATUS at the end of a list whose last command is many-line is cut without looking past the list', () => {
    assert.deepEqual(segmentAnswers(model, ['POOL a b', 'PICK', 'STATUS'], ['OK', 'a', 'a:1', 'b:0']), [
      ['OK'],
      ['a'],
      ['a:1', 'b:0'],
    ]);
    assert.deepEqual(segmentAnswers(model, ['STATUS'], ['x:0']), [['x:0']]);
  });

  it('splits stdout of lines without a final newline, and a lone newline as one empty line', () => {
    assert.deepEqual(outputLines('OK\na'), ['OK', 'a']);
    assert.deepEqual(outputLines('\n'), ['']);
    assert.deepEqual(outputLines('\n\n'), ['', '']);
  });

  it('keeps a whole output of one line without a final newline, whatever the line says', () => {
    // "Stryker was here!" is the text mutation testing puts in place of the empty string this function tests for.
    for (const line of ['OK', ' ', 'Stryker was here!']) assert.deepEqual(outputLines(line), [line]);
    assert.deepEqual(outputLines(''), []);
  });
});
