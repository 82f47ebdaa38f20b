/**
 * A random program's confirmation run of a free choice (ties at random) must show a choice of its own, by the
 * program's own counts (core `shownBy` in confirm.ts). Caddy's least_conn draws its ties at random and keeps the
 * counts of backends that stay through a POOL: a run whose ties happened to go the reference's way still differs
 * where a kept count settles a pick, and ties at random "explain" that pick in the reference's counts. Taken as
 * the tie rule's counterexample, the vetting then found nothing of the tie rule in it, dropped the finding and
 * told the learner the difference had no name, at about one check in ten (real-style caddy_least_conn.ts, seed 13).
 * The program's runs here are the least-connections model with mutations on (its own answers and counts), so
 * which way the ties go is chosen by the test.
 */
import * as assert from 'node:assert/strict';
import { withObserve } from '../../src/core/check/counterexample';
import { shownBy, type ConfirmContext } from '../../src/core/check/confirm';
import type { Finding } from '../../src/core/diagnosis/diagnose';
import { simulate } from '../../src/core/model/simulate';
import { model } from '../../lessons/least-connections/model/model';

// After a pick of a and a reload of the same pool, a kept count (a:1) settles the next pick: b, where the
// reference, from a:0 b:0, breaks the tie to a.
const commands = ['POOL a b', 'PICK', 'POOL a b', 'PICK'];

const staleCounts: Finding = {
  mistake: 'stale-counts',
  mutation: 'reset-keeps-counts',
  mutations: ['reset-keeps-counts'],
  confidence: 'likely',
  nondeterministic: false,
  steps: [],
  stepCount: 0,
};
const randomTies: Finding = {
  mistake: 'tiebreak',
  mutation: 'tiebreak-any',
  mutations: ['reset-keeps-counts', 'tiebreak-any'],
  confidence: 'likely',
  nondeterministic: true,
  steps: [],
  stepCount: 0,
};

/** One run of the program, its answers and its counts after every command, as a random program is confirmed. */
function runWith(mutations: readonly string[]): Parameters<typeof shownBy>[4] {
  const on = new Set(mutations);
  return {
    plain: simulate(model, commands, on).outcome,
    observed: simulate(model, withObserve(model, commands), on).outcome,
  };
}

const ctx = (random: boolean): ConfirmContext => ({
  model,
  execute: () => Promise.reject(new Error('no process in this test')),
  cases: [],
  streams: [],
  random,
  leaky: random,
  concurrency: 1,
  maxShrinkRounds: 0,
});

describe('confirm: a random program shows a free choice only by a choice of its own', () => {
  const tiesRight = runWith(['reset-keeps-counts']);
  const tiesToTheLast = runWith(['reset-keeps-counts', 'tiebreak-last']);

  it("the run whose ties went the reference's way differs only through the kept count", () => {
    assert.deepEqual(tiesRight.plain.lines, ['OK', 'a', 'OK', 'b']);
    assert.deepEqual(simulate(model, commands).outcome.lines, ['OK', 'a', 'OK', 'a']);
  });

  it("is not the tie rule's counterexample: it is drawn again", () => {
    assert.equal(shownBy(ctx(true), [staleCounts, randomTies], randomTies, commands, tiesRight), null);
  });

  it('a run that broke a tie its own way is', () => {
    const confirmed = shownBy(ctx(true), [staleCounts, randomTies], randomTies, commands, tiesToTheLast);
    assert.ok(confirmed);
    assert.deepEqual(confirmed.learner.lines, ['OK', 'b', 'OK', 'a']);
  });

  it("the kept count's own finding is confirmed by the first run, as before", () => {
    assert.ok(shownBy(ctx(true), [staleCounts, randomTies], staleCounts, commands, tiesRight));
  });
});
