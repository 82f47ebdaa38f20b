/**
 * A stall is a stall only when the program was silent while it had the CPU (src/node/run/programClock.ts): with
 * busy loops on every core (started here, each ended when the test ends or after a minute), a program that thinks
 * between its answers for less CPU time than the stall limit is not stopped, however long it waits for a core;
 * a spinning hang and a sleeping one still are, the spinning one proven by its CPU time alone (so the check does
 * not run it again), the sleeping one by the clock. The same for the run's time limit: a program that needs less CPU
 * time than its limit is not stopped for waiting longer than it by the clock, and one that spins past it still is.
 * Real processes: python3 and node busy loops.
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import { runProcess, type ProcessSpec } from '../../src/node/run/runner';

const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
const STALL_MS = 400;

const spec = (code: string): ProcessSpec => ({
  command: PYTHON,
  args: ['-c', code],
  cwd: os.tmpdir(),
  timeLimitMs: 30000,
  outputLimitBytes: 1024 * 1024,
  stallMs: STALL_MS,
});

/** Each answer after ~150 ms of CPU work (measured by the program's own CPU clock, whatever the load). */
const THINKER = `
import sys, time
for line in sys.stdin:
    start = time.process_time()
    while time.process_time() - start < 0.15:
        pass
    print("OK", flush=True)
`;

describe('stalls on a loaded machine (real processes, busy loops on every core)', function () {
  this.timeout(120000);
  const loops: ChildProcess[] = [];

  before(() => {
    // Three busy loops a core: the program under test gets at most a quarter of one. Each in a session of its own
    // (detached), as the program is: with the kernel's autogroup scheduling a session shares the CPU as one, so
    // loops in this test's own session would leave the program a whole core (the test then passed on a wall clock).
    for (let i = 0; i < os.cpus().length * 3; i++) {
      const loop = spawn(process.execPath, ['-e', 'setTimeout(() => process.exit(0), 60000); for (;;) {}'], {
        stdio: 'ignore',
        detached: true,
      });
      loops.push(loop);
    }
  });
  after(() => {
    for (const loop of loops) loop.kill('SIGKILL');
  });

  it('does not stop a program that waits for a core between answers', async () => {
    const started = performance.now();
    const result = await runProcess(spec(THINKER), 'PICK\n'.repeat(6));
    const wall = performance.now() - started;
    assert.equal(result.stalled, undefined, `called stalled after ${result.silentMs} ms of silence (${wall} ms)`);
    assert.equal(result.stdout, 'OK\n'.repeat(6));
    // The load was real: the program's six answers took longer than their CPU time by the clock.
    assert.ok(wall > 6 * 150, `the whole run took ${wall.toFixed(0)} ms`);
  });

  it('still stops a spinning hang, proven by its CPU time (the check believes it without a second run)', async () => {
    const result = await runProcess(spec('print("OK", flush=True)\nwhile True: pass'), 'PICK\nPICK\n');
    assert.deepEqual([result.stdout, result.stalled, result.stalledOnCpu], ['OK\n', true, true]);
  });

  it('does not stop a program for the time it waits for a core past its time limit', async () => {
    const started = performance.now();
    const result = await runProcess({ ...spec(THINKER), timeLimitMs: 1500, stallMs: 0 }, 'PICK\n'.repeat(6));
    const wall = performance.now() - started;
    assert.equal(result.timedOut, false, `stopped at its time limit after ${wall.toFixed(0)} ms by the clock`);
    assert.equal(result.stdout, 'OK\n'.repeat(6));
    // The load was real: by the clock the run took longer than its limit (6 × 150 ms of CPU, and the start).
    assert.ok(wall > 1500, `the whole run took ${wall.toFixed(0)} ms`);
  });

  it('still stops a program that computes past its time limit', async () => {
    const spinner = 'import sys\nfor line in sys.stdin:\n    print("OK", flush=True)\n    while True: pass';
    const result = await runProcess({ ...spec(spinner), timeLimitMs: 800, stallMs: 0 }, 'PICK\n');
    assert.deepEqual([result.stdout, result.timedOut], ['OK\n', true]);
  });

  it('still stops a program that sleeps for ever, charged by the clock (the check runs it once more)', async () => {
    const result = await runProcess(spec('import time\nprint("OK", flush=True)\ntime.sleep(600)'), 'PICK\nPICK\n');
    assert.deepEqual([result.stdout, result.stalled, result.stalledOnCpu], ['OK\n', true, undefined]);
  });
});
