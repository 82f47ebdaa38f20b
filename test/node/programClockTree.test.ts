/**
 * What the program clock reads of a real process tree (src/node/run/programClock.ts sampleTree): a program that
 * sleeps is asleep; one blocked writing into a full pipe that nobody reads yet is not (its reader is late, the
 * program is not silent), so a checker starved of CPU does not charge the program the clock for its own delay.
 * Real processes: python3 and its pipes.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { sampleTree } from '../../src/node/run/programClock';
import { runProcess } from '../../src/node/run/runner';
import * as os from 'node:os';

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('the program clock reads a real process tree', function () {
  this.timeout(30_000);
  let child: ChildProcess | undefined;
  afterEach(() => child?.kill('SIGKILL'));

  it('a program that sleeps is asleep', async () => {
    child = spawn('python3', ['-c', 'import time\ntime.sleep(60)'], { stdio: ['ignore', 'pipe', 'ignore'] });
    await settle(800);
    assert.equal(sampleTree(child.pid!).sleeping, true);
  });

  it('a program that has exited, not reaped yet, is ended, not asleep', () => {
    // This process computes without yielding, so it cannot reap its child: the child stays a zombie (Z), which a
    // loaded checker may sample before it hears the exit. A zombie's silence is not a stall.
    child = spawn('python3', ['-c', 'pass'], { stdio: 'ignore' });
    const until = performance.now() + 10_000;
    const state = (): string => {
      const stat = fs.readFileSync(`/proc/${child!.pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    };
    while (state() !== 'Z' && performance.now() < until) {
      // busy: the exit is not heard
    }
    assert.equal(state(), 'Z', 'the child exited');
    const sample = sampleTree(child.pid!);
    assert.deepEqual([sample.ended, sample.sleeping], [true, true]);
  });

  it('a program blocked writing into a full pipe that is not read yet is not asleep', async () => {
    // stdout is a pipe (a socket pair, as Node gives a child) this test does not read: the program soon waits in the kernel.
    child = spawn('python3', ['-c', 'import sys\nwhile True:\n    sys.stdout.write("x" * 4096)'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    child.stdout!.pause();
    await settle(800);
    const sample = sampleTree(child.pid!);
    assert.ok(sample.cpuMs !== undefined, '/proc is readable here');
    assert.equal(sample.sleeping, false);
  });

  it('a run whose reader was starved past its time limit is not stopped for it: its output was waiting', async () => {
    // 2 MB at once, then the end: the program waits on its full stdout while this process computes for 1.5 s
    // without reading (a checker starved of CPU on a loaded machine), well past the run's 500 ms limit.
    const running = runProcess(
      {
        command: 'python3',
        args: ['-c', 'import sys\nsys.stdout.write("x" * 2_000_000)'],
        cwd: os.tmpdir(),
        timeLimitMs: 500,
        outputLimitBytes: 4 * 1024 * 1024,
        stallMs: 0,
      },
      '',
    );
    const until = performance.now() + 1500;
    while (performance.now() < until) {
      // busy: no timer fires and no output is read
    }
    const result = await running;
    assert.equal(result.timedOut, false, 'stopped at its time limit while its output waited to be read');
    assert.equal(result.stdout.length, 2_000_000);
  });

  it('a run that ended while its checker was busy past its time limit is not stopped for it: it finished', async () => {
    // The program answers and exits at once; this process computes for 1.5 s (another check's diagnosis in the
    // same event loop, as in the check service) before it sees the exit, well past the run's 500 ms limit.
    const running = runProcess(
      {
        command: 'python3',
        args: ['-c', 'print("OK")'],
        cwd: os.tmpdir(),
        timeLimitMs: 500,
        outputLimitBytes: 1024,
        stallMs: 0,
      },
      '',
    );
    const until = performance.now() + 1500;
    while (performance.now() < until) {
      // busy: no timer fires and no exit is seen
    }
    const result = await running;
    assert.equal(result.timedOut, false, 'a program that had exited was said to have run out of time');
    assert.equal(result.stdout, 'OK\n');
    assert.equal(result.exitCode, 0);
  });
});
