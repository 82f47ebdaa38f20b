/**
 * What a check report counts (core `check`, FAKE programs): the random tests it made and how they fared, its
 * duration by the host's clock, when it spends extra runs probing the program, and how many processes it
 * runs side by side. Verdicts are in test/unit/check.test.ts, the other paths in test/unit/checkPaths.test.ts.
 */
import * as assert from 'node:assert/strict';
import { DEFAULT_FUZZ_LENGTH, DEFAULT_FUZZ_TRANSCRIPTS, generatedCases, hiddenCases } from '../../src/core/check/cases';
import { type PassingBatch } from '../../src/core/check/check';
import type { Execute } from '../../src/core/check/process';
import { sameOutcome, simulate } from '../../src/core/model/simulate';
import { checkFake, done, manifest, model, mutantProgram, transcripts } from './fakeLesson';

const checkWith = checkFake;

const hidden = hiddenCases(transcripts);
const inputOf = (cases: readonly { commands: readonly string[] }[]): string =>
  cases.map((c) => [model.resetCommand, ...c.commands].join('\n') + '\n').join('');

describe('check report: random tests', () => {
  it("makes the lesson's number and length of random tests from the seed, unless told otherwise", async () => {
    let batch: PassingBatch | undefined;
    const report = await checkWith(mutantProgram(), {}, { onBatch: (b) => (batch = b) });
    assert.deepEqual(report.fuzz, { seed: 2026, transcripts: manifest.fuzz!.transcripts, failed: 0, notRun: 0 });
    assert.equal(
      batch!.input,
      inputOf([...hidden, ...generatedCases(model, 2026, manifest.fuzz!.transcripts, manifest.fuzz!.length)]),
    );

    const told = await checkWith(
      mutantProgram(),
      { fuzzTranscripts: 5, fuzzLength: 4, seed: 7 },
      { onBatch: (b) => (batch = b) },
    );
    assert.deepEqual(told.fuzz, { seed: 7, transcripts: 5, failed: 0, notRun: 0 });
    assert.equal(batch!.input, inputOf([...hidden, ...generatedCases(model, 7, 5, 4)]));
  });

  it('counts the random tests a mistake fails', async () => {
    const report = await checkWith(mutantProgram('tiebreak-name'), { fuzzTranscripts: 12 });
    const failing = generatedCases(model, 2026, 12, manifest.fuzz!.length).filter(
      (c) => !sameOutcome(simulate(model, c.commands, new Set(['tiebreak-name'])).outcome, c.expected),
    );
    assert.ok(failing.length > 0 && failing.length < 12, `${failing.length} of 12 fail`);
    assert.deepEqual(report.fuzz, { seed: 2026, transcripts: 12, failed: failing.length, notRun: 0 });
  });

  it('counts random tests never run after a hang as not run, not as failed', async () => {
    // Hangs at the first DONE: the hidden transcripts come first, so no random test is run after it.
    const hangs: Execute = async (input, limits) => {
      const upto = input.split('\n').findIndex((l) => l.startsWith('DONE'));
      if (upto < 0) return mutantProgram()(input, limits);
      const run = await mutantProgram()(input.split('\n').slice(0, upto).join('\n') + '\n', limits);
      return { ...run, exitCode: null, signal: 'SIGKILL', timedOut: true };
    };
    const report = await checkWith(hangs, { fuzzTranscripts: 7 });
    assert.deepEqual(report.fuzz, { seed: 2026, transcripts: 7, failed: 0, notRun: 7 });
    assert.ok(report.checks.notRun > 0);
  });
});

