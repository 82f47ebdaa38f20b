/**
 * A sandboxed run stopped while its sandbox is being set up leaves nothing running. bubblewrap's first child
 * is a fork of the outer bwrap, in a session of its own; a stop that lands after bwrap has released it and
 * before it has tied itself to its parent leaves it running the learner's program for ever, parent init, PID 1
 * of its own namespace (CI saw it: a check cancelled as its run started, checkService.test.ts). The runner ends
 * it by the word only that run's command line carries (src/node/sandbox/ownerMark.ts).
 *
 * Real bubblewrap (and unshare, where it is the sandbox), real Python that never ends; the stops are spread
 * over the first milliseconds of each run, where setup happens, since the gap cannot be held open on purpose,
 * and busy loops (real processes, made here) slow the setup down as a loaded machine does.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { containProgram } from '../../src/node/sandbox/contain';
import type { PreparedProgram } from '../../src/node/languages/languages';
import { availableSandbox, forgetDetectedSandbox, type SandboxTool } from '../../src/node/sandbox/sandbox';
import { survivorsOf } from './processWatch';

const RUNS = 100;
/** The stops fall at 0 to this many ms after each start. */
const SPREAD_MS = 60;
/**
 * Busy processes beside the runs: setup is slow on a busy machine, which widens the gap (on an idle one, 100
 * runs without the runner's look for the word left nothing; with three busy loops, most times one or more).
 */
const BUSY_LOOPS = 3;

describe('a sandboxed run stopped as it starts (real processes)', function () {
  this.timeout(120_000);
  let tmp: string;
  let busy: ChildProcess[] = [];
  const savedTool = process.env.LESSON_COMPANION_SANDBOX_TOOL;

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-stop-early-'));
    busy = Array.from({ length: BUSY_LOOPS }, () =>
      spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
    );
  });
  afterEach(() => {
    for (const loop of busy) loop.kill('SIGKILL');
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  after(() => {
    if (savedTool === undefined) delete process.env.LESSON_COMPANION_SANDBOX_TOOL;
    else process.env.LESSON_COMPANION_SANDBOX_TOOL = savedTool;
    forgetDetectedSandbox();
  });

  for (const tool of ['bwrap', 'unshare'] as SandboxTool[]) {
    it(`${tool}: ${RUNS} runs cancelled in their first milliseconds leave no process behind`, async function () {
      process.env.LESSON_COMPANION_SANDBOX_TOOL = tool;
      forgetDetectedSandbox();
      if ((await availableSandbox())?.tool !== tool) this.skip(); // this machine lacks the tool
      // The file's name is the marker: it is on the command line of the interpreter and of the sandbox.
      const file = path.join(tmp, `spins_${randomBytes(6).toString('hex')}.py`);
      fs.writeFileSync(file, 'import sys\nsys.stdin.read()\nwhile True:\n    pass\n');
      const program: PreparedProgram = {
        runtime: 'python',
        command: 'python3',
        args: [file],
        cwd: tmp,
        readable: [tmp],
        packFiles: [],
        fileName: path.basename(file),
        dispose: async () => undefined,
      };
      const launch = await containProgram(program, { setting: 'require', hidden: [] });
      assert.equal(launch.containment, 'sandbox');
      const endings: string[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const cancel = new AbortController();
        const running = launch.run('', { timeLimitMs: 20_000, outputLimitBytes: 1024, signal: cancel.signal });
        await new Promise((resolve) => setTimeout(resolve, i % SPREAD_MS));
        cancel.abort();
        const result = await running;
        endings.push(result.signal ?? String(result.exitCode));
      }
      assert.ok(
        endings.every((ending) => ending !== '0'),
        `every run was stopped, none ended by itself: ${endings.join(' ')}`,
      );
      const left = await survivorsOf(path.basename(file), 2000);
      assert.deepEqual(left, [], `nothing of ${RUNS} stopped runs is left running`);
    });
  }
});
