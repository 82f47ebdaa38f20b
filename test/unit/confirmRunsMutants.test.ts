/**
 * How confirm runs the program (core `confirm`): which candidates share a process, how often a random
 * program is run again, what a run of a random program with the observe command after every step says
 * (how it ended decides whether it shows a crash or an empty answer), and shrinking on a program whose
 * pack reset keeps state, where a candidate may hold only after the one before it. FAKE programs answer
 * like the lesson's model (fakeLesson.ts), some with a mistake of their own; one lesson is a FAKE variant
 * with a mistake whose STATUS prints nothing. confirm.test.ts covers the ordinary paths.
 */
import * as assert from 'node:assert/strict';
import { runBatch, type Stream } from '../../src/core/check/batch';
import type { Case } from '../../src/core/check/cases';
import {
  counterexampleForDifference,
  counterexamplesFor,
  programShows,
  type ConfirmContext,
} from '../../src/core/check/confirm';
import type { Execute } from '../../src/core/check/process';
import { diagnose, type Finding } from '../../src/core/diagnosis/diagnose';
import type { ReferenceModel } from '../../src/core/model/model';
import type { StepRef } from '../../src/core/diagnosis/stepwise';
import { simulate } from '../../src/core/model/simulate';
import { done, manifest, model, mutantProgram, programWith, recorded } from './fakeLesson';
import { model as healthChecks } from '../../lessons/health-checks/model/model';

/** The lesson's model seen through the engine's interface, whose state is opaque: FAKE lessons wrap its step. */
const reference: ReferenceModel = model;

/** How many command lists (each starts with the bare reset command) one process was given. */
const listsIn = (stdin: string): number => stdin.split('\n').filter((line) => line === model.resetCommand).length;

const caseOf = (name: string, commands: string[]): Case => ({
  name,
  label: `the ${name} transcript`,
  commands,
  expected: simulate(model, commands).outcome,
  hidden: true,
});

async function evidence(
  execute: Execute,
  cases: readonly Case[],
  lesson: ReferenceModel = model,
): Promise<{ ctx: ConfirmContext; streams: readonly Stream[]; findings: readonly Finding[] }> {
  const { streams } = await runBatch(
    lesson,
    execute,
    cases.map((c) => c.commands),
  );
  const { findings } = diagnose(lesson, manifest.mistakes, streams);
  return {
    ctx: { model: lesson, execute, cases, streams, random: false, leaky: false, concurrency: 1, maxShrinkRounds: 8 },
    streams,
    findings,
  };
}

/** A finding of one mutation, made by hand, explaining the command at `index` of stream 0. */
function findingAt(stream: Stream, index: number, mutation: string): Finding {
  const segment = stream.segments.find((s) => index >= s.start && index < s.start + s.length)!;
  const step: StepRef = {
    stream: 0,
    index,
    list: segment.list,
    listIndex: index - segment.start - 1,
    command: stream.commands[index]!,
  };
  return {
    mistake: mutation,
    mutation,
    mutations: [mutation],
    confidence: 'exact',
    nondeterministic: false,
    steps: [step],
    stepCount: 1,
  };
}

/** Answers like the reference until a DONE for a name not in the pool, and there stops as `stop` says. */
function stopsAtStranger(stop: 'hangs' | 'exits'): Execute {
  return async (input) => {
    let state = model.initial();
    let stdout = '';
    for (const command of input.split('\n').filter(Boolean)) {
      const step = model.step(state, command, new Set(['unknown-crash']));
      if (step.answer.kind === 'crash')
        return done(stdout, stop === 'hangs' ? { exitCode: null, signal: 'SIGKILL', timedOut: true } : {});
      state = step.state;
      stdout += step.answer.lines.map((l) => `${l}\n`).join('');
    }
    return done(stdout);
  };
}

