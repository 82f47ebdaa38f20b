/**
 * The determinism probe (core `probe`) where runs cannot be compared or differ in how they end: a run that
 * hung or flooded says nothing about randomness; a program that differs only after the other transcripts
 * keeps state; more fresh runs are spent only where nothing is known yet. FAKE processes, scripted per start.
 */
import * as assert from 'node:assert/strict';
import type { Case } from '../../src/core/check/cases';
import type { Execute, ProcessResult } from '../../src/core/check/process';
import { probeDeterminism, probeMoreFresh, type Probe } from '../../src/core/check/probe';
import { simulate, type Outcome } from '../../src/core/model/simulate';
import { done, model, mutantProgram } from './fakeLesson';

const commands = ['POOL a b', 'PICK', 'PICK', 'STATUS'];
const probed: Case = {
  name: 'two',
  label: 'two picks',
  commands,
  expected: simulate(model, commands).outcome,
  hidden: true,
};

/** The n-th process started answers as `scripts[n]` says (the last script for any later one). */
function perProcess(...scripts: ((input: string) => Promise<ProcessResult>)[]): Execute & { starts: () => number } {
  let started = 0;
  return Object.assign((async (input) => scripts[Math.min(started++, scripts.length - 1)]!(input)) as Execute, {
    starts: () => started,
  });
}

const right = (input: string) => mutantProgram()(input);
const wrong = (input: string) => mutantProgram('tiebreak-last')(input);
/** Hangs after its first two answers (the reset's and the pool's). */
const hung = async (input: string): Promise<ProcessResult> =>
  done((await right(input)).stdout.split('\n').slice(0, 2).join('\n') + '\n', {
    exitCode: null,
    signal: 'SIGKILL',
    timedOut: true,
  });

describe('determinism probe: runs that cannot be compared', () => {
  it('a fresh run that hung: randomness unknown, the run twice in one process still compared', async () => {
    const probe = await probeDeterminism(model, perProcess(right, hung), probed);
    assert.deepEqual([probe.determinism.fresh, probe.determinism.afterReset], ['unknown', 'same']);
    assert.equal(probe.freshDifference, undefined);
  });

  it('a fresh run that flooded says nothing about randomness either', async () => {
    const flooded = async (input: string): Promise<ProcessResult> => ({
      ...(await hung(input)),
      timedOut: false,
      outputLimited: true,
    });
    const probe = await probeDeterminism(model, perProcess(right, flooded), probed);
    assert.deepEqual([probe.determinism.fresh, probe.freshDifference], ['unknown', undefined]);
    const later = await probeMoreFresh(
      model,
      perProcess(flooded),
      await probeDeterminism(model, perProcess(right), probed),
    );
    assert.deepEqual(
      [later.determinism.fresh, later.freshDifference],
      ['same', undefined],
      'more fresh runs that flooded show no randomness',
    );
  });

  it('a first process that hung: nothing known either way', async () => {
    const probe = await probeDeterminism(model, perProcess(hung, right), probed);
    assert.deepEqual([probe.determinism.fresh, probe.determinism.afterReset], ['unknown', 'unknown']);
    assert.equal(probe.determinism.runs, 2);
  });

  it('a run that stopped answering part-way differs where its answers stop', async () => {
    const stops = async (input: string): Promise<ProcessResult> =>
      done((await right(input)).stdout.split('\n').slice(0, 3).join('\n') + '\n');
    const probe = await probeDeterminism(model, perProcess(right, stops), probed);
    assert.deepEqual(probe.freshDifference, { index: 2, command: 'PICK', first: ['b'], second: null });
  });
});

