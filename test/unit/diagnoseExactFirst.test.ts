/**
 * The diagnosis's first question (diagnose.ts `exactSinglesFirst`): does one mistake answer every command exactly as
 * the program did? Asked by plain simulation, each mutation stopping at its first line the program did not print,
 * it is answered at a small part of the cost of walking every candidate step by step, with the same findings. The
 * lesson's real model (least-connections), counted by a wrapper; the programs are its mutants (no process runs).
 */
import * as assert from 'node:assert/strict';
import { diagnose } from '../../src/core/diagnosis/diagnose';
import { candidateOf, candidateSpace } from '../../src/core/diagnosis/candidates';
import { exactDiagnosis } from '../../src/core/diagnosis/credit';
import { walkEvidence, type EvidenceStream } from '../../src/core/diagnosis/stepwise';
import type { ReferenceModel } from '../../src/core/model/model';
import { simulate } from '../../src/core/model/simulate';
import { manifest, model, transcripts } from './fakeLesson';

/** The model, its steps counted. A fresh object each time: the walk keeps what it learnt per model. */
function counted(): { model: ReferenceModel; steps: () => number } {
  let steps = 0;
  const step: ReferenceModel['step'] = (state, command, on, observed) => {
    steps += 1;
    return model.step(state as Parameters<typeof model.step>[0], command, on, observed);
  };
  return { model: { ...model, step }, steps: () => steps };
}

/** Every hidden transcript through one process, each after the reset, answered by the model with `mutations` on. */
function evidence(...mutations: string[]): EvidenceStream[] {
  const commands: string[] = [];
  const segments: { list: number; start: number; length: number }[] = [];
  transcripts.forEach((t, list) => {
    segments.push({ list, start: commands.length, length: t.steps.length + 1 });
    commands.push(model.resetCommand, ...t.steps.map((s) => s.command));
  });
  const { outcome } = simulate(model, commands, new Set(mutations));
  return [{ commands, lines: outcome.lines, ending: outcome.ending, segments }];
}

describe('diagnosis: one mistake that answers everything exactly is found first', () => {
  // A crash ends the evidence early: the whole walk is short there, and the first question saves less.
  for (const [mutation, saving] of [
    ['no-increment', 3],
    ['tiebreak-last', 3],
    ['negative-count', 3],
    ['unknown-crash', 1],
  ] as const) {
    it(`${mutation}: the same findings as walking every candidate, for 1/${saving} of the model's steps or fewer`, () => {
      const streams = evidence(mutation);
      const quick = counted();
      const found = diagnose(quick.model, manifest.mistakes, streams);
      // The whole walk, as the diagnosis made it before: every single, then the exact ones' findings.
      const whole = counted();
      const space = candidateSpace(whole.model, manifest.mistakes);
      const singles = walkEvidence(
        whole.model,
        streams,
        space.mutations.map((m) => candidateOf(space, [m])),
      );
      const exact = singles.tallies.filter((t) => t.exact);
      assert.ok(exact.length > 0, 'the mutant is exact');
      assert.deepEqual(found, exactDiagnosis(exact, space.mistakeOf, space.nondeterministic, singles));
      assert.ok(found.findings.some((f) => f.mutation === mutation && f.confidence === 'exact'));
      assert.ok(quick.steps() * saving <= whole.steps(), `${quick.steps()} steps against ${whole.steps()}`);
    });
  }

  it('two mistakes at once: no single is exact, and the diagnosis walks every candidate as before', () => {
    const streams = evidence('no-increment', 'tiebreak-last');
    const quick = counted();
    const found = diagnose(quick.model, manifest.mistakes, streams);
    assert.deepEqual(found.findings.map((f) => f.mistake).sort(), ['late-increment', 'tiebreak']);
  });
});

describe('a walk that follows each candidate only to its first miss (stepwise.ts `untilMiss`)', () => {
  it('finds the same candidates explaining every command as the whole walk, with the same tallies, for fewer steps', () => {
    const streams = evidence('no-increment');
    const space = candidateSpace(model, manifest.mistakes);
    const candidates = space.mutations.map((m) => candidateOf(space, [m]));
    const differing = walkEvidence(model, streams, candidates).differingKeys.size;
    const explainsAll = (t: { against: number; supportCount: number }): boolean =>
      t.against === 0 && t.supportCount === differing;
    const [whole, short] = [counted(), counted()];
    const all = walkEvidence(whole.model, streams, candidates).tallies.filter(explainsAll);
    const untilMiss = walkEvidence(short.model, streams, candidates, true).tallies.filter(explainsAll);
    assert.deepEqual(
      untilMiss.map((t) => t.candidate.mutations),
      [['no-increment']],
    );
    assert.deepEqual(untilMiss, all);
    assert.ok(short.steps() * 2 <= whole.steps(), `${short.steps()} steps against ${whole.steps()}`);
  });
});