describe('check report: time, probing and processes', () => {
  it("takes its duration from the host's clock: from the start of the check to the report", async () => {
    let calls = 0;
    const report = await checkWith(mutantProgram(), {}, { clock: () => 1000 + 250 * calls++ });
    assert.equal(report.durationMs, 250 * (calls - 1));
    assert.ok(report.durationMs > 0);
  });

  it('spends no probe on a program a mutant answers exactly, and probes one with a difference no mistake names', async () => {
    const exact = await checkWith(mutantProgram('tiebreak-name'));
    assert.equal(exact.determinism, undefined, 'no room for randomness or leaked state');
    const shouting: Execute = async (input) => {
      const run = await mutantProgram()(input);
      return { ...run, stdout: run.stdout.replace(/^(a|b|zeta|mid|alpha)$/gm, (name) => name.toUpperCase()) };
    };
    const unnamed = await checkWith(shouting);
    assert.deepEqual(unnamed.mistakes, []);
    assert.deepEqual(unnamed.determinism && [unnamed.determinism.fresh, unnamed.determinism.afterReset], [
      'same',
      'same',
    ]);
    assert.ok(unnamed.processRuns > exact.processRuns);
  });

  it('runs up to two processes side by side by default, and one at a time when told', async () => {
    const inFlight = (): Execute & { max: number } => {
      let now = 0;
      const program = mutantProgram('tiebreak-name', 'negative-count');
      const wrapped = (async (input, limits) => {
        now += 1;
        wrapped.max = Math.max(wrapped.max, now);
        await new Promise((resolve) => setImmediate(resolve));
        try {
          return await program(input, limits);
        } finally {
          now -= 1;
        }
      }) as Execute & { max: number };
      wrapped.max = 0;
      return wrapped;
    };
    const byDefault = inFlight();
    const one = inFlight();
    const zero = inFlight();
    const reports = [
      await checkWith(byDefault),
      await checkWith(one, { concurrency: 1 }),
      await checkWith(zero, { concurrency: 0 }),
    ];
    assert.deepEqual(
      reports[1]!.mistakes.map((m) => m.id),
      reports[0]!.mistakes.map((m) => m.id),
    );
    assert.ok(byDefault.max > one.max, `${byDefault.max} side by side by default, ${one.max} with concurrency 1`);
    assert.equal(zero.max, one.max, 'at least one at a time');
  });

  it('a program that answers every transcript right but prints debug lines fails with that problem alone', async () => {
    const chatty: Execute = async (input) => {
      const run = await mutantProgram()(input);
      return { ...run, stdout: `debug: start\n${run.stdout}` };
    };
    const report = await checkWith(chatty);
    assert.equal(report.status, 'fail');
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ['stray-output'],
    );
    assert.equal(report.checks.passed, report.checks.total);
  });

  it('confirms an exact mistake in one run for its candidate and its counts, after the main run', async () => {
    assert.equal((await checkWith(mutantProgram('tiebreak-name'))).processRuns, 2);
  });

  it('a free choice that two fresh runs agreed on gets more fresh runs, which show it random', async () => {
    // Ties alternate first, last, first… from POOL on, so no fixed rule names them; from the fourth process
    // on the alternation starts on the other foot. The probe's two processes (2nd, 3rd) agree; the next differs.
    let processes = 0;
    const alternating: Execute = async (input) => {
      const late = processes++ >= 3;
      let state = model.initial();
      let stdout = '';
      let pick = late ? 1 : 0;
      for (const command of input.split('\n').filter(Boolean)) {
        if (command.startsWith('POOL')) pick = late ? 1 : 0;
        const on = command === 'PICK' && pick++ % 2 === 1 ? ['tiebreak-last'] : [];
        const step = model.step(state, command, new Set(on));
        if (step.answer.kind === 'crash') return done(stdout, { exitCode: 1 });
        state = step.state;
        stdout += step.answer.lines.map((l) => `${l}\n`).join('');
      }
      return done(stdout);
    };
    const report = await checkWith(alternating);
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.mutants, m.behaviour]),
      [['tiebreak', ['tiebreak-any'], 'random']],
    );
    assert.equal(report.determinism?.fresh, 'different');
    assert.equal(report.determinism?.runs, 3, 'the probe, then the whole batch again in a fresh process');
  });

  it('ties that alternate through the whole process, fresh runs alike: a free choice that carries over the reset (rotating)', async () => {
    const rotating: Execute = async (input) => {
      let state = model.initial();
      let stdout = '';
      let pick = 0;
      for (const command of input.split('\n').filter(Boolean)) {
        const step = model.step(
          state,
          command,
          new Set(command === 'PICK' && pick++ % 2 === 1 ? ['tiebreak-last'] : []),
        );
        if (step.answer.kind === 'crash') return done(stdout, { exitCode: 1 });
        state = step.state;
        stdout += step.answer.lines.map((l) => `${l}\n`).join('');
      }
      return done(stdout);
    };
    const report = await checkWith(rotating);
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.mutants, m.behaviour]),
      [['tiebreak', ['tiebreak-any'], 'rotating']],
    );
    assert.deepEqual(report.determinism && [report.determinism.fresh, report.determinism.afterReset], [
      'same',
      'different',
    ]);
  });
});

describe('check report: failures no mistake names', () => {
  /** Answers like the reference up to the first command `at` matches, then ends as `end` says. */
  const stopsAt =
    (
      at: (command: string) => boolean,
      end: (run: Awaited<ReturnType<Execute>>) => Awaited<ReturnType<Execute>>,
    ): Execute =>
    async (input, limits) => {
      const lines = input.split('\n');
      const stop = lines.findIndex(at);
      if (stop < 0) return mutantProgram()(input, limits);
      return end(await mutantProgram()(lines.slice(0, stop).join('\n') + '\n', limits));
    };

  it('a crash no mistake explains: not probed (its answers up to the crash were right), and shown in the fewest commands from a transcript it crashed in', async () => {
    const report = await checkWith(
      stopsAt(
        (c) => c === 'STATUS',
        (run) => ({ ...run, exitCode: 1, stderr: 'Traceback\nValueError: x\n' }),
      ),
    );
    assert.deepEqual(report.mistakes, []);
    assert.equal(report.determinism, undefined, 'a probe would only have run the crash again');
    assert.equal(report.runsByPhase?.probe, undefined);
    assert.deepEqual(report.counterexample && [report.counterexample.commands, report.counterexample.reproduced], [
      ['STATUS'],
      true,
    ]);
  });

  it('without a fuzz section in the manifest: the default number and length of random tests', async () => {
    const { fuzz: _fuzz, ...noFuzz } = manifest;
    let batch: PassingBatch | undefined;
    const report = await checkWith(mutantProgram(), {}, { manifest: noFuzz, onBatch: (b) => (batch = b) });
    assert.equal(report.fuzz.transcripts, DEFAULT_FUZZ_TRANSCRIPTS);
    assert.equal(
      batch!.input,
      inputOf([...hidden, ...generatedCases(model, 2026, DEFAULT_FUZZ_TRANSCRIPTS, DEFAULT_FUZZ_LENGTH)]),
    );
  });
});
