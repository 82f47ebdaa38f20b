/**
 * Confirming a finding on the program (core `confirm`), driven directly with FAKE programs: the paths that
 * otherwise only real processes reach (a program that leaks state across the reset, one that does not follow
 * its mutant on the model's candidate so shrinking falls back to running it, a random one) and the rules
 * that decide whether a run shows a finding (`programShows`, `modelShows`).
 */
import * as assert from 'node:assert/strict';
import { runBatch } from '../../src/core/check/batch';
import type { Case } from '../../src/core/check/cases';
import {
  counterexampleForDifference,
  counterexamplesFor,
  modelShows,
  programShows,
  type ConfirmContext,
} from '../../src/core/check/confirm';
import type { Execute } from '../../src/core/check/process';
import { diagnose, type Finding } from '../../src/core/diagnosis/diagnose';
import { simulate, type Outcome } from '../../src/core/model/simulate';
import { manifest, model, programWith } from './fakeLesson';

const mistakes = manifest.mistakes;

/** Records every standard input given to the program, so a test can say which lists shared a process. */
function recorded(execute: Execute): Execute & { stdins: string[] } {
  const stdins: string[] = [];
  const wrapped = (async (input, limits) => {
    stdins.push(input);
    return execute(input, limits);
  }) as Execute & { stdins: string[] };
  wrapped.stdins = stdins;
  return wrapped;
}

/** How many command lists (each starts with the bare reset command) one process was given. */
const listsIn = (stdin: string): number => stdin.split('\n').filter((line) => line === model.resetCommand).length;

const caseOf = (name: string, commands: string[]): Case => ({
  name,
  label: `the ${name} transcript`,
  commands,
  expected: simulate(model, commands).outcome,
  hidden: true,
});

/** The check's evidence for `cases`: one batch run, diagnosed. */
async function evidence(
  execute: Execute,
  cases: readonly Case[],
): Promise<{ ctx: ConfirmContext; findings: readonly Finding[] }> {
  const { streams } = await runBatch(
    model,
    execute,
    cases.map((c) => c.commands),
  );
  const { findings } = diagnose(model, mistakes, streams);
  return {
    ctx: { model, execute, cases, streams, random: false, leaky: false, concurrency: 1, maxShrinkRounds: 8 },
    findings,
  };
}

async function assertProgramShows(execute: Execute, commands: readonly string[], mutation: string): Promise<void> {
  const { outcomes } = await runBatch(model, execute, [commands]);
  assert.ok(
    programShows(model, { mutation, mutations: [mutation] }, commands, outcomes[0]!),
    `${commands.join(' | ')} shows ${mutation}`,
  );
}

// Ties go to the smallest name, but only once a DONE came earlier in the same list: the model's own shortest
// candidate (a pool and a PICK) is answered right, so the counterexample must be shrunk on the program.
const afterDone = programWith((seen) => (seen.some((c) => c.startsWith('DONE')) ? ['tiebreak-name'] : []));
const longWay = caseOf('long-way', ['POOL b a', 'STATUS', 'DONE a', 'STATUS', 'DONE b', 'STATUS', 'PICK', 'STATUS']);

