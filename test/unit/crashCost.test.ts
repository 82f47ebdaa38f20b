/**
 * What a crash costs (issue 31: any failing program in at most 8 process runs). A program that crashes on many
 * lists would cost a process per crashing list: in the main batch, and in shrinking, where most candidates still
 * crash. FAKE programs answer like the lesson's model (fakeLesson.ts) until they crash, so process runs can be
 * counted; the same shapes on real programs are in the real-style corpus (four_slots.py).
 */
import * as assert from 'node:assert/strict';
import { runBatch } from '../../src/core/check/batch';
import { candidatesHolding } from '../../src/core/check/confirmRuns';
import type { Execute } from '../../src/core/check/process';
import { simulate, sameOutcome, type Outcome } from '../../src/core/model/simulate';
import { checkFake, confirmContextOf, done, model, mutantProgram, recorded, transcripts } from './fakeLesson';

/**
 * FAKE program written with three slots for counts, indexed by a backend's place in the pool: right for pools of up
 * to three, an IndexError at the first PICK, DONE or STATUS with a fourth backend in the pool.
 */
const threeSlots: Execute = async (input, limits) => {
  let poolSize = 0;
  const lines = input.split('\n');
  for (let k = 0; k < lines.length; k++) {
    const [verb, ...args] = lines[k]!.split(' ');
    if (verb === 'POOL') poolSize = args.length;
    if (poolSize > 3 && (verb === 'PICK' || verb === 'DONE' || verb === 'STATUS')) {
      const before = await mutantProgram()(lines.slice(0, k).join('\n') + '\n', limits);
      return { ...before, exitCode: 1, stderr: 'IndexError: list index out of range\n' };
    }
  }
  return mutantProgram()(input, limits);
};

const differs = (list: readonly string[], run: Outcome): boolean => !sameOutcome(run, simulate(model, list).outcome);

const ctxOf = confirmContextOf;

