/**
 * The determinism probe (core `probe`): where two runs are said to differ first, how many processes each
 * conclusion costs and which of them count as evidence, which prefixes `probeMoreFresh` runs T after, and when
 * runs that hung or crashed are left out of the comparison. FAKE programs: each process start is answered by
 * a script (a fixed stdout, or the reference model with a fault), so every case is exact and runs are counted.
 * (probe.test.ts and probeEdges.test.ts hold the main verdicts; lines no command asks for are in
 * probeUnaskedMutants.test.ts.)
 */
import * as assert from 'node:assert/strict';
import type { ProcessResult } from '../../src/core/check/process';
import { probeDeterminism, probeMoreFresh } from '../../src/core/check/probe';
import { caseOf, done, model, mutantProgram, perProcess, prints, rotatingPicks, type Script } from './fakeLesson';

const crashed = { exitCode: 1, stderr: 'Traceback (most recent call last):\nRuntimeError\n' };
const right = (input: string): Promise<ProcessResult> => mutantProgram()(input);
/** The reference's answer lines to these commands, resets included. */
const outputLinesOf = (commands: readonly string[]): string[] => {
  let state = model.initial();
  return commands.filter(Boolean).flatMap((command) => {
    const step = model.step(state, command, new Set());
    state = step.state;
    return step.answer.kind === 'crash' ? [] : step.answer.lines;
  });
};

/**
 * Answers like the reference until `stop` says where to hang: given the list's index in the process, how many
 * lists the process was given and the command.
 */
const hangsWhere =
  (stop: (list: number, lists: number, command: string) => boolean): Script =>
  (input) => {
    const commands = input.split('\n').filter(Boolean);
    const lists = commands.filter((c) => c === model.resetCommand).length;
    let state = model.initial();
    let list = -1;
    let stdout = '';
    for (const command of commands) {
      if (command === model.resetCommand) list += 1;
      if (stop(list, lists, command)) return done(stdout, { exitCode: null, signal: 'SIGKILL', timedOut: true });
      const step = model.step(state, command, new Set());
      if (step.answer.kind === 'crash') break;
      state = step.state;
      stdout += step.answer.lines.map((l) => `${l}\n`).join('');
    }
    return done(stdout);
  };

describe('probe: where two runs first differ', () => {
  const T = caseOf(['POOL', 'STATUS']);

  it('a run that died before its last STATUS is told from one whose STATUS answered no lines, either way round', async () => {
    // [T, T] crashes after the pool's OK; the fresh run ends normally, its STATUS (an empty pool) printing nothing.
    const diesFirst = await probeDeterminism(
      model,
      perProcess(prints(['OK', 'OK'], crashed), prints(['OK', 'OK']), prints(['OK', 'OK'])),
      T,
    );
    assert.equal(diesFirst.determinism.fresh, 'different');
    assert.deepEqual(diesFirst.freshDifference, { index: 1, command: 'STATUS', first: null, second: [] });
    const diesFresh = await probeDeterminism(
      model,
      perProcess(prints(['OK', 'OK', 'OK', 'OK']), prints(['OK', 'OK'], crashed)),
      T,
    );
    assert.deepEqual(diesFresh.freshDifference, { index: 1, command: 'STATUS', first: [], second: null });
  });

  it('a STATUS that printed fewer lines, or another count on one line, is where they differ, with both answers whole', async () => {
    const U = caseOf(['POOL a b', 'PICK', 'STATUS']);
    const twice = (status: string[]) => prints(['OK', 'OK', 'a', ...status, 'OK', 'OK', 'a', ...status]);
    const short = await probeDeterminism(model, perProcess(twice(['a:1']), prints(['OK', 'OK', 'a', 'a:1', 'b:0'])), U);
    assert.deepEqual(short.freshDifference, { index: 2, command: 'STATUS', first: ['a:1'], second: ['a:1', 'b:0'] });
    const recount = await probeDeterminism(
      model,
      perProcess(twice(['a:1', 'b:0']), prints(['OK', 'OK', 'a', 'a:1', 'b:1'])),
      U,
    );
    assert.deepEqual(recount.freshDifference, {
      index: 2,
      command: 'STATUS',
      first: ['a:1', 'b:0'],
      second: ['a:1', 'b:1'],
    });
  });
});