describe('confirm: when a run shows a finding', () => {
  it('a run like the reference shows nothing', () => {
    const commands = ['POOL b a', 'PICK'];
    assert.equal(
      programShows(
        model,
        { mutation: 'tiebreak-name', mutations: ['tiebreak-name'] },
        commands,
        simulate(model, commands).outcome,
      ),
      false,
    );
  });

  it('a difference the finding explains alone shows it; one only another mistake explains does not', () => {
    const commands = ['POOL b a', 'PICK', 'DONE a', 'DONE a', 'STATUS'];
    const named = simulate(model, commands, new Set(['tiebreak-name'])).outcome;
    const other = simulate(model, commands, new Set(['negative-count'])).outcome;
    assert.equal(
      programShows(model, { mutation: 'tiebreak-name', mutations: ['tiebreak-name'] }, commands, named),
      true,
    );
    assert.equal(
      programShows(model, { mutation: 'tiebreak-name', mutations: ['tiebreak-name'] }, commands, other),
      false,
    );
  });

  it('a finding made with a pair shows where the pair explains what the other half alone does not', () => {
    // DONE for a stranger: added to the counts (unknown-added) and taken below zero (negative-count) only together.
    const commands = ['POOL a', 'DONE x', 'STATUS'];
    const both = simulate(model, commands, new Set(['negative-count', 'unknown-added'])).outcome;
    assert.deepEqual(both.lines, ['OK', 'OK', 'a:0', 'x:-1']);
    const finding = { mutation: 'negative-count', mutations: ['negative-count', 'unknown-added'] };
    assert.equal(programShows(model, finding, commands, both), true);
    assert.equal(
      programShows(model, { mutation: 'negative-count', mutations: ['negative-count'] }, commands, both),
      false,
      'not by itself',
    );
  });

  it('a pair finding does not show where the program differs in a way neither the pair nor its halves explain', () => {
    const commands = ['POOL b a', 'PICK'];
    const otherMistake = simulate(model, commands, new Set(['tiebreak-name'])).outcome;
    assert.equal(
      programShows(
        model,
        { mutation: 'negative-count', mutations: ['negative-count', 'unknown-added'] },
        commands,
        otherMistake,
      ),
      false,
    );
  });

  it('a pair whose other half explains every difference alone does not show the finding', () => {
    // PICK that never counts: no-increment alone answers it; negative-count plays no part.
    const commands = ['POOL a b', 'PICK', 'PICK', 'STATUS'];
    const learner = simulate(model, commands, new Set(['no-increment'])).outcome;
    assert.equal(
      programShows(
        model,
        { mutation: 'negative-count', mutations: ['negative-count', 'no-increment'] },
        commands,
        learner,
      ),
      false,
    );
  });

  it('a deterministic mutant shows a finding exactly where it answers otherwise than the reference', () => {
    const finding = { mutation: 'tiebreak-name', nondeterministic: false };
    assert.equal(modelShows(model, finding, ['POOL b a', 'PICK']), true);
    assert.equal(modelShows(model, finding, ['POOL a b', 'PICK']), false, 'the smallest name is first in the pool');
  });

  it('a free choice shows a finding when a program choosing at random would miss it at most one time in eight', () => {
    const finding = { mutation: 'tiebreak-any', nondeterministic: true };
    // One tie among eight: seven other choices, so a random program matches the reference one time in eight.
    assert.equal(modelShows(model, finding, ['POOL a b c d e f g h', 'PICK']), true);
    assert.equal(modelShows(model, finding, ['POOL a b c d e f g', 'PICK']), false, 'one in seven is too likely');
    // Three ties of two, one after the other: (1/2)^3 = 1/8.
    assert.equal(modelShows(model, finding, ['POOL a b', 'PICK', 'PICK', 'PICK', 'PICK', 'PICK']), true);
    assert.equal(modelShows(model, finding, ['POOL a b', 'PICK', 'PICK', 'PICK']), false, 'two ties: one in four');
  });
});

