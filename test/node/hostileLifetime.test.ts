/**
 * Issue 19, items 2 and 3, with the built CLI and engine (dist/, `node esbuild.mjs` first), with bubblewrap,
 * with `unshare` and without a sandbox: nothing outlives a CLI killed with SIGKILL (the learner's program,
 * the engine worker of a model that spins), and a pack's model that reaches for the host's `process` to read
 * the grader's token, connect to a local listener and kill another process gets none of it.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { HostileHarness, exited, type CliRun } from './hostileHarness';
import { HOSTILE, makeCase } from './hostileKit';
import { processesWith } from './processWatch';
import { forgetDetectedSandbox, availableSandbox } from '../../src/node/sandbox/sandbox';

const ROOT = path.join(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');

const SETTINGS = [
  {
    name: 'bubblewrap',
    env: { LESSON_COMPANION_SANDBOX: 'require', LESSON_COMPANION_SANDBOX_TOOL: 'bwrap' },
    tool: 'bwrap',
  },
  {
    name: 'unshare',
    env: { LESSON_COMPANION_SANDBOX: 'require', LESSON_COMPANION_SANDBOX_TOOL: 'unshare' },
    tool: 'unshare',
  },
  { name: 'no sandbox', env: { LESSON_COMPANION_SANDBOX: 'off' }, tool: undefined },
] as const;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until(found: () => Promise<boolean>, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(100)) if (await found()) return true;
  return false;
}

describe('nothing outlives the CLI, and a model reaches nothing (built CLI and engine)', function () {
  this.timeout(120_000);
  const harness = new HostileHarness('auto');
  before(async () => {
    assert.ok(fs.existsSync(path.join(ROOT, 'dist', 'engine.js')), 'run `node esbuild.mjs` first');
    await harness.build();
  });
  after(() => harness.dispose());

  const start = (args: string[], env: NodeJS.ProcessEnv): ChildProcess =>
    spawn(process.execPath, [CLI, ...args], {
      cwd: harness.tmp,
      env: harness.env(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  it('no sandbox and no setpriv on PATH: SIGKILL of the CLI while the worker waits for a run leaves no worker (its stdin closes)', async () => {
    // Without setpriv nothing asks the kernel to end the worker: what ends it is that its stdin closes (its
    // 'end' handler, or simply no handle left). A spinning worker reads nothing: only setpriv or bwrap end it.
    const bin = fs.mkdtempSync(path.join(harness.tmp, 'bin-'));
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    fs.symlinkSync(harness.python, path.join(bin, 'python3'));
    const copy = harness.copy('answers-slowly.py');
    const cli = start(
      ['check', copy.file, '--lesson', harness.pack, '--json', '--python', harness.python, '--timeout', '600000'],
      { LESSON_COMPANION_SANDBOX: 'off', PATH: bin },
    );
    const done = exited(cli);
    const worker = async (): Promise<string[]> =>
      (await processesWith(harness.pack)).filter((line) => line.includes('engine.js'));
    const program = async (): Promise<string[]> =>
      (await processesWith(copy.token)).filter((line) => !line.includes(CLI));
    assert.ok(
      await until(async () => (await worker()).length > 0 && (await program()).length > 0, 20_000),
      'the worker and the program started',
    );
    assert.ok(
      (await worker()).every((line) => !line.includes('setpriv')),
      'nothing ties the worker but its pipe',
    );
    await sleep(500);
    cli.kill('SIGKILL');
    await done;
    await sleep(1000);
    const left = await worker();
    // The program has no tie here either (no setpriv): it is this test's to end, as the sweep would have.
    for (const line of [...left, ...(await program())]) process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
    assert.deepEqual(left, []);
  });

  for (const setting of SETTINGS) {
    const skipWithout = async (context: Mocha.Context): Promise<void> => {
      if (!setting.tool) return;
      process.env.LESSON_COMPANION_SANDBOX_TOOL = setting.tool;
      forgetDetectedSandbox();
      const found = await availableSandbox();
      delete process.env.LESSON_COMPANION_SANDBOX_TOOL;
      forgetDetectedSandbox();
      if (found?.tool !== setting.tool) context.skip();
    };

    it(`${setting.name}: SIGKILL of the CLI mid-check leaves no learner program and no temp folder after a second`, async function () {
      await skipWithout(this);
      const copy = harness.copy('answers-slowly.py');
      const tmpdir = fs.mkdtempSync(path.join(harness.tmp, 'tmpdir-'));
      const cli = start(
        ['check', copy.file, '--lesson', harness.pack, '--json', '--python', harness.python, '--timeout', '600000'],
        { ...setting.env, TMPDIR: tmpdir },
      );
      const done = exited(cli);
      // The CLI's own command line names the program too: only what it started counts.
      const program = async (): Promise<string[]> =>
        (await processesWith(copy.token)).filter((line) => !line.includes(CLI));
      assert.ok(await until(async () => (await program()).length > 0, 20_000), 'the program started');
      await sleep(300);
      cli.kill('SIGKILL');
      await done;
      await sleep(1000);
      assert.deepEqual(await program(), []);
      // Without a sandbox the run's private working folder is here (in a sandbox, /tmp is the sandbox's own).
      assert.deepEqual(fs.readdirSync(tmpdir), [], 'no temp folder is left');
    });

    it(`${setting.name}: SIGKILL of the CLI while the model spins leaves no engine worker after a second`, async function () {
      await skipWithout(this);
      const pack = await makeCase(harness.tmp, `spins-${setting.tool ?? 'off'}`);
      fs.appendFileSync(
        path.join(pack, 'model', 'model.js'),
        fs.readFileSync(path.join(HOSTILE, 'models', 'spins.js')),
      );
      const copy = harness.copy('answers-slowly.py');
      const tmpdir = fs.mkdtempSync(path.join(harness.tmp, 'tmpdir-'));
      const cli = start(
        ['check', copy.file, '--lesson', pack, '--json', '--python', harness.python, '--timeout', '600000'],
        { ...setting.env, TMPDIR: tmpdir, LESSON_COMPANION_ENGINE_QUIET_MS: '600000' },
      );
      const done = exited(cli);
      const worker = async (): Promise<string[]> =>
        (await processesWith(pack)).filter((line) => line.includes('engine.js'));
      assert.ok(await until(async () => (await worker()).length > 0, 20_000), 'the worker started');
      await sleep(1500);
      cli.kill('SIGKILL');
      await done;
      await sleep(1000);
      assert.deepEqual(await worker(), []);
      assert.deepEqual(await processesWith(copy.token), []);
      assert.deepEqual(fs.readdirSync(tmpdir), [], 'no temp folder is left');
    });

    it(`${setting.name}: a model that reaches for process gets no token, no connection and no kill, in words naming the pack`, async function () {
      await skipWithout(this);
      let connections = 0;
      const server = net.createServer((socket) => {
        connections += 1;
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const victim = spawn('sleep', ['60']);
      try {
        const port = String((server.address() as net.AddressInfo).port);
        const pack = await makeCase(harness.tmp, `reaches-${setting.tool ?? 'off'}`);
        const probe = fs
          .readFileSync(path.join(HOSTILE, 'models', 'reaches-process.js'), 'utf8')
          .replaceAll('HOSTILE_PORT', port)
          .replaceAll('HOSTILE_VICTIM', String(victim.pid));
        fs.appendFileSync(path.join(pack, 'model', 'model.js'), probe);
        const copy = harness.copy('slow-correct.py');
        const run: CliRun = await exited(
          start(['check', copy.file, '--lesson', pack, '--python', harness.python, '--fuzz', '2'], setting.env),
        );
        const said = run.stdout + run.stderr;
        assert.ok(!said.includes(harness.secret), 'the token is not in any output');
        assert.match(said, /lesson "demo".*LEAKED refused/, said.slice(0, 2000));
        await sleep(200);
        assert.equal(connections, 0);
        assert.equal(victim.exitCode, null, 'the victim lives');
        assert.equal(victim.signalCode, null, 'the victim lives');
      } finally {
        victim.kill();
        server.close();
      }
    });

    it(`${setting.name}: a model that imports a file outside the pack is refused with that reason, not an empty one`, async function () {
      await skipWithout(this);
      const pack = await makeCase(harness.tmp, `imports-out-${setting.tool ?? 'off'}`);
      fs.writeFileSync(path.join(harness.tmp, 'outside.js'), 'module.exports = {};\n');
      fs.appendFileSync(
        path.join(pack, 'model', 'model.js'),
        "\nimport * as outside from '../../outside.js';\nmodel.description = String(outside);\n",
      );
      const copy = harness.copy('slow-correct.py');
      const run = await exited(start(['check', copy.file, '--lesson', pack, '--python', harness.python], setting.env));
      assert.equal(run.code, 2, run.stdout + run.stderr);
      assert.match(
        run.stderr,
        /not valid: model\/model\.js imports "\.\.\/\.\.\/outside\.js", which is outside the pack/,
      );
    });

    it(`${setting.name}: a pack with a symbolic link to /etc/passwd is refused when it loads, in words naming the link`, async function () {
      await skipWithout(this);
      const pack = await makeCase(harness.tmp, `links-${setting.tool ?? 'off'}`);
      fs.symlinkSync('/etc/passwd', path.join(pack, 'model', 'users.js'));
      fs.appendFileSync(path.join(pack, 'model', 'model.js'), "\nmodel.description = String(require('./users.js'));\n");
      const copy = harness.copy('slow-correct.py');
      const run = await exited(start(['check', copy.file, '--lesson', pack, '--python', harness.python], setting.env));
      assert.equal(run.code, 2, run.stdout + run.stderr);
      assert.match(run.stderr, /model\/users\.js is a symbolic link/);
      assert.doesNotMatch(run.stdout + run.stderr, /root:x:0/);
    });
  }
});
