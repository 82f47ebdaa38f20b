/**
 * runBatch with a FAKE `execute`: a function that answers stdin through the reference model, with faults
 * injected at chosen commands. It is fake on purpose: what runBatch owns is how one stdout is cut back
 * into per-transcript outcomes and when a new process is started, and a fake makes every case exact,
 * instant and inspectable (we see each run's stdin). Real processes are tested in test/node.
 */
import * as assert from 'node:assert/strict';
import * as vm from 'node:vm';
import { resetCarriesOver, runBatch } from '../../src/core/check/batch';
import { model as healthChecks } from '../../lessons/health-checks/model/model';
import { model } from '../../lessons/least-connections/model/model';
import type { ProcessResult } from '../../src/core/check/process';
import { simulate } from '../../src/core/model/simulate';

type Fault = 'crash' | 'hang' | 'flood' | 'exit0';

interface FakeProgram {
  (input: string): Promise<ProcessResult>;
  readonly inputs: string[];
}

/**
 * A program that answers like the reference with `mutations`, except that `fault` may make it crash, hang,
 * flood or exit at a command; `n` counts commands since the process started, so faults can depend on
 * state that leaks from earlier transcripts. `stray` lines are printed before the answer.
 */
function fakeProgram(
  options: {
    mutations?: string[];
    fault?: (command: string, n: number) => Fault | undefined;
    stray?: (command: string) => string[];
    /** Rewrites the model's answer to a command, e.g. into a wrong format. */
    answer?: (command: string, lines: readonly string[]) => readonly string[];
  } = {},
): FakeProgram {
  const inputs: string[] = [];
  const program = async (input: string): Promise<ProcessResult> => {
    inputs.push(input);
    let state = model.initial();
    let stdout = '';
    const result = (r: Partial<ProcessResult>): ProcessResult => ({
      stdout,
      stderr: '',
      exitCode: 0,
      signal: null,
      timedOut: false,
      outputLimited: false,
      durationMs: 1,
      ...r,
    });
    const commands = input.split('\n').filter((l) => l !== '');
    for (const [n, command] of commands.entries()) {
      for (const line of options.stray?.(command) ?? []) stdout += `${line}\n`;
      const fault = options.fault?.(command, n);
      if (fault === 'crash')
        return result({ exitCode: 1, stderr: 'Traceback (most recent call last):\nRuntimeError: boom\n' });
      if (fault === 'hang') return result({ exitCode: null, signal: 'SIGKILL', timedOut: true });
      if (fault === 'flood')
        return result({
          stdout: stdout + 'still looking ...\n'.repeat(50),
          exitCode: null,
          signal: 'SIGKILL',
          outputLimited: true,
        });
      if (fault === 'exit0') return result({});
      const step = model.step(state, command, new Set(options.mutations ?? []));
      if (step.answer.kind === 'crash') return result({ exitCode: 1, stderr: `KeyError: ${step.answer.error}\n` });
      state = step.state;
      for (const line of options.answer?.(command, step.answer.lines) ?? step.answer.lines) stdout += `${line}\n`;
    }
    return result({});
  };
  return Object.assign(program, { inputs });
}

const LISTS: string[][] = [
  ['POOL a b c', 'PICK', 'PICK', 'STATUS'],
  ['POOL a b', 'DONE ghost', 'STATUS'],
  ['PICK', 'STATUS'],
  ['POOL zeta alpha', 'PICK', 'DONE zeta', 'PICK'],
];

const reference = (commands: readonly string[], mutations: string[] = []) =>
  simulate(model, commands, new Set(mutations)).outcome;

