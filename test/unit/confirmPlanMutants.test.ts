/**
 * Which transcript a finding's counterexample starts from (core `confirm`, its plan): of the finding's first
 * differing commands, the one whose model-shrunk candidate is shortest; the commands of its own transcript,
 * with at most three transcripts before it for state that survives a reset; and, where the model cannot show
 * the finding, the finding's whole transcript shrunk on the program (or nothing at all when there is no
 * transcript to start from). What the learner sees of it: the commands, the transcript named, "shrunk from".
 * FAKE programs answer like the lesson's model with mistakes switched on (fakeLesson.ts); confirm.test.ts
 * covers the ordinary paths.
 */
import * as assert from 'node:assert/strict';
import { runBatch, type Stream } from '../../src/core/check/batch';
import type { Case } from '../../src/core/check/cases';
import { counterexamplesFor, type ConfirmContext } from '../../src/core/check/confirm';
import type { Execute } from '../../src/core/check/process';
import { diagnose, type Finding } from '../../src/core/diagnosis/diagnose';
import type { StepRef } from '../../src/core/diagnosis/stepwise';
import type { ReferenceModel } from '../../src/core/model/model';
import { simulate } from '../../src/core/model/simulate';
import { done, manifest, model, mutantProgram, recorded } from './fakeLesson';

const caseOf = (name: string, commands: string[]): Case => ({
  name,
  label: `the ${name} transcript`,
  commands,
  expected: simulate(model, commands).outcome,
  hidden: true,
});

/** The check's evidence for `cases`: one batch run, and the context confirm is given. */
async function evidence(
  execute: Execute,
  cases: readonly Case[],
): Promise<{ ctx: ConfirmContext; streams: readonly Stream[]; findings: readonly Finding[] }> {
  const { streams } = await runBatch(
    model,
    execute,
    cases.map((c) => c.commands),
  );
  const { findings } = diagnose(model, manifest.mistakes, streams);
  return {
    ctx: { model, execute, cases, streams, random: false, leaky: false, concurrency: 1, maxShrinkRounds: 8 },
    streams,
    findings,
  };
}

/** The lesson's model seen through the engine's interface, whose state is opaque: FAKE lessons wrap its step. */
const reference: ReferenceModel = model;

/** A FAKE program that answers like `lesson` with `mutations` on, and dies where it crashes. */
function programOf(lesson: ReferenceModel, ...mutations: string[]): Execute {
  return async (input) => {
    let state = lesson.initial();
    let stdout = '';
    for (const command of input.split('\n').filter(Boolean)) {
      const step = lesson.step(state, command, new Set(mutations));
      if (step.answer.kind === 'crash') return done(stdout, { exitCode: 1 });
      state = step.state;
      stdout += step.answer.lines.map((l) => `${l}\n`).join('');
    }
    return done(stdout);
  };
}

/** The least-connections lesson with one more mistake (FAKE): `when` says where it answers `answer` instead. */
function withMistake(
  id: string,
  when: (state: unknown, command: string) => boolean,
  answer: { kind: 'crash'; error: string } | { kind: 'lines'; lines: string[] },
): ReferenceModel {
  return {
    ...model,
    mutations: [...model.mutations, { id, description: id }],
    step: (state, command, on, observed) =>
      on.has(id) && when(state, command) ? { state, answer } : reference.step(state, command, on, observed),
  };
}

/** The differing command at `index` of stream 0, as diagnose refers to it. */
function stepAt(stream: Stream, index: number): StepRef {
  const segment = stream.segments.find((s) => index >= s.start && index < s.start + s.length)!;
  return {
    stream: 0,
    index,
    list: segment.list,
    listIndex: index - segment.start - 1,
    command: stream.commands[index]!,
  };
}

/** A finding of one mutation, made by hand, with the differing commands it explains. */
const findingOf = (mutation: string, steps: readonly StepRef[], nondeterministic = false): Finding => ({
  mistake: mutation,
  mutation,
  mutations: [mutation],
  confidence: 'exact',
  nondeterministic,
  steps,
  stepCount: steps.length,
});