describe('what a crash costs', () => {
  it('a batch told `until` runs no list after the first it holds for: a crash there starts no process', async () => {
    const program = recorded(threeSlots);
    const lists = [
      ['POOL a', 'PICK'],
      ['POOL a b c d', 'PICK'],
      ['POOL a b c d e', 'PICK'],
      ['POOL b', 'PICK'],
    ];
    const batch = await runBatch(model, program, lists, { until: (i, outcome) => differs(lists[i]!, outcome) });
    assert.equal(program.stdins.length, 1, 'one process');
    assert.deepEqual(
      batch.outcomes.map((o) => o.ending),
      ['finished', 'crashed', 'not-run', 'not-run'],
    );
  });

  it("the shrinker's candidates stop at the first that holds, and a list not run holds for nothing", async () => {
    const program = recorded(threeSlots);
    const lists = [
      ['POOL a', 'PICK'],
      ['POOL a b c d', 'PICK'],
      ['POOL a b c d', 'STATUS'],
      ['POOL a b', 'PICK'],
    ];
    const verdicts = await candidatesHolding(ctxOf(program), lists, differs);
    assert.deepEqual(verdicts, [false, true, false, false]);
    assert.equal(program.stdins.length, 1, 'the crash of the third candidate would have cost a process more');
  });

  it('where each candidate needs a process of its own, none is started after the first that held', async () => {
    // FAKE program whose state outlives the reset (leaky): each candidate runs alone, two at a time.
    const program = recorded(threeSlots);
    const lists = [
      ['POOL a', 'PICK'],
      ['POOL a b c d', 'PICK'],
      ['POOL a b', 'PICK'],
      ['POOL a b c d', 'STATUS'],
      ['POOL a b c d e', 'PICK'],
    ];
    const verdicts = await candidatesHolding(ctxOf(program, { leaky: true, concurrency: 2 }), lists, differs);
    assert.deepEqual(verdicts, [false, true, false, false, false]);
    assert.ok(program.stdins.length <= 3, `${program.stdins.length} processes for a second candidate that held`);
  });

  it('where each candidate runs alone, a slow earlier candidate that holds is still the one taken', async () => {
    // The first candidate's process answers after the second's: both hold, and the first is the one taken.
    const slowFirst: Execute = async (input, limits) => {
      if (input.includes('POOL a b c d e\n')) await new Promise((resolve) => setTimeout(resolve, 30));
      return threeSlots(input, limits);
    };
    const lists = [
      ['POOL a b c d e', 'PICK'],
      ['POOL a b c d', 'PICK'],
      ['POOL a', 'PICK'],
    ];
    const verdicts = await candidatesHolding(ctxOf(slowFirst, { leaky: true, concurrency: 2 }), lists, differs);
    assert.deepEqual(verdicts, [true, false, false]);
  });

  for (const seed of [1, 2, 3, 2026]) {
    it(`a check of a program that crashes on every pool of four (seed ${seed}): a few processes, what was left out said`, async () => {
      const program = recorded(threeSlots);
      const report = await checkFake(program, { seed });
      assert.equal(report.status, 'fail');
      assert.deepEqual(
        report.problems.map((p) => p.kind),
        ['crash'],
      );
      assert.equal(report.processRuns, program.stdins.length, 'every process counted');
      // Three crashes, then the random tests not yet run are left out (the hidden transcripts all run).
      assert.ok(report.fuzz.notRun > 0, JSON.stringify(report.fuzz));
      assert.ok(report.runsByPhase!.run! <= 3 + report.checks.failed, JSON.stringify(report.runsByPhase));
      // Its answers up to each crash were right: nothing for a probe to tell.
      assert.equal(report.runsByPhase!.probe, undefined);
      // Shrunk from the command it crashed at, every smaller list asked in one process: one run finds the smallest,
      // and the twin with the counts crashes too, so what is shown costs two.
      assert.ok(report.runsByPhase!.confirm! <= 3, JSON.stringify(report.runsByPhase));
      assert.ok(report.processRuns <= 8, `${report.processRuns} process runs: ${JSON.stringify(report.runsByPhase)}`);
      // Shrunk to a pool of four and the command that crashes, whatever its verb.
      const shown = report.counterexample!;
      assert.equal(shown.reproduced, true);
      assert.equal(shown.commands.length, 2, JSON.stringify(shown.commands));
      assert.equal(shown.commands[0]!.split(' ').length, 5, shown.commands[0]);
    });
  }

  it('hidden transcripts a crashing mutant says crash the same way are left out once two such predictions came true', async () => {
    // FAKE program that crashes on every DONE of a name outside the pool, as the unknown-crash mutant does: five
    // hidden transcripts crash; each would cost a process of its own.
    const program = recorded(mutantProgram('unknown-crash'));
    const report = await checkFake(program);
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ['crash'],
    );
    assert.ok(report.runsByPhase!.run! <= 3, JSON.stringify(report.runsByPhase));
    const left = report.transcripts.filter((t) => t.notRun).map((t) => t.name);
    assert.ok(left.length > 0, 'some were left out');
    // Only transcripts the mutant crashes on are left out: every one that can pass was run and passed.
    const commandsOf = (name: string): string[] =>
      transcripts.find((t) => t.name === name)!.steps.map((x) => x.command);
    for (const name of left) {
      const crashing = simulate(model, commandsOf(name), new Set(['unknown-crash'])).outcome.ending;
      assert.equal(crashing, 'crashed', `${name} was left out, though the mutant does not crash on it`);
    }
    const canPass = transcripts.filter(
      (t) =>
        simulate(
          model,
          t.steps.map((x) => x.command),
          new Set(['unknown-crash']),
        ).outcome.ending !== 'crashed',
    );
    assert.equal(report.checks.passed, canPass.length);
  });

  it('a crash before any answer still costs a single process', async () => {
    const program = recorded(async () => done('', { exitCode: 1, stderr: 'SyntaxError: invalid syntax\n' }));
    const report = await checkFake(program);
    assert.equal(report.status, 'error');
    assert.equal(program.stdins.length, 1);
  });
});