describe('confirm runs: which candidates share a process', () => {
  const twoMistakes = programWith(() => ['tiebreak-name', 'negative-count']);
  const cases = [
    caseOf('ties', ['POOL b a', 'PICK', 'STATUS']),
    caseOf('done', ['POOL a b', 'DONE b', 'PICK', 'STATUS']),
  ];

  for (const [what, flags, lists] of [
    // Two candidates, each run plain and with STATUS after every command: four processes of one list each.
    ['leaks state across the reset', { leaky: true }, [1, 1, 1, 1]],
    // The model says the observed twin leaves nothing behind (this lesson's reset keeps nothing): each
    // candidate runs after its twin in one process, where the two must answer alike.
    ['runs under a pack whose reset keeps something', { carriesOver: true }, [2, 2]],
  ] as const) {
    it(`runs each finding's candidate in processes of its own when the program ${what}`, async () => {
      const program = recorded(twoMistakes);
      const { ctx, findings } = await evidence(program, cases);
      assert.deepEqual(findings.map((f) => f.mutation).sort(), ['negative-count', 'tiebreak-name']);
      program.stdins.length = 0;
      const examples = await counterexamplesFor({ ...ctx, ...flags }, findings);
      assert.ok(examples.every((e) => e?.reproduced));
      assert.deepEqual(program.stdins.map(listsIn), lists);
    });
  }
});

describe('confirm runs: how often a random program is run', () => {
  it('a random program that shows the finding at the first try is run once', async () => {
    const program = recorded(mutantProgram('tiebreak-name'));
    const { ctx, findings } = await evidence(program, [caseOf('ties', ['POOL b a', 'PICK', 'STATUS'])]);
    program.stdins.length = 0;
    const [example] = await counterexamplesFor({ ...ctx, random: true }, findings);
    assert.deepEqual(example?.commands, ['POOL b a', 'PICK']);
    assert.deepEqual(
      program.stdins,
      ['POOL\nPOOL b a\nSTATUS\nPICK\nSTATUS\n'],
      'one run, with STATUS after every command',
    );
  });

  it("one that shows it only on the finding's transcript is run three times on the candidate, then once on the transcript", async () => {
    // Ties go to the smallest name only after a DONE in the same list: the model's candidate has none.
    const afterDone = recorded(
      programWith((seen) => (seen.some((c) => c.startsWith('DONE')) ? ['tiebreak-name'] : [])),
    );
    const transcript = ['POOL b a', 'STATUS', 'DONE a', 'STATUS', 'DONE b', 'STATUS', 'PICK', 'STATUS'];
    const { ctx, findings } = await evidence(afterDone, [caseOf('after-done', transcript)]);
    assert.deepEqual(
      findings.map((f) => f.mutation),
      ['tiebreak-name'],
    );
    afterDone.stdins.length = 0;
    const [example] = await counterexamplesFor({ ...ctx, random: true }, findings);
    assert.deepEqual(example?.commands, transcript.slice(0, 7), 'up to the differing PICK, not shrunk');
    assert.equal(afterDone.stdins.length, 3 + 1, afterDone.stdins.join('---\n'));
  });
});

