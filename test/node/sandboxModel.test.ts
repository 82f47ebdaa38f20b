/**
 * A pack's model runs only where the OS holds it (issue 29): where no sandbox can be had (played with
 * LESSON_COMPANION_SANDBOX_TOOL=none), a model that is not built in is refused in words, unless the user
 * allows it for that pack (--trust-model <id>); a built-in model runs; --sandbox=off says in one line that
 * a model then runs as the user. The built CLI (dist/, `node esbuild.mjs` first), real processes.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const CORRECT = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python', 'correct.py');

function cli(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, LESSON_COMPANION_SANDBOX_TOOL: 'none' };
    delete env.LESSON_COMPANION_SANDBOX;
    const child = execFile(process.execPath, [CLI, ...args], { cwd, env, encoding: 'utf8' }, (_e, stdout, stderr) =>
      resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

describe('a pack model runs only where a sandbox holds it, or where the user said so (real processes)', function () {
  this.timeout(120_000);
  let tmp: string;
  let pack: string;
  before(() => assert.ok(fs.existsSync(CLI), 'run `node esbuild.mjs` first'));
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-model-held-')));
    pack = path.join(tmp, 'pack');
    fs.cpSync(path.join(ROOT, 'lessons', 'least-connections'), pack, { recursive: true });
    fs.copyFileSync(CORRECT, path.join(tmp, 'balancer.py'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('a folder pack on a machine without a sandbox is refused, naming the pack and the flag', async () => {
    const run = await cli(['check', 'balancer.py', '--lesson', pack, '--fuzz', '4'], tmp);
    assert.equal(run.code, 2, run.stdout);
    assert.match(run.stderr, /the model of lesson "least-connections" is code of the pack, not built in/);
    assert.match(run.stderr, /--trust-model least-connections\)\. Nothing was run\./);
    assert.equal(run.stdout, '');
  });

  it('--trust-model with that pack’s id runs it; with another id it is still refused', async () => {
    const trusted = await cli(
      ['check', 'balancer.py', '--lesson', pack, '--fuzz', '4', '--trust-model', 'least-connections'],
      tmp,
    );
    assert.equal(trusted.code, 0, trusted.stderr);
    const other = await cli(['check', 'balancer.py', '--lesson', pack, '--fuzz', '4', '--trust-model', 'demo'], tmp);
    assert.equal(other.code, 2, other.stdout);
  });

  it('a built-in pack runs; --sandbox=off runs a folder pack and says so in one line', async () => {
    const builtIn = await cli(['check', 'balancer.py', '--fuzz', '4'], tmp);
    assert.equal(builtIn.code, 0, builtIn.stderr);
    const off = await cli(['check', 'balancer.py', '--lesson', pack, '--fuzz', '4', '--sandbox', 'off'], tmp);
    assert.equal(off.code, 0, off.stderr);
    const said = off.stderr.split('\n').filter((line) => /model/.test(line));
    assert.equal(said.length, 1, off.stderr);
    assert.match(said[0]!, /--sandbox=off: the program, and a lesson pack's model that is not built in, run as you/);
  });
});
