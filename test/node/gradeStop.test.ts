/**
 * Ctrl-C during `lesson-companion grade` (the built CLI, as a teacher runs it): the run stops with 130, says
 * how many results it kept and how to go on, leaves no student program running; the same command again
 * resumes, checking only what was not kept (the kept results are in the grader's private store).
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCliBundle } from './cliBundle';

const ROOT = path.join(__dirname, '..', '..');
const LESSON = path.join(ROOT, 'lessons', 'least-connections');

/** Processes whose command line names `folder`: the students' programs (and anything they started). */
function processesUnder(folder: string): number[] {
  const found: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(folder)) found.push(Number(pid));
    } catch {
      // ended while we looked
    }
  }
  return found;
}

describe('grade: Ctrl-C stops cleanly and the next run resumes (built CLI, real processes)', function () {
  this.timeout(180_000);

  it('keeps what it graded, ends the programs, and resumes', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-grade-stop-'));
    try {
      const cli = path.join(tmp, 'dist', 'cli.js');
      await buildCliBundle(cli);
      const generator = (await import(path.join(ROOT, 'scripts', 'grade-class.mjs'))) as {
        makeClass: (dir: string, sizes: object) => unknown[];
      };
      const classDir = path.join(tmp, 'class');
      generator.makeClass(classDir, { correct: 4, mistaken: 0, hostile: 4, special: false });
      const args = [
        cli,
        'grade',
        classDir,
        '--lesson',
        LESSON,
        '--out',
        path.join(tmp, 'out'),
        '--format',
        'json',
        '--fuzz',
        '8',
        '--jobs',
        '2',
      ];
      // The grader's private store (resultStore.ts) in the test's own cache folder.
      const env = { ...process.env, LESSON_COMPANION_CACHE_DIR: path.join(tmp, 'cache') };
      const results = path.join(tmp, 'cache', 'grade', 'results');

      const first = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
      let stderr = '';
      first.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<number | null>((resolve) => first.on('close', (code) => resolve(code)));
      // Stop once the first result is kept, while other checks are under way.
      while (!(fs.existsSync(results) && fs.readdirSync(results).some((f) => f.endsWith('.json'))))
        await new Promise((r) => setTimeout(r, 100));
      first.kill('SIGINT');
      assert.equal(await exited, 130);
      const kept = fs.readdirSync(results).filter((f) => f.endsWith('.json')).length;
      assert.ok(kept >= 1 && kept < 8, `kept ${kept}`);
      assert.match(stderr, /stopped after \d+ of 8; their results are kept\. Run the same command again/);
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(processesUnder(classDir), [], 'no student program is left running');

      const second = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
      let stdout = '';
      second.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      assert.equal(await new Promise((resolve) => second.on('close', resolve)), 0);
      // Every kept result verifies (signed under the grader's key) and is resumed; only the rest is checked.
      const resumed = /\((\d+) results from an earlier run; (\d+) checked now\)/.exec(stdout);
      assert.ok(resumed, stdout);
      assert.ok(Number(resumed[1]) >= kept, `${resumed[1]} resumed of ${kept} kept`);
      assert.equal(Number(resumed[1]) + Number(resumed[2]), 8);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
