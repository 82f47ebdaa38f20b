/**
 * runBatch and resetCarriesOver (core `batch`) at the edges the other batch tests leave open: what a list that
 * never ran is reported as, when `afterCrash` is asked, which lists stay "crashed" when no process can start
 * any more, when a line count cannot tell a debug print from a wrong answer, and which states a reset keeps.
 * FAKE programs (in-process functions answering stdin), and a toy model where the lessons' models cannot show
 * the case (a reset that keeps only a Map or a bigint, a list answer that could be any word).
 */
import * as assert from 'node:assert/strict';
import { resetCarriesOver, runBatch } from '../../src/core/check/batch';
import type { Execute, ProcessResult } from '../../src/core/check/process';
import type { ReferenceModel } from '../../src/core/model/model';
import { model as healthChecks } from '../../lessons/health-checks/model/model';
import { done, model, mutantProgram } from './fakeLesson';

/** Answers like the reference, but its process ends at the first DONE with `ending` (a crash, or exit code 0). */
const stopsAtDone =
  (ending: Partial<ProcessResult>): Execute =>
  async (input, limits) => {
    const lines = input.split('\n');
    const at = lines.findIndex((l) => l.startsWith('DONE'));
    if (at < 0) return mutantProgram()(input, limits);
    return { ...(await mutantProgram()(lines.slice(0, at).join('\n') + '\n', limits)), ...ending };
  };
const crashesAtDone = stopsAtDone({ exitCode: 1, stderr: 'KeyError\n' });

describe('batch: lists that did not run', () => {
  it('reports the lists after a hang as not run, with no answer lines at all', async () => {
    const hangsAtDone = stopsAtDone({ exitCode: null, signal: 'SIGKILL', timedOut: true });
    const batch = await runBatch(model, hangsAtDone, [
      ['POOL a', 'PICK'],
      ['POOL b', 'DONE b'],
      ['POOL c', 'PICK'],
      ['STATUS'],
    ]);
    assert.deepEqual(batch.outcomes, [
      { lines: ['OK', 'a'], ending: 'finished' },
      { lines: ['OK'], ending: 'timed-out' },
      { lines: [], ending: 'not-run' },
      { lines: [], ending: 'not-run' },
    ]);
  });

  it('asks `afterCrash` only after a crash: a process that exits with code 0 part-way just goes on with the rest, in order', async () => {
    const program = stopsAtDone({});
    const stdins: string[] = [];
    let asked = 0;
    const batch = await runBatch(
      model,
      async (input, limits) => {
        stdins.push(input);
        return program(input, limits);
      },
      [
        ['POOL a', 'DONE a'],
        ['POOL b', 'PICK'],
        ['POOL c', 'PICK'],
      ],
      {
        afterCrash: () => {
          asked += 1;
          // Were it asked, it would put list 1 last.
          return { defer: new Set([1]), skip: new Set<number>() };
        },
      },
    );
    assert.equal(asked, 0);
    assert.equal(stdins[1], 'POOL\nPOOL b\nPICK\nPOOL\nPOOL c\nPICK\n');
    assert.deepEqual(
      batch.outcomes.map((o) => o.ending),
      ['crashed', 'finished', 'finished'],
    );
  });

  it('when the next process cannot start, the lists it was to run are crashed; only the one `afterCrash` skipped is not run', async () => {
    // The first process crashes at its DONE; the second cannot even start (the interpreter went away).
    let started = 0;
    const execute: Execute = async (input, limits) => {
      started += 1;
      if (started === 1) return crashesAtDone(input, limits);
      return { ...done(''), exitCode: null, durationMs: 0, startError: { code: 'ENOENT', command: 'python3' } };
    };
    const lists = [
      ['POOL a', 'DONE a'],
      ['POOL b', 'DONE b'],
      ['POOL c', 'DONE c'],
      ['POOL d', 'PICK'],
    ];
    const batch = await runBatch(model, execute, lists, {
      afterCrash: () => ({ defer: new Set([1, 2]), skip: new Set([2]) }),
    });
    assert.equal(started, 2);
    assert.deepEqual(batch.outcomes, [
      { lines: ['OK'], ending: 'crashed' },
      { lines: [], ending: 'crashed' },
      { lines: [], ending: 'not-run' },
      { lines: [], ending: 'crashed' },
    ]);
  });
});

