// The tick engine of world scenarios (src/core/world/worldRun.ts) at its edges: the limits a pack's world may ask
// for (ticks, commands at once, arrivals per tick and per run, measures), the messages a pack author reads when
// the world breaks its contract, how the program's answer is read, and the reference and baseline line sessions.
// Every world and session is built inside its test, so mutation coverage (perTest) credits that test.
import * as assert from 'node:assert/strict';
import type { Answer, Baseline, Measures, ReferenceModel, ScenarioWorld, WorldStep } from '../../src/core/model/model';
import { ProgramStopped, type LineSession } from '../../src/core/world/lineSession';
import {
  baselineSession,
  referenceSession,
  runWorld,
  WorldError,
  WORLD_LIMITS,
  type WorldRun,
} from '../../src/core/world/worldRun';

interface State {
  readonly tick: number;
  readonly heard: readonly string[];
}

/** The knobs of a small world: by default one tick, two lanes, no arrivals, and one measure (`heard`: answers read this tick). */
interface Knobs {
  readonly ticks?: number;
  readonly lanes?: readonly string[];
  readonly startSend?: readonly string[];
  readonly tickSend?: (tick: number) => readonly string[];
  readonly arrivals?: (tick: number) => number;
  readonly ask?: (tick: number, index: number) => unknown;
  readonly read?: (state: State, line: string) => WorldStep<State> | { readonly notAnswer: string };
  readonly measures?: (state: State) => unknown;
}

function smallWorld(knobs: Knobs = {}): ScenarioWorld<State, null> {
  return {
    params: () => null,
    ticks: () => knobs.ticks ?? 1,
    lanes: () => knobs.lanes ?? ['a', 'b'],
    start: () => ({ state: { tick: 0, heard: [] }, send: knobs.startSend ?? [] }),
    tick: (s, tick) => ({
      state: { tick, heard: [] },
      send: knobs.tickSend?.(tick) ?? [],
      arrivals: knobs.arrivals?.(tick) ?? 0,
    }),
    arrival: (s, index) => ({ state: s, ask: (knobs.ask ? knobs.ask(s.tick, index) : 'ASK') as string }),
    answer: (s, line) => (knobs.read ? knobs.read(s, line) : { state: { ...s, heard: [...s.heard, line] } }),
    endTick: (s) => ({
      state: s,
      measures: (knobs.measures ? knobs.measures(s) : { heard: s.heard.length }) as Measures,
    }),
  };
}

/** A learner's program as a line session: records each batch written, answers each command with `answer`. */
function learner(answer: (command: string) => string = () => 'yes'): LineSession & { batches: string[][] } {
  const batches: string[][] = [];
  return {
    batches,
    exchange: async (commands) => {
      batches.push([...commands]);
      return commands.map(answer);
    },
  };
}

/** What a pack author reads when the world breaks its contract: the WorldError's own text. */
async function worldFault(run: Promise<WorldRun>): Promise<string> {
  try {
    await run;
  } catch (error) {
    assert.ok(error instanceof WorldError, `a WorldError, not ${String(error)}`);
    return String(error);
  }
  assert.fail('the run should have been refused');
}