describe('confirm: counterexamples on the program', () => {
  it("shrinks on the program itself when it does not follow its mutant on the model's candidate", async () => {
    const program = recorded(afterDone);
    const { ctx, findings } = await evidence(program, [longWay]);
    assert.deepEqual(
      findings.map((f) => f.mutation),
      ['tiebreak-name'],
    );
    const [example] = await counterexamplesFor(ctx, findings);
    assert.ok(example?.reproduced, 'confirmed in a fresh run');
    // From the whole transcript the caption names (8 commands), not the prefix up to the differing PICK (7).
    assert.equal(example.shrunkFrom, 8, 'from the whole transcript');
    assert.deepEqual([example.transcript, example.label], ['long-way', 'the long-way transcript']);
    assert.equal(example.commands.length, 3, example.commands.join(' | '));
    assert.ok(
      example.commands.some((c) => c.startsWith('DONE')) && example.commands.at(-1) === 'PICK',
      example.commands.join(' | '),
    );
    assert.ok(example.trace.some((row) => !row.matches));
    await assertProgramShows(afterDone, example.commands, 'tiebreak-name');
  });

  it('spends no more process runs on shrinking than its budget: with none, the transcript is shown as it was', async () => {
    const program = recorded(afterDone);
    const { ctx, findings } = await evidence(program, [longWay]);
    program.stdins.length = 0;
    const [example] = await counterexamplesFor({ ...ctx, maxShrinkRounds: 0 }, findings);
    assert.ok(example?.reproduced);
    assert.deepEqual(example.commands, longWay.commands.slice(0, 7));
    // The model's candidate, then the unshrunk transcript: each a process of its observed twin and, after the
    // reset, its plain run (the program keeps nothing across the reset, and answers the same in both).
    assert.equal(program.stdins.length, 2, program.stdins.join('---\n'));
    assert.deepEqual(program.stdins.map(listsIn), [2, 2]);
  });

  it('runs every candidate of a program that leaks state across the reset in a fresh process of its own', async () => {
    const program = recorded(afterDone);
    const { ctx, findings } = await evidence(program, [longWay]);
    program.stdins.length = 0;
    const [example] = await counterexamplesFor({ ...ctx, leaky: true }, findings);
    assert.ok(example?.reproduced);
    assert.equal(example.commands.length, 3, example.commands.join(' | '));
    assert.ok(program.stdins.length > 4, 'shrinking ran the program');
    assert.deepEqual(
      program.stdins.map(listsIn),
      program.stdins.map(() => 1),
      'one list per process',
    );
    assert.equal(example.observeCommand, 'STATUS', 'with the counts of a fresh run');
    assert.ok(example.trace.every((row) => row.observed !== undefined));
  });

  it('runs each candidate with its observed twin in one process when the program keeps no state across the reset', async () => {
    const program = recorded(programWith(() => ['tiebreak-name', 'negative-count']));
    const { ctx, findings } = await evidence(program, [
      caseOf('ties', ['POOL b a', 'PICK', 'STATUS']),
      caseOf('done', ['POOL a b', 'DONE b', 'PICK', 'STATUS']),
    ]);
    assert.deepEqual(findings.map((f) => f.mutation).sort(), ['negative-count', 'tiebreak-name']);
    program.stdins.length = 0;
    const examples = await counterexamplesFor(ctx, findings);
    assert.ok(
      examples.every((e) => e?.reproduced && e.observeCommand === 'STATUS'),
      'each with the counts of its own fresh run',
    );
    // Each candidate's observed twin first in a process of its own (the counts of a fresh run), then the candidate.
    assert.deepEqual(program.stdins.map(listsIn).sort(), [2, 2]);
  });

  it('runs the candidate again in a fresh process when, after its observed twin, it answers otherwise than that twin', async () => {
    // FAKE program whose STATUS changes what it answers: after one, its ties follow pool order again.
    const program = recorded(programWith((seen) => (seen.includes('STATUS') ? [] : ['tiebreak-name'])));
    const { ctx, findings } = await evidence(program, [caseOf('ties', ['POOL b a', 'PICK', 'STATUS'])]);
    assert.deepEqual(
      findings.map((f) => f.mutation),
      ['tiebreak-name'],
    );
    program.stdins.length = 0;
    const [example] = await counterexamplesFor(ctx, findings);
    assert.ok(example?.reproduced);
    assert.deepEqual(program.stdins.map(listsIn), [2, 1]);
  });

  it('does not shrink a random program on itself: its runs cannot be compared, so the transcript is shown as it was', async () => {
    const program = recorded(afterDone);
    const { ctx, findings } = await evidence(program, [longWay]);
    program.stdins.length = 0;
    const [example] = await counterexamplesFor({ ...ctx, random: true }, findings);
    assert.ok(example?.reproduced);
    assert.deepEqual(example.commands, longWay.commands.slice(0, 7));
    assert.deepEqual(
      program.stdins.map(listsIn),
      program.stdins.map(() => 1),
      'fresh processes only',
    );
  });

  it('gives a finding no mistake reproduces no counterexample, after trying a random program a few times', async () => {
    const program = recorded(afterDone);
    const { ctx, findings } = await evidence(program, [longWay]);
    const right = recorded(programWith(() => []));
    const examples = await counterexamplesFor({ ...ctx, execute: right, random: true }, findings);
    assert.deepEqual(examples, [null]);
    // Three tries of the model's candidate, then three of the transcript: each one run with STATUS after every command.
    assert.equal(right.stdins.length, 6, right.stdins.join('---\n'));
  });
});

describe('confirm: state carried across the reset', () => {
  it('takes the earlier transcript into the counterexample when the finding needs it, and shrinks within both', async () => {
    // Old counts come back with an old backend (a registry at module level): the second run of the same
    // transcript shows it, and only together with the first.
    const program = recorded(programWith(() => ['reset-keeps-registry']));
    const same = ['POOL a b', 'PICK'];
    const { ctx, findings } = await evidence(program, [caseOf('first', same), caseOf('again', same)]);
    assert.deepEqual(
      findings.map((f) => f.mutation),
      ['reset-keeps-registry'],
    );
    const [example] = await counterexamplesFor({ ...ctx, leaky: true }, findings);
    assert.ok(example?.reproduced);
    assert.equal(example.transcript, 'again');
    assert.equal(example.shrunkFrom, 5, 'the first transcript, the reset between, and the second up to its PICK');
    assert.equal(example.commands.filter((c) => c.startsWith('POOL ')).length, 2, example.commands.join(' | '));
    assert.equal(example.commands.at(-1), 'PICK');
  });
});