describe('confirm runs: how a random run with the counts after every step ended', () => {
  const crashes = caseOf('stranger', ['POOL a', 'DONE ghost']);

  it('a random program that stops answering where the mistake crashes shows the crash', async () => {
    const program = recorded(stopsAtStranger('exits'));
    const { ctx, streams } = await evidence(program, [crashes]);
    const finding = findingAt(streams[0]!, 2, 'unknown-crash');
    const [example] = await counterexamplesFor({ ...ctx, random: true }, [finding]);
    assert.ok(example?.reproduced);
    assert.deepEqual(example.commands, ['DONE ghost']);
    assert.deepEqual(
      example.trace.map((row) => [row.actual, row.matches]),
      [[null, false]],
    );
  });

  it('one that hangs there does not: a hang is not the crash the mistake explains', async () => {
    const program = recorded(stopsAtStranger('hangs'));
    const { ctx, streams } = await evidence(program, [crashes]);
    const finding = findingAt(streams[0]!, 2, 'unknown-crash');
    program.stdins.length = 0;
    assert.deepEqual(await counterexamplesFor({ ...ctx, random: true }, [finding]), [null]);
    assert.equal(program.stdins.length, 6, 'three tries of the candidate, three of the transcript');
  });

  it('an empty answer at the very end of a run that finished was given: a STATUS that prints nothing shows its mistake', async () => {
    // FAKE lesson: least-connections with one more mistake, a STATUS that prints no counts at all.
    const silent: ReferenceModel = {
      ...model,
      mutations: [...model.mutations, { id: 'status-silent', description: 'STATUS prints nothing' }],
      step: (state, command, on, observed) => {
        const result = reference.step(state, command, on, observed);
        return on.has('status-silent') && command.trim() === 'STATUS'
          ? { ...result, answer: { kind: 'lines', lines: [] } }
          : result;
      },
    };
    const program: Execute = async (input) => {
      let state = silent.initial();
      let stdout = '';
      for (const command of input.split('\n').filter(Boolean)) {
        const step = silent.step(state, command, new Set(['status-silent']));
        state = step.state;
        if (step.answer.kind === 'lines') stdout += step.answer.lines.map((l) => `${l}\n`).join('');
      }
      return done(stdout);
    };
    const commands = ['POOL a', 'STATUS'];
    const { ctx, streams } = await evidence(program, [caseOf('silent', commands)], silent);
    const finding = findingAt(streams[0]!, 2, 'status-silent');
    assert.ok(programShows(silent, finding, commands, { lines: ['OK'], ending: 'finished' }));
    const [example] = await counterexamplesFor({ ...ctx, random: true }, [finding]);
    assert.ok(example?.reproduced);
    assert.deepEqual(example.commands, commands);
    assert.deepEqual(
      example.trace.map((row) => [row.expected, row.actual, row.matches, row.observed, row.shouldBe]),
      [
        [['OK'], ['OK'], true, [], ['a:0']],
        [['a:0'], [], false, [], ['a:0']],
      ],
    );
  });
});

describe('confirm runs: shrinking under a pack whose reset keeps something', () => {
  // Ties go to the smallest name once any DONE came earlier in the process, whatever list it was in: a
  // candidate run after one with a DONE may hold only because of it.
  const afterAnyDone: Execute = async (input) => {
    let state = model.initial();
    let stdout = '';
    let sawDone = false;
    for (const command of input.split('\n').filter(Boolean)) {
      const step = model.step(state, command, new Set(sawDone ? ['tiebreak-name'] : []));
      if (command.startsWith('DONE')) sawDone = true;
      state = step.state;
      stdout += step.answer.kind === 'lines' ? step.answer.lines.map((l) => `${l}\n`).join('') : '';
    }
    return done(stdout);
  };
  const longWay = caseOf('long-way', ['POOL b a', 'STATUS', 'DONE a', 'STATUS', 'DONE b', 'STATUS', 'PICK', 'STATUS']);

  it('keeps only a candidate that shows the finding when run alone, and shows that one', async () => {
    const { ctx, findings } = await evidence(afterAnyDone, [longWay]);
    assert.deepEqual(
      findings.map((f) => f.mutation),
      ['tiebreak-name'],
    );
    const program = recorded(afterAnyDone);
    const [example] = await counterexamplesFor({ ...ctx, execute: program, carriesOver: true }, findings);
    assert.ok(example?.reproduced);
    assert.deepEqual(
      [example.commands.length, example.commands[0], example.commands.at(-1)],
      [3, 'POOL b a', 'PICK'],
      example.commands.join(' | '),
    );
    assert.ok(example.commands[1]!.startsWith('DONE '), example.commands.join(' | '));
    assert.ok(
      program.stdins.some((stdin) => listsIn(stdin) > 1),
      'the shrinker still batched its candidates',
    );
  });

  it('the same for a difference no mistake names', async () => {
    const { outcomes } = await runBatch(model, afterAnyDone, [longWay.commands]);
    const ctx: ConfirmContext = {
      model,
      execute: afterAnyDone,
      cases: [longWay],
      streams: [],
      random: false,
      leaky: false,
      carriesOver: true,
      concurrency: 1,
      maxShrinkRounds: 8,
    };
    const example = await counterexampleForDifference(ctx, [longWay], new Map([[longWay, outcomes[0]!]]));
    assert.ok(example?.reproduced);
    assert.deepEqual(
      [example.commands.length, example.commands[0], example.commands.at(-1)],
      [3, 'POOL b a', 'PICK'],
      example.commands.join(' | '),
    );
  });
});

