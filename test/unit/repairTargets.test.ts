/**
 * What the fix search is aimed at (src/node/repair/repair.ts repairTargets): each named mistake's located lines, the
 * function it names and the model's answer where the program went wrong; with no named mistake, the problems; and
 * the line that prints what is not an answer (a fix must take it out, or its verifying check still says so).
 * Reports are cut down to the fields read, by hand (a whole check's report needs a lesson run).
 */
import * as assert from 'node:assert/strict';
import type { CheckReport } from '../../src/core/report/report';
import { repairTargets } from '../../src/node/repair/repair';

const stray = {
  kind: 'stray-output',
  message:
    'Your program printed lines that are not answers, e.g. "2026-12-04T14:47:39.848 INFO least-connections balancer up, reading commands fr… (87 characters)". They were ignored for the checks below.',
};
const source = [
  'import sys',
  '',
  'def serve(lines):',
  '    for line in lines:',
  '        print(line)',
  '',
  'if __name__ == "__main__":',
  '    print(f"{datetime.now().isoformat()} INFO least-connections balancer up, reading commands from stdin")',
  '    serve(sys.stdin)',
  '',
].join('\n');

const report = (fields: Partial<CheckReport>): CheckReport =>
  ({ status: 'fail', mistakes: [], problems: [], counterexample: null, ...fields }) as unknown as CheckReport;

describe('repair targets', () => {
  it("aims at a named mistake's lines and function, with the model's answer where the program went wrong", () => {
    const mistake = {
      id: 'empty-pool',
      line: 14,
      location: { lines: [15] },
      counterexample: { divergesAt: 1, trace: [{ expected: ['OK'] }, { expected: ['EMPTY'] }] },
    };
    const targets = repairTargets(report({ mistakes: [mistake] as unknown as CheckReport['mistakes'] }), source);
    assert.deepEqual(targets, [{ mistake: 'empty-pool', lines: [15], answer: 'EMPTY', functionLine: 14 }]);
  });

  it('aims at the problems of a program with no named mistake, and at the line that prints a stray line', () => {
    const problems = [{ kind: 'unrecognised-difference', message: 'differs' }, stray] as CheckReport['problems'];
    const targets = repairTargets(report({ problems }), source);
    assert.deepEqual(targets, [
      { mistake: 'unrecognised-difference', lines: [] },
      { mistake: 'stray-output', lines: [8] },
    ]);
    assert.deepEqual(repairTargets(report({ status: 'pass' }), source), []);
  });
});
