/**
 * The determinism probe with FAKE processes whose answers are scripted per process start (in-process, on
 * purpose: the point is what the probe concludes from which runs agree, and a script makes each case exact).
 */
import * as assert from 'node:assert/strict';
import { model } from '../../lessons/least-connections/model/model';
import type { Case } from '../../src/core/check/cases';
import type { Execute, ProcessResult } from '../../src/core/check/process';
import { probeMoreFresh, probeDeterminism } from '../../src/core/check/probe';
import { simulate } from '../../src/core/model/simulate';
import { rotatingPicks } from './fakeLesson';

const commands = ['POOL a b c', 'PICK', 'PICK', 'PICK'];
const probed: Case = {
  name: 'three',
  label: 'three picks',
  commands,
  expected: simulate(model, commands).outcome,
  hidden: true,
};

const done = (stdout: string): ProcessResult => ({
  stdout,
  stderr: '',
  exitCode: 0,
  signal: null,
  timedOut: false,
  outputLimited: false,
  durationMs: 1,
});

/**
 * A program whose n-th process answers the picks of each run of the transcript from `answers[n]` (a list
 * per run in that process); the picks are wrong (the reference answers a b c), so every run fails.
 */
function scripted(answers: readonly (readonly string[][])[]): { execute: Execute; starts: () => number } {
  let started = 0;
  const execute: Execute = async (input) => {
    const perRun = answers[started] ?? answers[answers.length - 1]!;
    started += 1;
    // Each run of the transcript is the reset command (a bare POOL), then the transcript.
    const runs = input.split('\n').filter((l) => l === 'POOL a b c').length;
    let out = '';
    for (let r = 0; r < runs; r++)
      out += ['OK', 'OK', ...perRun[Math.min(r, perRun.length - 1)]!].map((l) => `${l}\n`).join('');
    return done(out);
  };
  return { execute, starts: () => started };
}

