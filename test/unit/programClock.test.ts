/**
 * The silence a program is charged for (src/node/run/programClock.ts), with /proc's samples given by hand: a
 * real program cannot be made to sleep, spin or wait for a core at chosen moments (test/node/stallUnderLoad.test.ts
 * runs real ones on a loaded machine).
 */
import * as assert from 'node:assert/strict';
import { ProgramClock, sampleTree, type TreeSample } from '../../src/node/run/programClock';

/** A clock whose samples are read from `script` in order, at the times given with them. */
function scripted(script: readonly (TreeSample & { at: number })[]): { clock: ProgramClock; next: () => void } {
  let i = 0;
  const clock = new ProgramClock(
    1,
    () => script[i]!,
    () => script[i]!.at,
  );
  return { clock, next: () => (i += 1) };
}

describe('the program clock: silence in the program’s own time', () => {
  it('charges a runnable program only the CPU time it had: waiting for a core is not silence', () => {
    const { clock, next } = scripted([
      { at: 0, cpuMs: 100, sleeping: false },
      { at: 1000, cpuMs: 400, sleeping: false },
      { at: 2000, cpuMs: 700, sleeping: false },
    ]);
    clock.mark();
    next();
    assert.equal(clock.chargedSince(0), 300);
    next();
    assert.equal(clock.chargedSince(0), 600);
  });

  it('charges a sleeping program the wall clock: a sleep for ever is a stall on any machine', () => {
    const { clock, next } = scripted([
      { at: 0, cpuMs: 100, sleeping: true },
      { at: 1000, cpuMs: 100, sleeping: true },
    ]);
    clock.mark();
    next();
    assert.equal(clock.chargedSince(0), 1000);
  });

  it('charges an exited program nothing more, and does not call it asleep: its exit is only not heard yet', () => {
    // A zombie sleeps in the kernel's eyes (Z); on a loaded machine the runner may look before it hears the exit,
    // and a finished program was then called stalled, or stopped at its time limit with all its answers given.
    const { clock, next } = scripted([
      { at: 0, cpuMs: 100, sleeping: true },
      { at: 600, cpuMs: 100, sleeping: true },
      { at: 1600, cpuMs: 100, sleeping: true, ended: true },
    ]);
    clock.mark();
    next();
    assert.deepEqual([clock.chargedSince(0), clock.asleep, clock.ended], [600, true, false]);
    next();
    assert.deepEqual([clock.chargedSince(0), clock.asleep, clock.ended], [600, false, true]);
  });

  it('charges a spinning program on a quiet machine the whole time, and never more than the clock', () => {
    const { clock, next } = scripted([
      { at: 0, cpuMs: 0, sleeping: false },
      { at: 1000, cpuMs: 2000, sleeping: false },
    ]);
    clock.mark();
    next();
    assert.equal(clock.chargedSince(0), 1000);
  });

  it('starts again from nothing when the silence starts again (an answer came)', () => {
    const { clock, next } = scripted([
      { at: 0, cpuMs: 0, sleeping: false },
      { at: 1000, cpuMs: 500, sleeping: false },
      { at: 2000, cpuMs: 1000, sleeping: false },
    ]);
    clock.mark();
    next();
    assert.equal(clock.chargedSince(0), 500);
    next();
    // The last answer came at 1500: only the half of the interval after it is silence.
    assert.equal(clock.chargedSince(1500), 250);
  });

  it('tells the silence charged by CPU time from the silence charged by the clock while the program slept', () => {
    const { clock, next } = scripted([
      { at: 0, cpuMs: 0, sleeping: false },
      { at: 600, cpuMs: 600, sleeping: false },
      { at: 1000, cpuMs: 600, sleeping: true },
      { at: 1400, cpuMs: 600, sleeping: true },
    ]);
    clock.mark();
    next();
    assert.deepEqual([clock.chargedSince(0), clock.chargedByCpuSince(0)], [600, 600]);
    next();
    // Asleep now, but not at the sample before: the program's CPU time says it (none), not the clock.
    assert.deepEqual([clock.chargedSince(0), clock.chargedByCpuSince(0)], [600, 600]);
    next();
    // Asleep at both samples: the clock's 400 ms, none of it CPU time.
    assert.deepEqual([clock.chargedSince(0), clock.chargedByCpuSince(0)], [1000, 600]);
    // Another silence (an answer came at 1200) has no CPU charge yet.
    assert.equal(clock.chargedByCpuSince(1200), 0);
  });

  it('falls back to the wall clock where /proc cannot tell', () => {
    const { clock, next } = scripted([
      { at: 0, cpuMs: undefined, sleeping: false },
      { at: 700, cpuMs: undefined, sleeping: false },
    ]);
    clock.mark();
    next();
    assert.equal(clock.chargedSince(0), 700);
    assert.equal(clock.chargedByCpuSince(0), 0);
  });

  it('reads this process from /proc: its CPU time grows as it works', () => {
    const before = sampleTree(process.pid);
    const until = performance.now() + 100;
    while (performance.now() < until) Math.sqrt(Math.random());
    const after = sampleTree(process.pid);
    assert.ok(before.cpuMs !== undefined && after.cpuMs !== undefined, 'no /proc here');
    assert.ok(after.cpuMs > before.cpuMs, `${before.cpuMs} ms then ${after.cpuMs} ms`);
    assert.equal(after.sleeping, false, 'a process reading its own stat is running');
  });
});
