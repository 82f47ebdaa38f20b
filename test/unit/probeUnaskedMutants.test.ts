/**
 * Lines no command asks for, as the determinism probe (core `probe`) finds them: in the answers two fresh runs
 * kept, across T once and T twice in one process (only when both ran to the end of their input), and in the
 * whole output of fresh runs (which run is shown, and when one more process is started for it). FAKE programs:
 * each process start is answered by a script or by the reference model with extra lines, so counts are exact.
 */
import * as assert from 'node:assert/strict';
import type { Case } from '../../src/core/check/cases';
import { probeDeterminism } from '../../src/core/check/probe';
import type { ReferenceModel } from '../../src/core/model/model';
import { caseOf, done, model, perProcess, prints, type Script } from './fakeLesson';

/**
 * Answers like the reference, printing "trace" (a word no answer here can be, yet shaped like one) after each
 * answer to `traced`; `stop` may end the process before a command: crashed, or exited with code 0.
 */
function tracing(
  traced: string,
  stop: (command: string, seen: readonly string[], lists: number) => 'crash' | 'exit0' | undefined = () => undefined,
): Script {
  return (input) => {
    const commands = input.split('\n').filter(Boolean);
    const lists = commands.filter((c) => c === model.resetCommand).length;
    const seen: string[] = [];
    let state = model.initial();
    let stdout = '';
    for (const command of commands) {
      const end = stop(command, seen, lists);
      if (end)
        return done(
          stdout,
          end === 'crash' ? { exitCode: 1, stderr: 'Traceback (most recent call last):\nKeyError\n' } : {},
        );
      seen.push(command);
      const step = model.step(state, command, new Set());
      if (step.answer.kind === 'crash') break;
      state = step.state;
      stdout += [...step.answer.lines, ...(command === traced ? ['trace'] : [])].map((l) => `${l}\n`).join('');
    }
    return done(stdout);
  };
}

describe('probe: lines no command asks for, in the answers of two fresh runs', () => {
  const T = caseOf(['POOL a b', 'PICK', 'PICK']);

  it('names them with how many each run printed, and shows the run that printed more, whichever it was', async () => {
    // "tick" is shaped like a backend name, so it stays among the answers (in place of one).
    const oneTick = prints(['OK', 'OK', 'a', 'tick', 'OK', 'OK', 'a', 'b']);
    const twoTicks = prints(['OK', 'OK', 'tick', 'tick', 'a', 'b']);
    const fresher = await probeDeterminism(model, perProcess(oneTick, twoTicks), T);
    assert.deepEqual(fresher.unasked, { lines: ['tick'], counts: [1, 2], seen: 'fresh' });
    assert.deepEqual(fresher.unaskedShown, { lines: ['OK', 'tick', 'tick'], ending: 'finished' });
    const firstMore = await probeDeterminism(
      model,
      perProcess(prints(['OK', 'OK', 'tick', 'tick', 'OK', 'OK', 'a', 'b']), prints(['OK', 'OK', 'a', 'tick'])),
      T,
    );
    assert.deepEqual(firstMore.unasked, { lines: ['tick'], counts: [2, 1], seen: 'fresh' });
    assert.deepEqual(firstMore.unaskedShown, { lines: ['OK', 'tick', 'tick'], ending: 'finished' });
  });

  it('as many at different places: the first run is shown', async () => {
    const probe = await probeDeterminism(
      model,
      perProcess(prints(['OK', 'OK', 'a', 'tick', 'OK', 'OK', 'a', 'b']), prints(['OK', 'OK', 'tick', 'a'])),
      T,
    );
    assert.deepEqual(probe.unasked, { lines: ['tick'], counts: [1, 1], seen: 'fresh' });
    assert.deepEqual(probe.unaskedShown, { lines: ['OK', 'a', 'tick'], ending: 'finished' });
  });

  it('found in a later fresh run (after the second run in one process differed), kept though the run after it agrees', async () => {
    const oneTick = ['OK', 'OK', 'a', 'tick'];
    // [T, T] (its second T otherwise), [T], then the first pair of more fresh runs: two ticks, then one again.
    const program = perProcess(
      prints([...oneTick, 'OK', 'OK', 'b', 'a']),
      prints(oneTick),
      prints(['OK', 'OK', 'tick', 'tick']),
      prints(oneTick),
    );
    const probe = await probeDeterminism(model, program, T);
    assert.equal(program.stdins.length, 4);
    assert.deepEqual(probe.unasked, { lines: ['tick'], counts: [1, 2], seen: 'fresh' });
    assert.deepEqual(probe.unaskedShown, { lines: ['OK', 'tick', 'tick'], ending: 'finished' });
  });

  it("a timer's first tick, once per process: T twice in one process does not print it twice; named with no run to show", async () => {
    // The tick stands where the reset's answer belongs, so the kept answers are alike on every run.
    const program = perProcess(
      prints(['tick', 'OK', 'OK', 'a', 'b', 'OK', 'OK', 'a', 'b']),
      prints(['tick', 'OK', 'OK', 'a', 'b']),
    );
    const probe = await probeDeterminism(model, program, T);
    assert.deepEqual(probe.unasked, { lines: ['tick'], counts: [1, 1], seen: 'repeated' });
    assert.equal('unaskedShown' in probe, false);
  });
});

