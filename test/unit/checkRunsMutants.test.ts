/**
 * The whole check (core `check`) with FAKE programs: what the learner is told, and what it costs, when runs
 * stall, quit early, crash on strangers, flood, or end every answer in a stray byte; and where each failing
 * hidden transcript is said to first differ. Fake on purpose: the check's conclusions from outcomes are
 * exact and instant this way, and process runs can be counted (real processes are covered in test/node).
 * Written against the surviving mutants of src/core/check/check.ts: every value asserted is one a learner
 * reads (a verdict, a message, a transcript shown) or the cost the check promises to keep down.
 */
import * as assert from 'node:assert/strict';
import { hiddenCases } from '../../src/core/check/cases';
import { type CheckInput } from '../../src/core/check/check';
import type { Execute } from '../../src/core/check/process';
import type { CheckReport } from '../../src/core/report/report';
import { simulate } from '../../src/core/model/simulate';
import { checkFake, done, model, mutantProgram, transcripts } from './fakeLesson';

const checkWith = (execute: Execute, extra: Partial<CheckInput> = {}): Promise<CheckReport> =>
  checkFake(execute, {}, extra);

const hidden = hiddenCases(transcripts);

/** A run killed for a second of silence after printing `stdout`. */
const stalledRun = (stdout: string) =>
  done(stdout, { exitCode: null, signal: 'SIGKILL', timedOut: true, stalled: true });

/** The input up to (not including) its first line that `stop` picks: what a program that stops there answered. */
const before = (input: string, stop: (line: string) => boolean): string => {
  const lines = input.split('\n');
  const at = lines.findIndex(stop);
  return at < 0 ? input : lines.slice(0, at).join('\n') + '\n';
};

/** [name, divergesAt] of every failing hidden transcript. */
const divergences = (report: CheckReport): [string, number | undefined][] =>
  report.transcripts.filter((t) => !t.passed).map((t) => [t.name, t.divergesAt]);