/** A FAKE health-checks program: the lesson's model with these mutations switched on (its reset keeps the cap). */
function healthChecksWith(...mutations: string[]): Execute {
  return async (input) => {
    let state = healthChecks.initial();
    let stdout = '';
    for (const command of input.split('\n').filter(Boolean)) {
      const step = healthChecks.step(state, command, new Set(mutations));
      state = step.state;
      stdout += step.answer.kind === 'lines' ? step.answer.lines.map((l) => `${l}\n`).join('') : '';
    }
    return done(stdout);
  };
}

describe('confirm runs: a pack whose reset keeps a cap', () => {
  // The health-checks lesson: POOL resets the pool and keeps the cap. This program never looks at the cap, so
  // a list without CAP answers right alone, and wrong after another list has set a cap in the same process.
  const capIgnored = healthChecksWith('cap-ignored');
  const capped = caseOf('capped', ['CAP 1', 'POOL a b', 'STATUS', 'PICK', 'PICK', 'PICK']);

  it('the candidates that set a cap run last in the shared process, so the others start as if alone', async () => {
    const program = recorded(capIgnored);
    const { outcomes } = await runBatch(healthChecks, capIgnored, [capped.commands]);
    const ctx: ConfirmContext = {
      model: healthChecks,
      execute: program,
      cases: [capped],
      streams: [],
      random: false,
      leaky: false,
      carriesOver: true,
      concurrency: 1,
      maxShrinkRounds: 8,
      endsEarly: false,
    };
    const example = await counterexampleForDifference(ctx, [capped], new Map([[capped, outcomes[0]!]]));
    assert.ok(example?.reproduced);
    assert.deepEqual(
      example.commands.map((c) => c.replace(/^POOL \w+$/, 'POOL x')),
      ['CAP 1', 'POOL x', 'PICK', 'PICK'],
    );
    const shared = program.stdins.filter((stdin) => stdin.split('\n').filter((line) => line === 'POOL').length > 1);
    const lists = shared[0]!.split(/^POOL$/m).slice(1);
    const firstCap = lists.findIndex((l) => l.includes('CAP'));
    assert.ok(firstCap > 0 && lists.slice(firstCap).every((l) => l.includes('CAP')), shared[0]);
    // The shown run and its observed twin: the twin leaves a cap the model keeps, but the shown run sets it again
    // with its first command, so the two share a process (and agree, or the shown run gets one of its own).
    assert.deepEqual(
      program.stdins.slice(-1).map((stdin) => stdin.split('\n').filter((line) => line === 'POOL').length),
      [2],
    );
  });
});

describe('confirm runs: a clean start the probe vouches for', () => {
  it('a candidate that held where the model says it started clean is taken without a run alone, once the probe saw the program keep nothing else', async () => {
    // The program gets ties wrong everywhere (a mistake no cap is needed for); the pack keeps its cap across POOL.
    const wrongTies = healthChecksWith('tiebreak-last');
    const start = caseOf('ties', ['CAP 3', 'POOL a b c', 'PICK', 'STATUS', 'DONE a', 'PICK', 'PICK']);
    const { outcomes } = await runBatch(healthChecks, wrongTies, [start.commands]);
    const aloneRuns = async (vouched: boolean): Promise<number> => {
      const program = recorded(wrongTies);
      const ctx: ConfirmContext = {
        model: healthChecks,
        execute: program,
        cases: [start],
        streams: [],
        random: false,
        leaky: false,
        carriesOver: true,
        resetKeepsNothingElse: vouched,
        concurrency: 1,
        maxShrinkRounds: 8,
        endsEarly: false,
      };
      const example = await counterexampleForDifference(ctx, [start], new Map([[start, outcomes[0]!]]));
      assert.ok(example?.reproduced);
      assert.deepEqual(
        example.commands.map((c) => c.replace(/^POOL \w+ \w+$/, 'POOL x y')),
        ['POOL x y', 'PICK'],
      );
      // Runs of one list, the shown run's own processes left out.
      return program.stdins.slice(0, -1).filter((stdin) => stdin.split('\n').filter((l) => l === 'POOL').length === 1)
        .length;
    };
    assert.equal(await aloneRuns(true), 0);
    assert.ok((await aloneRuns(false)) > 0);
  });
});

