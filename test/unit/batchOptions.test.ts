/**
 * runBatch's options and bookkeeping (core `batch`), with FAKE programs: the cap on process runs, lists put
 * last or left out after a crash (`afterCrash`), where each list sits in a stream, and which lines are taken
 * for debug prints. The cutting of one stdout into outcomes is in test/unit/batch.test.ts.
 */
import * as assert from 'node:assert/strict';
import { runBatch, startsClean } from '../../src/core/check/batch';
import { model as healthChecks } from '../../lessons/health-checks/model/model';
import type { Execute } from '../../src/core/check/process';
import { done, model, mutantProgram, recorded } from './fakeLesson';

/** Crashes at the first DONE of every process; answers like the reference before it. */
const crashesAtDone: Execute = async (input, limits) => {
  const lines = input.split('\n');
  const at = lines.findIndex((l) => l.startsWith('DONE'));
  if (at < 0) return mutantProgram()(input, limits);
  const run = await mutantProgram()(lines.slice(0, at).join('\n') + '\n', limits);
  return { ...run, exitCode: 1, stderr: 'KeyError\n' };
};

/** The lists, in order, one process was given (by their first command after the reset). */
const listsOf = (stdin: string): string[] =>
  stdin
    .split(`${model.resetCommand}\n`)
    .slice(1)
    .map((list) => list.split('\n')[0]!);