describe('check: a machine that stalls runs', () => {
  it('runs a stall again twice per check at most: with every run stalling once first, the third stall is believed', async () => {
    // FAKE program with a wrong tiebreak and counts that go negative, whose every input stalls the first time it
    // is run (a machine busy with something else). The main run and the first finding's confirming run stall and
    // are retried; the second finding's confirming run stalls too, and that third stall is taken as its outcome
    // (it shows nothing, and the finding is shrunk on the program, each run of it stalling and believed).
    const seen = new Map<string, number>();
    const program = mutantProgram('tiebreak-name', 'negative-count');
    const stallsFirst: Execute = async (input, limits) => {
      seen.set(input, (seen.get(input) ?? 0) + 1);
      return seen.get(input) === 1 ? stalledRun('OK\n') : program(input, limits);
    };
    const report = await checkWith(stallsFirst);
    const calls = [...seen.values()].reduce((a, b) => a + b, 0);
    assert.equal(report.processRuns, calls, 'every call the program got is counted');
    // The main run's input and the first confirming run's were each run twice; every later input once.
    assert.deepEqual([...seen.values()].slice(0, 3), [2, 2, 1], 'two stalls retried, the third believed');
    assert.ok(
      [...seen.values()].slice(2).every((n) => n === 1),
      JSON.stringify([...seen.values()]),
    );
    assert.ok(report.mistakes.some((m) => m.id === 'tiebreak' && m.counterexample?.reproduced));
  });

  it('a hang that stalls again on its retry: one retry, and the verdict of what the first run printed', async () => {
    // FAKE program that hangs at the first DONE; its retry stalls sooner (before answering anything but the
    // reset). The first run answered further, and that is where the learner is told it stopped.
    let calls = 0;
    const right = mutantProgram();
    const hangs: Execute = async (input, limits) => {
      calls += 1;
      if (calls % 2 === 0) return stalledRun('OK\n');
      const run = await right(
        before(input, (l) => l.startsWith('DONE')),
        limits,
      );
      return stalledRun(run.stdout);
    };
    const report = await checkWith(hangs);
    const worked = hidden[0]!;
    const doneAt = worked.commands.findIndex((c) => c.startsWith('DONE'));
    const timeout = report.problems.find((p) => p.kind === 'timeout')!;
    assert.ok(
      timeout.message.startsWith(
        `Your program stopped answering at \`${worked.commands[doneAt]}\` in "${worked.label}"`,
      ),
      timeout.message,
    );
    assert.deepEqual(report.counterexample!.commands, worked.commands.slice(0, doneAt + 1));
    assert.equal(report.processRuns, 2, 'the run and its one retry; a hang is not tried on every transcript');
    assert.equal(calls, 2);
  });

  it('a hang right after a STATUS with counts: the counts are taken as answered, and it is said to stop at the next command', async () => {
    // FAKE program that stops answering at the first command that follows a STATUS with counts in it.
    const hangsAfterStatus: Execute = async (input) => {
      let state = model.initial();
      let stdout = '';
      let afterCounts = false;
      for (const command of input.split('\n').filter(Boolean)) {
        if (afterCounts && command !== model.resetCommand) return stalledRun(stdout);
        const step = model.step(state, command, new Set());
        if (step.answer.kind === 'crash') break;
        state = step.state;
        afterCounts = command === 'STATUS' && step.answer.lines.length > 0;
        stdout += step.answer.lines.map((l) => `${l}\n`).join('');
      }
      return done(stdout);
    };
    const report = await checkWith(hangsAfterStatus);
    const stoppedIn = hidden.find((t) =>
      t.commands.some(
        (c, i) =>
          c === 'STATUS' && i < t.commands.length - 1 && simulate(model, t.commands).steps[i]!.answer.length > 0,
      ),
    )!;
    const status = stoppedIn.commands.findIndex(
      (c, i) => c === 'STATUS' && simulate(model, stoppedIn.commands).steps[i]!.answer.length > 0,
    );
    const next = stoppedIn.commands[status + 1]!;
    assert.deepEqual(report.counterexample!.commands, stoppedIn.commands.slice(0, status + 2));
    assert.equal(report.counterexample!.transcript, stoppedIn.name);
    const timeout = report.problems.find((p) => p.kind === 'timeout')!;
    assert.ok(
      timeout.message.startsWith(`Your program stopped answering at \`${next}\` in "${stoppedIn.label}"`),
      timeout.message,
    );
    assert.equal(report.transcripts.find((t) => t.name === stoppedIn.name)!.divergesAt, status + 1);
  });

  it('a hang at a STATUS: the counterexample ends at that STATUS, whose answer never came', async () => {
    // FAKE program that stops answering at its first STATUS that has a command after it in its list: a
    // many-line answer cut off cannot be told from an empty one, so the STATUS is where it stopped.
    const hangsAtStatus: Execute = async (input) => {
      const lines = input.split('\n');
      const at = lines.findIndex(
        (l, i) =>
          l === 'STATUS' && lines[i + 1] !== undefined && lines[i + 1] !== '' && lines[i + 1] !== model.resetCommand,
      );
      const run = await mutantProgram()(at < 0 ? input : lines.slice(0, at).join('\n') + '\n');
      return at < 0 ? run : stalledRun(run.stdout);
    };
    const report = await checkWith(hangsAtStatus);
    const stoppedIn = hidden.find((t) => t.commands.slice(0, -1).includes('STATUS'))!;
    const status = stoppedIn.commands.indexOf('STATUS');
    assert.equal(report.counterexample!.transcript, stoppedIn.name);
    assert.deepEqual(report.counterexample!.commands, stoppedIn.commands.slice(0, status + 1));
    const timeout = report.problems.find((p) => p.kind === 'timeout')!;
    assert.ok(
      timeout.message.startsWith(`Your program stopped answering at \`STATUS\` in "${stoppedIn.label}"`),
      timeout.message,
    );
  });

  it('a hang beside a debug print and a difference no mistake names: the timeout, said at its command, keeps its place among the problems', async () => {
    // FAKE program: prints a debug line first, shouts its picks, and stops answering at its first DONE.
    const noisyHang: Execute = async (input) => {
      let state = model.initial();
      let stdout = 'debug: starting up\n';
      for (const command of input.split('\n').filter(Boolean)) {
        if (command.startsWith('DONE')) return stalledRun(stdout);
        const step = model.step(state, command, new Set());
        if (step.answer.kind === 'crash') break;
        state = step.state;
        stdout += step.answer.lines.map((l) => `${command === 'PICK' ? l.toUpperCase() : l}\n`).join('');
      }
      return done(stdout);
    };
    const report = await checkWith(noisyHang);
    const worked = hidden[0]!;
    assert.deepEqual(
      report.problems.map((p) => [p.kind, p.message]),
      [
        [
          'stray-output',
          'Your program printed lines that are not answers, e.g. "debug: starting up". They were ignored for the checks below.',
        ],
        [
          'timeout',
          `Your program stopped answering at \`DONE b\` in "${worked.label}": it had been given all the commands but printed nothing for about 1 s, so it was stopped.`,
        ],
        [
          'unrecognised-difference',
          `Your program differs from the reference in a way this lesson has no name for: PICK answered "A", which is not a backend of the pool (a b c) (in "${worked.label}"). It differs like this at 3 commands.`,
        ],
      ],
    );
    assert.deepEqual(report.counterexample!.commands, worked.commands.slice(0, 5));
  });

  it('a writer whose print is split in two names its own line as the example, not the empty lines it leaves', async () => {
    // FAKE program: a right balancer beside a thread whose print("*") lands as "*" and a newline apart, so more
    // empty stray lines than stars reach the check.
    const right = mutantProgram();
    const splitWriter: Execute = async (input, limits) => {
      const run = await right(input, limits);
      const answers = run.stdout.split('\n').filter(Boolean);
      return { ...run, stdout: answers.map((line, i) => (i % 3 === 0 ? `*\n\n\n${line}\n` : `${line}\n`)).join('') };
    };
    const report = await checkWith(splitWriter);
    const stray = report.problems.find((p) => p.kind === 'stray-output');
    assert.equal(
      stray?.message,
      'Your program printed lines that are not answers, e.g. "*". They were ignored for the checks below.',
    );
  });

  it('a program that never answers: its stall is run once more, then believed', async () => {
    let calls = 0;
    const report = await checkWith(async () => (calls++, stalledRun('OK\n')));
    assert.deepEqual([report.status, report.processRuns, calls], ['fail', 2, 2]);
    assert.deepEqual(report.checks, { total: 17, passed: 0, failed: 17, notRun: 16 });
    assert.deepEqual(report.fuzz, { seed: 2026, transcripts: 40, failed: 0, notRun: 40 });
  });
});

