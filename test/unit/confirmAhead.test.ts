/**
 * Runs the confirm phase need not start (confirmRuns.ts, probeMore.ts): the shrinker's short candidates run just
 * after their observed twins, so the list it ends with is already shown; and each finding's first tries ride at the
 * end of the probe's batch replay, where the probe then finds the program deterministic and keeping nothing else
 * across the reset. FAKE programs answer from the lesson's model (fakeLesson.ts).
 */
import * as assert from 'node:assert/strict';
import { runBatch, startsAlike, startsClean } from '../../src/core/check/batch';
import { model as healthChecks } from '../../lessons/health-checks/model/model';
import { counterexamplesFor, type ConfirmContext } from '../../src/core/check/confirm';
import { candidatesHoldingWithTwins } from '../../src/core/check/confirmRuns';
import { withObserve } from '../../src/core/check/counterexample';
import type { Execute } from '../../src/core/check/process';
import { diagnose } from '../../src/core/diagnosis/diagnose';
import { caseOf, checkFake, done, model, manifest, recorded, tiesByRule } from './fakeLesson';

/**
 * FAKE program whose ties go to the tied backend it first heard of since the reset: a rule of history, so a pool
 * listed again in another order keeps the old order (as a program that appends new names to a list of its own).
 */
const firstHeard: Execute = async (input) => {
  let state = model.initial();
  let heard: string[] = [];
  let stdout = '';
  for (const command of input.split('\n').filter(Boolean)) {
    if (command === model.resetCommand) heard = [];
    const [verb, ...names] = command.split(' ');
    if (verb === 'POOL') heard.push(...names.filter((n) => !heard.includes(n)));
    const offered = model.step(state, command, new Set(['tiebreak-any']));
    const tied = offered.answer.kind === 'lines' ? [offered.answer.lines, ...(offered.alternatives ?? [])] : [];
    const chosen =
      command === 'PICK' && tied.length > 1
        ? [tied.map((lines) => lines[0]!).sort((a, b) => heard.indexOf(a) - heard.indexOf(b))[0]!]
        : undefined;
    const step = model.step(state, command, new Set(), chosen);
    state = step.state;
    stdout += (chosen ?? (step.answer.kind === 'lines' ? step.answer.lines : [])).map((l) => `${l}\n`).join('');
  }
  return done(stdout);
};

function contextFor(execute: Execute, cases = [caseOf(['POOL b a', 'PICK', 'POOL a b c', 'STATUS', 'PICK'])]) {
  return async (): Promise<ConfirmContext & { findings: ReturnType<typeof diagnose>['findings'] }> => {
    const { streams } = await runBatch(
      model,
      execute,
      cases.map((c) => c.commands),
    );
    const { findings } = diagnose(model, manifest.mistakes, streams);
    return {
      model,
      execute,
      cases,
      streams,
      random: false,
      leaky: false,
      concurrency: 1,
      maxShrinkRounds: 8,
      endsEarly: false,
      resetKeepsNothingElse: true,
      fixedChoices: true,
      findings,
    };
  };
}

