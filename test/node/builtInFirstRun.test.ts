/**
 * The command line's first run of a built-in lesson (src/node/check/builtInBatch.ts): its passing batch is
 * computed in the checking process, since a built-in lesson's model is the tool's own code, so the learner's run
 * starts at once and a correct program passes on it without waiting for the engine worker. Any other pack's model
 * runs only in the worker (issue 29). Real learner processes (python3, contained); the engine is a stand-in that
 * fails as it starts (mocked: no real worker can be made to fail at a chosen moment), so a check that passes
 * never needed it, and one that needed it says it failed.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkFile } from '../../src/node/check/checker';
import { loadPack } from '../../src/node/packs/packs';

const ROOT = path.resolve(__dirname, '..', '..');
const LESSON = path.join(ROOT, 'lessons', 'least-connections');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python');

describe("the command line's first run of a built-in lesson (real processes)", function () {
  this.timeout(60000);
  let dir: string;
  let failingEngine: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-first-run-'));
    failingEngine = path.join(dir, 'engine.js');
    fs.writeFileSync(failingEngine, 'process.stderr.write("no engine here\\n"); process.exit(3);\n');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const check = async (packDir: string, origin: 'built-in' | 'folder', program: string) =>
    checkFile(await loadPack(packDir, origin), path.join(FIXTURES, program), 'python', {
      engine: failingEngine,
      builtInFirstRun: true,
    });

  it('passes a correct program on one run, with no engine', async () => {
    const report = await check(LESSON, 'built-in', 'correct.py');
    assert.equal(report.status, 'pass', JSON.stringify(report.problems));
    assert.equal(report.processRuns, 1);
  });

  it('hands a mistaken program to the engine: the first run alone names no mistake', async () => {
    await assert.rejects(check(LESSON, 'built-in', 'late-increment.py'), /engine/);
  });

  it("never runs the model of a pack that is not built in outside the engine, even the same lesson's copy", async () => {
    const copy = path.join(dir, 'copy');
    fs.cpSync(LESSON, copy, { recursive: true });
    await assert.rejects(check(copy, 'folder', 'correct.py'), /engine/);
  });
});