describe('probe: what each conclusion costs', () => {
  const T = caseOf(['POOL a b', 'PICK', 'PICK']);

  it('randomness seen in the first two processes spends no more, even when the second run in one process and the run after the others differ too', async () => {
    const program = perProcess(prints(['OK', 'OK', 'a', 'b', 'OK', 'OK', 'b', 'a']), prints(['OK', 'OK', 'b', 'a']));
    const probe = await probeDeterminism(model, program, T, { lines: ['OK', 'b', 'b'], ending: 'finished' }, [
      ['POOL c'],
    ]);
    assert.equal(program.stdins.length, 2);
    assert.deepEqual(
      [probe.determinism.fresh, probe.determinism.afterReset, probe.determinism.runs],
      ['different', 'unknown', 2],
    );
    assert.deepEqual(probe.freshDifference, { index: 1, command: 'PICK', first: ['a'], second: ['b'] });
  });

  it("counts the replay that confirms kept state as a run; it is T's evidence when it replays T twice, not when others ran before T", async () => {
    // Seen twice in one process: [T, T], [T], four more [T], the replay of [T, T].
    const leaky = prints(['OK', 'OK', 'a', 'b', 'OK', 'OK', 'b', 'a']);
    const alone = prints(['OK', 'OK', 'a', 'b']);
    const twice = await probeDeterminism(model, perProcess(leaky, alone, alone, alone, alone, alone, leaky), T);
    assert.equal(twice.resetDifference?.seen, 'twice');
    assert.deepEqual([twice.determinism.runs, twice.streams.length], [7, 7]);
    // Seen after the others: the replay runs "POOL c" before T, and answers as the main process did.
    const afterOthers: Script = (input) =>
      input.startsWith('POOL\nPOOL c\n') ? prints(['OK', 'OK', 'OK', 'OK', 'b', 'b'])(input) : right(input);
    const others = await probeDeterminism(
      model,
      perProcess(afterOthers),
      T,
      { lines: ['OK', 'b', 'b'], ending: 'finished' },
      [['POOL c']],
    );
    assert.equal(others.resetDifference?.seen, 'after-others');
    assert.deepEqual([others.determinism.runs, others.streams.length], [7, 6]);
  });

  /** Each list's commands in one process's input, the reset command left out. */
  const listsOf = (stdin: string): string[][] =>
    stdin
      .split('\n')
      .filter(Boolean)
      .reduce<string[][]>(
        (lists, line) => (line === model.resetCommand ? [...lists, []] : (lists.at(-1)!.push(line), lists)),
        [],
      );

  it('more fresh runs, then T after prefixes of 2, 3, 4, half and all but one of its commands, in one process; a one-command T has no prefix', async () => {
    /** The length of each list before a T in the processes after the four more fresh runs, and how many there were. */
    const prefixes = async (commands: string[]): Promise<[number[], number]> => {
      const probe = await probeDeterminism(model, right, caseOf(commands));
      const program = perProcess(right);
      const more = await probeMoreFresh(model, program, probe);
      assert.deepEqual(
        [more.determinism.fresh, more.determinism.afterReset, more.determinism.runs],
        ['same', 'same', 2 + program.stdins.length],
      );
      const lists = program.stdins.slice(4).flatMap(listsOf);
      lists.forEach((list, k) => k % 2 === 1 && assert.deepEqual(list, commands, 'every other list is T'));
      return [lists.filter((_, k) => k % 2 === 0).map((list) => list.length), program.stdins.length - 4];
    };
    const ten = ['POOL a b c', 'PICK', 'PICK', 'PICK', 'DONE a', 'PICK', 'DONE b', 'PICK', 'DONE c', 'STATUS'];
    assert.deepEqual(await prefixes(ten), [[2, 3, 4, 5, 9], 1]);
    assert.deepEqual(await prefixes(['POOL a']), [[], 0]);
  });

  it('T that crashed alone follows each prefix in a process of its own: its crash would end a shared one', async () => {
    // Answers like the reference up to a STATUS, and crashes there (T's last command), wherever T runs.
    const crashesAtStatus: Script = (input) => {
      const upTo = input.split('\n').indexOf('STATUS');
      return upTo < 0 ? right(input) : prints(outputLinesOf(input.split('\n').slice(0, upTo)), crashed)(input);
    };
    const U = caseOf(['POOL a b', 'PICK', 'PICK', 'DONE a', 'STATUS']);
    const base = await probeDeterminism(model, perProcess(crashesAtStatus), U);
    assert.equal(base.alone.ending, 'crashed');
    const program = perProcess(crashesAtStatus);
    await probeMoreFresh(model, program, {
      ...base,
      determinism: { ...base.determinism, fresh: 'same', afterReset: 'same' },
    });
    assert.deepEqual(
      program.stdins.slice(4).map((stdin) => listsOf(stdin).map((list) => list.length)),
      [
        [2, 5],
        [3, 5],
        [4, 5],
      ],
    );
  });

  it('counts the replay of T after a prefix among the runs of more fresh runs', async () => {
    // A rotation over the three backends that outlives the reset: after a prefix with one pick, T answers otherwise.
    const rotating = rotatingPicks;
    const U = caseOf(['POOL a b c', 'PICK', 'PICK', 'PICK']);
    const first = await probeDeterminism(model, rotating, U);
    const program = perProcess(rotating);
    const more = await probeMoreFresh(model, program, first);
    assert.equal(more.determinism.afterReset, 'different');
    // Four more fresh runs, T after its first two commands, and that input once more.
    assert.equal(program.stdins.length, 6);
    assert.equal(more.determinism.runs, first.determinism.runs + 6);
  });

  it('T after a prefix that hung says nothing, whether the prefix or T itself hung', async () => {
    const U = caseOf(['POOL a b', 'PICK', 'PICK', 'STATUS']);
    const base = await probeDeterminism(model, right, U);
    for (const list of [0, 1]) {
      // Fine alone; given a prefix and T, hangs at the first PICK of the prefix (T not run) or of T (T timed out).
      const program = perProcess(hangsWhere((at, lists, command) => lists > 1 && at === list && command === 'PICK'));
      const more = await probeMoreFresh(model, program, base);
      assert.deepEqual([more.determinism.fresh, more.determinism.afterReset], ['same', 'same'], `hung in list ${list}`);
      assert.equal(program.stdins.length, 4 + 1, 'the prefixes tried once, not replayed');
    }
  });
});