describe('determinism probe (fake processes)', () => {
  it('a program that answers the same everywhere is deterministic and keeps nothing across the reset, in two processes', async () => {
    const program = scripted([[['c', 'b', 'a']]]);
    const probe = await probeDeterminism(model, program.execute, probed);
    assert.deepEqual([probe.determinism.fresh, probe.determinism.afterReset], ['same', 'same']);
    assert.equal(program.starts(), 2);
    assert.equal(probe.resetDifference, undefined);
  });

  it('fresh runs that differ are randomness', async () => {
    const program = scripted([
      [
        ['c', 'b', 'a'],
        ['c', 'b', 'a'],
      ],
      [['b', 'c', 'a']],
    ]);
    const probe = await probeDeterminism(model, program.execute, probed);
    assert.equal(probe.determinism.fresh, 'different');
    assert.equal(probe.freshDifference?.index, 1);
  });

  it('a second run in one process that differs, with four more fresh runs that agree and a replay that answers the same, is state kept across the reset', async () => {
    const leaky = [
      ['c', 'b', 'a'],
      ['a', 'c', 'b'],
    ];
    const alone = [['c', 'b', 'a']];
    // Processes: [T, T], [T], four more [T], then the replay of [T, T], which answers as the first did.
    const program = scripted([leaky, alone, alone, alone, alone, alone, leaky]);
    const probe = await probeDeterminism(model, program.execute, probed);
    assert.deepEqual([probe.determinism.fresh, probe.determinism.afterReset], ['same', 'different']);
    assert.equal(probe.resetDifference?.seen, 'twice');
    assert.equal(program.starts(), 7, 'four more fresh runs and a replay confirm it');
  });

  it('a second run in one process that differs, but not when the same input is replayed: two runs of the same input that differ, not kept state', async () => {
    // A program whose output depends on timing (a thread that prints): its [T, T] differed once, its replay does not.
    const alone = [['c', 'b', 'a']];
    const program = scripted([
      [
        ['c', 'b', 'a'],
        ['a', 'c', 'b'],
      ],
      alone,
      alone,
      alone,
      alone,
      alone,
      [
        ['c', 'b', 'a'],
        ['c', 'b', 'a'],
      ],
    ]);
    const probe = await probeDeterminism(model, program.execute, probed);
    assert.equal(probe.resetDifference, undefined, 'not called state kept across the reset');
    assert.deepEqual([probe.determinism.fresh, probe.determinism.afterReset], ['different', 'unknown']);
    assert.deepEqual(
      [probe.freshDifference?.index, probe.freshDifference?.first, probe.freshDifference?.second],
      [1, ['a'], ['c']],
    );
    assert.equal(program.starts(), 7);
  });

  it('a rotation that outlives the reset and comes back to its start after T: seen after part of T, confirmed by a replay', async () => {
    // T has three picks among three tied backends: run twice in one process it answers the same, so only a
    // prefix of another length (one pick) before it shows the cursor carried over.
    const rotating = rotatingPicks;
    const first = await probeDeterminism(model, rotating, probed);
    assert.deepEqual([first.determinism.fresh, first.determinism.afterReset], ['same', 'same']);
    const more = await probeMoreFresh(model, rotating, first);
    assert.deepEqual([more.determinism.fresh, more.determinism.afterReset], ['same', 'different']);
    // A program whose answers after a prefix change from one process to the next is not called leaky: each list
    // starts its picks afresh, but a process given more than one list answers otherwise every other time.
    let process = 0;
    const unsteady: Execute = async (input) => {
      process += 1;
      const prefixed = input.split('\n').filter((l) => l === 'POOL').length >= 2;
      const picks = prefixed && process % 2 === 0 ? ['b', 'c', 'a'] : ['a', 'b', 'c'];
      let k = 0;
      const out = input
        .split('\n')
        .filter(Boolean)
        .map((command) => (command === 'POOL' ? ((k = 0), 'OK') : command === 'PICK' ? picks[k++ % 3]! : 'OK'));
      return done(out.map((l) => `${l}\n`).join(''));
    };
    const again = await probeMoreFresh(model, unsteady, await probeDeterminism(model, unsteady, probed));
    assert.equal(again.determinism.afterReset, 'same');
  });

  it('a transcript that differs after the other transcripts of the main process is replayed with them before it', async () => {
    const inputs: string[] = [];
    const right = simulate(model, commands).outcome;
    const execute: Execute = async (input) => {
      inputs.push(input);
      // Right whenever T runs first in its process; after a list "POOL x" (the replay), it answers as it did in
      // the main process.
      const leaked = input.startsWith('POOL\nPOOL x\n');
      const runs = input.split('\n').filter((l) => l === 'POOL a b c').length;
      const answers = leaked
        ? ['OK', 'OK', 'OK', 'OK', 'b', 'c', 'a']
        : Array.from({ length: runs }, () => ['OK', ...right.lines]).flat();
      return done(answers.map((l) => `${l}\n`).join(''));
    };
    const inBatch = { lines: ['OK', 'b', 'c', 'a'], ending: 'finished' as const };
    const probe = await probeDeterminism(model, execute, probed, inBatch, [['POOL x']]);
    assert.equal(probe.resetDifference?.seen, 'after-others');
    assert.ok(
      inputs.some((i) => i.startsWith('POOL\nPOOL x\nPOOL\nPOOL a b c')),
      inputs.join('|'),
    );
    const unconfirmed = await probeDeterminism(model, execute, probed, inBatch);
    assert.equal(
      unconfirmed.resetDifference,
      undefined,
      'without the lists before it, nothing is replayed and nothing is claimed',
    );
    assert.equal(unconfirmed.determinism.afterReset, 'unknown');
  });

  it('two fresh runs that agree by chance, then a third that differs: randomness, not kept state', async () => {
    // A random program: its first two processes happened to answer alike, its own second run did not.
    const program = scripted([
      [
        ['c', 'b', 'a'],
        ['b', 'a', 'c'],
      ],
      [['c', 'b', 'a']],
      [['a', 'c', 'b']],
    ]);
    const probe = await probeDeterminism(model, program.execute, probed);
    assert.equal(probe.determinism.fresh, 'different');
    assert.equal(probe.resetDifference, undefined, 'not called state kept across the reset');
    assert.equal(probe.determinism.runs, 4, 'the more fresh runs go two at a time');
    assert.equal(probe.streams.length, 4, 'every run is evidence');
  });

  it('a walk over a set in hash order: three fresh runs agree by chance, the fifth differs: randomness', async () => {
    const same = [['c', 'b', 'a']];
    const program = scripted([
      [
        ['c', 'b', 'a'],
        ['b', 'a', 'c'],
      ],
      same,
      same,
      same,
      [['a', 'c', 'b']],
    ]);
    const probe = await probeDeterminism(model, program.execute, probed);
    assert.deepEqual([probe.determinism.fresh, probe.determinism.afterReset], ['different', 'unknown']);
    assert.equal(probe.determinism.runs, 6);
  });

  it('more fresh runs on request: a program that agreed with itself three times differs on the fifth run', async () => {
    const same = [
      ['c', 'b', 'a'],
      ['c', 'b', 'a'],
    ];
    const program = scripted([same, same, same, same, [['a', 'c', 'b']]]);
    const probe = await probeDeterminism(model, program.execute, probed);
    assert.deepEqual([probe.determinism.fresh, probe.determinism.afterReset], ['same', 'same']);
    const again = await probeMoreFresh(model, program.execute, probe);
    assert.equal(again.determinism.fresh, 'different');
    assert.equal(again.determinism.runs, 6);
    assert.equal(again.streams.length, 6);
  });
});