describe('check: a program that ends early without an error', () => {
  it('quitting quietly (exit code 0) at a stranger is no placeholder: the other transcripts still run', async () => {
    // FAKE program that exits normally at the first DONE for a name of one letter other than `a`.
    const right = mutantProgram();
    const quits: Execute = async (input, limits) =>
      right(
        before(input, (l) => l.startsWith('DONE') && !l.includes('a')),
        limits,
      );
    const report = await checkWith(quits);
    assert.equal(report.status, 'fail');
    assert.deepEqual(report.checks, { total: 17, passed: 7, failed: 10, notRun: 0 });
    // Three ends, then the random tests not yet run are left out. An end with exit code 0 is probed (a program that
    // quits after so many lines would end elsewhere on a fresh run): 3 runs of it. An error exit would not be. Its
    // one-command counterexample (`DONE ghost`) is confirmed in one process: no observe command runs before it ends.
    assert.equal(report.processRuns, 15);
    assert.equal(report.runsByPhase?.probe, 3);
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ['unrecognised-difference'],
    );
    assert.deepEqual(
      [report.counterexample!.transcript, report.counterexample!.commands, report.counterexample!.reproduced],
      ['stranger-done', ['DONE ghost'], true],
    );
  });
});

describe('check: crashes on commands a mistake crashes on', () => {
  it('a crash on strangers: the transcripts that would crash alike go last, generated ones are not run, hidden ones until two crashed as said', async () => {
    const report = await checkWith(mutantProgram('unknown-crash'));
    // After the first crash (stranger-done), stranger-after-picks and long-mixed-1 ran last, one process each, and
    // crashed as the mutant said they would: the others it says so of, long-mixed-2 and -3, are not run. Every
    // transcript the mutant does not crash on ran and passed.
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.confidence, m.revealedBy]),
      [['unknown-backend', 'exact', ['stranger-done', 'stranger-after-picks', 'long-mixed-1']]],
    );
    assert.deepEqual(report.checks, { total: 17, passed: 12, failed: 5, notRun: 2 });
    assert.deepEqual(
      report.transcripts.filter((t) => t.notRun).map((t) => t.name),
      ['long-mixed-2', 'long-mixed-3'],
    );
    assert.deepEqual(report.fuzz, { seed: 2026, transcripts: 40, failed: 0, notRun: 20 });
    // The one-command counterexample's observed run crashes before any observe command: one process, not two.
    assert.equal(report.processRuns, 4);
    assert.deepEqual(divergences(report), [
      ['stranger-done', 1],
      ['stranger-after-picks', 2],
      ['long-mixed-1', 12],
      ['long-mixed-2', undefined],
      ['long-mixed-3', undefined],
    ]);
  });

  it('a crash on an empty pool: only the lists that would crash there are held back', async () => {
    const report = await checkWith(mutantProgram('empty-crash'));
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.revealedBy]),
      [['empty-pool', ['empty-pool', 'before-any-pool', 'long-mixed-3']]],
    );
    assert.deepEqual(report.fuzz, { seed: 2026, transcripts: 40, failed: 0, notRun: 5 });
    assert.equal(report.processRuns, 4);
    assert.deepEqual(divergences(report), [
      ['empty-pool', 1],
      ['before-any-pool', 0],
      ['long-mixed-3', 1],
    ]);
  });
});

