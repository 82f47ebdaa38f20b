/**
 * More evidence for a random program until its verdict stops changing (core `settleRandomVerdict`), beyond
 * settle.test.ts: when a round counts as agreeing (the same mistakes named, in any order, and something left
 * unnamed or not), the bound of three rounds, how many processes a round may cost, and how the new
 * transcripts join the check (numbered on, their runs pointing at them). FAKE program: the toy model of
 * locateToys.ts with some mistakes on, answering per process as the test says.
 */
import * as assert from 'node:assert/strict';
import { runBatch, type Stream } from '../../src/core/check/batch';
import { generatedCases, type Case } from '../../src/core/check/cases';
import type { Execute, ProcessResult } from '../../src/core/check/process';
import { settleRandomVerdict } from '../../src/core/check/settle';
import { diagnose, type Diagnosis } from '../../src/core/diagnosis/diagnose';
import type { ReferenceModel } from '../../src/core/model/model';
import { simulate } from '../../src/core/model/simulate';
import { model as tally, stepAt } from './locateToys';

/** The toy with random transcripts of INC, GET and LIST: every mistake below shows in a few of them. */
const model: ReferenceModel = {
  ...tally,
  generate: (random, length) => Array.from({ length }, () => random.pick(['INC', 'GET', 'LIST'])),
};
const mistakes = ['double', 'get-off', 'list-extra', 'get-crash'].map((id) => ({ id, mutants: [id] }));

/** A FAKE process that answers like the model with these mistakes, stopping (exit 1) where it crashes. */
function answering(input: string, mistakesOn: readonly string[]): ProcessResult {
  const run = simulate(model, input.split('\n').filter(Boolean), new Set(mistakesOn)).outcome;
  return {
    stdout: run.lines.map((l) => `${l}\n`).join(''),
    stderr: '',
    exitCode: run.ending === 'crashed' ? 1 : 0,
    signal: null,
    timedOut: false,
    outputLimited: false,
    durationMs: 1,
  };
}

/** A FAKE program whose n-th process (from 1) has the mistakes `perProcess[n - 1]` (the last entry from there on). */
function program(...perProcess: (readonly string[])[]): Execute & { started: number } {
  const execute = async (input: string): Promise<ProcessResult> => {
    execute.started += 1;
    return answering(input, perProcess[Math.min(execute.started, perProcess.length) - 1]!);
  };
  execute.started = 0;
  return execute;
}

/** The first batch of a check: four generated transcripts, one process, and its diagnosis. */
async function firstBatch(
  execute: Execute,
  generating = model,
): Promise<{ cases: Case[]; streams: readonly Stream[]; diagnosis: Diagnosis }> {
  const cases = generatedCases(generating, 5, 4, 8);
  const { streams } = await runBatch(
    model,
    execute,
    cases.map((c) => c.commands),
  );
  return { cases, streams, diagnosis: diagnose(model, mistakes, streams, { random: true }) };
}

const named = (d: Diagnosis): string[] => d.findings.map((f) => f.mistake).sort();

