/**
 * What the determinism probe (core `probe`) says of a program whose replay of T and T is one process: its doubled
 * lines are not a thread's, and a difference in its first T is one between two fresh runs, not one "after the
 * other transcripts". FAKE programs (scripted per process start), found failing by a helper writing probe's
 * mutation tests: the learner was told things their program did not do.
 */
import * as assert from 'node:assert/strict';
import { runBatch } from '../../src/core/check/batch';
import type { Execute } from '../../src/core/check/process';
import { probeDeterminism } from '../../src/core/check/probe';
import { caseOf, done, model, perProcess, prints } from './fakeLesson';

const commands = ['POOL a b', 'PICK', 'PICK'];
const T = caseOf(commands);

describe('the probe on a replay of T and T', () => {
  it('a program that keeps state across the reset and prints a debug line after each PICK is not told its output has lines no command asks for', async () => {
    // Every run prints "debug: picked X" after each PICK, at the same places: a debug print that follows the
    // commands. [T, T] answers otherwise in its second T (state kept), confirmed by four agreeing fresh runs
    // and a replay of [T, T]. Taking the replay of [T, T] (one process, two lists) as a fresh run of T
    // compared twice the debug lines with once, reported as "2 of them on one run of T and 4 on another run of the same commands"
    // ("its answers could not be checked, and no mistake is named").
    const run1 = ['OK', 'OK', 'a', 'debug: picked a', 'b', 'debug: picked b'];
    const run2 = ['OK', 'OK', 'b', 'debug: picked b', 'a', 'debug: picked a'];
    const leaky = prints([...run1, ...run2]);
    const alone = prints(run1);
    const program = perProcess(leaky, alone, alone, alone, alone, alone, leaky);
    const probe = await probeDeterminism(model, program, T);
    assert.equal(probe.resetDifference?.seen, 'twice', 'state kept across the reset is found');
    assert.equal(probe.unasked, undefined, `named as unasked lines: ${JSON.stringify(probe.unasked)}`);
  });

  it('a replay of [T, T] whose FIRST T stops answering is not said to have run "after the other transcripts"', async () => {
    // [T, T] differs in its second T; four fresh runs agree; the replay's first T (first in its process) stops
    // after two answers. Labelled 'after-others', the learner was told "stopped answering at `PICK` in "T" when it ran after
    // the other transcripts", though no other transcript ran before it.
    const alone = prints(['OK', 'OK', 'a', 'b']);
    const program = perProcess(
      prints(['OK', 'OK', 'a', 'b', 'OK', 'OK', 'b', 'a']),
      alone,
      alone,
      alone,
      alone,
      alone,
      prints(['OK', 'OK', 'a']),
      alone,
    );
    const probe = await probeDeterminism(model, program, T);
    assert.deepEqual(
      [probe.freshDifference?.index, probe.freshDifference?.first, probe.freshDifference?.second],
      [2, ['b'], null],
    );
    // A difference between two fresh runs: said as "on one of two runs".
    assert.equal(probe.freshDifference?.seen, undefined);
  });

  it('T after the others, replayed with the check’s whole batch and answering as before, needs no replay of T and T', async () => {
    // FAKE program with a cursor the reset does not touch: its PICKs answer a, b, a, … for the whole process. T
    // differs run twice in one process and after the other transcript in the check's batch. The replay of that
    // batch answers exactly as before: T after the others is confirmed, and that is what is said. A replay of T
    // and T would only say again what it says (a rotation that outlives the reset spent a run on it).
    let calls = 0;
    const cursor: Execute = async (input) => {
      calls += 1;
      let turn = 0;
      const out = input
        .split('\n')
        .filter(Boolean)
        .map((command) => (command === 'PICK' ? ['a', 'b'][turn++ % 2]! : 'OK'));
      return done(out.map((line) => `${line}\n`).join(''));
    };
    const one = caseOf(['POOL a b', 'PICK']);
    const other = { ...caseOf(['POOL a b', 'PICK']), name: 'o', label: 'O' };
    const main = await runBatch(model, cursor, [other.commands, one.commands]);
    calls = 0;
    const probe = await probeDeterminism(model, cursor, one, main.outcomes[1], [other.commands], {
      cases: [other, one],
      outcomes: main.outcomes,
    });
    assert.deepEqual(
      [probe.resetDifference?.seen, probe.resetDifference?.first, probe.resetDifference?.second],
      ['after-others', ['a'], ['b']],
    );
    assert.equal(probe.determinism.afterReset, 'different');
    assert.equal(probe.freshDifference, undefined);
    assert.deepEqual([calls, probe.determinism.runs], [3, 3], 'T twice, T alone, the batch again');
  });
});