describe('confirm: the shrinker runs its short candidates after their observed twins', () => {
  it('one process for a call; a short list that held comes back with its counts, a long one without a twin', async () => {
    const program = recorded(firstHeard);
    const ctx = await contextFor(program)();
    const short = ['POOL b a', 'POOL a b', 'PICK'];
    const long = ['POOL b a', 'PICK', 'DONE b', 'POOL a b c', 'STATUS', 'PICK', 'DONE a', 'PICK', 'STATUS'];
    const before = program.stdins.length;
    const shows = (_: readonly string[], run: { lines: readonly string[] }): boolean => run.lines.includes('b');
    const { verdicts, shown } = await candidatesHoldingWithTwins(ctx, [short, long], shows);
    assert.equal(program.stdins.length - before, 1, 'one process');
    assert.deepEqual(verdicts, [true, false], 'the first that holds, the one the shrinker takes');
    assert.ok(program.stdins.at(-1)!.includes(withObserve(model, short).join('\n')), 'the twin ran');
    assert.ok(!program.stdins.at(-1)!.includes(withObserve(model, long).join('\n')), 'a long list has none');
    assert.deepEqual(shown.get(short.join('\n'))?.plain.lines, ['OK', 'OK', 'b']);
    assert.ok(shown.get(short.join('\n'))?.observed, 'with the counts its twin printed');
    assert.ok(!shown.has(long.join('\n')));
    // A program that keeps state across the reset: each list runs as candidatesHolding runs it, no twin.
    const leaky = await candidatesHoldingWithTwins({ ...ctx, leaky: true }, [short], shows);
    assert.equal(leaky.shown.size, 0);
  });

  it('the list a shrinking on the program ends with needs no fresh run of its own', async () => {
    const program = recorded(firstHeard);
    const ctx = await contextFor(program)();
    const finding = ctx.findings.find((f) => f.mistake === 'tiebreak');
    assert.ok(finding, JSON.stringify(ctx.findings.map((f) => f.mutation)));
    const before = program.stdins.length;
    const [example] = await counterexamplesFor(ctx, [finding]);
    const runs = program.stdins.slice(before);
    assert.ok(example?.commands.includes('PICK'), JSON.stringify(example?.commands));
    assert.ok(
      example!.trace.some((row) => row.observed !== undefined),
      'the counts are shown',
    );
    // The last process is the shrinker's own call, with the shown list's twin in it, not a fresh run of it.
    const twin = withObserve(model, example!.commands).join('\n');
    assert.ok(runs.at(-1)!.includes(twin), runs.at(-1));
    assert.ok(runs.at(-1)!.split('\n').length > 4 * twin.split('\n').length, 'among the other candidates');
  });
});

describe('probe: the confirm phase first tries ride at the end of the batch replay', () => {
  /** Ties to the name last in code-point order: a fixed rule no mutant of the lesson has. */
  const lastName = tiesByRule((a, b) => (a < b ? 1 : a > b ? -1 : 0));

  it('a fixed rule of its own: its counterexample is shown without a process of the confirm phase', async () => {
    const program = recorded(lastName);
    const report = await checkFake(program);
    assert.equal(report.determinism?.fresh, 'same');
    assert.equal(report.determinism?.afterReset, 'same');
    const mistake = report.mistakes.find((m) => m.id === 'tiebreak');
    assert.ok(mistake?.counterexample?.reproduced, JSON.stringify(report.mistakes));
    assert.equal(report.runsByPhase!.confirm ?? 0, 0, JSON.stringify(report.runsByPhase));
    // It ran in the probe's replay, after the check's own transcripts, beside its observed twin.
    const twin = withObserve(model, mistake.counterexample.commands).join('\n');
    assert.ok(
      program.stdins.some((stdin) => stdin.includes(twin)),
      'the twin ran',
    );
  });

  it('a rule that changes in the replay: the program is called random, and nothing that rode along is taken', async () => {
    // Ties to the last name in the first three processes (the check's batch, T twice, T alone), to the first in the
    // fourth, the replay, and after: only the replay shows the change.
    const program = recorded(tiesByRule((a, b, process) => (process < 3 ? (a < b ? 1 : -1) : a < b ? -1 : 1)));
    const report = await checkFake(program);
    assert.equal(report.determinism?.fresh, 'different', JSON.stringify(report.determinism));
    assert.ok(program.stdins.length >= 4, 'the replay ran');
    assert.ok((report.runsByPhase!.confirm ?? 0) > 0, JSON.stringify(report.runsByPhase));
    // What rode at the end of the replay (the fourth process) is run again, in a fresh process of its own.
    const replay = program.stdins[3]!;
    assert.ok(
      program.stdins.slice(4).some((stdin) => replay.includes(stdin.trim())),
      'a first try that rode in the replay runs again fresh',
    );
  });
});

describe('a list asked ahead answers as it would alone (batch.ts startsAlike)', () => {
  it('after a CAP 2 the reset keeps: a list that never fills a backend to it, yes; one that does, no', () => {
    const capTwo = ['CAP 2', 'POOL a b', 'PICK'];
    const neverFull = ['POOL c b mid', 'PICK', 'STATUS'];
    const fillsOne = ['POOL a', 'PICK', 'PICK', 'PICK'];
    // Not clean: the cap outlives the reset (health-checks' POOL keeps it).
    assert.deepEqual(startsClean(healthChecks, [capTwo, neverFull, fillsOne]), [true, false, false]);
    // Alike under the reference and every mutation for the first; the third PICK of `a` is BUSY under the cap.
    assert.deepEqual(startsAlike(healthChecks, [capTwo, neverFull, fillsOne]), [true, true, false]);
  });
});
