/** The check's per-phase breakdown (`timings` in --json): each phase it ran timed, by the check's own clock. */
import * as assert from 'node:assert/strict';
import { checkFake, mutantProgram } from './fakeLesson';
import type { Execute } from '../../src/core/check/process';

/** A clock that each process run moves on by 100 ms, and each phase change by 1 ms (counted in the phase that starts). */
function ticking(execute: Execute): { execute: Execute; clock: () => number; onPhase: () => void } {
  let now = 0;
  return {
    execute: async (stdin, limits) => {
      now += 100;
      return execute(stdin, limits);
    },
    clock: () => now,
    onPhase: () => {
      now += 1;
    },
  };
}

describe('the check’s timings by phase (fake program)', () => {
  it('times every phase a mistaken program goes through, and no more than the whole check', async () => {
    const t = ticking(mutantProgram('no-increment'));
    const report = await checkFake(t.execute, {}, { clock: t.clock, onPhase: t.onPhase });
    const timings = report.timings!;
    assert.deepEqual(Object.keys(timings).sort(), ['confirm', 'diagnose', 'run']);
    // The first run is one process; every later run is confirm's.
    assert.equal(timings.run, 101);
    assert.equal(timings.confirm, (report.processRuns - 1) * 100 + 1);
    const sum = Object.values(timings).reduce((a, b) => a + b, 0);
    assert.ok(sum <= report.durationMs, `${sum} ms of phases in a check of ${report.durationMs} ms`);
  });

  it('has only the run for a correct program', async () => {
    const t = ticking(mutantProgram());
    const report = await checkFake(t.execute, {}, { clock: t.clock, onPhase: t.onPhase });
    assert.deepEqual(report.timings, { run: 101 });
  });
});