describe('batch options', () => {
  it('gives each list its place in the stream: its index, where its reset is, and its length with the reset', async () => {
    const { streams } = await runBatch(model, mutantProgram(), [['POOL a b', 'PICK'], ['STATUS'], []]);
    assert.equal(streams.length, 1);
    assert.deepEqual(streams[0]!.segments, [
      { list: 0, start: 0, length: 3 },
      { list: 1, start: 3, length: 2 },
      { list: 2, start: 5, length: 1 },
    ]);
    assert.deepEqual(streams[0]!.commands, [
      model.resetCommand,
      'POOL a b',
      'PICK',
      model.resetCommand,
      'STATUS',
      model.resetCommand,
    ]);
  });

  it('goes on after a crash in a later list: the lists after it run in a new process', async () => {
    const program = recorded(crashesAtDone);
    const batch = await runBatch(model, program, [
      ['POOL a', 'PICK'],
      ['POOL a', 'DONE a'],
      ['POOL b', 'PICK'],
    ]);
    assert.deepEqual(
      batch.outcomes.map((o) => o.ending),
      ['finished', 'crashed', 'finished'],
    );
    assert.deepEqual(program.stdins.map(listsOf), [['POOL a', 'POOL a', 'POOL b'], ['POOL b']]);
  });

  it('starts no more processes than `maxRuns`: the lists left are not run', async () => {
    const program = recorded(crashesAtDone);
    const lists = [
      ['POOL a', 'DONE a'],
      ['POOL b', 'DONE b'],
      ['POOL c', 'DONE c'],
      ['POOL d', 'PICK'],
    ];
    const batch = await runBatch(model, program, lists, { maxRuns: 2 });
    assert.equal(program.stdins.length, 2);
    assert.deepEqual(
      batch.outcomes.map((o) => o.ending),
      ['crashed', 'crashed', 'not-run', 'not-run'],
    );
    const unbounded = await runBatch(model, crashesAtDone, lists);
    assert.deepEqual(
      unbounded.outcomes.map((o) => o.ending),
      ['crashed', 'crashed', 'crashed', 'finished'],
    );
  });

  it('stops after `maxCrashesAtOnce` processes in a row crashed on their first list; one that got through a list first does not count', async () => {
    const program = recorded(crashesAtDone);
    const lists = [
      ['POOL p', 'PICK'],
      ['POOL a', 'DONE a'],
      ['POOL b', 'DONE b'],
      ['POOL q', 'PICK'],
      ['POOL c', 'DONE c'],
      ['POOL d', 'DONE d'],
      ['POOL e', 'DONE e'],
      ['POOL f', 'DONE f'],
      ['POOL r', 'PICK'],
    ];
    const batch = await runBatch(model, program, lists, { maxCrashesAtOnce: 2 });
    // p passes, a crashes (the process got through p: not counted); b crashes at once (1); q passes, c crashes
    // (not counted); d, e crash at once (2): f and r are not run.
    assert.deepEqual(
      program.stdins.map((stdin) => listsOf(stdin)[0]),
      ['POOL p', 'POOL b', 'POOL q', 'POOL d', 'POOL e'],
    );
    assert.deepEqual(
      batch.outcomes.map((o) => o.ending),
      ['finished', 'crashed', 'crashed', 'finished', 'crashed', 'crashed', 'crashed', 'not-run', 'not-run'],
    );
  });

  it('after a crash, runs the lists that would crash the same way last, and leaves out the ones it may skip', async () => {
    const program = recorded(crashesAtDone);
    const lists = [
      ['POOL a', 'DONE a'],
      ['POOL b', 'DONE b'],
      ['POOL c', 'DONE c'],
      ['POOL d', 'PICK'],
      ['POOL e', 'PICK'],
    ];
    const asked: { pending: number[]; lines: readonly string[] }[] = [];
    const batch = await runBatch(model, program, lists, {
      afterCrash: (crashed, pending) => {
        asked.push({ pending: [...pending], lines: crashed.lines });
        return { defer: new Set([1, 2]), skip: new Set([2]) };
      },
    });
    assert.deepEqual(asked[0], { pending: [1, 2, 3, 4], lines: ['OK', 'OK'] });
    assert.deepEqual(
      program.stdins.map(listsOf)[1],
      ['POOL d', 'POOL e', 'POOL b'],
      'the others first, the deferred one last, the skipped one not at all',
    );
    assert.deepEqual(
      batch.outcomes.map((o) => o.ending),
      ['crashed', 'crashed', 'not-run', 'finished', 'finished'],
    );
  });

  it('asks nothing after a process that finished, or one that crashed on its last list', async () => {
    let asked = 0;
    const afterCrash = () => {
      asked += 1;
      return { defer: new Set<number>(), skip: new Set<number>() };
    };
    await runBatch(
      model,
      crashesAtDone,
      [
        ['POOL a', 'PICK'],
        ['POOL b', 'DONE b'],
      ],
      { afterCrash },
    );
    await runBatch(model, mutantProgram(), [['POOL a', 'PICK']], { afterCrash });
    assert.equal(asked, 0);
  });

  it('takes a line no answer looks like for a wrong answer when it stands where an answer should, for a debug print when it is extra', async () => {
    const extra: Execute = async (input) => ({
      ...(await mutantProgram()(input)),
      stdout: (await mutantProgram()(input)).stdout.replace('a\n', 'picking: a\na\n'),
    });
    const printed = await runBatch(model, extra, [['POOL a', 'PICK']]);
    assert.deepEqual([printed.outcomes[0]!.lines, printed.strayLines], [['OK', 'a'], ['picking: a']]);
    const wrong: Execute = async (input) => done((await mutantProgram()(input)).stdout.replace('\na\n', '\n<a>\n'));
    const shown = await runBatch(model, wrong, [['POOL a', 'PICK']]);
    assert.deepEqual([shown.outcomes[0]!.lines, shown.strayLines], [['OK', '<a>'], []]);
  });
});

describe('batch: which lists start as if alone in a shared process', () => {
  // The health-checks lesson: POOL (its reset) keeps the cap a list before set.
  it('a list after one that set a cap starts clean only if its first command sets the same state again', () => {
    assert.deepEqual(
      startsClean(healthChecks, [
        ['POOL a b', 'PICK'],
        ['CAP 2', 'POOL a b', 'PICK'],
        ['CAP 2', 'POOL a', 'PICK'],
        ['CAP 3', 'POOL a', 'PICK'],
        ['POOL a b', 'PICK'],
        ['PICK'],
      ]),
      // Nothing before it; nothing left yet; CAP 2 again after CAP 2 and CAP 3 after CAP 2 set the cap before
      // anything reads it; a POOL after CAP 3 answers alike but keeps the cap; a bare PICK too.
      [true, true, true, true, false, false],
    );
  });
});
