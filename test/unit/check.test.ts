/**
 * The whole check (core `check`) with FAKE programs: `execute` answers in-process instead of starting one.
 * Fake on purpose: these tests are about what check concludes from outcomes (localising, leaked state,
 * naming, shrinking, seeds), and a fake makes that exact, instant, and lets us count process runs.
 * The same behaviours as real Python/JavaScript/TypeScript programs are in test/node.
 */
import * as assert from 'node:assert/strict';
import type { Execute } from '../../src/core/check/process';
import type { CheckReport } from '../../src/core/report/report';
import { sameOutcome, simulate } from '../../src/core/model/simulate';
import { checkFake, done, manifest, model, mutantProgram, transcripts, turning } from './fakeLesson';

/** The stale-state fixture in TypeScript: counts live for the whole process, so POOL does not reset them. */
const leakyProgram: Execute = async (input) => {
  const counts = new Map<string, number>();
  let pool: string[] = [];
  const out: string[] = [];
  for (const line of input.split('\n')) {
    const [verb, ...args] = line.trim().split(/\s+/);
    if (verb === 'POOL') {
      pool = args;
      for (const name of args) if (!counts.has(name)) counts.set(name, 0);
      out.push('OK');
    } else if (verb === 'PICK') {
      let best = pool[0];
      for (const name of pool) if (counts.get(name)! < counts.get(best!)!) best = name;
      if (best !== undefined) counts.set(best, counts.get(best)! + 1);
      out.push(best ?? 'EMPTY');
    } else if (verb === 'DONE') {
      const count = counts.get(args[0]!);
      if (count !== undefined && count > 0) counts.set(args[0]!, count - 1);
      out.push('OK');
    } else if (verb === 'STATUS') {
      for (const name of [...counts.keys()].sort()) out.push(`${name}:${counts.get(name)}`);
    }
  }
  return done(out.map((l) => `${l}\n`).join(''));
};

const checkWith = checkFake;

/** The counterexample must really show the failure: replayed, the program and the reference part ways. */
async function assertReproduces(report: CheckReport, execute: Execute, mutations: string[] = []): Promise<void> {
  const example = report.counterexample;
  assert.ok(example, 'a counterexample');
  assert.equal(example.trace[example.divergesAt]!.matches, false);
  assert.ok(
    example.trace.slice(0, example.divergesAt).every((row) => row.matches),
    'rows before the first difference match',
  );
  const run = await execute(['POOL', ...example.commands].join('\n') + '\n');
  const lines = run.stdout.split('\n').filter(Boolean).slice(1);
  const ending = run.exitCode === 0 ? 'finished' : 'crashed';
  assert.ok(
    !sameOutcome({ lines, ending }, simulate(model, example.commands).outcome),
    'the program fails the counterexample',
  );
  if (mutations.length > 0)
    assert.ok(
      sameOutcome({ lines, ending }, simulate(model, example.commands, new Set(mutations)).outcome),
      'as the mutant does',
    );
}

/** What `checks` must say, counted from the verdicts themselves: notRun transcripts count as failed too. */
function countedChecks(report: CheckReport): CheckReport['checks'] {
  const failed = report.transcripts.filter((t) => !t.passed).length;
  return {
    total: report.transcripts.length,
    passed: report.transcripts.length - failed,
    failed,
    notRun: report.transcripts.filter((t) => t.notRun).length,
  };
}

/** Every counterexample the report calls reproduced holds a difference: a row where the program and the reference part ways. */
function assertReproducedShowDifferences(report: CheckReport): void {
  const examples = [report.counterexample, ...report.mistakes.map((m) => m.counterexample)].filter(
    (e) => e?.reproduced,
  );
  for (const example of examples) {
    assert.ok(
      example!.trace.some((row) => !row.matches),
      `${example!.commands.join(' | ')} is marked reproduced but every row matches`,
    );
    assert.notDeepEqual(example!.actual, example!.expected);
  }
}