describe('confirm runs: the replay line of a difference no mistake names', () => {
  it('gives the exact standard input of the shown run, and the shell line that replays it', async () => {
    const wrong = caseOf('wrong', ['POOL a b', 'PICK']);
    const ctx: ConfirmContext = {
      model,
      execute: mutantProgram('tiebreak-last'),
      cases: [wrong],
      streams: [],
      random: false,
      leaky: false,
      concurrency: 1,
      maxShrinkRounds: 8,
      replay: (stdin) => `printf '%s' ${JSON.stringify(stdin)} | python3 balancer.py`,
    };
    const example = await counterexampleForDifference(ctx, [wrong], new Map());
    assert.deepEqual(example?.replay, {
      stdin: 'POOL a b\nPICK\n',
      shell: `printf '%s' "POOL a b\\nPICK\\n" | python3 balancer.py`,
    });
  });
});

describe('confirm runs: shrinking a crash the finding answers exactly, under a pack whose reset keeps a cap', () => {
  // Written as reduce_no_initial.js is (the corpus): PICK crashes when every backend is down, but an empty pool
  // answers EMPTY. The mutation none-healthy-crash crashes on the empty pool too, so the model's shortest candidate
  // (POOL, PICK) does not show it in this program and the shrinking runs on the program: before every smaller list
  // went in one call, ddmin's granularities cost a process each, 16 in the corpus.
  const crashesWhenAllDown: Execute = async (input) => {
    let state = healthChecks.initial();
    let stdout = '';
    let pool: string[] = [];
    const down = new Set<string>();
    for (const command of input.split('\n').filter(Boolean)) {
      const [verb, ...names] = command.split(' ');
      if (verb === 'POOL') {
        pool = names;
        down.clear();
      }
      if (verb === 'DOWN') down.add(names[0]!);
      if (verb === 'UP') down.delete(names[0]!);
      if (verb === 'PICK' && pool.length > 0 && pool.every((b) => down.has(b)))
        return done(stdout, { exitCode: 1, stderr: 'TypeError: Reduce of empty array with no initial value' });
      const step = healthChecks.step(state, command, new Set());
      state = step.state;
      stdout += step.answer.kind === 'lines' ? step.answer.lines.map((l) => `${l}\n`).join('') : '';
    }
    return done(stdout);
  };
  const allDown = caseOf('all-down', ['CAP 0', 'POOL a b', 'DOWN a', 'STATUS', 'DOWN b', 'PICK']);

  it('shrinks it with every smaller list in one call: a few processes, and the shortest list', async () => {
    const { streams } = await runBatch(healthChecks, crashesWhenAllDown, [allDown.commands]);
    const finding = findingAt(streams[0]!, 6, 'none-healthy-crash');
    const program = recorded(crashesWhenAllDown);
    const ctx: ConfirmContext = {
      model: healthChecks,
      execute: program,
      cases: [allDown],
      streams,
      random: false,
      leaky: false,
      carriesOver: true,
      endsEarly: true,
      concurrency: 1,
      maxShrinkRounds: 20,
    };
    const [example] = await counterexamplesFor(ctx, [finding]);
    assert.ok(example?.reproduced);
    assert.equal(example.commands.length, 3, example.commands.join(' | '));
    assert.match(example.commands.join(' | '), /^POOL (\w+) \| DOWN \1 \| PICK$/);
    assert.ok(program.stdins.length <= 6, `${program.stdins.length} processes`);
  });
});
