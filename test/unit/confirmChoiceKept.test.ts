/**
 * A free choice made by a rule the lesson has no mutant for (confirmPlan.ts): the candidate that keeps the very
 * choice the program was seen to make is run first, and it shows the finding in one run where "enough choices"
 * alone finds no candidate and shrinks on the program. FAKE programs answer from the lesson's model (fakeLesson.ts).
 */
import * as assert from 'node:assert/strict';
import { runBatch } from '../../src/core/check/batch';
import { counterexamplesFor, type ConfirmContext } from '../../src/core/check/confirm';
import { plan } from '../../src/core/check/confirmPlan';
import type { Execute } from '../../src/core/check/process';
import { diagnose } from '../../src/core/diagnosis/diagnose';
import { caseOf, manifest, model, recorded, tiesByRule } from './fakeLesson';

/** Ties to the name first in a case-blind order (as JavaScript's localeCompare): a, b, c, Zed. */
const caseBlindOrder = (x: string, y: string): number => x.toLowerCase().localeCompare(y.toLowerCase());
/** FAKE program whose ties go by that order, with `mistakes` (the model's mutations) besides. */
const caseBlindWith = (mistakes: readonly string[]): Execute => tiesByRule(caseBlindOrder, mistakes);
const caseBlind = caseBlindWith([]);

async function evidence(execute: Execute, fixedChoices: boolean, more: readonly string[][] = []) {
  const cases = [caseOf(['POOL b Zed a c', 'STATUS', 'PICK', 'STATUS']), ...more.map((commands) => caseOf(commands))];
  const { streams } = await runBatch(
    model,
    execute,
    cases.map((c) => c.commands),
  );
  const { findings } = diagnose(model, manifest.mistakes, streams);
  const ctx: ConfirmContext = {
    model,
    execute,
    cases,
    streams,
    random: false,
    leaky: false,
    concurrency: 1,
    maxShrinkRounds: 8,
    resetKeepsNothingElse: true,
    fixedChoices,
  };
  return { ctx, finding: findings.find((f) => f.nondeterministic)!, findings };
}

describe('confirm: a free choice by a rule of its own keeps the choice it was seen to make', () => {
  it('plans a candidate that offers the same answers at its end, the program its own among them', async () => {
    const { ctx, finding } = await evidence(caseBlind, true);
    assert.ok(finding, 'a free choice is found');
    const kept = (await plan(ctx, finding)).find((p) => p.keepsChoice);
    assert.deepEqual(kept?.commands, ['POOL b Zed a c', 'PICK']);
    const without = await plan({ ...ctx, fixedChoices: false }, finding);
    assert.ok(!without.some((p) => p.keepsChoice), 'only for a program the probe saw choose alike');
  });

  it('shows it in one run; without it, shrinking on the program costs more', async () => {
    const counted = async (fixedChoices: boolean) => {
      const program = recorded(caseBlind);
      const { ctx, finding } = await evidence(program, fixedChoices);
      const before = program.stdins.length;
      const [example] = await counterexamplesFor(ctx, [finding]);
      return { runs: program.stdins.length - before, commands: example?.commands };
    };
    const kept = await counted(true);
    assert.deepEqual(kept, { runs: 1, commands: ['POOL b Zed a c', 'PICK'] });
    const plain = await counted(false);
    assert.ok(plain.runs > 1, JSON.stringify(plain));
  });
});

describe('confirm: the other findings ride in the run that keeps the choice', () => {
  it('a crash on an empty pool is confirmed in the same process, after the candidates keeping the choice: one run for both, as for either alone', async () => {
    const crashesToo = caseBlindWith(['empty-crash']);
    const counted = async (which: (f: { nondeterministic: boolean }) => boolean) => {
      const program = recorded(crashesToo);
      const { ctx, findings } = await evidence(program, true, [['POOL', 'PICK']]);
      assert.equal(findings.length, 2, JSON.stringify(findings.map((f) => f.mutation)));
      const before = program.stdins.length;
      const examples = await counterexamplesFor(ctx, findings.filter(which));
      return { runs: program.stdins.length - before, shown: examples.map((e) => e?.commands) };
    };
    const both = await counted(() => true);
    assert.equal(both.runs, 1);
    assert.deepEqual(both.shown.sort(), [['PICK'], ['POOL b Zed a c', 'PICK']]);
    assert.equal((await counted((f) => f.nondeterministic)).runs, 1);
    assert.equal((await counted((f) => !f.nondeterministic)).runs, 1);
  });
});