describe('batch: a line count that cannot tell prints from answers', () => {
  it('keeps every line of a finished run when dropping the odd ones misses the reference count by as much as keeping them', async () => {
    // Reference: OK (reset), OK (POOL), a (PICK): three lines. Printed: four, two of which no answer looks like;
    // without them, two. One off either way: nothing says they are prints, so they stay answers.
    const odd: Execute = async () => done('OK\nOK\nlooking at a\n<a>\n');
    const batch = await runBatch(model, odd, [['POOL a', 'PICK']]);
    assert.deepEqual(batch.outcomes, [{ lines: ['OK', 'looking at a'], ending: 'finished' }]);
    assert.deepEqual(batch.strayLines, []);
  });
});

/**
 * A toy protocol: RESET answers OK and clears what `clears` says of the state (a set of kept names, a Map of
 * counts, a bigint total); KEEP/ADD answer OK; LIST answers the kept names, one a line, any lowercase word; BOOM
 * is a command the reference itself crashes on.
 */
function toy(clears: { keep?: boolean; counts?: boolean; total?: boolean }): ReferenceModel {
  interface State {
    readonly keep: ReadonlySet<string>;
    readonly counts: ReadonlyMap<string, number>;
    readonly total: bigint;
  }
  const ok = { kind: 'lines' as const, lines: ['OK'] };
  const model: ReferenceModel<State> = {
    id: 'toy',
    description: 'toy',
    mutations: [],
    resetCommand: 'RESET',
    resetAnswer: ['OK'],
    initial: () => ({ keep: new Set(), counts: new Map(), total: 0n }),
    step(state, command) {
      const [verb, name = ''] = command.split(' ');
      if (verb === 'RESET')
        return {
          state: {
            keep: clears.keep ? new Set() : state.keep,
            counts: clears.counts ? new Map() : state.counts,
            total: clears.total ? 0n : state.total,
          },
          answer: ok,
        };
      if (verb === 'KEEP') return { state: { ...state, keep: new Set([...state.keep, name]) }, answer: ok };
      if (verb === 'ADD')
        return {
          state: {
            ...state,
            counts: new Map([...state.counts, [name, (state.counts.get(name) ?? 0) + 1]]),
            total: state.total + 1n,
          },
          answer: ok,
        };
      if (verb === 'LIST') return { state, answer: { kind: 'lines', lines: [...state.keep] } };
      return { state, answer: { kind: 'crash', error: `${verb} is not a command` } };
    },
    snapshot: () => ({}),
    answerShape: (command) => (command === 'LIST' ? { kind: 'many', line: /^[a-z]+$/ } : { kind: 'one' }),
    isAnswerLine: (line) => line === 'OK' || /^[a-z]+$/.test(line),
    generate: () => [],
  };
  return model as ReferenceModel;
}

describe('batch: which resets keep state', () => {
  it('one list that leaves a setting behind is enough, among lists that leave none', () => {
    // health-checks' POOL keeps the cap a list set.
    assert.equal(
      resetCarriesOver(healthChecks, [['POOL a b', 'PICK'], ['CAP 1', 'POOL a b', 'PICK'], ['POOL c']]),
      true,
    );
    assert.equal(resetCarriesOver(healthChecks, [['POOL a b', 'PICK'], ['POOL c']]), false);
  });

  it('tells a kept Map of counts, or a kept bigint total, from a cleared one', () => {
    const everything = { keep: true, counts: true, total: true };
    assert.equal(resetCarriesOver(toy(everything), [['ADD a', 'KEEP x']]), false);
    assert.equal(
      resetCarriesOver(toy({ ...everything, counts: false, total: true }), [['ADD a']]),
      true,
      'the counts survive the reset',
    );
    assert.equal(
      resetCarriesOver(toy({ ...everything, total: false }), [['ADD a']]),
      true,
      'the total survives the reset',
    );
    // The counts kept, but only the same ones as from the start: nothing is carried.
    assert.equal(resetCarriesOver(toy({ ...everything, counts: false }), [['KEEP x']]), false);
  });

  it('a list the reference itself crashes on leaves nothing behind: a program stops there, and the rest never runs', () => {
    const keeps = toy({ keep: false, counts: true, total: true });
    assert.equal(resetCarriesOver(keeps, [['KEEP x']]), true);
    assert.equal(resetCarriesOver(keeps, [['BOOM', 'KEEP x']]), false);
  });
});

describe('batch: a list answer that could be any word', () => {
  it('takes a LIST answer up to the end of the output and stops there', async () => {
    // Every lowercase word can be a LIST line: the cut must stop at the last line printed, not read past it.
    const listing = toy({ keep: false, counts: true, total: true });
    const answers: Execute = async () => done('OK\nOK\nOK\nx\ny\n');
    const batch = await runBatch(listing, answers, [['KEEP x', 'KEEP y', 'LIST']]);
    assert.deepEqual(batch.outcomes, [{ lines: ['OK', 'OK', 'x', 'y'], ending: 'finished' }]);
  });
});
