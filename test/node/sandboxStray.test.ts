/**
 * Under --sandbox=off, a grandchild started as `setsid nohup env -i bash -c 'sleep 300'` with its stdio on
 * /dev/null (no pipe of the run, no marker in its environment) ends with the check (issue 29): each run is
 * in a cgroup of its own (checkCgroup.ts). Where no cgroup can be made here, the check says so in one line
 * instead. The built CLI (dist/, `node esbuild.mjs` first), real processes.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cgroupUnavailable } from '../../src/node/sandbox/checkCgroup';

const ROOT = path.join(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const CORRECT = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python', 'correct.py');

function withMarker(marker: string): number[] {
  const found: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) found.push(Number(pid));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

describe('a setsid grandchild with no output ends with a --sandbox=off check (real processes)', function () {
  this.timeout(120_000);
  let tmp: string;
  let marker: string;
  before(() => assert.ok(fs.existsSync(CLI), 'run `node esbuild.mjs` first'));
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-stray-')));
    marker = `lc-stray-${process.pid}-${Date.now()}`;
    const [header, rest] = fs.readFileSync(CORRECT, 'utf8').split(/\n(.*)/s) as [string, string];
    // Started as the program exits, so that no poll of the sweep sees it while its parent lives.
    const start = [
      'import atexit, subprocess',
      `atexit.register(lambda: subprocess.Popen(["setsid", "nohup", "env", "-i", "bash", "-c", "sleep 300; : ${marker}"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))`,
    ].join('\n');
    fs.writeFileSync(path.join(tmp, 'balancer.py'), `${header}\n${start}\n${rest}`);
  });
  afterEach(() => {
    for (const pid of withMarker(marker)) process.kill(pid, 'SIGKILL');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('leaves no process of the check after 2 s, or says in one line that it cannot hold it', async () => {
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [CLI, 'check', 'balancer.py', '--sandbox', 'off', '--fuzz', '2'],
        { cwd: tmp, encoding: 'utf8' },
        (_error, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    assert.equal(run.code, 0, run.stderr);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    if (cgroupUnavailable()) {
      assert.match(run.stderr, /can outlive the check/);
      return;
    }
    assert.deepEqual(withMarker(marker), [], 'the grandchild ended with the check');
  });
});
