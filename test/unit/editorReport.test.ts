/**
 * What the Test Explorer may tell of a mistake within the pack's `hints.maxRung` (src/core/report/editorRung.ts
 * `editorReport`, which src/ext/editor/testing.ts renders): below rung 3 no smallest transcript, at rung 1 no
 * lines; each transcript's own answers always.
 */
import * as assert from 'node:assert/strict';
import { editorReport } from '../../src/core/report/editorRung';
import type { CheckReport } from '../../src/core/report/report';

const mistake = {
  id: 'tiebreak',
  title: 'Ties are not broken by pool order',
  hint: 'Which tied backend wins?',
  confidence: 'exact',
  function: 'pick',
  line: 1,
  location: { function: 'pick', lines: [4], reason: 'this line ran at command 2 (PICK)' },
  counterexample: { transcript: 'ties', commands: ['POOL a b', 'PICK'] },
} as unknown as CheckReport['mistakes'][number];
const report = {
  status: 'fail',
  mistakes: [mistake],
  transcripts: [{ name: 'ties', passed: false, expected: ['OK', 'a'], actual: ['OK', 'b'] }],
  problems: [],
} as unknown as CheckReport;

describe("the Test Explorer's report within hints.maxRung", () => {
  it('at rung 1: neither the lines nor the smallest transcript, the function kept', () => {
    const [m] = editorReport(report, 1).mistakes;
    assert.equal(m!.counterexample, null);
    assert.deepEqual(m!.location?.lines, []);
    assert.equal(m!.location?.function, 'pick');
  });

  it('at rung 2: the lines, no smallest transcript', () => {
    const [m] = editorReport(report, 2).mistakes;
    assert.equal(m!.counterexample, null);
    assert.deepEqual(m!.location?.lines, [4]);
  });

  it("from rung 3 and with no cap: the report as it is; at every rung each transcript's answers", () => {
    for (const cap of [undefined, 3, 4]) assert.equal(editorReport(report, cap), report, `cap ${cap}`);
    for (const cap of [1, 2]) assert.deepEqual(editorReport(report, cap).transcripts, report.transcripts);
  });
});