describe('settling the verdict of a random program: when rounds agree (fake program)', () => {
  it('runs a new batch while each names other mistakes, three batches at most, numbering the transcripts on', async () => {
    // The first batch has only INCs: nothing shows. Then each process shows other mistakes, so no two rounds
    // agree: get-off alone, then with list-extra (which the earlier runs contradict), then double instead.
    const execute = program(['get-off'], ['get-off'], ['get-off', 'list-extra'], ['double']);
    const onlyIncs: ReferenceModel = { ...model, generate: (_, length) => Array.from({ length }, () => 'INC') };
    const first = await firstBatch(execute, onlyIncs);
    assert.deepEqual(named(first.diagnosis), []);
    const settled = await settleRandomVerdict({ model, mistakes, execute, ...first, seed: 5, count: 4, length: 8 });
    assert.equal(settled.rounds, 3);
    assert.equal(execute.started, 4, 'one process for the first batch, one per round');
    // No one set of mistakes explains a program that changes from run to run: it is said as differences.
    assert.deepEqual(named(settled.diagnosis), []);
    assert.ok(settled.diagnosis.unexplained.length > 0);
    // The new transcripts are cases of the check, numbered on from the first four.
    assert.deepEqual(
      first.cases.map((c) => c.name),
      Array.from({ length: 16 }, (_, i) => `generated-${i + 1}`),
    );
    assert.deepEqual(
      first.cases.slice(4).map((c) => c.label),
      Array.from({ length: 12 }, (_, i) => `a random test (#${i + 5})`),
    );
    // Every run is kept, the first batch's included, and each new run's transcripts point at their cases.
    assert.equal(settled.streams.length, 4);
    assert.equal(settled.streams[0], first.streams[0]);
    assert.deepEqual(
      settled.streams.map((s) => s.segments.map((seg) => seg.list)),
      [
        [0, 1, 2, 3],
        [4, 5, 6, 7],
        [8, 9, 10, 11],
        [12, 13, 14, 15],
      ],
    );
    const third = settled.streams[2]!;
    assert.deepEqual(
      third.segments.map((seg) => third.commands.slice(seg.start + 1, seg.start + seg.length)),
      first.cases.slice(8, 12).map((c) => c.commands),
    );
  });

  it('takes the same mistakes named in another order as the same verdict, and stops after one round', async () => {
    const execute = program(['double', 'get-off']);
    const first = await firstBatch(execute);
    assert.deepEqual(named(first.diagnosis), ['double', 'get-off']);
    const reordered = { ...first.diagnosis, findings: [...first.diagnosis.findings].reverse() };
    const settled = await settleRandomVerdict({
      model,
      mistakes,
      execute,
      ...first,
      diagnosis: reordered,
      seed: 5,
      count: 4,
      length: 8,
    });
    assert.equal(settled.rounds, 1);
  });

  it('goes on when the same mistakes are named but a difference left unnamed before is explained now', async () => {
    const execute = program(['double']);
    const first = await firstBatch(execute);
    assert.deepEqual(first.diagnosis.unexplained, []);
    // As if the first batch had left a GET unexplained.
    const step = stepAt(first.streams, 0, first.streams[0]!.commands.indexOf('GET'));
    const unsure: Diagnosis = {
      ...first.diagnosis,
      unexplained: [{ step, sentence: 'GET printed 2 where the count was 1' }],
      unexplainedCount: 1,
    };
    const settled = await settleRandomVerdict({
      model,
      mistakes,
      execute,
      ...first,
      diagnosis: unsure,
      seed: 5,
      count: 4,
      length: 8,
    });
    assert.equal(settled.rounds, 2, 'the first round differs from the verdict before it, the second agrees');
    assert.deepEqual(named(settled.diagnosis), ['double']);
    assert.deepEqual(settled.diagnosis.unexplained, []);
  });

  it('runs nothing when the check asks for no generated transcripts', async () => {
    const execute = program(['double']);
    const first = await firstBatch(execute);
    const settled = await settleRandomVerdict({ model, mistakes, execute, ...first, seed: 5, count: 0, length: 8 });
    assert.equal(settled.rounds, 0);
    assert.equal(execute.started, 1, 'the first batch only');
    assert.equal(settled.diagnosis, first.diagnosis);
    assert.deepEqual(settled.streams, first.streams);
  });

  it('spends at most three processes on a round, for a program that dies in every transcript', async () => {
    // Every transcript starts INC, GET: the program dies at that GET, and each restart costs a process.
    const dying: ReferenceModel = { ...model, generate: () => ['INC', 'GET'] };
    const execute = program(['get-crash']);
    const cases = generatedCases(dying, 5, 6, 8);
    const { streams } = await runBatch(
      dying,
      execute,
      cases.map((c) => c.commands),
    );
    assert.equal(execute.started, 6, 'the first batch restarts for every transcript');
    const diagnosis = diagnose(dying, mistakes, streams, { random: true });
    const settled = await settleRandomVerdict({
      model: dying,
      mistakes,
      execute,
      cases,
      streams,
      diagnosis,
      seed: 5,
      count: 6,
      length: 8,
    });
    assert.equal(settled.rounds, 1);
    assert.equal(execute.started, 9, 'three more processes, not six');
  });

  it("reads all the evidence as a random program's: a difference a free choice explains is named through the free choice", async () => {
    // GET prints one too many every time (and the reset says OK!, which no mistake explains). A fixed rule
    // (get-off) and a free choice (get-any) explain the GETs alike; for a random program, the free choice.
    const freeOrFixed = [{ id: 'get', mutants: ['get-off', 'get-any'] }];
    const execute = program(['get-off', 'reset-loud']);
    const first = await firstBatch(execute);
    const diagnosis = diagnose(model, freeOrFixed, first.streams, { random: true });
    const settled = await settleRandomVerdict({
      model,
      mistakes: freeOrFixed,
      execute,
      ...first,
      diagnosis,
      seed: 5,
      count: 4,
      length: 8,
    });
    assert.equal(settled.rounds, 1);
    assert.deepEqual(
      settled.diagnosis.findings.map((f) => [f.mistake, f.mutation, f.nondeterministic]),
      [['get', 'get-any', true]],
    );
  });
});
