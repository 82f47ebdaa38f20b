/**
 * `npm run bench` still runs: its tiny sample (`--sample`: every row once, few checks) from this tree, a real
 * build and real checks. Only that it runs and prints every row with a figure and a verdict is asserted: speed is
 * the bench's to print (ratios and counts), never a test's to assert.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

describe('npm run bench (a tiny sample, real processes)', function () {
  this.timeout(15 * 60 * 1000);

  it('runs from this tree to its table: every budget with its figure', async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [path.join(ROOT, 'scripts', 'bench.mjs'), '--sample'],
        { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
        (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: out, stderr: err }),
      ),
    );
    assert.equal(code, 0, `the bench stopped: ${stderr.slice(-2000)}`);
    const rows = stdout.split('\n').filter((line) => /^\| .* \| (ok|MISSED) +\|$/.test(line));
    if (process.env.BENCH_TEST_PRINT) console.log(stdout);
    for (const row of [
      'one mistake',
      'two mistakes',
      'a fixed wrong tiebreak',
      'state leaking across POOL',
      'a print loop that floods output',
      'a flood is named as an output flood first',
      'random ties (random.choice):',
      'a hang:',
      'memory:',
      'real-style corpus:',
      'real-style corpus, failing programs answering the same on every run',
      'real-style corpus, failing programs answering at random',
      'editor, correct program, repeated check',
    ])
      assert.ok(
        rows.some((line) => line.includes(row)),
        `no row "${row}" in the table:\n${rows.join('\n')}`,
      );
  });
});