describe('determinism probe: a run that gave nothing after the reset', () => {
  /** Answers the reset, then ends without a word more (exit 1), as a run killed from outside would. */
  const resetOnly = async (): Promise<ProcessResult> => done('OK\n', { exitCode: 1 });

  it('is run once more before it is believed, and a steady program is not told it stopped answering', async () => {
    // [T, T] answers; T alone gives only the reset's answer once (seen under load, both seeds of a real-style
    // program at once: "stopped answering at `POOL a b c` … on one of two runs"), then answers as the first.
    const program = perProcess(right, resetOnly, right);
    const probe = await probeDeterminism(model, program, probed);
    assert.deepEqual([probe.freshDifference, probe.determinism.fresh, program.starts()], [undefined, 'same', 3]);
  });

  it('said when it gives nothing again: then it is what the program does', async () => {
    const program = perProcess(right, resetOnly, resetOnly);
    const probe = await probeDeterminism(model, program, probed);
    assert.deepEqual(probe.freshDifference, { index: 0, command: 'POOL a b', first: ['OK'], second: null });
    assert.equal(program.starts(), 3);
  });
});

describe('determinism probe: state kept across the reset', () => {
  /** Keeps state across the reset: once it has pooled three backends, its ties go to the last for the rest of the process. */
  const leakyAfterThree: Execute = async (input) => {
    let state = model.initial();
    let stdout = '';
    let sawThree = false;
    for (const command of input.split('\n').filter(Boolean)) {
      const step = model.step(state, command, new Set(sawThree ? ['tiebreak-last'] : []));
      if (command === 'POOL a b c') sawThree = true;
      state = step.state;
      if (step.answer.kind !== 'crash') stdout += step.answer.lines.map((l) => `${l}\n`).join('');
    }
    return done(stdout);
  };
  const others = [['POOL a b c', 'PICK', 'STATUS']];

  it('differs from its run after the other transcripts, alike in fresh runs, and a replay shows it again: state kept, seen after the others', async () => {
    const inBatch: Outcome = simulate(model, commands, new Set(['tiebreak-last'])).outcome;
    const program = perProcess(leakyAfterThree);
    const probe = await probeDeterminism(model, program, probed, inBatch, others);
    assert.deepEqual([probe.determinism.fresh, probe.determinism.afterReset], ['same', 'different']);
    assert.equal(probe.resetDifference?.seen, 'after-others');
    assert.deepEqual(
      probe.resetDifference && [probe.resetDifference.index, probe.resetDifference.first, probe.resetDifference.second],
      [1, ['a'], ['b']],
    );
    assert.ok(program.starts() > 2, 'more fresh runs, and the replay, before calling it kept state');
    const without = await probeDeterminism(model, perProcess(leakyAfterThree), probed);
    assert.deepEqual([without.determinism.afterReset, without.resetDifference], ['same', undefined]);
  });

  it('a difference after the others that a replay of the same input does not show again is not called kept state', async () => {
    const inBatch: Outcome = simulate(model, commands, new Set(['tiebreak-last'])).outcome;
    const replayed = await probeDeterminism(model, perProcess(right), probed, inBatch, others);
    assert.deepEqual([replayed.determinism.afterReset, replayed.resetDifference], ['unknown', undefined]);
    // Without the lists it ran after, nothing can be replayed: not confirmed either.
    const unreplayable = await probeDeterminism(model, perProcess(leakyAfterThree), probed, inBatch);
    assert.deepEqual([unreplayable.determinism.afterReset, unreplayable.resetDifference], ['unknown', undefined]);
  });

  it('a run after the others that hung says nothing', async () => {
    const probe = await probeDeterminism(model, perProcess(right), probed, { lines: ['OK'], ending: 'timed-out' });
    assert.deepEqual(
      [probe.determinism.fresh, probe.determinism.afterReset, probe.determinism.runs],
      ['same', 'same', 2],
    );
  });

  it('a difference in fresh runs is randomness, not state, even when the run after the others differs too', async () => {
    const probe = await probeDeterminism(
      model,
      perProcess(right, wrong),
      probed,
      simulate(model, commands, new Set(['tiebreak-last'])).outcome,
    );
    assert.deepEqual(
      [probe.determinism.fresh, probe.determinism.afterReset, probe.resetDifference],
      ['different', 'unknown', undefined],
    );
  });
});