describe('check: a flood', () => {
  it('says the command it flooded at, shows the transcript cut there, and stops at the first flood', async () => {
    // FAKE program that floods at the first list with a PICK, right after answering the reset.
    const flood: Execute = async (input) =>
      input.includes('PICK')
        ? done('OK\n' + 'still looking ...\n'.repeat(100), { exitCode: null, signal: 'SIGKILL', outputLimited: true })
        : mutantProgram()(input);
    const report = await checkWith(flood);
    const worked = hidden[0]!;
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      // The flood first: it is the whole story of its run (issue 31).
      ['output-limit', 'stray-output'],
    );
    assert.equal(
      report.problems[0]!.message,
      `Your program printed more than 64 KiB at \`${worked.commands[0]}\` in "${worked.label}", so it was stopped.`,
    );
    const example = report.counterexample!;
    assert.deepEqual(
      [example.transcript, example.commands, example.reproduced, example.shrunkFrom],
      [worked.name, [worked.commands[0]], false, worked.commands.length],
    );
    assert.equal(report.processRuns, 1);
  });
});

describe('check: where a failing transcript first differs', () => {
  /** The index of the first command whose answer the program gets wrong, from the model itself. */
  const firstWrong = (commands: readonly string[], mutation: string): number => {
    const right = simulate(model, commands).steps.map((s) => JSON.stringify(s.answer));
    const wrong = simulate(model, commands, new Set([mutation])).steps.map((s) => JSON.stringify(s.answer));
    return right.findIndex((a, i) => a !== wrong[i]);
  };

  it('a STATUS with one count of several wrong, or one count too many, differs at that STATUS', async () => {
    for (const mutation of ['negative-count', 'unknown-added']) {
      const report = await checkWith(mutantProgram(mutation));
      const failing = divergences(report);
      assert.ok(failing.length >= 3, mutation);
      for (const [name, at] of failing)
        assert.equal(at, firstWrong(hidden.find((t) => t.name === name)!.commands, mutation), `${mutation}: ${name}`);
    }
    // Spelled out for one: `unknown-added` answers STATUS with a count for the stranger as well.
    assert.deepEqual(divergences(await checkWith(mutantProgram('unknown-added'))), [
      ['stranger-done', 2],
      ['stranger-after-picks', 4],
      ['long-mixed-1', 13],
      ['long-mixed-3', 5],
    ]);
  });

  it('a STATUS with its last count wrong, or missing, differs at the first STATUS with two counts or more', async () => {
    /** FAKE program: the reference, with every STATUS of two lines or more changed by `change` (its lines, in name order). */
    const statusChanged =
      (change: (lines: string[]) => string[]): Execute =>
      async (input) => {
        let state = model.initial();
        let stdout = '';
        for (const command of input.split('\n').filter(Boolean)) {
          const step = model.step(state, command, new Set());
          if (step.answer.kind === 'crash') break;
          state = step.state;
          const lines = [...step.answer.lines];
          stdout += (command === 'STATUS' && lines.length >= 2 ? change(lines) : lines).map((l) => `${l}\n`).join('');
        }
        return done(stdout);
      };
    const firstLongStatus = (commands: readonly string[]): number => {
      const steps = simulate(model, commands).steps;
      return commands.findIndex((c, i) => c === 'STATUS' && steps[i]!.answer.length >= 2);
    };
    const withLongStatus = hidden.filter((t) => firstLongStatus(t.commands) >= 0);
    assert.ok(withLongStatus.length >= 3);
    const expected = withLongStatus.map((t) => [t.name, firstLongStatus(t.commands)]);
    const bumped = await checkWith(
      statusChanged((lines) => [...lines.slice(0, -1), lines.at(-1)!.replace(/\d+$/, (n) => `${Number(n) + 10}`)]),
    );
    assert.deepEqual(divergences(bumped), expected);
    const cut = await checkWith(statusChanged((lines) => lines.slice(0, -1)));
    assert.deepEqual(divergences(cut), expected);
  });

  it('an answer wrong at the very first command differs at command 0', async () => {
    // FAKE program that answers `Ok` to every POOL with backends (the reset, a bare POOL, is answered `OK`).
    const right = mutantProgram();
    const okPool: Execute = async (input, limits) => {
      const run = await right(input, limits);
      const answers = run.stdout.split('\n');
      let k = 0;
      const out: string[] = [];
      for (const command of input.split('\n').filter(Boolean)) {
        if (command === 'STATUS') while (k < answers.length && answers[k]!.includes(':')) out.push(answers[k++]!);
        else out.push(command.startsWith('POOL ') ? (k++, 'Ok') : answers[k++]!);
      }
      return { ...run, stdout: out.join('\n') + '\n' };
    };
    const report = await checkWith(okPool);
    const startsWithPool = hidden.filter((t) => t.commands[0]!.startsWith('POOL ')).map((t) => t.name);
    assert.ok(startsWithPool.length >= 10);
    const failing = divergences(report);
    assert.deepEqual(
      failing.filter(([name]) => startsWithPool.includes(name)),
      startsWithPool.map((name) => [name, 0]),
    );
  });
});

describe('check: a byte after every answer, beside another problem', () => {
  it('does not say every answer is right without the byte when a difference no mistake names remains', async () => {
    // FAKE program that shouts every pick (no mistake of the lesson does) and ends every line in `\r`.
    const right = mutantProgram();
    const shoutingCr: Execute = async (input) => {
      const run = await right(input);
      const picks = new Set(input.split('\n').flatMap((l) => (l.startsWith('POOL') ? l.split(' ').slice(1) : [])));
      return {
        ...run,
        stdout: run.stdout
          .split('\n')
          .map((l, i, all) => (i === all.length - 1 ? l : (picks.has(l) ? l.toUpperCase() : l) + '\r'))
          .join('\n'),
      };
    };
    const report = await checkWith(shoutingCr);
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ['line-endings', 'unrecognised-difference'],
    );
    assert.match(report.problems[0]!.message, /The check below compares the answers without it\.$/);
    assert.deepEqual(report.mistakes, []);
    assert.equal(report.checks.passed, 0);
  });
});