describe('confirm: a difference no mistake names', () => {
  const shouting = programWith(() => []);
  const loud: Execute = async (input) => {
    const run = await shouting(input);
    return { ...run, stdout: run.stdout.replace(/^([ab])$/gm, (name) => name.toUpperCase()) };
  };

  it('shrinks on the program to the fewest commands that still differ, within the budget', async () => {
    const start = caseOf('loud', ['POOL a b', 'STATUS', 'DONE a', 'STATUS', 'PICK', 'STATUS']);
    const program = recorded(loud);
    const ctx: ConfirmContext = {
      model,
      execute: program,
      cases: [start],
      streams: [],
      random: false,
      leaky: false,
      concurrency: 1,
      maxShrinkRounds: 8,
    };
    const seen: Outcome = (await runBatch(model, loud, [start.commands])).outcomes[0]!;
    const example = await counterexampleForDifference(ctx, [start], new Map([[start, seen]]));
    assert.equal(example?.commands.length, 2, example?.commands.join(' | '));
    assert.equal(example?.commands[1], 'PICK');
    assert.equal(example?.reproduced, true);
    const unshrunk = await counterexampleForDifference(
      { ...ctx, maxShrinkRounds: 0 },
      [start],
      new Map([[start, seen]]),
    );
    assert.deepEqual(unshrunk?.commands, start.commands, 'no budget: the transcript as it was');
  });

  it('shrinks a leaky program with one list per process, and starts from the shortest failing transcript', async () => {
    const short = caseOf('short', ['POOL a b', 'STATUS', 'PICK']);
    const long = caseOf('long', ['POOL a b', 'STATUS', 'DONE a', 'STATUS', 'PICK', 'STATUS']);
    const program = recorded(loud);
    const ctx: ConfirmContext = {
      model,
      execute: program,
      cases: [long, short],
      streams: [],
      random: false,
      leaky: true,
      concurrency: 1,
      maxShrinkRounds: 8,
    };
    const example = await counterexampleForDifference(ctx, [long, short], new Map());
    assert.equal(example?.transcript, 'short');
    assert.equal(example?.shrunkFrom, 3);
    assert.equal(example?.commands.length, 2, example?.commands.join(' | '));
    assert.deepEqual(
      program.stdins.map(listsIn),
      program.stdins.map(() => 1),
    );
  });

  it('has nothing to show without a failing transcript, nor when the check kept no run of it', async () => {
    const start = caseOf('loud', ['POOL a b', 'PICK']);
    const ctx: ConfirmContext = {
      model,
      execute: shouting,
      cases: [start],
      streams: [],
      random: false,
      leaky: false,
      concurrency: 1,
      maxShrinkRounds: 8,
    };
    assert.equal(await counterexampleForDifference(ctx, [], new Map()), null);
    const right = recorded(shouting);
    assert.equal(
      await counterexampleForDifference({ ...ctx, execute: right, maxShrinkRounds: 0 }, [start], new Map()),
      null,
      'right in a fresh run, and no run of the check to show',
    );
    assert.equal(right.stdins.length, 1, 'one fresh try: the observed twin, then the run in the same process');
  });
});

describe('confirm: a lesson without an observe command', () => {
  const plainModel = { ...model, observeCommand: undefined };

  it('confirms in one run per candidate, with no observed twin and no counts', async () => {
    const program = recorded(afterDone);
    const { ctx, findings } = await evidence(program, [caseOf('no-status', ['POOL b a', 'DONE a', 'DONE b', 'PICK'])]);
    for (const random of [false, true]) {
      program.stdins.length = 0;
      const [example] = await counterexamplesFor({ ...ctx, model: plainModel, random }, findings);
      assert.ok(example?.reproduced, `random: ${random}`);
      assert.equal(example.observeCommand, undefined);
      assert.ok(
        program.stdins.every((stdin) => !stdin.includes('STATUS')),
        'no STATUS after every command',
      );
      assert.ok(example.trace.some((row) => !row.matches));
    }
  });
});
