/**
 * More evidence for a random program until its verdict stops changing (core `settleRandomVerdict`), with a
 * FAKE program: its first process happens to choose only among the least loaded (as a power-of-two-choices
 * program does in about one check in twenty), its later ones do not. The first batch alone names a random
 * tiebreak; the verdict after more batches must not.
 */
import * as assert from 'node:assert/strict';
import { model } from '../../lessons/least-connections/model/model';
import { runBatch } from '../../src/core/check/batch';
import { generatedCases, type Case } from '../../src/core/check/cases';
import type { Execute } from '../../src/core/check/process';
import { settleRandomVerdict } from '../../src/core/check/settle';
import { diagnose } from '../../src/core/diagnosis/diagnose';

const mistakes = [
  { id: 'tiebreak', mutants: ['tiebreak-last', 'tiebreak-any'] },
  { id: 'late-increment', mutants: ['no-increment'] },
];

/** Answers as the model with these mutations would. */
function answers(input: string, mutations: readonly string[]): string {
  let state = model.initial();
  let out = '';
  for (const command of input.split('\n').filter(Boolean)) {
    const step = model.step(state, command, new Set(mutations));
    if (step.answer.kind === 'crash') break;
    state = step.state;
    out += step.answer.lines.map((l) => `${l}\n`).join('');
  }
  return out;
}

describe('settling the verdict of a random program (fake program)', () => {
  it('runs more generated transcripts until two diagnoses agree, and names what all the evidence supports', async () => {
    let started = 0;
    // First process: ties to the last of the tied (a free choice); later ones: a pick that is never counted,
    // which no free choice among equals explains (together with the first, no one mistake explains it all).
    const execute: Execute = async (input) => {
      started += 1;
      return {
        stdout: answers(input, started === 1 ? ['tiebreak-last'] : ['no-increment']),
        stderr: '',
        exitCode: 0,
        signal: null,
        timedOut: false,
        outputLimited: false,
        durationMs: 1,
      };
    };
    const cases: Case[] = generatedCases(model, 7, 20, 16);
    const first = await runBatch(
      model,
      execute,
      cases.map((c) => c.commands),
    );
    const before = diagnose(model, mistakes, first.streams, { random: true });
    assert.deepEqual(
      before.findings.map((f) => f.mistake),
      ['tiebreak'],
    );
    const settled = await settleRandomVerdict({
      model,
      mistakes,
      execute,
      cases,
      streams: first.streams,
      diagnosis: before,
      seed: 7,
      count: 20,
      length: 16,
    });
    // Evidence that a free choice among equals cannot explain: the tiebreak is no longer named, and the rest is
    // said as a difference.
    assert.ok(
      !settled.diagnosis.findings.some((f) => f.mistake === 'tiebreak'),
      JSON.stringify(settled.diagnosis.findings.map((f) => f.mistake)),
    );
    assert.ok(settled.diagnosis.unexplained.length > 0 || settled.diagnosis.findings.length > 0);
    assert.equal(settled.rounds, 2, 'the second round of more evidence agrees with the first');
    assert.equal(cases.length, 60, 'the new transcripts are cases of the check, numbered on');
    assert.equal(cases[59]!.label, 'a random test (#60)');
  });

  it('stops after one more batch when the verdict does not change', async () => {
    const execute: Execute = async (input) => ({
      stdout: answers(input, ['no-increment']),
      stderr: '',
      exitCode: 0,
      signal: null,
      timedOut: false,
      outputLimited: false,
      durationMs: 1,
    });
    const cases: Case[] = generatedCases(model, 3, 10, 16);
    const first = await runBatch(
      model,
      execute,
      cases.map((c) => c.commands),
    );
    const before = diagnose(model, mistakes, first.streams, { random: true });
    const settled = await settleRandomVerdict({
      model,
      mistakes,
      execute,
      cases,
      streams: first.streams,
      diagnosis: before,
      seed: 3,
      count: 10,
      length: 16,
    });
    assert.equal(settled.rounds, 1);
    assert.deepEqual(
      settled.diagnosis.findings.map((f) => f.mistake),
      before.findings.map((f) => f.mistake),
    );
  });
});
