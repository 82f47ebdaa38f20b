/**
 * The check the editor starts (src/node/check/checkProcess.ts), as a real child process of the built CLI: its
 * report arrives, and the check and everything it starts (the learner's program, the engine worker) run
 * below the editor's priority.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkInChildProcess } from '../../src/node/check/checkProcess';

const ROOT = path.resolve(__dirname, '..', '..');

/** The nice value of every live process whose command line holds `marker`. */
function niceness(marker: string): number[] {
  const found: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      found.push(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

describe('the check the editor starts (built CLI, real processes)', function () {
  this.timeout(30000);

  it('reports, and runs the learner program below the editor', async () => {
    const cli = path.join(ROOT, 'dist', 'cli.js');
    assert.ok(fs.existsSync(cli), 'dist/cli.js is built (npm run build)');
    const file = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python', 'hang.py');
    const seen: number[] = [];
    const watch = setInterval(() => seen.push(...niceness(file)), 50);
    try {
      const report = await checkInChildProcess({ node: process.execPath, cli, file, packDir: path.join(ROOT, 'lessons', 'least-connections'), language: 'python' });
      assert.equal(report.status, 'fail');
      assert.ok(report.problems.some((p) => p.kind === 'timeout'));
    } finally {
      clearInterval(watch);
    }
    assert.ok(seen.length > 0, 'the learner program was seen running');
    assert.ok(seen.every((nice) => nice === 10), `nice values seen: ${[...new Set(seen)].join(', ')}`);
  });
});
