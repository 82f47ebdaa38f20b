/**
 * `check --json --output <file>` stays one parseable document when a program without a sandbox writes into
 * the CLI's own stdout through /proc/<pid>/fd/1 (issue 29): the report is written after the check, where
 * no process of the check is left to write. The built CLI (dist/, `node esbuild.mjs` first), stdout a pipe,
 * real processes.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const CORRECT = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python', 'correct.py');

/**
 * Before the lesson's own code: junk into fd 1 of every process above it up to this test's own (the CLI and its
 * shell), and a forged report file. It stops below the test: above it, opening fd 1 for writing truncated the
 * log file the whole suite's output went to (the first steps of a fresh `npm test > log` were lost).
 */
const INTRUDER = `
import os
def intrude():
    pid = os.getppid()
    while pid > 1 and pid != TEST_PID:
        for target in ("/proc/%d/fd/1" % pid,):
            try:
                with open(target, "w") as f:
                    f.write("INTRUDER\\n")
            except OSError:
                pass
        try:
            with open("/proc/%d/stat" % pid) as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            break
    try:
        with open(REPORT_FILE, "w") as f:
            f.write("FORGED")
    except OSError:
        pass
intrude()
`;

/**
 * The CLI with its stdout a pipe made by a shell (`| cat`), as in a terminal or a CI step: the pipes Node makes
 * for a child are sockets, which /proc/<pid>/fd/1 cannot open. The exit code is the CLI's own (pipefail).
 */
function cli(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      '/bin/bash',
      ['-c', 'set -o pipefail; "$@" | cat', 'bash', process.execPath, CLI, ...args],
      { cwd, encoding: 'utf8' },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

describe('--json stays one document when a program writes into the CLI’s stdout (real processes)', function () {
  this.timeout(120_000);
  let tmp: string;
  before(() => assert.ok(fs.existsSync(CLI), 'run `node esbuild.mjs` first'));
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-output-')));
    const correct = fs.readFileSync(CORRECT, 'utf8');
    // The lesson header stays first: the program is the correct one with the intruder run at its start.
    const intruder = INTRUDER.replace('REPORT_FILE', JSON.stringify(path.join(tmp, 'report.json'))).replace(
      'TEST_PID',
      String(process.pid),
    );
    fs.writeFileSync(path.join(tmp, 'balancer.py'), correct.replace(/^(# .*\n)/, `$1${intruder}`));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const lesson = path.join(ROOT, 'lessons', 'least-connections');

  it('--sandbox=off: stdout gets the intruder, the --output file is the report alone', async () => {
    const report = path.join(tmp, 'report.json');
    const run = await cli(
      ['check', 'balancer.py', '--lesson', lesson, '--sandbox', 'off', '--json', '--fuzz', '4', '--output', report],
      tmp,
    );
    assert.match(run.stdout, /INTRUDER/, 'the program did reach the CLI’s stdout (so the test can fail)');
    const parsed = JSON.parse(fs.readFileSync(report, 'utf8')) as { status: string };
    assert.equal(parsed.status, 'pass', run.stderr);
    assert.match(run.stderr, /--sandbox=off: the program, and a lesson pack's model that is not built in, run as you/);
    assert.equal(run.stderr.split('\n').filter((line) => /sandbox=off/.test(line)).length, 1, 'said in one line');
  });
});