describe('probe: runs that cannot be compared', () => {
  const T = caseOf(['POOL a b', 'PICK', 'PICK']);

  it('a run twice in one process whose second half hung: nothing known of the reset', async () => {
    const program = perProcess(hangsWhere((at) => at === 1));
    const probe = await probeDeterminism(model, program, T);
    assert.deepEqual(
      [probe.determinism.fresh, probe.determinism.afterReset, probe.determinism.runs],
      ['same', 'unknown', 2],
    );
    assert.equal(probe.resetDifference, undefined);
  });

  it('a program that cannot be started, every time or the second time: no stream of it, and no lines said to be unasked', async () => {
    const cannot: Script = () => ({ ...done(''), exitCode: null, startError: { code: 'ENOENT', command: 'python9' } });
    const never = perProcess(cannot);
    const probe = await probeDeterminism(model, never, T);
    assert.equal(never.stdins.length, 2);
    assert.deepEqual([probe.determinism.runs, probe.streams.length, probe.unasked], [2, 0, undefined]);
    const once = await probeDeterminism(model, perProcess(right, cannot), T);
    assert.deepEqual([once.determinism.runs, once.streams.length, once.unasked], [2, 1, undefined]);
  });
});

describe('probe: a replay that answers otherwise says where', () => {
  it('the second T of a replayed [T, T]: seen twice; T replayed after the others: seen after the others', async () => {
    const T = caseOf(['POOL a b', 'PICK', 'PICK']);
    const alone = prints(['OK', 'OK', 'a', 'b']);
    // [T, T] differed in its second T; four more fresh runs agree; its replay's second T answers as the first.
    const twice = await probeDeterminism(
      model,
      perProcess(
        prints(['OK', 'OK', 'a', 'b', 'OK', 'OK', 'b', 'a']),
        alone,
        alone,
        alone,
        alone,
        alone,
        prints(['OK', 'OK', 'a', 'b', 'OK', 'OK', 'a', 'b']),
      ),
      T,
    );
    assert.deepEqual(twice.freshDifference, { index: 1, command: 'PICK', first: ['b'], second: ['a'], seen: 'twice' });
    // T differed after "POOL c" in the main process; replayed after it, it answers right.
    const others = await probeDeterminism(
      model,
      perProcess(right),
      T,
      { lines: ['OK', 'b', 'b'], ending: 'finished' },
      [['POOL c']],
    );
    assert.deepEqual(others.freshDifference, {
      index: 1,
      command: 'PICK',
      first: ['b'],
      second: ['a'],
      seen: 'after-others',
    });
  });

  it('a replay that answered the same but ended otherwise (hung where the first crashed): a difference at the last command, neither answering', async () => {
    const T = caseOf(['POOL a b', 'PICK', 'PICK']);
    const alone = prints(['OK', 'OK', 'a', 'b']);
    // [T, T] crashed in its second T after the pool's OK; the replay of [T, T] hangs at the same place.
    const crashesSecond = prints(['OK', 'OK', 'a', 'b', 'OK', 'OK'], crashed);
    const hangsSecond = prints(['OK', 'OK', 'a', 'b', 'OK', 'OK'], {
      exitCode: null,
      signal: 'SIGKILL',
      timedOut: true,
    });
    const probe = await probeDeterminism(
      model,
      perProcess(crashesSecond, alone, alone, alone, alone, alone, hangsSecond),
      T,
    );
    assert.deepEqual(probe.freshDifference, { index: 2, command: 'PICK', first: null, second: null, seen: 'twice' });
    assert.deepEqual(
      [probe.determinism.fresh, probe.determinism.afterReset, probe.resetDifference],
      ['different', 'unknown', undefined],
    );
  });
});
