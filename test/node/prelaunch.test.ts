/**
 * A check's first run started early (src/node/check/prelaunch.ts), with real processes: remembered by one check,
 * started by the next identical one before the CLI has loaded, and adopted only if it is the very run the
 * check was about to start. Then the same check, through the real CLI, with and without a run started early.
 */
import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { claimFirstRun, discardEarlyRun, earlyRun, rememberOutcome, startPrelaunch } from '../../src/node/check/prelaunch';
import { runProcess, spawnPlan, type ProcessSpec } from '../../src/node/run/runner';

const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python');

const spec = (code: string, overrides: Partial<ProcessSpec> = {}): ProcessSpec => ({
  command: PYTHON,
  args: ['-c', code],
  cwd: os.tmpdir(),
  env: { PATH: '/usr/bin:/bin', PYTHONUNBUFFERED: '1' },
  inheritEnv: false,
  timeLimitMs: 10000,
  outputLimitBytes: 1024 * 1024,
  ...overrides,
});

const UPPER = 'import sys\nfor line in sys.stdin: print(line.strip().upper())\nsys.stderr.write("bye\\n")\nsys.exit(3)';
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe('first runs started early (real processes)', function () {
  this.timeout(30000);
  let cacheHome: string;
  let savedCacheDir: string | undefined;
  let argvCount = 0;
  /** A command line of its own for each test: records are keyed by it. */
  let argv: string[];

  beforeEach(() => {
    savedCacheDir = process.env.LESSON_COMPANION_CACHE_DIR;
    cacheHome = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-prelaunch-'));
    fs.chmodSync(cacheHome, 0o700);
    process.env.LESSON_COMPANION_CACHE_DIR = cacheHome;
    argv = ['check', `program-${++argvCount}.py`];
  });
  afterEach(() => {
    // Whatever a test left pending is discarded, so no other test's first run claims it.
    claimFirstRun({ command: '', args: [], cwd: '', env: {} }, '');
    if (savedCacheDir === undefined) delete process.env.LESSON_COMPANION_CACHE_DIR;
    else process.env.LESSON_COMPANION_CACHE_DIR = savedCacheDir;
    fs.rmSync(cacheHome, { recursive: true, force: true });
  });

  /** One check's worth: the launcher's part, then the first run's claim. */
  function firstCheck(run: ProcessSpec, input: string): void {
    startPrelaunch(ROOT, argv);
    assert.equal(earlyRun().pending, false, 'nothing to start early before any check ran');
    assert.equal(claimFirstRun(spawnPlan(run), input), undefined);
  }

  it('remembers a first run, starts it early next time, and the runner takes it over with its output', async () => {
    const run = spec(UPPER);
    firstCheck(run, 'a\nb\n');
    assert.equal(fs.readdirSync(path.join(cacheHome, 'first-runs')).length, 1, 'the first run is remembered');
    startPrelaunch(ROOT, argv);
    assert.equal(earlyRun().pending, true);
    const early = claimFirstRun(spawnPlan(run), 'a\nb\n');
    assert.ok(early, 'the same run is adopted');
    const result = await runProcess(run, 'a\nb\n', early);
    assert.deepEqual([result.stdout, result.stderr, result.exitCode, result.timedOut], ['A\nB\n', 'bye\n', 3, false]);
    assert.equal(earlyRun().pending, false);
  });

  it("keeps the check's verdict with its first run, for the next check to start by", async () => {
    const run = spec(UPPER);
    firstCheck(run, 'a\n');
    rememberOutcome(false);
    startPrelaunch(ROOT, argv);
    assert.deepEqual(earlyRun(), { pending: true, passedLastTime: false });
    await runProcess(run, 'a\n', claimFirstRun(spawnPlan(run), 'a\n'));
    rememberOutcome(true);
    startPrelaunch(ROOT, argv);
    assert.deepEqual(earlyRun(), { pending: true, passedLastTime: true });
    await runProcess(run, 'a\n', claimFirstRun(spawnPlan(run), 'a\n'));
  });

  it('keeps everything a run did when it ended before it was taken over', async () => {
    const run = spec(UPPER);
    firstCheck(run, 'x\ny\nz\n');
    startPrelaunch(ROOT, argv);
    // Node drops a child's unread output once it exits: the run must be listened to from its start.
    await sleep(1500);
    const early = claimFirstRun(spawnPlan(run), 'x\ny\nz\n');
    assert.ok(early);
    const result = await runProcess(run, 'x\ny\nz\n', early);
    assert.deepEqual([result.stdout, result.stderr, result.exitCode], ['X\nY\nZ\n', 'bye\n', 3]);
  });

  it('discards an early run that is not the run asked for, and remembers the new one', async () => {
    const run = spec(UPPER);
    firstCheck(run, 'old\n');
    startPrelaunch(ROOT, argv);
    assert.equal(earlyRun().pending, true);
    // The pack changed: another first input. The early run must not stand in for it.
    assert.equal(claimFirstRun(spawnPlan(run), 'new\n'), undefined);
    const fresh = await runProcess(run, 'new\n');
    assert.equal(fresh.stdout, 'NEW\n');
    startPrelaunch(ROOT, argv);
    const early = claimFirstRun(spawnPlan(run), 'new\n');
    assert.ok(early, 'the new first run was remembered');
    assert.equal((await runProcess(run, 'new\n', early)).stdout, 'NEW\n');
  });

  it('kills a discarded early run, and one started for another command', async () => {
    const slow = spec('import time\ntime.sleep(60)');
    firstCheck(slow, '');
    startPrelaunch(ROOT, argv);
    await sleep(300);
    const other = spec('print(1)');
    assert.equal(claimFirstRun(spawnPlan(other), ''), undefined);
    const pids = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p) && fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('time.sleep(60)'));
    await sleep(200);
    assert.deepEqual(pids.filter((p) => alive(Number(p))), [], 'the discarded run is gone');

    // A check that runs without the sandbox makes no run the early one could be: it is ended at once.
    argv = ['check', `program-${++argvCount}.py`];
    firstCheck(slow, '');
    startPrelaunch(ROOT, argv);
    assert.equal(earlyRun().pending, true);
    await sleep(300);
    const started = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p) && fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('time.sleep(60)'));
    assert.ok(started.length > 0, 'the early run was started');
    discardEarlyRun();
    assert.equal(earlyRun().pending, false);
    await sleep(200);
    assert.deepEqual(started.filter((p) => alive(Number(p))), []);
  });

  it('stops an early run that floods, at the output limit, and one that hangs, by its silence', async () => {
    const flood = spec('while True: print("x" * 98)', { outputLimitBytes: 10050 });
    firstCheck(flood, '');
    startPrelaunch(ROOT, argv);
    await sleep(500);
    const floodResult = await runProcess(flood, '', claimFirstRun(spawnPlan(flood), ''));
    assert.equal(floodResult.outputLimited, true);
    assert.equal(floodResult.stdout.length, 101 * 99);

    argv = ['check', `program-${++argvCount}.py`];
    const hang = spec('import sys, time\nsys.stdin.read()\nprint("started")\ntime.sleep(60)', { stallMs: 300 });
    firstCheck(hang, 'PICK\n');
    startPrelaunch(ROOT, argv);
    const hangResult = await runProcess(hang, 'PICK\n', claimFirstRun(spawnPlan(hang), 'PICK\n'));
    assert.equal(hangResult.stalled, true);
    assert.equal(hangResult.stdout, 'started\n');
  });

  it('ignores a record that is not one', () => {
    startPrelaunch(ROOT, argv);
    claimFirstRun(spawnPlan(spec('print(1)')), '');
    const [name] = fs.readdirSync(path.join(cacheHome, 'first-runs'));
    fs.writeFileSync(path.join(cacheHome, 'first-runs', name!), '{"format":1,"plan":{"command":42},"input":""}');
    startPrelaunch(ROOT, argv);
    assert.equal(earlyRun().pending, false);
  });

  it('gives the same report through the CLI with and without a first run started early', async () => {
    // The built CLI (npm test builds it first): the launcher is where a run starts early.
    const cli = path.join(ROOT, 'dist', 'cli.js');
    assert.ok(fs.existsSync(cli), 'dist/cli.js is built (npm run build)');
    fs.mkdirSync(path.join(cacheHome, 'installed'));
    const env = { ...process.env, LESSON_COMPANION_CACHE_DIR: cacheHome, LESSON_COMPANION_PACKS: path.join(cacheHome, 'installed') };
    const check = (file: string): Promise<Record<string, unknown>> =>
      new Promise((resolve, reject) => {
        execFile(process.execPath, [cli, 'check', '--json', file], { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 }, (_error, stdout, stderr) => {
          try {
            // Timing is the one field that may differ between two runs of the same check.
            const { durationMs: _ignored, ...report } = JSON.parse(stdout) as Record<string, unknown>;
            resolve(report);
          } catch {
            reject(new Error(`no report from check ${file}: ${stderr}`));
          }
        });
      });
    for (const name of ['correct', 'late-increment', 'pair-tiebreak-negative', 'stale-state', 'flood']) {
      const file = path.join(FIXTURES, `${name}.py`);
      // The first check starts nothing early; the second and third adopt the run the launcher started.
      const first = await check(file);
      assert.deepEqual(await check(file), first, name);
      assert.deepEqual(await check(file), first, name);
      if (first.containment === 'sandbox') assert.ok(fs.readdirSync(path.join(cacheHome, 'first-runs')).length > 0, 'sandboxed first runs are remembered');
    }
  });

  it('ends a run started early that the check never came to, with the CLI', async function () {
    this.timeout(25000);
    const cli = path.join(ROOT, 'dist', 'cli.js');
    assert.ok(fs.existsSync(cli), 'dist/cli.js is built (npm run build)');
    const pack = path.join(cacheHome, 'pack');
    fs.cpSync(path.join(ROOT, 'lessons', 'least-connections'), pack, { recursive: true });
    const hang = path.join(FIXTURES, 'hang.py');
    const env = { ...process.env, LESSON_COMPANION_CACHE_DIR: cacheHome };
    const check = (): Promise<number> =>
      new Promise((resolve) => {
        execFile(process.execPath, [cli, 'check', hang, '--lesson', pack, '--json'], { cwd: ROOT, env }, (error) => resolve(error ? Number(error.code) : 0));
      });
    assert.equal(await check(), 1, 'the hang is a failed check, and its first run is remembered');
    // The pack breaks before the next identical check: the launcher starts the hanging run, the check
    // never comes to its first run. The CLI must end it, not wait the 30 s it would hang.
    fs.rmSync(path.join(pack, 'lesson.json'));
    assert.equal(await check(), 2);
    await sleep(300);
    const survivors = fs.readdirSync('/proc').filter((p) => {
      try {
        return /^\d+$/.test(p) && fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(hang) && alive(Number(p));
      } catch {
        return false;
      }
    });
    assert.deepEqual(survivors, []);
  });
});