describe('confirm plan: which differing command the counterexample is taken from', () => {
  it("of the finding's first differing commands, the one whose candidate shrinks shortest is shown", async () => {
    // A free choice among ties: two backends need three ties (five PICKs) to be missed at most one time in
    // eight; eight backends need one PICK. The short candidate sits between two long ones.
    const twoWay = ['POOL a b', 'PICK', 'PICK', 'PICK', 'PICK', 'PICK'];
    const eightWay = ['POOL a b c d e f g h', 'PICK'];
    const cases = [caseOf('two-way', twoWay), caseOf('eight-way', eightWay), caseOf('two-way-again', twoWay)];
    const program = mutantProgram('tiebreak-last');
    const { ctx, streams } = await evidence(program, cases);
    const stream = streams[0]!;
    assert.equal(streams.length, 1, 'one process ran the three transcripts');
    // Each transcript's last PICK: after its reset and its commands.
    const finding = findingOf('tiebreak-any', [stepAt(stream, 6), stepAt(stream, 9), stepAt(stream, 16)], true);
    assert.deepEqual(
      finding.steps.map((s) => [s.list, s.command]),
      [
        [0, 'PICK'],
        [1, 'PICK'],
        [2, 'PICK'],
      ],
    );
    const [example] = await counterexamplesFor(ctx, [finding]);
    assert.deepEqual(example?.commands, eightWay);
    assert.deepEqual(
      [example?.transcript, example?.label, example?.shrunkFrom],
      ['eight-way', 'the eight-way transcript', 2],
    );
  });

  it('a finding in the second transcript starts from its own transcript, not from the run before it', async () => {
    const first = caseOf('first', ['POOL a b', 'PICK']);
    const second = caseOf('second', ['POOL b a', 'STATUS', 'PICK']);
    const { ctx, findings } = await evidence(mutantProgram('tiebreak-name'), [first, second]);
    assert.deepEqual(
      findings.map((f) => [f.mutation, f.steps.map((s) => s.list)]),
      [['tiebreak-name', [1]]],
    );
    const [example] = await counterexamplesFor(ctx, findings);
    assert.deepEqual(example?.commands, ['POOL b a', 'PICK']);
    assert.deepEqual(
      [example?.transcript, example?.shrunkFrom],
      ['second', 3],
      'shrunk from the three commands of its own transcript',
    );
  });

  it('looks at most three transcripts back for state that survives the reset: a finding that needs four gets none', async () => {
    // A registry of every backend ever pooled: "a" comes back with its count from four transcripts before.
    const cases = [
      caseOf('picks-a', ['POOL a', 'PICK']),
      caseOf('b', ['POOL b']),
      caseOf('c', ['POOL c']),
      caseOf('a-again', ['POOL a', 'STATUS']),
    ];
    const program = recorded(mutantProgram('reset-keeps-registry'));
    const { ctx, streams, findings } = await evidence(program, cases);
    assert.deepEqual(streams[0]!.lines.slice(-1), ['a:1'], 'the batch run shows it');
    assert.deepEqual(
      findings.map((f) => [f.mutation, f.steps.map((s) => s.list)]),
      [['reset-keeps-registry', [3]]],
    );
    assert.deepEqual(await counterexamplesFor({ ...ctx, leaky: true }, findings), [null]);
    // One transcript fewer in between: the earlier transcript is taken in, and the example shows the count come back.
    const near = [cases[0]!, cases[2]!, cases[3]!];
    const closer = await evidence(mutantProgram('reset-keeps-registry'), near);
    const [example] = await counterexamplesFor({ ...closer.ctx, leaky: true }, closer.findings);
    assert.deepEqual(example?.commands, ['POOL a', 'PICK', 'POOL a', 'STATUS']);
    assert.deepEqual([example?.transcript, example?.shrunkFrom], ['a-again', 7]);
  });
});

