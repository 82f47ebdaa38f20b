/** The class report from rows (pure): the histogram, the common counterexample, the groups and the formats. */
import * as assert from 'node:assert/strict';
import { buildClassReport, type LessonInfo } from '../../src/core/grade/classReport';
import { classReportCsv, csvCell } from '../../src/core/grade/csv';
import { classReportHtml, reportHtmlForWebview } from '../../src/core/grade/html';
import { rowWithoutCheck, type GradeRow, type RowExample, type RowMistake } from '../../src/core/grade/row';

const LESSON: LessonInfo = {
  id: 'least-connections',
  title: 'Least Connections',
  version: '1.0.0',
  steps: ['top', 'class', 'pick()', 'done()'],
  questions: { 'fq-tie': 'Who wins the tie?' },
};

const example = (commands: string[], divergesAt = commands.length - 1): RowExample => ({
  commands,
  divergesAt,
  expected: ['a'],
  actual: ['b'],
});
const mistake = (id: string, ex: RowExample | null): RowMistake => ({
  id,
  title: `Mistake ${id}`,
  step: 3,
  question: 'fq-tie',
  example: ex,
});

function row(
  student: string,
  status: GradeRow['status'],
  mistakes: RowMistake[] = [],
  extra: Partial<GradeRow> = {},
): GradeRow {
  return {
    student,
    file: `${student}/balancer.py`,
    status,
    reason: status === 'pass' ? null : 'why',
    mistakes,
    checks: { passed: status === 'pass' ? 5 : 2, total: 5 },
    problems: [],
    unrecognised: null,
    random: false,
    stoppedAnswering: false,
    quiz: null,
    durationMs: 10,
    ...extra,
  };
}

describe('class report', () => {
  const short = example(['POOL a b', 'PICK']);
  const long = example(['POOL a b c', 'PICK', 'PICK']);
  const rows: GradeRow[] = [
    row('dan', 'pass'),
    row('amy', 'fail', [mistake('tiebreak', long)]),
    row('bob', 'fail', [mistake('tiebreak', short), mistake('negative', null)]),
    row('cat', 'fail', [mistake('tiebreak', short)]),
    row('eve', 'fail', [], { unrecognised: example(['POOL a', 'STATUS']), random: true }),
    row('fay', 'fail', [], { unrecognised: example(['POOL b', 'STATUS']), stoppedAnswering: true }),
    rowWithoutCheck('gus', null, 'missing', 'no balancer.py', 5, { right: 1, total: 2, wrong: ['q2'], unanswered: [] }),
  ];
  // Built for each test, not when the file loads, so that per-test mutation coverage credits these tests.
  let report = buildClassReport(LESSON, [], '');
  beforeEach(() => {
    report = buildClassReport(LESSON, rows, '2026-12-01T00:00:00Z');
  });

  it('counts each mistake once per student, sorted by count, with its share, step and question', () => {
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.count]),
      [
        ['tiebreak', 3],
        ['negative', 1],
      ],
    );
    assert.equal(report.mistakes[0]!.share, 3 / 7);
    assert.deepEqual(report.mistakes[0]!.step, { number: 3, title: 'pick()' });
    assert.deepEqual(report.mistakes[0]!.question, { id: 'fq-tie', prompt: 'Who wins the tie?' });
    const sum = rows.reduce((n, r) => n + r.mistakes.length, 0);
    assert.equal(
      report.mistakes.reduce((n, m) => n + m.count, 0),
      sum,
    );
  });

  it('picks the counterexample most students share', () => {
    assert.deepEqual(report.mistakes[0]!.commonExample?.commands, short.commands);
    assert.equal(report.mistakes[0]!.commonExample?.students, 2);
    assert.equal(report.mistakes[1]!.commonExample, null);
  });

  it("counts the students who reached each rung of the hint ladder, within the pack's cap", () => {
    const at = (rung: 1 | 2 | 3): RowMistake => ({ ...mistake('tiebreak', null), rung });
    const ladder = [row('a', 'fail', [at(3)]), row('b', 'fail', [at(2)]), row('c', 'fail', [at(3)])];
    // A row kept before rungs were counted has none: rung 1.
    const kept = row('d', 'fail', [mistake('tiebreak', null)]);
    const rungs = (maxRung?: number) =>
      buildClassReport({ ...LESSON, ...(maxRung ? { maxRung } : {}) }, [...ladder, kept], '').mistakes[0]!.rungs;
    assert.deepEqual(rungs(), { 1: 4, 2: 3, 3: 2, 4: 0 });
    assert.deepEqual(rungs(2), { 1: 4, 2: 3, 3: 0, 4: 0 });
    assert.deepEqual(rungs(1), { 1: 4, 2: 0, 3: 0, 4: 0 });
    assert.match(classReportHtml(buildClassReport(LESSON, ladder, '')), /question 3 · lines 3 · transcript 2/);
  });

  it('groups unrecognised differences by the command where they first differ', () => {
    assert.deepEqual(
      report.unrecognised.map((g) => [g.command, g.count, g.students]),
      [['STATUS', 2, ['eve', 'fay']]],
    );
  });

  it('counts random programs and ones that stopped answering apart, and every status', () => {
    assert.deepEqual(report.random.students, ['eve']);
    assert.deepEqual(report.stoppedAnswering.students, ['fay']);
    assert.equal(report.statuses.fail, 5);
    assert.equal(report.statuses.missing, 1);
    assert.equal(report.passRate, 1 / 7);
    assert.deepEqual(report.quiz, { graded: 1, meanScore: 0.5, questions: [] });
    assert.deepEqual(
      report.rows.map((r) => r.student),
      ['amy', 'bob', 'cat', 'dan', 'eve', 'fay', 'gus'],
    );
  });

  it('writes CSV that cannot start a formula, quoted as RFC 4180 says', () => {
    assert.equal(csvCell('=HYPERLINK("x")'), '"\'=HYPERLINK(""x"")"');
    assert.equal(csvCell('a,b'), '"a,b"');
    const lines = classReportCsv(report).trimEnd().split('\r\n');
    assert.equal(lines.length, 1 + rows.length);
    assert.match(lines[2]!, /^bob,bob\/balancer.py,fail,why,2,5,tiebreak negative,,,,10,,$/);
  });

  it('writes HTML that loads nothing and escapes what students wrote', () => {
    const hostile = buildClassReport(
      LESSON,
      [row('<img src=x onerror=alert(1)>', 'fail', [mistake('tiebreak', short)])],
      'now',
    );
    const html = classReportHtml(hostile);
    assert.ok(!html.includes('<img'), 'a student name is escaped');
    assert.ok(
      !/<[^>]+\s(src|href)=/.test(html) && !/<(script|link|img)\b/.test(html),
      'nothing is loaded from anywhere',
    );
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
    assert.match(html, /prefers-color-scheme:dark/);
    assert.equal((classReportHtml(report).match(/<rect [^>]*class="bar"/g) ?? []).length, 2, 'one bar per mistake');
  });

  it('shows in the editor under a nonce CSP: one <style> element and no style attributes', () => {
    const html = reportHtmlForWebview(classReportHtml(report), 'N0nce');
    assert.match(html, /content="default-src 'none'; style-src 'nonce-N0nce'"/);
    assert.equal((html.match(/<style nonce="N0nce">/g) ?? []).length, 1);
    assert.equal((html.match(/<style/g) ?? []).length, 1);
    assert.ok(!/\sstyle="/.test(html), 'a style attribute would be blocked by the CSP');
    assert.ok(!html.includes('unsafe-inline'));
  });
});
