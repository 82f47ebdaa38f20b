/**
 * The hostile corpus (test/fixtures/hostile/programs), each program checked by the built CLI as an
 * autograder runs it, with the containment this machine gives: the sandbox, or with
 * LESSON_COMPANION_SANDBOX=off the process group and the sweep (npm test runs this file both ways).
 * Every check must leave no process of the program, change no file outside the program's private folder
 * (the pack and the learner's own folder are hashed before and after), print no secret of the checker's
 * environment, leave nothing in the checker's TMPDIR, and end on its own with a clear message.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { availableSandbox, sandboxSettingFromEnv } from '../../src/node/sandbox/sandbox';
import { exited, hashTree, HostileHarness, type CliRun, type HostileCopy } from './hostileHarness';
import { processesWith, survivorsOf } from './processWatch';
import type { CheckReport } from '../../src/core/report/report';

const setting = sandboxSettingFromEnv();

describe(`hostile learner programs (built CLI, LESSON_COMPANION_SANDBOX=${setting})`, function () {
  this.timeout(120_000);
  const harness = new HostileHarness(setting);
  let containment: 'sandbox' | 'process-group';
  let packHash: string;

  before(async function () {
    this.timeout(120_000);
    await harness.build();
    packHash = hashTree(harness.pack);
    containment = setting !== 'off' && (await availableSandbox()) ? 'sandbox' : 'process-group';
  });
  after(() => harness.dispose());

  /** Skips a case only a sandbox can promise: without one the program runs as the checker's own user. */
  const needsSandbox = (context: Mocha.Context, why: string): void => {
    if (containment === 'process-group') {
      console.log(`      (skipped without a sandbox: ${why})`);
      context.skip();
    }
  };

  /** What every check of a hostile program must give, whatever the program did. */
  async function assertContained(
    copy: HostileCopy,
    run: CliRun & { report?: CheckReport },
    folderHash: string,
  ): Promise<CheckReport> {
    assert.equal(run.signal, null, `the check ended on its own (stderr: ${run.stderr.slice(0, 300)})`);
    assert.ok(run.report, `--json printed one report and nothing else: ${run.stdout.slice(0, 300)}`);
    assert.equal(run.report.containment, containment);
    assert.deepEqual(await survivorsOf(copy.token), [], 'no process of the program is left');
    assert.equal(hashTree(harness.pack), packHash, 'the pack is unchanged');
    assert.equal(hashTree(copy.dir), folderHash, "the learner's folder is unchanged");
    assert.ok(
      !run.stdout.includes(harness.secret) && !run.stderr.includes(harness.secret),
      'no secret of the checker in any output',
    );
    assert.deepEqual(harness.leftovers(), [], "nothing left in the checker's TMPDIR");
    return run.report;
  }

  /** Copies, checks and asserts the common outcome; returns the report for the case's own assertions. */
  async function checkContained(
    program: string,
    args: string[] = [],
    fill: Record<string, string> = {},
  ): Promise<{ report: CheckReport; run: CliRun; copy: HostileCopy }> {
    const copy = harness.copy(program, fill);
    const folderHash = hashTree(copy.dir);
    const run = await harness.check(copy, args);
    return { report: await assertContained(copy, run, folderHash), run, copy };
  }

  const problemText = (report: CheckReport): string =>
    report.problems.map((p) => `${p.kind}: ${p.message}`).join(' | ');

  describe('processes that outlive the check', () => {
    it('daemon-sleeper: the double-forked setsid daemons of every POOL are gone, and it passes', async () => {
      const { report } = await checkContained('daemon-sleeper.py', ['--fuzz', '4']);
      assert.equal(report.status, 'pass', problemText(report));
    });

    it('detached-sleeper: the detached, unref’d Node child is gone, and it passes', async () => {
      const { report } = await checkContained('detached-sleeper.js', ['--fuzz', '4']);
      assert.equal(report.status, 'pass', problemText(report));
    });

    it('clears-environment: `setsid nohup env -i sh -c "sleep 300"` (no marker, own session, holds stdout) is gone, and it passes', async () => {
      const { report } = await checkContained('clears-environment.py', ['--fuzz', '4']);
      assert.equal(report.status, 'pass', problemText(report));
    });

    it('fork-bomb: all 64 processes of the bomb in its own session are gone', async () => {
      const { report } = await checkContained('fork-bomb.py', ['--fuzz', '0']);
      assert.equal(report.status, 'pass', problemText(report));
    });
  });

  describe('reading and changing what grades it', () => {
    it('reads-transcripts: finds no hidden transcript (pack folders, /proc/*/cmdline, /proc/*/cwd), and passes', async function () {
      needsSandbox(this, 'the program can read whatever the user running the checker can');
      const { report, run } = await checkContained('reads-transcripts.py', ['--fuzz', '4']);
      assert.ok(!run.stdout.includes('LEAKED') && !run.stderr.includes('LEAKED'), problemText(report));
      assert.equal(report.status, 'pass', problemText(report));
    });

    it('rewrites-pack: the pack, its own folder, its home and /tmp are untouched, and it passes', async function () {
      needsSandbox(this, 'the program can write wherever the user running the checker can');
      const { report, copy } = await checkContained('rewrites-pack.py', ['--fuzz', '4']);
      assert.equal(report.status, 'pass', problemText(report));
      assert.equal(fs.existsSync(path.join('/tmp', `planted-${copy.token}`)), false);
      assert.deepEqual(fs.readdirSync(harness.home), []);
    });

    it('spoofs-report: writing "✓ All … pass" to /proc/<ppid>/fd/1 leaves --json one failing report', async function () {
      needsSandbox(this, "the program can open its parent's stdout through /proc as the same user");
      const { report, run } = await checkContained('spoofs-report.py', ['--fuzz', '4']);
      assert.equal(report.status, 'fail');
      assert.equal(run.code, 1);
      assert.ok(run.stdout.startsWith('{') && !run.stderr.includes('All 14 checks pass'), run.stderr);
    });

    it('prints-environment: the grader token in the checker’s environment is not in its environment', async () => {
      // It would crash naming the token; its environment lines are stray output, quoted but harmless.
      const { report, run } = await checkContained('prints-environment.py', ['--fuzz', '4']);
      assert.ok(
        report.problems.some((p) => p.kind === 'stray-output'),
        problemText(report),
      );
      assert.ok(!report.problems.some((p) => p.kind === 'crash'), problemText(report));
      assert.ok(!run.stdout.includes('GRADER_TOKEN'), 'not even the name');
    });

    it('reads-parent-environment: /proc/*/environ shows no process of the checker', async function () {
      needsSandbox(this, "the program can read its parent's /proc/<pid>/environ as the same user");
      const { report, run } = await checkContained('reads-parent-environment.py', ['--fuzz', '4']);
      assert.equal(report.status, 'pass', problemText(report));
      assert.ok(!run.stdout.includes('GRADER_TOKEN'));
    });

    it('kills-checker: SIGKILL to its parent and the parent’s group does not stop the check', async function () {
      needsSandbox(this, 'the program can kill the checker, a process of the same user');
      // It reaches no process of the checker. Under unshare the program is the first process of its own
      // namespace, with no parent to kill, and its own group is what it kills: a crash of its own making.
      const { run } = await checkContained('kills-checker.py', ['--fuzz', '4']);
      assert.ok(run.code === 0 || run.code === 1, `exit ${run.code}`);
    });

    it('network: cannot connect to a server on 127.0.0.1', async function () {
      needsSandbox(this, 'the program shares the network of the user running the checker');
      let connections = 0;
      const server = net.createServer((socket) => {
        connections += 1;
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const port = String((server.address() as net.AddressInfo).port);
        const { report } = await checkContained('network.py', ['--fuzz', '4'], { HOSTILE_PORT: port });
        assert.equal(report.status, 'pass', problemText(report));
        assert.equal(connections, 0);
      } finally {
        server.close();
      }
    });
  });

  describe('limits that stop hostile programs and fit correct ones', () => {
    for (const program of ['allocates-forever.py', 'allocates-forever.js']) {
      it(`${program}: stopped with "ran out of memory (limit N MiB)"`, async () => {
        const { report } = await checkContained(program, ['--fuzz', '0']);
        assert.equal(report.status, 'fail');
        assert.match(problemText(report), /ran out of memory \(limit \d+ MiB\)/);
      });
    }

    for (const program of ['spins.py', 'sleeps-forever.py']) {
      it(`${program}: stopped after about 1 s without an answer, not at the time limit`, async () => {
        // A time limit of 60 s: only the hang detection can end this check in time for the test.
        const { report } = await checkContained(program, ['--fuzz', '0', '--timeout', '60000']);
        assert.equal(report.status, 'fail');
        const silence = /timeout: Your program stopped answering.*printed nothing for (\d+(?:\.\d)?) s/.exec(
          problemText(report),
        );
        assert.ok(silence, problemText(report));
        // The silence the runner measured: at least the second it allows, less than the slow-start retry's three and a half.
        assert.ok(Number(silence[1]) >= 1 && Number(silence[1]) < 4, silence[0]);
        assert.ok(report.durationMs < 60_000, `${report.durationMs} ms`);
      });
    }

    for (const program of ['stops-after-40-lines.py', 'closes-stdout.py']) {
      it(`${program}: told it stopped answering at a command, not that state leaks`, async () => {
        for (let round = 0; round < 3; round++) {
          const { report } = await checkContained(program, ['--fuzz', '4']);
          assert.equal(report.status, 'fail');
          assert.ok(!report.problems.some((p) => p.kind === 'stale-state'), problemText(report));
          assert.match(problemText(report), /timeout: Your program stopped answering at `[^`]+` in "/);
        }
      });
    }

    it('floods-stderr: 10 KB of stderr per command is not a reason to stop it, and it passes', async () => {
      const { report } = await checkContained('floods-stderr.py', ['--fuzz', '4']);
      assert.equal(report.status, 'pass', problemText(report));
    });

    it("slow-correct: 10 ms per PICK passes the lesson's whole batch with the default time limit", async () => {
      const { report } = await checkContained('slow-correct.py');
      assert.equal(report.status, 'pass', problemText(report));
      assert.equal(report.processRuns, 1);
    });

    it('--timeout and --fuzz out of range are refused with words, before anything runs', async () => {
      const copy = harness.copy('slow-correct.py');
      const timeout = await harness.check(copy, ['--timeout', '99999999999999']);
      assert.equal(timeout.code, 2);
      assert.match(timeout.stderr, /--timeout 99999999999999 is out of range: use 100 to 600,000 milliseconds/);
      const fuzz = await harness.check(copy, ['--fuzz', '1000000']);
      assert.equal(fuzz.code, 2);
      assert.match(fuzz.stderr, /--fuzz 1000000 is out of range: use 0 to 5,000 random tests/);
    });

    it('--sandbox=require on a machine without one: exit 2 with words, and nothing run', async () => {
      const copy = harness.copy('daemon-sleeper.py');
      const run = await harness.check(copy, ['--sandbox=require'], { LESSON_COMPANION_SANDBOX_TOOL: 'none' });
      assert.equal(run.code, 2);
      assert.match(
        run.stderr,
        /the sandbox is required \(--sandbox=require\) but this machine has none: install bubblewrap/,
      );
      assert.equal(run.stdout, '');
      assert.deepEqual(await processesWith(copy.token), []);
    });
  });

  describe('a checker that is stopped, and `run`', () => {
    for (const [signal, code] of [
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const) {
      it(`check stopped by ${signal}: exit ${code}, the program and its detached helper gone, no temp folder left`, async () => {
        const copy = harness.copy('sleeps-forever.ts');
        const cli = harness.start(['check', copy.file, '--lesson', harness.pack, '--json', '--timeout', '60000']);
        const done = exited(cli);
        // The helper's marker shows the program is running; then the autograder's timeout strikes.
        for (
          let i = 0;
          i < 100 && (await processesWith(copy.token)).filter((l) => l.includes('sleep 300')).length === 0;
          i++
        ) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        cli.kill(signal);
        const run = await done;
        assert.equal(run.code, code, run.stderr);
        assert.match(
          run.stderr,
          new RegExp(`stopped by ${signal}; the learner program it was running was stopped too`),
        );
        assert.deepEqual(await survivorsOf(copy.token), []);
        assert.deepEqual(harness.leftovers(), [], 'the TypeScript transpile folder is removed');
      });
    }

    it('run: the daemons a program leaves behind are ended when it exits', async () => {
      const copy = harness.copy('daemon-sleeper.py');
      const cli = harness.start(['run', copy.file, '--python', harness.python]);
      const done = exited(cli);
      cli.stdin!.end('POOL a b\nPICK\nPOOL c\nSTATUS\n');
      const run = await done;
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, 'OK\na\nOK\nc:0\n');
      assert.deepEqual(await survivorsOf(copy.token), []);
    });

    it('run stopped by SIGTERM: exit 143, and the fork bomb in its own session is gone', async () => {
      const copy = harness.copy('fork-bomb.py');
      const cli = harness.start(['run', copy.file, '--python', harness.python]);
      const done = exited(cli);
      cli.stdin!.write('POOL a b\nPICK\n');
      for (let i = 0; i < 100 && (await processesWith(copy.token)).length < 60; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      assert.ok((await processesWith(copy.token)).length >= 60, 'the bomb went off');
      cli.kill('SIGTERM');
      const run = await done;
      assert.equal(run.code, 143, run.stderr);
      assert.deepEqual(await survivorsOf(copy.token), []);
    });
  });
});
