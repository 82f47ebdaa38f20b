/**
 * A free choice found in a check whose main batch took several processes (the program crashes on an empty pool):
 * the probe's second look replays the process that answered most lists before its crash, in one fresh process, with
 * T after its prefixes, instead of four more fresh runs of T and a process per prefix (probePhase.ts
 * `answeredStreamReplay`). A fixed rule of its own answers the replay alike; a walk in a per-process hash order
 * answers some list otherwise. FAKE programs answer from the lesson's model (fakeLesson.ts).
 */
import * as assert from 'node:assert/strict';
import type { Execute } from '../../src/core/check/process';
import { checkFake, recorded, tiesByRule } from './fakeLesson';

/** A small string hash, salted per process: the order a set of names is walked in, new in each process. */
const hashed = (name: string, salt: number): number =>
  [...`${salt}:${name}`].reduce((h, ch) => (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0, 7);

/** FAKE program whose ties go to the first of the tied in `order`, and whose PICK on an empty pool crashes. */
const tiesBy = (order: (a: string, b: string, process: number) => number): Execute =>
  tiesByRule(order, ['empty-crash']);

/** Ties to the name last in code-point order: a rule no mutant of the lesson has. */
const lastName = tiesBy((a, b) => (a < b ? 1 : a > b ? -1 : 0));
const setWalk = tiesBy((a, b, process) => hashed(a, process) - hashed(b, process));

describe('probe: a crashing main batch replayed in one fresh process', () => {
  it('a fixed rule of its own: the replay answers alike, three probe runs in all, the rule named fixed', async () => {
    const program = recorded(lastName);
    const report = await checkFake(program);
    assert.ok(
      report.runsByPhase!.run! > 1,
      `the main batch took several processes: ${JSON.stringify(report.runsByPhase)}`,
    );

    assert.deepEqual(report.determinism?.fresh, 'same');
    // T twice and alone, then the replay with T after its prefixes: not four more runs of T and one per prefix.
    assert.equal(report.runsByPhase!.probe, 3, JSON.stringify(report.runsByPhase));
    assert.ok(
      report.mistakes.some((m) => m.id === 'tiebreak'),
      JSON.stringify(report.mistakes.map((m) => m.id)),
    );
    assert.ok(!report.problems.some((p) => p.kind === 'nondeterministic'), 'not called random');
  });

  it('a walk in hash order, new in each process: the replay answers some list otherwise, and it is called random', async () => {
    const report = await checkFake(recorded(setWalk));
    assert.ok(report.runsByPhase!.run! > 1, JSON.stringify(report.runsByPhase));
    assert.equal(report.determinism?.fresh, 'different');
    assert.ok(
      report.problems.some((p) => p.kind === 'nondeterministic'),
      JSON.stringify(report.problems),
    );
  });
});