describe('batch runner (fake execute)', () => {
  it('runs every list in one process, each after the reset command, and cuts the answers back apart', async () => {
    const program = fakeProgram();
    const batch = await runBatch(model, program, LISTS);
    assert.equal(batch.runs.length, 1);
    assert.equal(program.inputs[0], LISTS.map((l) => ['POOL', ...l].join('\n')).join('\n') + '\n');
    assert.deepEqual(
      batch.outcomes,
      LISTS.map((l) => reference(l)),
    );
    assert.deepEqual(batch.strayLines, []);
  });

  it('restarts after a crash with the lists the dead process never reached', async () => {
    const program = fakeProgram({ mutations: ['unknown-crash'] });
    const batch = await runBatch(model, program, LISTS);
    assert.equal(batch.runs.length, 2);
    assert.deepEqual(batch.outcomes[1], { lines: ['OK'], ending: 'crashed' });
    assert.deepEqual(batch.outcomes[1], reference(LISTS[1]!, ['unknown-crash']));
    assert.ok(program.inputs[1]!.startsWith(`POOL\n${LISTS[2]![0]}\n`), 'the second process starts at the third list');
    assert.deepEqual(
      [batch.outcomes[0], batch.outcomes[2], batch.outcomes[3]],
      [reference(LISTS[0]!), reference(LISTS[2]!), reference(LISTS[3]!)],
    );
  });

  it('counts a process that exits 0 part-way as a crash of that list, and goes on', async () => {
    const program = fakeProgram({ fault: (c) => (c === 'DONE ghost' ? 'exit0' : undefined) });
    const batch = await runBatch(model, program, LISTS);
    assert.deepEqual(batch.outcomes[1], { lines: ['OK'], ending: 'crashed' });
    assert.equal(batch.outcomes[3]!.ending, 'finished');
    assert.equal(batch.runs.length, 2);
  });

  it('after a hang runs nothing more: each hang costs a whole time limit', async () => {
    const program = fakeProgram({ fault: (c) => (c === 'DONE ghost' ? 'hang' : undefined) });
    const batch = await runBatch(model, program, LISTS);
    assert.equal(batch.runs.length, 1);
    assert.deepEqual(
      batch.outcomes.map((o) => o.ending),
      ['finished', 'timed-out', 'not-run', 'not-run'],
    );
    assert.deepEqual(batch.outcomes[1]!.lines, ['OK']);
  });

  it('after a flood runs nothing more either (before: one flooding process per remaining list)', async () => {
    const program = fakeProgram({ fault: (c) => (c === 'PICK' ? 'flood' : undefined) });
    const batch = await runBatch(model, program, LISTS);
    assert.equal(batch.runs.length, 1);
    assert.deepEqual(
      batch.outcomes.map((o) => o.ending),
      ['output-limit', 'not-run', 'not-run', 'not-run'],
    );
    assert.equal(batch.strayLines[0], 'still looking ...');
    assert.ok(batch.strayLines.length <= 20, 'stray lines are capped');
  });

  it('stops after one process that cannot even answer the reset: a crash before any output', async () => {
    const program = fakeProgram({ fault: () => 'crash' });
    const batch = await runBatch(model, program, LISTS);
    assert.equal(batch.runs.length, 1);
    assert.deepEqual(
      batch.outcomes.map((o) => o.ending),
      ['crashed', 'not-run', 'not-run', 'not-run'],
    );
  });

  it('stops after one silent process too, even one that exits with code 0', async () => {
    const batch = await runBatch(model, fakeProgram({ fault: () => 'exit0' }), LISTS);
    assert.equal(batch.runs.length, 1, 'before: one process per list');
    assert.deepEqual(
      batch.outcomes.map((o) => o.ending),
      ['crashed', 'not-run', 'not-run', 'not-run'],
    );
  });

  it('charges a crash on a later reset to that list, so leaked state can be found, and goes on', async () => {
    // The second POOL of the process crashes: state left by the first list breaks the reset itself.
    let pools = 0;
    const program = fakeProgram({
      fault: (c, n) => {
        if (n === 0) pools = 0;
        if (c === 'POOL') pools += 1;
        return c === 'POOL' && pools === 2 ? 'crash' : undefined;
      },
    });
    const batch = await runBatch(model, program, [['POOL a', 'PICK'], ['PICK'], ['POOL b', 'PICK']]);
    assert.deepEqual(batch.outcomes, [
      { lines: ['OK', 'a'], ending: 'finished' },
      { lines: [], ending: 'crashed' },
      { lines: ['OK', 'b'], ending: 'finished' },
    ]);
    assert.equal(batch.runs.length, 2);
    assert.equal(program.inputs[1], 'POOL\nPOOL b\nPICK\n');
  });

  it('reports a program that cannot start as crashed for every list, after one try', async () => {
    const execute = async (): Promise<ProcessResult> => ({
      stdout: '',
      stderr: '',
      exitCode: null,
      signal: null,
      timedOut: false,
      outputLimited: false,
      durationMs: 0,
      startError: { code: 'ENOENT', command: 'python9' },
    });
    const batch = await runBatch(model, execute, LISTS);
    assert.equal(batch.runs.length, 1);
    assert.deepEqual(
      batch.outcomes.map((o) => o.ending),
      ['crashed', 'crashed', 'crashed', 'crashed'],
    );
  });

  it('sets debug prints aside in a process that crashed too, where the line count says nothing', async () => {
    // Before: a run cut short kept its prints as answers unless it printed more lines than every list
    // together would, so PICK's answer became "debug: picking now" and everything after shifted.
    const program = fakeProgram({
      mutations: ['unknown-crash'],
      stray: (c) => (c === 'PICK' ? ['debug: picking now'] : []),
    });
    const batch = await runBatch(model, program, LISTS);
    assert.deepEqual(
      batch.outcomes,
      LISTS.map((l) => reference(l, ['unknown-crash'])),
    );
    assert.equal(batch.strayLines[0], 'debug: picking now');
  });

  it('keeps an answer in the wrong shape as the answer, finished or not', async () => {
    // "<a>" cannot be a backend name, but it stands where one belongs: a wrong answer, not a debug print.
    const bracketed = (command: string, lines: readonly string[]): readonly string[] =>
      command === 'PICK' ? lines.map((l) => `<${l}>`) : lines;
    for (const mutations of [[], ['unknown-crash']]) {
      const batch = await runBatch(model, fakeProgram({ mutations, answer: bracketed }), LISTS);
      const expected = LISTS.map((l) => {
        const sim = simulate(model, l, new Set(mutations));
        return { lines: sim.steps.flatMap((step) => bracketed(step.command, step.answer)), ending: sim.outcome.ending };
      });
      assert.deepEqual(batch.outcomes, expected, mutations.join() || 'finished');
    }
  });

  it('keeps an answer that holds NaN as the answer, never a stray line, in a STATUS of rows or of none', async () => {
    // A JavaScript program's `counts[name] -= 1` for a name outside the pool lists `zz:NaN`: a wrong STATUS
    // row. Taken for a debug print, it was dropped and every hidden transcript "passed"; taken for the next
    // command's answer, it shifted the rest and looked like state carried over.
    const withNaN = (command: string, lines: readonly string[]): readonly string[] =>
      command === 'STATUS' ? [...lines, 'zz:NaN'] : command === 'PICK' && lines[0] === 'EMPTY' ? ['undefined'] : lines;
    for (const lists of [
      LISTS,
      [
        ['POOL', 'STATUS', 'PICK'],
        ['POOL a', 'STATUS', 'PICK'],
      ],
    ]) {
      const batch = await runBatch(model, fakeProgram({ answer: withNaN }), lists);
      const expected = lists.map((l) => {
        const sim = simulate(model, l);
        return { lines: sim.steps.flatMap((step) => withNaN(step.command, step.answer)), ending: sim.outcome.ending };
      });
      assert.deepEqual(batch.outcomes, expected);
      assert.deepEqual(batch.strayLines, []);
    }
  });

  it('keeps a NaN row in a STATUS the reference leaves empty, alone in its process, once rows of that form were seen', async () => {
    // The shrinker's candidate `DONE ghost, STATUS` run alone: the reference lists nothing, so the row's form was
    // not among the reference's answers and `ghost:NaN` was dropped as a stray; the counterexample then never
    // reproduced (counts_object_nan.js, issue 31).
    const nan = (command: string, lines: readonly string[]): readonly string[] =>
      command === 'STATUS' && lines.length === 0 ? ['ghost:NaN'] : lines;
    await runBatch(model, fakeProgram(), LISTS);
    const alone = await runBatch(model, fakeProgram({ answer: nan }), [['DONE ghost', 'STATUS']]);
    assert.deepEqual(alone.outcomes, [{ lines: ['OK', 'ghost:NaN'], ending: 'finished' }]);
    assert.deepEqual(alone.strayLines, []);
  });

  it("keeps STATUS rows printed in another form (a=1 for a:1) as STATUS's answer, never the next commands'", async () => {
    // A program whose STATUS prints `name=count`: no row fits the answer's shape, so each row was taken for the
    // next command's answer, every later answer shifted, and the shift was told as state carried over between
    // transcripts (issue 31), with "STATUS answered (nothing)" where it printed rows.
    const equals = (command: string, lines: readonly string[]): readonly string[] =>
      command === 'STATUS' ? lines.map((line) => line.replace(':', '=')) : lines;
    const batch = await runBatch(model, fakeProgram({ answer: equals }), LISTS);
    const expected = LISTS.map((l) => {
      const sim = simulate(model, l);
      return { lines: sim.steps.flatMap((step) => equals(step.command, step.answer)), ending: sim.outcome.ending };
    });
    assert.deepEqual(batch.outcomes, expected);
    assert.deepEqual(batch.strayLines, []);
  });

  it('sets debug prints aside without shifting the answers', async () => {
    const program = fakeProgram({ stray: (c) => (c === 'PICK' ? ['debug: picking now', 'counts = {a: 1}'] : []) });
    const batch = await runBatch(model, program, LISTS);
    assert.deepEqual(
      batch.outcomes,
      LISTS.map((l) => reference(l)),
    );
    assert.deepEqual(batch.strayLines.slice(0, 2), ['debug: picking now', 'counts = {a: 1}']);
  });

  it("reads a later run's lines as the check's first run decided, where its own line counts would tell otherwise", async () => {
    // A STATUS that joins its rows on one line prints an empty line for an empty pool: alone, that run has one
    // line more than the reference and the empty line would be dropped as a print; the check's first run, where
    // joined rows make fewer lines than the reference's, kept such lines as answers. The shown transcript must be
    // read the same way or it does not reproduce (status_one_line.py).
    const program = fakeProgram({ stray: (c) => (c === 'PICK' ? ['debug: picking now'] : []) });
    const first = await runBatch(model, program, LISTS);
    assert.equal(first.strays, 'drop');
    const asDecided = (strays: 'keep' | 'drop') => async (input: string) => ({ ...(await program(input)), strays });
    const kept = await runBatch(model, asDecided('keep'), [['POOL a', 'PICK']]);
    assert.deepEqual(kept.outcomes[0]!.lines, ['OK', 'debug: picking now'], 'kept: the line is the answer to PICK');
    assert.equal(kept.strays, 'keep');
    const dropped = await runBatch(model, asDecided('drop'), [['POOL a', 'PICK']]);
    assert.deepEqual(dropped.outcomes[0]!.lines, ['OK', 'a']);
    const plain = await runBatch(model, fakeProgram(), LISTS);
    assert.equal(plain.strays, undefined, 'every line an answer: nothing decided');
  });

  it('does not count a STATUS at the end of a dead process as answered', async () => {
    // The process crashes on STATUS with an empty pool: an empty answer and no answer look the same.
    const program = fakeProgram({ fault: (c, n) => (c === 'STATUS' && n > 0 ? 'crash' : undefined) });
    const batch = await runBatch(model, program, [['STATUS']]);
    assert.deepEqual(batch.outcomes[0], { lines: [], ending: 'crashed' });
  });
});