describe('probe: T once and T twice in one process are compared only when both ran to the end of their input', () => {
  const T = caseOf(['POOL a', 'PICK', 'DONE a']);
  // A trace after each DONE is as many per T: run twice, twice as many. Not when a run stopped part-way.

  it('not when the run twice in one process crashed in its second T', async () => {
    const secondDone = tracing('DONE a', (command, seen) =>
      command === 'DONE a' && seen.includes('DONE a') ? 'crash' : undefined,
    );
    const probe = await probeDeterminism(model, perProcess(secondDone), T);
    assert.equal(probe.unasked, undefined);
  });

  it('not when the run once crashed', async () => {
    // Crashes at DONE in a process given one transcript only.
    const alone = tracing('DONE a', (command, _seen, lists) =>
      command === 'DONE a' && lists === 1 ? 'crash' : undefined,
    );
    const probe = await probeDeterminism(model, perProcess(alone), T);
    assert.equal(probe.determinism.fresh, 'different');
    assert.equal(probe.unasked, undefined);
  });

  it('not when the process given T twice quit part-way (exit code 0) and its second T ran in a process of its own', async () => {
    // Quits before its fourth command: every T stops before its second PICK (its trace stands in for that answer).
    const U = caseOf(['POOL a b', 'PICK', 'PICK', 'PICK']);
    const quits = tracing('PICK', (_command, seen) => (seen.length === 3 ? 'exit0' : undefined));
    const program = perProcess(quits);
    const probe = await probeDeterminism(model, program, U);
    assert.equal(program.stdins.length, 3, '[T, T] took two processes');
    assert.equal(probe.unasked, undefined);
  });
});

