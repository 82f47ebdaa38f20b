/**
 * A traced run started ahead (CheckInput `traceAhead`): the check starts the run that locates a mistake beside the
 * run that confirms it, on a spare core, and the tracer takes it when it is asked for the same commands. Real
 * learner processes; the attempts are made here as the check makes them (commands with the reset first, and the
 * program's own answers).
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LocateAttempt } from '../../src/core/check/check';
import { checkFile } from '../../src/node/check/checker';
import { learnerRuns, prepareCheck } from '../../src/node/check/checkRuns';
import { loadPack } from '../../src/node/packs/packs';
import { containProgram } from '../../src/node/sandbox/contain';

const ROOT = path.join(__dirname, '..', '..');
const LESSON = path.join(ROOT, 'lessons', 'least-connections');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python');
const PYTHON =
  execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim() || 'python3';

/** `late-increment.py` never counts a pick: every PICK after the first of a pool answers the first backend again. */
const LATE_INCREMENT: LocateAttempt = {
  commands: ['POOL', 'POOL a b', 'PICK', 'PICK'],
  answers: [['OK'], ['OK'], ['a'], ['a']],
  failingIndex: 2,
  otherFailing: [3],
};

async function runsOf(file: string, timeLimitMs?: number) {
  const pack = await loadPack(LESSON, 'built-in');
  const context = await prepareCheck(pack, file, 'python', {
    interpreters: { python: PYTHON },
    ...(timeLimitMs ? { timeLimitMs } : {}),
  });
  const launching = containProgram(context.program, context.contain);
  return { runs: learnerRuns(context, launching), dispose: () => context.program.dispose() };
}

describe('a traced run started ahead', function () {
  this.timeout(120000);

  it('is taken by the locate that asks for the same commands: no run of its own, the same lines as a run of its own', async () => {
    const { runs, dispose } = await runsOf(path.join(FIXTURES, 'late-increment.py'));
    try {
      const alone = await runs.locate([LATE_INCREMENT]);
      assert.equal(alone.runs, 1);
      assert.ok(alone.location, 'a run of its own places the mistake');
      runs.traceAhead(LATE_INCREMENT);
      const taken = await runs.locate([LATE_INCREMENT]);
      assert.equal(taken.runs, 0, 'the run started ahead was taken');
      assert.deepEqual(taken.location, alone.location);
      // Taken once: the next locate of the same commands starts its own.
      assert.equal((await runs.locate([LATE_INCREMENT])).runs, 1);
    } finally {
      await runs.settle();
      await dispose();
    }
  });

  it('is not taken where the tracer is told the answers end otherwise', async () => {
    const { runs, dispose } = await runsOf(path.join(FIXTURES, 'late-increment.py'));
    try {
      runs.traceAhead({ ...LATE_INCREMENT, answers: [['OK'], ['OK'], ['a', 'b'], ['a']] });
      const located = await runs.locate([LATE_INCREMENT]);
      assert.equal(located.runs, 1, 'a run of its own');
      assert.ok(located.location);
    } finally {
      await runs.settle();
      await dispose();
    }
  });

  it('starts at most 4 ahead in one check: an engine worker asking for more gets nothing more started', async () => {
    const { runs, dispose } = await runsOf(path.join(FIXTURES, 'late-increment.py'));
    try {
      for (let i = 0; i < 6; i++) runs.traceAhead(LATE_INCREMENT);
      const taken: number[] = [];
      for (let i = 0; i < 5; i++) taken.push((await runs.locate([LATE_INCREMENT])).runs);
      assert.deepEqual(taken, [0, 0, 0, 0, 1], 'four taken, the fifth ran its own');
    } finally {
      await runs.settle();
      await dispose();
    }
  });

  it('one never taken is stopped when the check settles, not waited out', async () => {
    // A program that answers a line every tenth of a second and never ends: never silent long enough to be
    // stopped as stalled, so only its time limit (60 s here) or the check would end it.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trace-ahead-'));
    const file = path.join(dir, 'chatty.py');
    fs.writeFileSync(file, 'import time\nwhile True:\n    print("OK", flush=True)\n    time.sleep(0.1)\n');
    const { runs, dispose } = await runsOf(file, 60000);
    try {
      runs.traceAhead(LATE_INCREMENT);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const settling = Date.now();
      await runs.settle();
      assert.ok(Date.now() - settling < 30000, `settled after ${Date.now() - settling} ms`);
    } finally {
      await dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const where of ['in this process', 'in the engine worker (the CLI and the editor)']) {
    it(`a whole check of the program, ${where}: placed, in as many runs as before, the traced run taken`, async () => {
      const pack = await loadPack(LESSON, 'built-in');
      const report = await checkFile(pack, path.join(FIXTURES, 'late-increment.py'), 'python', {
        interpreters: { python: PYTHON },
        ...(where.startsWith('in the engine') ? { engine: path.join(ROOT, 'dist', 'engine.js') } : {}),
      });
      assert.deepEqual(
        report.mistakes.map((m) => m.id),
        ['late-increment'],
      );
      // One traced run: the one started ahead, taken (one not taken would be counted beside the locate's own).
      assert.deepEqual(report.runsByPhase, { run: 1, confirm: 1, locate: 1 });
      assert.ok(report.mistakes[0]!.location?.lines.length, JSON.stringify(report.mistakes[0]!.location));
    });
  }
});
