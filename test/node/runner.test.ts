/** The bounded process runner, with real processes (python3 -c …). */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runProcess, type ProcessSpec } from '../../src/node/run/runner';
import { timeLimitFor } from '../../src/node/check/checker';

const spec = (code: string, overrides: Partial<ProcessSpec> = {}): ProcessSpec => ({
  command: 'python3',
  args: ['-c', code],
  cwd: os.tmpdir(),
  timeLimitMs: 5000,
  outputLimitBytes: 1024 * 1024,
  ...overrides,
});

/** True while a process with this pid runs; a killed one waiting to be reaped (a zombie) counts as gone. */
function alive(pid: number): boolean {
  try {
    // /proc/<pid>/stat is "pid (name) S ...": the state letter follows the closing parenthesis.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The interpreter itself (python3 on PATH may be a shim that prlimit cannot see through). */
const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

describe('process runner (real processes)', function () {
  this.timeout(20000);

  it('feeds stdin and collects stdout, stderr and the exit code', async () => {
    const result = await runProcess(
      spec('import sys\nfor line in sys.stdin: print(line.strip().upper())\nsys.stderr.write("bye\\n")\nsys.exit(3)'),
      'a\nb\n',
    );
    assert.deepEqual(
      [result.stdout, result.stderr, result.exitCode, result.timedOut, result.outputLimited],
      ['A\nB\n', 'bye\n', 3, false, false],
    );
  });

  it('stops a program that runs past the time limit', async () => {
    const result = await runProcess(spec('while True: pass', { timeLimitMs: 300 }), '');
    assert.equal(result.timedOut, true);
    assert.notEqual(result.exitCode, 0);
  });

  it('stops a program that prints past the output limit, keeping the complete lines within the limit', async () => {
    const result = await runProcess(spec('while True: print("x" * 98)', { outputLimitBytes: 10050 }), '');
    assert.equal(result.outputLimited, true);
    assert.equal(result.timedOut, false);
    // 101 whole lines of 99 bytes fit in 10050; the 102nd is cut by the limit and left out.
    assert.equal(result.stdout, `${'x'.repeat(98)}\n`.repeat(101).slice(0, 9999));
  });

  it('keeps the answers printed in the same write that crosses the limit (before: the whole write was dropped)', async () => {
    const result = await runProcess(
      spec('import sys\nsys.stdout.write("OK\\nOK\\n" + "still looking\\n" * 5000)\nsys.stdout.flush()', {
        outputLimitBytes: 4096,
      }),
      '',
    );
    assert.equal(result.outputLimited, true);
    assert.ok(result.stdout.startsWith('OK\nOK\nstill looking\n'), JSON.stringify(result.stdout.slice(0, 40)));
  });

  it('decodes a character split across two writes (before: two replacement characters)', async () => {
    const code =
      'import sys, time\nsys.stdout.buffer.write(b"caf\\xc3"); sys.stdout.flush(); time.sleep(0.2)\nsys.stdout.buffer.write(b"\\xa9\\n"); sys.stdout.flush()';
    const result = await runProcess(spec(code), '');
    assert.equal(result.stdout, 'café\n');
  });

  it('reports an interpreter that does not exist as a start error', async () => {
    const result = await runProcess(spec('print(1)', { command: '/nonexistent/python3' }), '');
    assert.deepEqual(result.startError, { code: 'ENOENT', command: '/nonexistent/python3' });
  });

  it('does not fail when the program exits without reading its input', async () => {
    const result = await runProcess(spec('print("early")'), 'PICK\n'.repeat(200000));
    assert.deepEqual([result.stdout, result.exitCode], ['early\n', 0]);
  });

  it('kills what the program started when it exits, and does not wait for it', async () => {
    // The grandchild inherits stdout; without the group kill the pipe stays open for 30 s.
    const code = 'import subprocess, sys\np = subprocess.Popen(["sleep", "30"])\nprint(p.pid, flush=True)';
    const result = await runProcess(spec(code), '');
    const pid = Number(result.stdout.trim());
    assert.ok(pid > 0);
    for (let i = 0; i < 40 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(alive(pid), false, 'the grandchild is gone');
  });

  it('returns even when a grandchild that left the process group keeps the pipes open', async () => {
    // Before: `close` never came and the check hung for as long as the grandchild lived.
    const code =
      'import subprocess, sys\np = subprocess.Popen(["sleep", "30"], start_new_session=True)\nprint(p.pid, flush=True)';
    const result = await runProcess(spec(code), '');
    const pid = Number(result.stdout.trim());
    try {
      assert.ok(pid > 0);
      // It exited after its answer: the leftover's silence is not the program's stall (before: the stall watch,
      // finding the exited program's /proc gone, charged the wall clock and called it stopped answering).
      assert.deepEqual([result.exitCode, result.stalled, result.timedOut], [0, undefined, false]);
    } finally {
      // It is outside the runner's reach by design; this test started it, so this test ends it.
      if (pid > 0 && alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('with the descendant sweep, kills a grandchild that left the process group (setsid) when the program exits', async () => {
    const code =
      'import subprocess\np = subprocess.Popen(["sleep", "30"], start_new_session=True)\nprint(p.pid, flush=True)';
    const result = await runProcess(spec(code, { sweepDescendants: true }), '');
    const pid = Number(result.stdout.trim());
    assert.ok(pid > 0);
    for (let i = 0; i < 40 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(alive(pid), false, 'the setsid grandchild is gone');
  });

  it('stops a run when its check is cancelled, and one started after the cancel at once (it raced the cancel)', async () => {
    // It says when its answer is out (a file), so the cancel comes after it whatever the load.
    const answered = path.join(os.tmpdir(), `lc-cancel-${process.pid}-${Date.now()}`);
    const hang = `import time\nprint("OK", flush=True)\nopen(${JSON.stringify(answered)}, "w").close()\ntime.sleep(60)`;
    const stop = new AbortController();
    const running = runProcess(spec(hang, { timeLimitMs: 30000, stallMs: 0, signal: stop.signal }), 'POOL a\n');
    while (!fs.existsSync(answered)) await new Promise((r) => setTimeout(r, 20));
    fs.rmSync(answered);
    stop.abort();
    const cancelled = await running;
    // Killed, and not by its time limit (30 s) nor a stall (off): by the cancel.
    assert.deepEqual([cancelled.stdout, cancelled.signal, cancelled.timedOut], ['OK\n', 'SIGKILL', false]);
    const late = await runProcess(spec(hang, { timeLimitMs: 30000, stallMs: 0, signal: stop.signal }), 'POOL a\n');
    assert.deepEqual([late.stdout, late.signal, late.timedOut], ['', 'SIGKILL', false]);
  });

  it('stops a program that has all its input and prints nothing for a second, long before the time limit', async () => {
    const result = await runProcess(
      spec('import sys, time\nprint(sys.stdin.readline().strip(), flush=True)\ntime.sleep(60)', { timeLimitMs: 30000 }),
      'POOL a\nPICK\n',
    );
    assert.deepEqual([result.stdout, result.stalled, result.timedOut], ['POOL a\n', true, true]);
  });

  it('lets a slow program that keeps answering run to its end', async () => {
    const code = 'import sys, time\nfor line in sys.stdin:\n    time.sleep(0.3)\n    print(line.strip(), flush=True)';
    const result = await runProcess(spec(code, { timeLimitMs: 30000 }), 'a\nb\nc\nd\ne\nf\n');
    assert.deepEqual(
      [result.stdout, result.stalled, result.timedOut, result.exitCode],
      ['a\nb\nc\nd\ne\nf\n', undefined, false, 0],
    );
  });

  it('keeps a bounded head and tail of a stderr flood, never stops for it, and keeps the traceback at its end', async () => {
    const code =
      'import sys\nfor i in range(20000): sys.stderr.write(f"debug line {i}\\n")\nprint("OK", flush=True)\nraise ValueError("the end")';
    const result = await runProcess(spec(code, { stderrLimitBytes: 8192, outputLimitBytes: 1024 }), '');
    assert.deepEqual([result.stdout, result.outputLimited, result.exitCode], ['OK\n', false, 1]);
    assert.ok(result.stderr.length < 9000, `${result.stderr.length} characters kept`);
    assert.ok(result.stderr.startsWith('debug line 0\n'));
    assert.match(result.stderr, /\n… \([\d,]+ bytes of error output left out\) …\n/);
    assert.match(result.stderr, /ValueError: the end\n$/);
  });

  it('tells a program that ran out of memory under its limit, even when it fills memory silently', async () => {
    // Silent while it grows: the hang detection must not stop it first, the memory limit must.
    const code =
      'import time\nprint("ready", flush=True)\nkept = []\nwhile True:\n    kept.append(bytearray(32 * 1024 * 1024))\n    time.sleep(0.05)';
    const prlimit = {
      command: 'prlimit',
      args: [`--data=${256 * 1024 * 1024}`, '--', PYTHON, '-c', code],
      memoryLimitMiB: 256,
      timeLimitMs: 30000,
    };
    const result = await runProcess(spec('', prlimit), '');
    assert.deepEqual([result.memoryExceeded, result.memoryLimitMiB, result.stalled], [true, 256, undefined]);
    assert.match(result.stderr, /MemoryError/);
  });

  it('gives the program only the environment it is given when it does not inherit', async () => {
    // Python itself adds LC_CTYPE when no locale is set (PEP 538).
    const result = await runProcess(
      spec('import os\nprint(" ".join(sorted(set(os.environ) - {"LC_CTYPE"})))', {
        command: PYTHON,
        env: { ONLY: '1' },
        inheritEnv: false,
      }),
      '',
    );
    assert.equal(result.stdout, 'ONLY\n');
  });

  it('a batch gets 25 ms per command when that is more than the time limit', () => {
    assert.equal(timeLimitFor('PICK\n'.repeat(10), 5000), 5000);
    assert.equal(timeLimitFor('PICK\n'.repeat(598), 5000), 598 * 25);
  });
});