describe('a pack whose reset keeps a setting', () => {
  it("is found in the model: health-checks' POOL keeps the cap a list set, least-connections' POOL keeps nothing", () => {
    assert.equal(
      resetCarriesOver(healthChecks, [
        ['CAP 0', 'POOL a b', 'PICK'],
        ['CAP 1', 'POOL a b', 'PICK'],
      ]),
      true,
    );
    // A list that sets no cap, or sets it back to none, leaves nothing behind.
    assert.equal(resetCarriesOver(healthChecks, [['POOL a b', 'PICK', 'DOWN a']]), false);
    assert.equal(
      resetCarriesOver(model, [
        ['POOL a b', 'PICK', 'PICK', 'DONE a'],
        ['POOL c', 'PICK'],
      ]),
      false,
    );
  });

  it('tells states apart by what they hold, also when the model runs in a realm of its own (as the engine runs it)', () => {
    // A counter model built in another realm: its Maps, objects and prototypes are that realm's.
    const source = `({
      resetCommand: 'RESET', resetAnswer: ['OK'],
      initial: () => ({ counts: new Map(), total: 0n, keep: new Set() }),
      step: (state, command) => {
        const [verb, name] = command.split(' ');
        const counts = new Map(state.counts);
        const keep = new Set(state.keep);
        if (verb === 'RESET') return { state: { counts: new Map(), total: 0n, keep }, answer: { kind: 'lines', lines: ['OK'] } };
        if (verb === 'KEEP') keep.add(name);
        else counts.set(name, (counts.get(name) ?? 0) + 1);
        return { state: { counts, total: state.total + 1n, keep }, answer: { kind: 'lines', lines: ['OK'] } };
      },
    })`;
    const foreign = vm.runInNewContext(source) as typeof model;
    assert.equal(resetCarriesOver(foreign, [['ADD a', 'ADD a', 'ADD b']]), false, 'the reset clears counts and total');
    assert.equal(resetCarriesOver(foreign, [['ADD a', 'KEEP x']]), true, 'the reset keeps the set');
  });
});
