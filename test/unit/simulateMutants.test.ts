// What src/core/model/simulate.ts says about a run: the steps of a simulated crash, whether a mutant explains a
// program's output for each way the program can end (simulatesAs), and how two outcomes compare (sameOutcome,
// firstDifferentLine). Every simulation runs inside its test, so mutation coverage (perTest) credits that test.
import * as assert from 'node:assert/strict';
import { model } from '../../lessons/least-connections/model/model';
import { firstDifferentLine, sameOutcome, simulate, simulatesAs, type Outcome } from '../../src/core/model/simulate';

type Ending = Outcome['ending'];
const ENDINGS: readonly Ending[] = ['finished', 'crashed', 'timed-out', 'output-limit', 'not-run'];
const outcome = (lines: string[], ending: Ending = 'finished'): Outcome => ({ lines, ending });

describe('simulating a mutant', () => {
  it('records a crash as a crashed step with no answer and stops there', () => {
    const commands = ['POOL a', 'DONE ghost', 'PICK', 'PICK'];
    const run = simulate(model, commands, new Set(['unknown-crash']));
    assert.deepEqual(run.outcome, { lines: ['OK'], ending: 'crashed' });
    assert.equal(run.steps.length, 2, 'nothing after the crash');
    assert.deepEqual(run.steps[0], {
      command: 'POOL a',
      answer: ['OK'],
      crashed: false,
      snapshot: { a: 0 },
      alternatives: 0,
    });
    assert.deepEqual(run.steps[1], {
      command: 'DONE ghost',
      answer: [],
      crashed: true,
      snapshot: { a: 0 },
      alternatives: 0,
    });
  });

  it('counts the other answers a nondeterministic mutation accepts at each step', () => {
    const run = simulate(model, ['POOL a b c', 'PICK', 'PICK', 'PICK'], new Set(['tiebreak-any']));
    // Three tied at 0 (two others), then b and c tied at 0 (one other), then only c at 0.
    assert.deepEqual(
      run.steps.map((s) => s.alternatives),
      [0, 2, 1, 0],
    );
    assert.deepEqual(run.outcome, { lines: ['OK', 'a', 'b', 'c'], ending: 'finished' });
  });
});

describe('whether a mutant explains what a program printed', () => {
  it('a program that crashed where the mutant crashes, after the same lines, is explained unless it is said to have finished', () => {
    const commands = ['POOL', 'PICK', 'PICK'];
    const crashes = new Set(['empty-crash']);
    // The mutant says OK, then crashes on the first PICK.
    assert.deepEqual(simulate(model, commands, crashes).outcome, { lines: ['OK'], ending: 'crashed' });
    for (const ending of ENDINGS) {
      assert.equal(simulatesAs(model, commands, crashes, { lines: ['OK'], ending }), ending !== 'finished', ending);
    }
    // It stopped after printing more, or less, than the mutant did before its crash: not explained.
    assert.equal(simulatesAs(model, commands, crashes, { lines: ['OK', 'EMPTY'], ending: 'crashed' }), false);
    assert.equal(simulatesAs(model, commands, crashes, { lines: [], ending: 'crashed' }), false);
  });

  it('a program stopped part way (hang, output limit, not run) is explained by a mutant that printed the same so far', () => {
    const commands = ['POOL a', 'PICK', 'PICK'];
    const none = new Set<string>();
    // The reference says OK, a, a and finishes.
    for (const ending of ENDINGS) {
      const stopped = ending === 'timed-out' || ending === 'output-limit' || ending === 'not-run';
      assert.equal(simulatesAs(model, commands, none, { lines: ['OK'], ending }), stopped, `after one line, ${ending}`);
      assert.equal(simulatesAs(model, commands, none, { lines: [], ending }), stopped, `before any line, ${ending}`);
    }
    // Stopped, but what it printed differs from the mutant: not explained.
    assert.equal(simulatesAs(model, commands, none, { lines: ['OK', 'b'], ending: 'timed-out' }), false);
  });

  it('a mutant that runs to the end explains a program that said exactly the same and did not crash', () => {
    const commands = ['POOL a', 'PICK'];
    const none = new Set<string>();
    const all = simulate(model, commands).outcome.lines;
    assert.deepEqual(all, ['OK', 'a']);
    for (const ending of ENDINGS)
      assert.equal(simulatesAs(model, commands, none, { lines: all, ending }), ending !== 'crashed', ending);
    // The program said more than the mutant ever does.
    assert.equal(simulatesAs(model, commands, none, { lines: [...all, 'a'], ending: 'finished' }), false);
    assert.equal(simulatesAs(model, commands, none, { lines: [...all, 'a'], ending: 'timed-out' }), false);
    // The same number of lines, one different.
    assert.equal(simulatesAs(model, commands, none, { lines: ['OK', 'b'], ending: 'finished' }), false);
  });

  it('the mutations switched on decide which program is explained', () => {
    const commands = ['POOL b a', 'PICK'];
    const byName: Outcome = { lines: ['OK', 'a'], ending: 'finished' };
    assert.equal(simulatesAs(model, commands, new Set(), byName), false);
    assert.equal(simulatesAs(model, commands, new Set(['tiebreak-name']), byName), true);
  });
});

describe('comparing two outcomes', () => {
  it('same outcome: the same lines in the same order and the same ending', () => {
    assert.equal(sameOutcome(outcome(['OK', 'a']), outcome(['OK', 'a'])), true);
    assert.equal(sameOutcome(outcome(['OK', 'a']), outcome(['OK', 'a'], 'crashed')), false);
    assert.equal(sameOutcome(outcome(['OK', 'a'], 'timed-out'), outcome(['OK', 'a'], 'output-limit')), false);
    assert.equal(sameOutcome(outcome(['OK', 'a']), outcome(['OK', 'b'])), false);
    assert.equal(sameOutcome(outcome(['OK', 'a']), outcome(['OK'])), false);
    assert.equal(sameOutcome(outcome(['OK']), outcome(['OK', 'a'])), false);
  });

  it('first different line: the index where the lines first differ', () => {
    assert.equal(firstDifferentLine(outcome(['OK', 'a', 'b']), outcome(['OK', 'c', 'b'])), 1);
    assert.equal(firstDifferentLine(outcome(['OK', 'a', 'b']), outcome(['OK', 'a', 'c'])), 2);
    assert.equal(firstDifferentLine(outcome(['x', 'a']), outcome(['y', 'a'])), 0);
  });

  it('first different line: where the shorter output ends, when one is a prefix of the other', () => {
    assert.equal(firstDifferentLine(outcome(['OK', 'a']), outcome(['OK', 'a', 'b'])), 2);
    assert.equal(firstDifferentLine(outcome(['OK', 'a', 'b'], 'crashed'), outcome(['OK'], 'crashed')), 1);
    assert.equal(firstDifferentLine(outcome([]), outcome(['OK'])), 0);
  });

  it('first different line: past the last line when only the endings differ, and -1 for the same outcome', () => {
    assert.equal(firstDifferentLine(outcome(['OK', 'a']), outcome(['OK', 'a'], 'crashed')), 2);
    assert.equal(firstDifferentLine(outcome([], 'timed-out'), outcome([])), 0);
    assert.equal(firstDifferentLine(outcome(['OK', 'a']), outcome(['OK', 'a'])), -1);
    assert.equal(firstDifferentLine(outcome([], 'crashed'), outcome([], 'crashed')), -1);
  });
});
