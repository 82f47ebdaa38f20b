/**
 * The probe's replay of the check's whole batch as evidence about T, the transcript it runs again (src/core/check/
 * probe.ts): a real program, rotate_turn.js (health-checks: ties rotate by a module-level turn that the reset never
 * sets back). At seed 107, T after the others in the first run happens to answer as T alone (the turn stood where a
 * fresh one starts), and only T's second run in one process shows the turn. The replayed batch answered as before:
 * the program keeps to its answers from a fresh start, T's among them, so that difference is state that outlived
 * the reset; a replay of T and T ran once more for it (9 runs, over the budget of 8).
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { checkFile } from '../../src/node/check/checker';
import { loadPack } from '../../src/node/packs/packs';

const ROOT = path.resolve(__dirname, '..', '..');
const PROGRAM = path.join(ROOT, 'test', 'fixtures', 'real-style', 'health-checks', 'javascript', 'rotate_turn.js');

describe('the probe: a replayed batch that answers as before confirms a difference T showed after itself', function () {
  this.timeout(60000);

  it('rotate_turn.js at seed 107: rotating, three probe runs, eight in all', async () => {
    const pack = await loadPack(path.join(ROOT, 'lessons', 'health-checks'), 'built-in');
    const report = await checkFile(pack, PROGRAM, 'javascript', { seed: 107 });
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.confidence, m.behaviour]),
      [['tiebreak', 'likely', 'rotating']],
    );
    // T twice, T alone, the whole batch again; no replay of T and T after it.
    assert.deepEqual(report.determinism, { fresh: 'same', afterReset: 'different', runs: 3 });
    assert.equal(report.runsByPhase?.probe, 3);
    assert.ok(report.processRuns <= 8, `${report.processRuns} runs`);
  });
});
