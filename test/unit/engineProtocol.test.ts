// The engine worker runs pack code, so its host trusts nothing it says: a series from a simulate-reference job
// is checked on arrival (bounded, whole non-negative numbers, one width), and anything else is refused.
import * as assert from 'node:assert/strict';
import { ENGINE_PROTOCOL, isBalancerRun, parseHostMessage, parseWorkerMessage } from '../../src/node/engine/protocol';

const tick = { queues: [3, 0, 0], sent: [4, 4, 4], failed: 0, waiting: 0 };
const series = (run: unknown): string => JSON.stringify({ type: 'series', run });

describe('engine protocol: series from the worker', () => {
  it('accepts a well-formed series, stopped or not', () => {
    assert.deepEqual(parseWorkerMessage(series({ ticks: [tick, tick] })), {
      type: 'series',
      run: { ticks: [tick, tick] },
    });
    assert.ok(parseWorkerMessage(series({ ticks: [tick], stopped: { tick: 2, message: 'the model crashed' } })));
  });

  it('refuses negative, fractional, huge or uneven numbers, and too many ticks', () => {
    for (const bad of [
      { ticks: [{ ...tick, queues: [-1, 0, 0] }] },
      { ticks: [{ ...tick, failed: 0.5 }] },
      { ticks: [{ ...tick, waiting: 1e300 }] },
      { ticks: [tick, { ...tick, queues: [1, 2], sent: [1, 2] }] },
      { ticks: [{ ...tick, sent: [1] }] },
      { ticks: [{ ...tick, queues: Array(13).fill(0), sent: Array(13).fill(0) }] },
      { ticks: Array(201).fill(tick) },
      { ticks: [tick], stopped: { tick: 1, message: 'x'.repeat(5000) } },
      { ticks: 'many' },
      null,
    ]) {
      assert.equal(parseWorkerMessage(series(bad)), undefined, JSON.stringify(bad)?.slice(0, 80));
      assert.equal(isBalancerRun(bad), false);
    }
  });

  it('the worker accepts a simulate-reference job only in the current protocol', () => {
    const job = { kind: 'simulate-reference', packDir: '/p', origin: 'built-in', scenario: 'slow-server' };
    assert.ok(parseHostMessage(JSON.stringify({ type: 'start', protocol: ENGINE_PROTOCOL, job })));
    assert.equal(parseHostMessage(JSON.stringify({ type: 'start', protocol: ENGINE_PROTOCOL - 1, job })), undefined);
    assert.equal(
      parseHostMessage(
        JSON.stringify({ type: 'start', protocol: ENGINE_PROTOCOL, job: { ...job, kind: 'simulate-everything' } }),
      ),
      undefined,
    );
  });

  it('a prepared worker tells a well-formed passing batch or none; anything else is refused', () => {
    const batch = { input: 'RESET\n', expectedStdout: 'OK\n', transcripts: [], fuzz: { seed: 1, transcripts: 0 } };
    const prepared = (b?: unknown): string =>
      JSON.stringify({ type: 'prepared', ...(b === undefined ? {} : { batch: b }) });
    assert.deepEqual(parseWorkerMessage(prepared(batch)), { type: 'prepared', batch });
    assert.deepEqual(parseWorkerMessage(prepared()), { type: 'prepared' });
    for (const bad of [null, 'batch', { ...batch, input: 3 }, { ...batch, fuzz: null }, { ...batch, transcripts: [1] }])
      assert.equal(parseWorkerMessage(prepared(bad)), undefined, JSON.stringify(bad));
    const job = { packDir: '/p', origin: 'built-in' };
    assert.ok(parseHostMessage(JSON.stringify({ type: 'prepare', protocol: ENGINE_PROTOCOL, job })));
    assert.equal(parseHostMessage(JSON.stringify({ type: 'prepare', protocol: ENGINE_PROTOCOL - 1, job })), undefined);
  });

  it('the limits a worker asks a run for are bounded, and only the fields a run reads pass', () => {
    const execute = (limits: unknown): string => JSON.stringify({ type: 'execute', id: 1, input: 'POOL a\n', limits });
    assert.deepEqual(parseWorkerMessage(execute({ stallMs: 3000, outputLimitBytes: 10, extra: 'x' })), {
      type: 'execute',
      id: 1,
      input: 'POOL a\n',
      limits: { outputLimitBytes: 10, stallMs: 3000 },
    });
    for (const stallMs of [0, 99, 10_001, 1.5, '3000', null])
      assert.equal(parseWorkerMessage(execute({ stallMs })), undefined, String(stallMs));
    assert.equal(parseWorkerMessage(execute({ outputLimitBytes: -1 })), undefined);
  });
});

describe('engine protocol: a trace asked for by the worker', () => {
  const attempt = {
    commands: ['POOL', 'POOL a b', 'PICK'],
    answers: [['OK'], ['OK'], ['b']],
    failingIndex: 2,
    otherFailing: [],
  };
  const locate = (a: unknown): string => JSON.stringify({ type: 'locate', id: 1, attempts: [a] });

  it('accepts an attempt with or without a number of tries from 1 to 4', () => {
    for (const a of [attempt, { ...attempt, tries: 1 }, { ...attempt, tries: 4 }])
      assert.deepEqual(parseWorkerMessage(locate(a)), { type: 'locate', id: 1, attempts: [a] });
  });

  it('refuses more tries than the host gives any attempt, none, or a fraction: each try runs the learner', () => {
    for (const tries of [0, 5, 1000, 1.5, -1, '2'])
      assert.equal(parseWorkerMessage(locate({ ...attempt, tries })), undefined, String(tries));
  });

  it('takes `alongside` (traced in one run after the attempts before it) only as a boolean', () => {
    assert.deepEqual(parseWorkerMessage(locate({ ...attempt, alongside: true })), {
      type: 'locate',
      id: 1,
      attempts: [{ ...attempt, alongside: true }],
    });
    for (const alongside of ['yes', 1, null, {}])
      assert.equal(parseWorkerMessage(locate({ ...attempt, alongside })), undefined, JSON.stringify(alongside));
  });

  it("the host's answer says which attempt its location is from, as an index or not at all", () => {
    const located = (extra: object): string => JSON.stringify({ type: 'located', id: 1, runs: 1, ...extra });
    assert.ok(parseHostMessage(located({})));
    assert.ok(parseHostMessage(located({ attempt: 1 })));
    for (const attempt of [-1, 1.5, '1', null])
      assert.equal(parseHostMessage(located({ attempt })), undefined, JSON.stringify(attempt));
  });
});