describe('check (fake programs)', () => {
  it('a run that stalls once (a loaded machine) is run again before the stall is believed; a real hang is still a hang', async () => {
    const right = mutantProgram();
    let calls = 0;
    const stallsOnce: Execute = async (input) => {
      calls += 1;
      return calls === 1
        ? done('OK\n', { exitCode: null, signal: 'SIGKILL', timedOut: true, stalled: true })
        : right(input);
    };
    const report = await checkWith(stallsOnce);
    assert.equal(report.status, 'pass', JSON.stringify(report.problems));
    assert.equal(report.processRuns, 2);
    const hangs: Execute = async () =>
      done('OK\n', { exitCode: null, signal: 'SIGKILL', timedOut: true, stalled: true });
    const hung = await checkWith(hangs);
    assert.equal(hung.status, 'fail');
    assert.ok(
      hung.problems.some((p) => p.kind === 'timeout'),
      JSON.stringify(hung.problems),
    );
  });

  it('a stall proven by CPU time (it computed for the whole stall limit without a word) is believed at once: no second run', async () => {
    let calls = 0;
    const spins: Execute = async () => {
      calls += 1;
      return done('OK\n', { exitCode: null, signal: 'SIGKILL', timedOut: true, stalled: true, stalledOnCpu: true });
    };
    const hung = await checkWith(spins);
    assert.equal(hung.status, 'fail');
    assert.ok(
      hung.problems.some((p) => p.kind === 'timeout'),
      JSON.stringify(hung.problems),
    );
    assert.equal(hung.processRuns, calls);
    assert.equal(calls, 1, 'the hang was run again');
  });

  it('the retry of a run that stalled before printing anything (a slow start) waits longer; one that answered first, the usual second', async () => {
    const right = mutantProgram();
    const asked: (number | undefined)[] = [];
    let calls = 0;
    const silentOnce: Execute = async (input, limits) => {
      calls += 1;
      asked.push(limits?.stallMs);
      return calls === 1
        ? done('', { exitCode: null, signal: 'SIGKILL', timedOut: true, stalled: true })
        : right(input);
    };
    assert.equal((await checkWith(silentOnce)).status, 'pass');
    assert.deepEqual(asked.slice(0, 2), [undefined, 3000]);
    asked.length = 0;
    calls = 0;
    const answeredOnce: Execute = async (input, limits) => {
      calls += 1;
      asked.push(limits?.stallMs);
      return calls === 1
        ? done('OK\n', { exitCode: null, signal: 'SIGKILL', timedOut: true, stalled: true })
        : right(input);
    };
    assert.equal((await checkWith(answeredOnce)).status, 'pass');
    assert.deepEqual(asked.slice(0, 2), [undefined, undefined]);
  });

  it('passes a program that answers like the reference, in one process', async () => {
    const report = await checkWith(mutantProgram());
    assert.equal(report.status, 'pass');
    assert.deepEqual(report.checks, { total: transcripts.length, passed: transcripts.length, failed: 0, notRun: 0 });
    assert.equal(report.processRuns, 1);
    assert.deepEqual([report.mistakes, report.problems, report.counterexample], [[], [], null]);
  });

  it('names a wrong tiebreak exactly and shrinks a counterexample to a tie', async () => {
    const program = mutantProgram('tiebreak-name');
    const report = await checkWith(program);
    assert.equal(report.status, 'fail');
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.mutants, m.confidence]),
      [['tiebreak', ['tiebreak-name'], 'exact']],
    );
    assert.ok(report.checks.failed > 0, 'some hidden transcript fails');
    assert.deepEqual(report.checks, countedChecks(report));
    const example = report.mistakes[0]!.counterexample!;
    assert.ok(example.commands.length <= 3, example.commands.join(' | '));
    const names = example.commands[0]!.split(' ').slice(1);
    assert.equal(example.commands[0]!.split(' ')[0], 'POOL');
    assert.notDeepEqual(names, [...names].sort(), 'the pool is out of name order, or the tie could not show');
    assert.ok(example.commands.includes('PICK'));
    await assertReproduces(report, program, ['tiebreak-name']);
    assertReproducedShowDifferences(report);
  });

  it("replays exactly the table's commands: no reset first, so the terminal prints one answer per row", async () => {
    const report = await checkWith(
      mutantProgram('tiebreak-name'),
      {},
      { replay: (stdin) => `printf '${stdin}' | python3 balancer.py` },
    );
    const example = report.mistakes[0]!.counterexample!;
    assert.ok(example.replay, 'a replay line');
    assert.deepEqual(example.replay.stdin.split('\n').filter(Boolean), [...example.commands]);
    assert.equal(example.trace.length, example.commands.length);
  });

  it('names counts that survive POOL, and does not blame mistakes the program does not have', async () => {
    // Before, failures seen only in the shared process (caused by earlier transcripts) were taken as evidence,
    // and this program with a correct pick was told it had a wrong tiebreak and a late increment. Walked as one
    // stream, reset commands included, the leak is a mistake of its own.
    const report = await checkWith(leakyProgram, { fuzzTranscripts: 40 });
    assert.deepEqual(
      report.mistakes.map((m) => m.id),
      ['stale-counts'],
    );
    assert.ok(report.processRuns <= 10, `${report.processRuns} runs`);
    assert.ok(report.counterexample!.commands.length <= 4, report.counterexample!.commands.join(' | '));
    await assertReproduces(report, leakyProgram);
  });

  it("gives the counterexample's exact standard input, the table's commands alone, and the host's shell line for it", async () => {
    const report = await checkWith(
      mutantProgram('tiebreak-name'),
      {},
      { replay: (stdin) => `replay ${JSON.stringify(stdin)}` },
    );
    const example = report.mistakes[0]!.counterexample!;
    // A replay starts a fresh process, which needs no reset: the terminal then prints one line per row of the table.
    const stdin = example.commands.join('\n') + '\n';
    assert.deepEqual(example.replay, { stdin, shell: `replay ${JSON.stringify(stdin)}` });
    assert.equal(
      (await checkWith(mutantProgram('tiebreak-name'))).mistakes[0]!.counterexample!.replay,
      undefined,
      'none without a host that can write one',
    );
  });

  it('shows a difference no mistake names in the fewest commands, confirmed in a fresh run', async () => {
    // Shouts every pick (upper case): no mutant of the lesson answers like that.
    const shouting: Execute = async (input) => {
      const run = await mutantProgram()(input);
      const picks = new Set([
        'EMPTY',
        ...input.split('\n').flatMap((l) => (l.startsWith('POOL') ? l.split(' ').slice(1) : [])),
      ]);
      return {
        ...run,
        stdout: run.stdout
          .split('\n')
          .map((l) => (picks.has(l) && l !== 'EMPTY' ? l.toUpperCase() : l))
          .join('\n'),
      };
    };
    const report = await checkWith(shouting);
    assert.equal(report.status, 'fail');
    assert.deepEqual(report.mistakes, []);
    const example = report.counterexample!;
    assert.ok(example.reproduced);
    assert.deepEqual([example.commands.length, example.commands[1]], [2, 'PICK'], example.commands.join(' | '));
    assert.ok(example.shrunkFrom >= example.commands.length);
    assertReproducedShowDifferences(report);
    await assertReproduces(report, shouting);

    // Shouting only in a long run: no fresh run shows it, so the check's own run is shown, and says so.
    const shoutsWhenLong: Execute = async (input) =>
      (input.split('\n').length > 60 ? shouting : mutantProgram())(input);
    const once = await checkWith(shoutsWhenLong);
    assert.equal(once.counterexample?.reproduced, false);
    assertReproducedShowDifferences(once);
  });

  it('shows no counterexample as reproduced when the fresh run of it shows no difference', async () => {
    // Wrong only in a long run (here: the check's one process for every transcript), right in the short fresh
    // runs that confirm a counterexample. The finding stands on the evidence, but no fresh run shows it.
    const longRunsOnly: Execute = async (input) =>
      (input.split('\n').length > 60 ? mutantProgram('tiebreak-name') : mutantProgram())(input);
    const report = await checkWith(longRunsOnly);
    assert.deepEqual(
      report.mistakes.map((m) => m.id),
      ['tiebreak'],
    );
    assert.equal(
      report.mistakes[0]!.counterexample?.reproduced ?? false,
      false,
      'no fresh run showed the wrong tiebreak',
    );
    assertReproducedShowDifferences(report);
  });

  it('confirms a random tiebreak in a fresh run, with the counts that very run printed', async () => {
    // Each fresh process rotates its ties from a different start (a clock or a seed would do the same), so two
    // fresh runs differ; within one process it answers like the reference otherwise.
    const randomTies = turning((process) => process, false);
    const report = await checkWith(randomTies);
    assert.equal(report.status, 'fail');
    assert.equal(report.determinism?.fresh, 'different');
    assertReproducedShowDifferences(report);
    const example = report.counterexample;
    assert.ok(example?.reproduced, 'a fresh run showed it');
    assert.equal(example.observeCommand, 'STATUS', 'with the counts of the run shown');
    assert.ok(example.trace.every((row) => row.observed !== undefined));
  });

  it('stops at the first flood instead of flooding once per transcript', async () => {
    const flood: Execute = async (input) =>
      input.includes('PICK')
        ? done('OK\n' + 'still looking ...\n'.repeat(100), { exitCode: null, signal: 'SIGKILL', outputLimited: true })
        : mutantProgram()(input);
    const report = await checkWith(flood);
    assert.ok(report.problems.some((p) => p.kind === 'output-limit'));
    assert.ok(report.processRuns <= 3, `${report.processRuns} runs`);
  });

  it('runs a silent program (it answers nothing, exit code 0) a few times, not once per transcript', async () => {
    const report = await checkWith(async () => done(''));
    assert.equal(report.status, 'fail');
    assert.equal(report.checks.notRun, transcripts.length - 1);
    assert.deepEqual(report.checks, countedChecks(report));
    assert.ok(report.processRuns <= 10, `${report.processRuns} runs`);
    // Said as what it is (no answer to anything), not as a difference to walk through on paper.
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ['no-answers'],
    );
    assert.match(report.problems[0]!.advice!, /its main\(\) is never called/);
  });

  it('says where the answers of a program that prints only to stderr went', async () => {
    const report = await checkWith(async (input) => ({
      ...(await mutantProgram()(input)),
      stdout: '',
      stderr: 'OK\n',
    }));
    assert.deepEqual(
      report.problems.map((p) => [p.kind, p.advice]),
      [
        [
          'no-answers',
          'It wrote to stderr instead, e.g. "OK": print each answer to stdout (Python: print(...); JavaScript: console.log(...)) and keep stderr for debugging.',
        ],
      ],
    );
  });

  it('a program that answers something somewhere is not said to answer nothing', async () => {
    // It answers POOL and nothing else.
    const poolOnly = (input: string): string =>
      input
        .split('\n')
        .filter((command) => command.startsWith('POOL'))
        .map(() => 'OK\n')
        .join('');
    const report = await checkWith(async (input) => done(poolOnly(input)));
    assert.equal(report.status, 'fail');
    assert.ok(!report.problems.some((p) => p.kind === 'no-answers'), JSON.stringify(report.problems));
  });

  it('reproduces a report from its seed', async () => {
    const program = mutantProgram('negative-count');
    const first = await checkWith(program, { seed: 99 });
    const again = await checkWith(program, { seed: 99 });
    assert.deepEqual(again, first);
    assert.equal(first.fuzz.seed, 99);
    assert.equal(first.fuzz.transcripts, manifest.fuzz!.transcripts);
    // The seed changes only the generated transcripts: hidden verdicts stay.
    const other = await checkWith(program, { seed: 100 });
    assert.equal(other.fuzz.seed, 100);
    assert.deepEqual(other.transcripts, first.transcripts);
  });
});