describe('confirm plan: when the model cannot start the counterexample', () => {
  const loose = caseOf('loose', ['POOL b a', 'PICK', 'STATUS']);

  it("without the run the finding was seen in, the finding's whole transcript is shrunk on the program", async () => {
    const { ctx, findings } = await evidence(mutantProgram('tiebreak-name'), [loose]);
    assert.deepEqual(
      findings.map((f) => f.mutation),
      ['tiebreak-name'],
    );
    const [example] = await counterexamplesFor({ ...ctx, streams: [] }, findings);
    assert.ok(example?.reproduced);
    assert.deepEqual(example.commands, ['POOL b a', 'PICK']);
    assert.deepEqual(
      [example.transcript, example.shrunkFrom],
      ['loose', 3],
      'from the whole transcript, STATUS included',
    );
  });

  it('a finding with no transcript to start from gets no counterexample, and starts no process', async () => {
    const program = recorded(mutantProgram('tiebreak-name'));
    const { ctx, findings } = await evidence(program, [loose]);
    program.stdins.length = 0;
    const [finding] = findings;
    // A finding with no differing command kept, and one whose transcript the context does not know.
    const noSteps = { ...finding!, steps: [], stepCount: 0 };
    const unknownList = { ...finding!, steps: finding!.steps.map((s) => ({ ...s, list: 5 })) };
    assert.deepEqual(await counterexamplesFor({ ...ctx, streams: [] }, [noSteps, unknownList]), [null, null]);
    assert.equal(program.stdins.length, 0, program.stdins.join('---\n'));
  });

  it('a finding the model cannot show and one it can are confirmed side by side', async () => {
    const { ctx, findings } = await evidence(mutantProgram('tiebreak-name'), [loose]);
    const lost = { ...findings[0]!, steps: findings[0]!.steps.map((s) => ({ ...s, stream: 7 })) };
    const examples = await counterexamplesFor(ctx, [lost, findings[0]!]);
    assert.deepEqual(
      examples.map((e) => [e?.commands, e?.shrunkFrom]),
      [
        [['POOL b a', 'PICK'], 3],
        // The model's prefix was 2 commands; the caption names the whole transcript, 3.
        [['POOL b a', 'PICK'], 3],
      ],
    );
  });

  it('a finding seen in a run of no transcript of the check is said to come from the evidence', async () => {
    const { ctx, findings } = await evidence(mutantProgram('tiebreak-name'), [loose]);
    const [example] = await counterexamplesFor({ ...ctx, cases: [] }, findings);
    assert.ok(example?.reproduced);
    assert.deepEqual(
      [example.transcript, example.label, example.commands],
      ['evidence', 'the evidence', ['POOL b a', 'PICK']],
    );
  });
});

describe('confirm plan: differences the protocol does not shape', () => {
  it('a mistake on a command the protocol does not know is shown with that command', async () => {
    // A dispatch table without a default (a KeyError): the reference answers ERROR, the program dies.
    const known = new Set(['POOL', 'PICK', 'DONE', 'STATUS']);
    const lesson = withMistake('unknown-command-crash', (_, command) => !known.has(command.trim().split(/\s+/)[0]!), {
      kind: 'crash',
      error: 'KeyError',
    });
    const program = programOf(lesson, 'unknown-command-crash');
    const { streams } = await runBatch(lesson, program, [['POOL a', 'PICK', 'HELP']]);
    const ctx: ConfirmContext = {
      model: lesson,
      execute: program,
      cases: [caseOf('help', ['POOL a', 'PICK', 'HELP'])],
      streams,
      random: false,
      leaky: false,
      concurrency: 1,
      maxShrinkRounds: 8,
    };
    const [example] = await counterexamplesFor(ctx, [findingOf('unknown-command-crash', [stepAt(streams[0]!, 3)])]);
    assert.deepEqual([example?.commands, example?.shrunkFrom], [['HELP'], 3]);
    assert.deepEqual(
      example?.trace.map((row) => [row.expected, row.actual]),
      [[['ERROR'], null]],
    );
  });

  it('a difference at the reset before a transcript is shown with the transcript run before it', async () => {
    // A reload refused while requests are in flight: the bare POOL between two transcripts answers BUSY.
    const busy = (state: unknown): boolean =>
      [...(state as { inFlight: Map<string, bigint> }).inFlight.values()].some((n) => n > 0n);
    const lesson = withMistake(
      'reload-refused',
      (state, command) => command.trim().split(/\s+/)[0] === 'POOL' && busy(state),
      { kind: 'lines', lines: ['BUSY'] },
    );
    const program = programOf(lesson, 'reload-refused');
    const cases = [caseOf('first', ['POOL a', 'PICK']), caseOf('second', ['POOL b', 'PICK'])];
    const { streams } = await runBatch(
      lesson,
      program,
      cases.map((c) => c.commands),
    );
    const stream = streams[0]!;
    assert.deepEqual(
      [stream.commands[3], stream.lines.slice(3, 5)],
      ['POOL', ['BUSY', 'BUSY']],
      'the reset of the second transcript, and its POOL b',
    );
    const ctx: ConfirmContext = {
      model: lesson,
      execute: program,
      cases,
      streams,
      random: false,
      leaky: true,
      concurrency: 1,
      maxShrinkRounds: 8,
    };
    const [example] = await counterexamplesFor(ctx, [
      findingOf('reload-refused', [stepAt(stream, 3), stepAt(stream, 4)]),
    ]);
    assert.deepEqual(example?.commands, ['POOL a', 'PICK', 'POOL']);
    assert.deepEqual([example?.transcript, example?.shrunkFrom], ['second', 3]);
  });
});