describe('world runs: the limits a world may ask for', () => {
  it('a run lasts 1 to 500 ticks: 500 runs in full, 0, 1.5 and 501 are refused with the bounds named', async () => {
    const full = await runWorld(smallWorld({ ticks: WORLD_LIMITS.ticks }), null, 1, learner());
    assert.equal(full.ticks.length, 500);
    assert.equal(full.stopped, undefined);
    assert.equal(
      await worldFault(runWorld(smallWorld({ ticks: 0 }), null, 1, learner())),
      'WorldError: the world asks for 0 ticks; a run has 1 to 500',
    );
    assert.equal(
      await worldFault(runWorld(smallWorld({ ticks: 1.5 }), null, 1, learner())),
      'WorldError: the world asks for 1.5 ticks; a run has 1 to 500',
    );
    assert.equal(
      await worldFault(runWorld(smallWorld({ ticks: 501 }), null, 1, learner())),
      'WorldError: the world asks for 501 ticks; a run has 1 to 500',
    );
  });

  it('a step may send up to 1000 commands at once, all of them written; 1001 is refused', async () => {
    const commands = (n: number): string[] => Array.from({ length: n }, (_, i) => `SET ${i}`);
    const session = learner();
    await runWorld(smallWorld({ tickSend: () => commands(1000) }), null, 1, session);
    assert.deepEqual(session.batches, [commands(1000)]);
    const refused = await worldFault(runWorld(smallWorld({ tickSend: () => commands(1001) }), null, 1, learner()));
    assert.equal(refused, 'WorldError: the world sends 1001 commands at once; at most 1000');
  });

  it('a tick has 0 to 1000 arrivals, each asked; -1, 2.5 and 1001 are refused at their tick', async () => {
    const none = learner();
    const quiet = await runWorld(smallWorld({ ticks: 2, arrivals: () => 0 }), null, 1, none);
    assert.deepEqual(
      quiet.ticks.map((t) => t.measures),
      [{ heard: 0 }, { heard: 0 }],
    );
    assert.deepEqual(none.batches, [], 'nothing to ask, nothing written');
    const busy = learner();
    const full = await runWorld(smallWorld({ arrivals: () => 1000 }), null, 1, busy);
    assert.deepEqual(full.ticks[0]!.measures, { heard: 1000 });
    assert.equal(busy.batches.length, 1000);
    for (const [count, text] of [
      [-1, '-1'],
      [2.5, '2.5'],
      [1001, '1001'],
    ] as const) {
      const message = await worldFault(
        runWorld(smallWorld({ ticks: 3, arrivals: (tick) => (tick === 2 ? count : 1) }), null, 1, learner()),
      );
      assert.equal(message, `WorldError: the world has ${text} arrivals at tick 2; a tick has 0 to 1000`);
    }
  });

  it('a run has at most 20000 arrivals in all: 20 full ticks run, a 21st is refused before it asks anything', async () => {
    const twenty = learner();
    const run = await runWorld(smallWorld({ ticks: 20, arrivals: () => 1000 }), null, 1, twenty);
    assert.equal(run.ticks.length, 20);
    assert.equal(run.stopped, undefined);
    assert.equal(twenty.batches.length, 20_000);
    const more = learner();
    const message = await worldFault(runWorld(smallWorld({ ticks: 21, arrivals: () => 1000 }), null, 1, more));
    assert.equal(
      message,
      "WorldError: the run has more than 20000 arrivals: each waits for an answer from the learner's program",
    );
    assert.equal(more.batches.length, 20_000, 'the 21st tick asked nothing');
  });

  it('a world reports up to 16 measures a tick; 17 are refused, counted', async () => {
    const named = (n: number): Record<string, number> =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`m${i}`, i]));
    const run = await runWorld(smallWorld({ measures: () => named(16) }), null, 1, learner());
    assert.deepEqual(run.ticks[0]!.measures, named(16));
    const message = await worldFault(
      runWorld(smallWorld({ ticks: 2, measures: (s) => named(s.tick === 2 ? 17 : 1) }), null, 1, learner()),
    );
    assert.equal(message, 'WorldError: the world reported 17 measures at tick 2; at most 16');
  });

  it('a measure is a finite number or one finite number per lane: NaN, Infinity and a lane of NaN are refused', async () => {
    const ok = await runWorld(smallWorld({ measures: () => ({ total: 7, perLane: [1, 2] }) }), null, 1, learner());
    assert.deepEqual(ok.ticks[0]!.measures, { total: 7, perLane: [1, 2] });
    const refusal = 'is neither a number nor one number per lane (2)';
    assert.equal(
      await worldFault(runWorld(smallWorld({ measures: () => ({ total: Number.NaN }) }), null, 1, learner())),
      `WorldError: the world's measure "total" at tick 1 ${refusal}`,
    );
    assert.equal(
      await worldFault(runWorld(smallWorld({ measures: () => ({ total: Infinity }) }), null, 1, learner())),
      `WorldError: the world's measure "total" at tick 1 ${refusal}`,
    );
    assert.equal(
      await worldFault(runWorld(smallWorld({ measures: () => ({ perLane: [1, Number.NaN] }) }), null, 1, learner())),
      `WorldError: the world's measure "perLane" at tick 1 ${refusal}`,
    );
    assert.equal(
      await worldFault(runWorld(smallWorld({ measures: () => ({ perLane: [Number.NaN, 1] }) }), null, 1, learner())),
      `WorldError: the world's measure "perLane" at tick 1 ${refusal}`,
    );
  });

  it('every arrival must ask a command: an empty one or one that is not text is refused, numbered from 1', async () => {
    const empty = await worldFault(runWorld(smallWorld({ arrivals: () => 1, ask: () => '' }), null, 1, learner()));
    assert.equal(empty, "WorldError: the world's arrival 1 at tick 1 has no command to ask");
    const notText = await worldFault(
      runWorld(
        smallWorld({ ticks: 2, arrivals: () => 2, ask: (tick, index) => (tick === 2 && index === 1 ? 42 : 'ASK') }),
        null,
        1,
        learner(),
      ),
    );
    assert.equal(notText, "WorldError: the world's arrival 2 at tick 2 has no command to ask");
  });
});

