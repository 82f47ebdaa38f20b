/**
 * Where a mistake is, found in one traced run (issue 31: every failing check in at most 8 process runs). When the
 * first thing traced (the counterexample) has no right command of its kind to compare with, the transcript the
 * mistake was seen in is traced too; where the probe saw the program answer a transcript after others as it does
 * alone, both go in one run. A real program of the corpus (Node's cluster round robin in Python), real processes.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { squiggleBlock } from '../../src/core/report/findings';
import { checkFile } from '../../src/node/check/checker';
import { loadPack } from '../../src/node/packs/packs';

const ROOT = path.join(__dirname, '..', '..');
const PYTHON =
  execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim() || 'python3';
const FILE = path.join(ROOT, 'test', 'fixtures', 'real-style', 'least-connections', 'python', 'node_cluster_rr.py');
/** The header's `expect-lines: tiebreak=20`. */
const WRONG_LINE = 20;

describe('where a mistake is, in one traced run', function () {
  this.timeout(120000);

  for (const seed of [1, 2]) {
    it(`a fixed rule of its own (seed ${seed}): both attempts traced in one run, the squiggle on the wrong line`, async () => {
      const pack = await loadPack(path.join(ROOT, 'lessons', 'least-connections'), 'built-in');
      const report = await checkFile(pack, FILE, 'python', { interpreters: { python: PYTHON }, seed });
      const tiebreak = report.mistakes.find((m) => m.id === 'tiebreak');
      assert.ok(tiebreak, JSON.stringify(report.mistakes.map((m) => m.id)));
      assert.deepEqual(report.determinism && [report.determinism.fresh, report.determinism.afterReset], [
        'same',
        'same',
      ]);
      // Traced once: the counterexample alone has no right PICK to compare with.
      assert.equal(report.runsByPhase?.locate, 1, JSON.stringify(report.runsByPhase));
      assert.ok(report.processRuns <= 8, `${report.processRuns} runs: ${JSON.stringify(report.runsByPhase)}`);
      const block = squiggleBlock(tiebreak, fs.readFileSync(FILE, 'utf8'), 'python', undefined);
      assert.ok(block && block.first <= WRONG_LINE && WRONG_LINE <= block.last, JSON.stringify(tiebreak.location));
      // The location says which of the two it comes from.
      assert.ok(tiebreak.location?.at, JSON.stringify(tiebreak.location));
    });
  }
});