describe('probe: lines no command asks for, in the whole output of fresh runs', () => {
  const T = caseOf(['POOL a b', 'PICK', 'PICK']);
  const answers = ['OK', 'OK', 'a', 'b'];

  it("starts one more fresh run and shows the one with more of them, with its answers, the reset's answer left out", async () => {
    // Dots after the last answer are not among the kept answers: once one, twice two, the third run three.
    const dots = (n: number, times = 1) =>
      prints([...Array.from({ length: times }, () => answers).flat(), ...Array.from({ length: n }, () => '.')]);
    const later = perProcess(dots(2, 2), dots(1), dots(3));
    const more = await probeDeterminism(model, later, T);
    assert.equal(later.stdins.length, 3);
    assert.deepEqual([more.determinism.runs, more.streams.length], [3, 3], 'the third run is counted, and is evidence');
    assert.deepEqual(more.unasked, { lines: ['.'], counts: [1, 3], seen: 'fresh' });
    assert.deepEqual(more.unaskedShown, { lines: ['OK', 'a', 'b', '.', '.', '.'], ending: 'finished' });
    const earlier = await probeDeterminism(model, perProcess(dots(6, 2), dots(3), dots(1)), T);
    assert.deepEqual(earlier.unasked, { lines: ['.'], counts: [3, 1], seen: 'fresh' });
    assert.deepEqual(earlier.unaskedShown, { lines: ['OK', 'a', 'b', '.', '.', '.'], ending: 'finished' });
  });

  it('looks when only the run once printed a line no answer could be (an empty line), not the run twice', async () => {
    const program = perProcess(prints([...answers, ...answers]), prints([...answers, '']), prints(answers));
    const probe = await probeDeterminism(model, program, T);
    assert.equal(program.stdins.length, 3);
    assert.deepEqual(probe.unasked, { lines: [''], counts: [1, 0], seen: 'fresh' });
    assert.deepEqual(probe.unaskedShown, { lines: ['OK', 'a', 'b', ''], ending: 'finished' });
  });

  it('as many of them at another place: the first fresh run is shown', async () => {
    // The third run's dot comes before the reset's answer, where it stays.
    const probe = await probeDeterminism(
      model,
      perProcess(prints([...answers, ...answers, '.', '.']), prints([...answers, '.']), prints(['.', ...answers])),
      T,
    );
    assert.deepEqual(probe.unasked, { lines: ['.'], counts: [1, 1], seen: 'fresh' });
    assert.deepEqual(probe.unaskedShown, { lines: ['OK', 'a', 'b', '.'], ending: 'finished' });
  });

  it('among the fresh runs a program that keeps state was given, the first that differs is named', async () => {
    const leaky = [...answers, 'OK', 'OK', 'b', 'a'];
    const dots = (lines: string[], n: number) => prints([...lines, ...Array.from({ length: n }, () => '.')]);
    // [T, T] and [T] print a dot per T; the first of four more fresh runs three; the replay of [T, T] two.
    const program = perProcess(
      dots(leaky, 2),
      dots(answers, 1),
      dots(answers, 3),
      dots(answers, 1),
      dots(answers, 1),
      dots(answers, 1),
      dots(leaky, 2),
    );
    const probe = await probeDeterminism(model, program, T);
    assert.equal(program.stdins.length, 7);
    assert.deepEqual(probe.unasked, { lines: ['.'], counts: [1, 3], seen: 'fresh' });
    assert.deepEqual(probe.unaskedShown, { lines: ['OK', 'a', 'b', '.', '.', '.'], ending: 'finished' });
  });

  it('a fresh run that hung, or could not start, has no whole output to compare', async () => {
    const banner = 'Balancer ready';
    const leaky = prints([banner, ...answers, 'OK', 'OK', 'b', 'a']);
    const alone = prints([banner, ...answers]);
    const hung = prints([banner, 'OK', 'OK', 'a', 'still waiting ...'], {
      exitCode: null,
      signal: 'SIGKILL',
      timedOut: true,
    });
    const cannot: Script = () => ({ ...done(''), exitCode: null, startError: { code: 'EAGAIN', command: 'python3' } });
    for (const odd of [hung, cannot]) {
      const probe = await probeDeterminism(model, perProcess(leaky, alone, odd, alone, alone, alone, leaky), T);
      assert.equal(probe.unasked, undefined);
    }
  });

  it('a banner, from a program that keeps state across the reset: the fresh runs already made are compared, no process more', async () => {
    const banner = 'Balancer ready';
    const leaky = prints([banner, ...answers, 'OK', 'OK', 'b', 'a']);
    const alone = prints([banner, ...answers]);
    // [T, T], [T], four more [T], the replay of [T, T]: seven, and the banner is at the same place on each.
    const program = perProcess(leaky, alone, alone, alone, alone, alone, leaky);
    const probe = await probeDeterminism(model, program, T);
    assert.equal(probe.resetDifference?.seen, 'twice');
    assert.equal(program.stdins.length, 7);
    assert.equal(probe.unasked, undefined);
  });

  it("a line printed inside a two-line reset answer stays where it came, the reset's lines with it", async () => {
    // A toy protocol whose reset answers two lines, OK and READY; ECHO x answers x.
    const echo: ReferenceModel = {
      id: 'echo',
      description: 'echo',
      mutations: [],
      resetCommand: 'RESET',
      resetAnswer: ['OK', 'READY'],
      initial: () => null,
      step: (state, command) => ({
        state,
        answer: { kind: 'lines', lines: command === 'RESET' ? ['OK', 'READY'] : [command.split(' ')[1] ?? ''] },
      }),
      snapshot: () => ({}),
      answerShape: (command) => (command === 'RESET' ? { kind: 'many', line: /^(OK|READY)$/ } : { kind: 'one' }),
      isAnswerLine: (line) => /^[A-Za-z]+$/.test(line),
      generate: () => [],
    };
    const U: Case = {
      name: 'u',
      label: 'U',
      commands: ['ECHO a', 'ECHO b'],
      expected: { lines: ['a', 'b'], ending: 'finished' },
      hidden: true,
    };
    // "setting up" comes between OK and READY on the first two processes; after the answers on the third.
    const between = (times: number) =>
      prints(['OK', 'setting up', 'READY', 'a', 'b', ...(times === 2 ? ['OK', 'READY', 'a', 'b'] : [])]);
    const program = perProcess(between(2), between(1), prints(['OK', 'READY', 'a', 'b', 'setting up']));
    const probe = await probeDeterminism(echo, program, U);
    assert.equal(program.stdins.length, 3);
    assert.deepEqual(probe.unasked, { lines: ['setting up'], counts: [1, 1], seen: 'fresh' });
    assert.deepEqual(probe.unaskedShown, { lines: ['OK', 'setting up', 'READY', 'a', 'b'], ending: 'finished' });
  });
});