describe('world runs: reading the program', () => {
  it('reads the last answer of the batch, without the spaces around it', async () => {
    const heard: string[] = [];
    const read = (s: State, line: string): WorldStep<State> => {
      heard.push(line);
      return { state: s };
    };
    await runWorld(
      smallWorld({ startSend: ['SETUP'], arrivals: () => 1, read }),
      null,
      1,
      learner((c) => (c === 'ASK' ? '  yes \t' : 'OK')),
    );
    assert.deepEqual(heard, ['yes']);
  });

  it('a program that answers nothing is read as an empty line, and the run stops at that tick saying so', async () => {
    const silent: LineSession = { exchange: async () => [] };
    const read = (s: State, line: string): WorldStep<State> | { notAnswer: string } =>
      line === 'yes' ? { state: s } : { notAnswer: 'ASK is answered yes' };
    const run = await runWorld(smallWorld({ ticks: 3, arrivals: () => 1, read }), null, 1, silent);
    assert.deepEqual(run, {
      ticks: [],
      stopped: { tick: 1, message: 'at tick 1 it answered "" to ASK: ASK is answered yes' },
    });
  });

  it('writes nothing after the last answer when no command is held', async () => {
    const session = learner();
    const run = await runWorld(smallWorld({ ticks: 2, arrivals: () => 1 }), null, 1, session);
    assert.deepEqual(session.batches, [['ASK'], ['ASK']]);
    assert.deepEqual(
      run.ticks.map((t) => t.measures),
      [{ heard: 1 }, { heard: 1 }],
    );
  });

  it('the errors name themselves: a pack fault is a WorldError, a program that stops a ProgramStopped', () => {
    assert.equal(String(new WorldError('bad world')), 'WorldError: bad world');
    const stopped = new ProgramStopped('it crashed', 'Traceback');
    assert.equal(String(stopped), 'ProgramStopped: it crashed');
    assert.equal(stopped.details, 'Traceback');
  });
});

describe('world runs: the reference and the baselines as line sessions', () => {
  /** A counter: each command answers how many it has seen; CRASH crashes, QUIET answers no line. */
  function counterStep(state: number, command: string): { state: number; answer: Answer } {
    if (command === 'CRASH') return { state, answer: { kind: 'crash', error: 'division by zero' } };
    if (command === 'QUIET') return { state: state + 1, answer: { kind: 'lines', lines: [] } };
    return { state: state + 1, answer: { kind: 'lines', lines: [String(state + 1), 'ignored second line'] } };
  }

  it('the reference model answers each command with its first line, its state carried from batch to batch', async () => {
    const seen: string[][] = [];
    const model = {
      initial: () => 0,
      step: (state: number, command: string, mutations: ReadonlySet<string>) => {
        seen.push([command, ...mutations]);
        return counterStep(state, command);
      },
    } as unknown as ReferenceModel;
    const session = referenceSession(model, new Set(['off-by-one']));
    assert.deepEqual(await session.exchange(['A', 'B']), ['1', '2']);
    assert.deepEqual(await session.exchange(['QUIET', 'C']), ['', '4']);
    assert.deepEqual(seen, [
      ['A', 'off-by-one'],
      ['B', 'off-by-one'],
      ['QUIET', 'off-by-one'],
      ['C', 'off-by-one'],
    ]);
  });

  it('a reference model that crashes stops the run, saying at which command', async () => {
    const model = {
      initial: () => 0,
      step: (state: number, command: string) => counterStep(state, command),
    } as unknown as ReferenceModel;
    const run = await runWorld(
      smallWorld({ ticks: 2, arrivals: () => 1, ask: (tick) => (tick === 2 ? 'CRASH' : 'ASK') }),
      null,
      1,
      referenceSession(model),
    );
    assert.deepEqual(run.ticks, [{ measures: { heard: 1 } }]);
    assert.deepEqual(run.stopped, { tick: 2, message: 'the model crashed at "CRASH": division by zero' });
  });

  it('a baseline answers with its first line, keeps its state, and a crash names the baseline by its title', async () => {
    const counter: Baseline<number> = { title: 'Counter', model: { initial: () => 0, step: counterStep } };
    const session = baselineSession(counter as Baseline);
    assert.deepEqual(await session.exchange(['A', 'B']), ['1', '2']);
    assert.deepEqual(await session.exchange(['QUIET', 'C']), ['', '4']);
    await assert.rejects(
      session.exchange(['CRASH']),
      (error: unknown) =>
        error instanceof ProgramStopped &&
        error.message === 'the baseline "Counter" crashed at "CRASH": division by zero',
    );
    const fresh = baselineSession(counter as Baseline);
    const run = await runWorld(
      smallWorld({ ticks: 3, arrivals: () => 1, ask: (tick) => (tick === 3 ? 'CRASH' : 'ASK') }),
      null,
      1,
      fresh,
    );
    assert.deepEqual(run.stopped, { tick: 3, message: 'the baseline "Counter" crashed at "CRASH": division by zero' });
    assert.equal(run.ticks.length, 2);
  });
});