describe('determinism probe: more fresh runs', () => {
  const base = async (execute: Execute): Promise<Probe> => probeDeterminism(model, execute, probed);

  it('spends none on a probe that already saw randomness, kept state, or could not tell', async () => {
    for (const determinism of [
      { fresh: 'different' },
      { fresh: 'same', afterReset: 'different' },
      { fresh: 'unknown', afterReset: 'same' },
    ] as const) {
      const probe = { ...(await base(perProcess(right))), determinism: { ...determinism, runs: 2 } } as Probe;
      const program = perProcess(right);
      assert.equal(await probeMoreFresh(model, program, probe), probe);
      assert.equal(program.starts(), 0);
    }
  });

  it('four more fresh runs that agree, then T after prefixes of itself (2 and 3 of its 4 commands) in one process: still the same, with their runs and the fresh streams added', async () => {
    const probe = await base(perProcess(right));
    const program = perProcess(right);
    const again = await probeMoreFresh(model, program, probe);
    assert.equal(program.starts(), 4 + 1);
    assert.deepEqual(
      [again.determinism.fresh, again.determinism.afterReset, again.determinism.runs],
      ['same', 'same', probe.determinism.runs + 4 + 1],
    );
    assert.equal(again.streams.length, probe.streams.length + 4);
    assert.equal('freshDifference' in again, false);
  });

  it('one that differs: random, with what it said, and nothing known of the reset any more', async () => {
    const probe = await base(perProcess(right));
    const again = await probeMoreFresh(model, perProcess(right, right, wrong), probe);
    assert.deepEqual([again.determinism.fresh, again.determinism.afterReset], ['different', 'unknown']);
    assert.deepEqual(again.freshDifference, { index: 1, command: 'PICK', first: ['a'], second: ['b'] });
  });
});

describe('determinism probe: lines the batch did not keep', () => {
  /** The wrong tiebreak's answers, with `extra` lines after the last one (`also` before the first). */
  const withLines =
    (extra: string[], also: string[] = []) =>
    async (input: string): Promise<ProcessResult> => {
      const answered = (await wrong(input)).stdout;
      return done([...also, ...answered.split('\n').filter(Boolean), ...extra].map((l) => `${l}\n`).join(''));
    };

  it('a writer whose lines fall after the last answer, a different number on two fresh runs, is named from the whole output', async () => {
    // Once: one dot; twice: two dots (as many per answer, so the repeat alone cannot tell); one more fresh run: three.
    const program = perProcess(withLines(['.', '.']), withLines(['.']), withLines(['', '.', '.']));
    const probe = await probeDeterminism(model, program, probed);
    assert.equal(program.starts(), 3, 'one more fresh run of the same input');
    assert.deepEqual(probe.unasked && [probe.unasked.seen, probe.unasked.counts, probe.unasked.lines[0]], [
      'fresh',
      [1, 3],
      '.',
    ]);
    assert.deepEqual(
      probe.unaskedShown?.lines.slice(-3),
      ['', '.', '.'],
      'the run with more of them is the one shown, its lines in place',
    );
    assert.equal(probe.determinism.runs, 3);
  });

  it('a banner printed once at the start of every process is the same on each fresh run: not named', async () => {
    const program = perProcess(withLines([], ['Balancer ready']));
    const probe = await probeDeterminism(model, program, probed);
    assert.equal(probe.unasked, undefined);
    assert.equal(program.starts(), 3, 'the whole outputs of two fresh runs compared');
  });

  it('a program that prints only answers starts no third process for this', async () => {
    const program = perProcess(wrong);
    assert.equal((await probeDeterminism(model, program, probed)).unasked, undefined);
    assert.equal(program.starts(), 2);
  });
});
