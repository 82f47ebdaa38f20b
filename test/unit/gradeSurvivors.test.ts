/**
 * The class report's orders, its CSV and GitHub Classroom's parts, where the mutation run left mutants alive
 * (src/core/grade/classReport.ts, csv.ts, classroom.ts): which counterexample a mistake shows when examples
 * tie, the order of rows and groups whose keys tie, the CSV's separators and formula guard, and what a
 * Classroom test and step summary say for a program that could not run. The page itself is in
 * gradeHtmlSurvivors.test.ts.
 */
import * as assert from 'node:assert/strict';
import { buildClassReport } from '../../src/core/grade/classReport';
import { classroomResult, classroomSummary } from '../../src/core/grade/classroom';
import { classReportCsv, csvCell } from '../../src/core/grade/csv';
import { classReportHtml } from '../../src/core/grade/html';
import { CLASS_LESSON, checkReportOf, named, studentRow, table, transcript } from './gradeClass';

describe('class report: ties', () => {
  it('the common example: of two seen once each, the shorter, even when it comes second', () => {
    const long = transcript(['POOL a b c', 'PICK', 'PICK']);
    const short = transcript(['POOL a', 'PICK']);
    const report = buildClassReport(
      CLASS_LESSON,
      [
        studentRow('amy', 'fail', { mistakes: [named('tie', long)] }),
        studentRow('bob', 'fail', { mistakes: [named('tie', short)] }),
      ],
      't',
    );
    assert.deepEqual(report.mistakes[0]!.commonExample, { ...short, students: 1 });
  });

  it('the common example: one two students got beats a shorter one only one got, whichever comes last', () => {
    const long = transcript(['POOL a b c', 'PICK', 'PICK']);
    const short = transcript(['POOL a', 'PICK']);
    const rows = [
      studentRow('amy', 'fail', { mistakes: [named('tie', long)] }),
      studentRow('bob', 'fail', { mistakes: [named('tie', long)] }),
      studentRow('cat', 'fail', { mistakes: [named('tie', short)] }),
    ];
    const report = buildClassReport(CLASS_LESSON, rows, 't');
    assert.deepEqual(report.mistakes[0]!.commonExample, { ...long, students: 2 });
    assert.match(classReportHtml(report), /shown to 2 of 3/);
  });

  it('two submissions with the same student name keep the order they came in: rows, CSV and the page', () => {
    // collect.ts names a report by its repository, so two downloads can share a name; their files differ.
    const first = studentRow('ann', 'fail', { file: 'first/b.py', mistakes: [named('tie')] });
    const second = studentRow('ann', 'pass', { file: 'second/b.py' });
    const report = buildClassReport(CLASS_LESSON, [studentRow('zed', 'pass'), first, second], 't');
    assert.deepEqual(
      report.rows.map((r) => r.file),
      ['first/b.py', 'second/b.py', 'zed/b.py'],
    );
    const csv = classReportCsv(report)
      .split('\r\n')
      .slice(1, 3)
      .map((line) => line.split(',').slice(0, 3));
    assert.deepEqual(csv, [
      ['ann', 'first/b.py', 'fail'],
      ['ann', 'second/b.py', 'pass'],
    ]);
    assert.deepEqual(
      table(classReportHtml(report), 'Student').rows.map((cells) => cells.slice(0, 2)),
      [
        ['ann', 'failed'],
        ['ann', 'passed'],
        ['zed', 'passed'],
      ],
    );
  });

  it('mistakes that as many students made go in order of their ids, the smaller id seen first staying first', () => {
    const report = buildClassReport(
      CLASS_LESSON,
      [
        studentRow('amy', 'fail', { mistakes: [named('alpha')] }),
        studentRow('bob', 'fail', { mistakes: [named('zeta')] }),
      ],
      't',
    );
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.count]),
      [
        ['alpha', 1],
        ['zeta', 1],
      ],
    );
    assert.deepEqual(
      table(classReportHtml(report), 'Mistake').rows.map((cells) => cells[0]),
      ['Mistake alpha alpha', 'Mistake zeta zeta'],
    );
  });

  it("differences at the same command with other expected answers, as many students each: the first student's group first", () => {
    const rows = [
      studentRow('amy', 'fail', { unrecognised: transcript(['POOL a', 'DONE a'], ['OK']) }),
      studentRow('bob', 'fail', { unrecognised: transcript(['POOL a', 'DONE a'], ['NO']) }),
    ];
    const report = buildClassReport(CLASS_LESSON, rows, 't');
    assert.deepEqual(
      report.unrecognised.map((g) => [g.command, g.expected, g.students]),
      [
        ['DONE a', ['OK'], ['amy']],
        ['DONE a', ['NO'], ['bob']],
      ],
    );
    // Both at the end of the input too: the same command text, the order of the students.
    const ended = buildClassReport(
      CLASS_LESSON,
      [
        studentRow('amy', 'fail', { unrecognised: transcript(['POOL a'], ['OK'], [], 1) }),
        studentRow('bob', 'fail', { unrecognised: transcript(['POOL b'], [], [], 1) }),
      ],
      't',
    );
    assert.deepEqual(
      ended.unrecognised.map((g) => [g.command, g.students]),
      [
        ['(end of input)', ['amy']],
        ['(end of input)', ['bob']],
      ],
    );
  });
});

describe('class report: the CSV a gradebook imports', () => {
  it('a header of the documented columns, then one line per student, every line ended by CRLF', () => {
    const report = buildClassReport(CLASS_LESSON, [studentRow('amy', 'pass'), studentRow('bob', 'fail')], 't');
    const lines = classReportCsv(report).split('\r\n');
    assert.deepEqual(lines[0]!.split(','), [
      'student',
      'file',
      'status',
      'reason',
      'checks_passed',
      'checks_total',
      'mistakes',
      'problems',
      'quiz_right',
      'quiz_total',
      'duration_ms',
      'reported_by_workflow',
      'commit',
    ]);
    assert.equal(
      lines.length,
      1 + report.rows.length + 1,
      'a line per student after the header, and the last ends too',
    );
    assert.equal(lines.at(-1), '');
    assert.deepEqual(
      lines.slice(1, 3).map((line) => line.split(',')[0]),
      ['amy', 'bob'],
    );
  });

  it('the mistakes and the problems cells: their ids and kinds, a space between', () => {
    const row = studentRow('amy', 'fail', { mistakes: [named('tie'), named('late')], problems: ['timeout', 'crash'] });
    const cells = classReportCsv(buildClassReport(CLASS_LESSON, [row], 't'))
      .split('\r\n')[1]!
      .split(',');
    assert.deepEqual([cells[6], cells[7]], ['tie late', 'timeout crash']);
  });

  it('a formula character inside a name is text, not a formula: only a leading one gets the apostrophe', () => {
    const report = buildClassReport(
      CLASS_LESSON,
      [studentRow('ann-lee', 'pass', { file: 'ann-lee/b=1.py' }), studentRow('-bob', 'pass', { file: 'x/b.py' })],
      't',
    );
    const cells = classReportCsv(report)
      .split('\r\n')
      .slice(1, 3)
      .map((line) => line.split(',').slice(0, 2));
    assert.deepEqual(cells, [
      ["'-bob", 'x/b.py'],
      ['ann-lee', 'ann-lee/b=1.py'],
    ]);
    assert.equal(csvCell('mary+jo@school'), 'mary+jo@school');
  });

  it('a number is written as it is, a negative one too (only text is guarded against formulas)', () => {
    // No count or duration the report writes is negative; a caller that writes one still gets the number.
    assert.equal(csvCell(-3), '-3');
    assert.equal(csvCell('-3'), "'-3");
  });
});

const HIDDEN = [
  { name: 'ties', description: 'Ties go to pool order' },
  { name: 'done', description: '' },
];

describe('classroom: a test per hidden transcript', () => {
  it('a program that could not run has no verdicts: each test errors with the first line of its first problem', () => {
    const broken = checkReportOf('error', [], {
      problems: [{ kind: 'syntax', message: 'line 3: invalid syntax\n    def pick(' }],
    });
    const result = classroomResult(broken, HIDDEN, 2);
    assert.deepEqual(
      result.tests.map((t) => [t.status, t.score, t.message]),
      HIDDEN.map(() => ['error', 0, 'line 3: invalid syntax']),
    );
    assert.equal(result.status, 'error');
  });

  it('a failing report that lacks a verdict for a transcript fails that test with its first problem', () => {
    const partial = checkReportOf('fail', [{ name: 'ties', description: 'Ties go to pool order', passed: true }], {
      problems: [{ kind: 'timeout', message: 'stopped answering' }],
    });
    const result = classroomResult(partial, HIDDEN, 1);
    assert.deepEqual(
      result.tests.map((t) => [t.name, t.status, t.message]),
      [
        ['Ties go to pool order', 'pass', null],
        ['done', 'fail', 'stopped answering'],
      ],
    );
  });

  it('a difference in several lines shows each side joined by slashes', () => {
    const verdicts = [
      {
        name: 'ties',
        description: 'x',
        passed: false,
        divergesAt: 1,
        expected: ['a:1', 'b:0'],
        actual: ['a:0', 'b:1'],
      },
    ];
    assert.equal(
      classroomResult(checkReportOf('fail', verdicts), [HIDDEN[0]!], 1).tests[0]!.message,
      'first differs at command 2: expected a:1 / b:0, got a:0 / b:1',
    );
  });

  it('each test is what the reporter reads, with no file, line or time (a transcript is none of them)', () => {
    const verdicts = [{ name: 'ties', description: 'Ties go to pool order', passed: true }];
    assert.deepStrictEqual(classroomResult(checkReportOf('pass', verdicts), [HIDDEN[0]!], 3).tests[0], {
      name: 'Ties go to pool order',
      status: 'pass',
      score: 3,
      message: null,
      test_code: 'hidden transcript ties',
      filename: '',
      line_no: 0,
      execution_time: '',
    });
  });
});

describe('classroom: the step summary', () => {
  it('a title with a Windows line break reads as one line with one space', () => {
    const report = checkReportOf('pass', [{ name: 'ties', description: 'x', passed: true }], { file: 'b.py' });
    const text = classroomSummary(report, classroomResult(report, [HIDDEN[0]!], 1), 'Least\r\nConnections');
    assert.equal(text.split('\n')[0], '## Least Connections: 1/1 points');
    assert.equal(
      classroomSummary(null, classroomResult(null, HIDDEN, 1), 'LC', 'no\r\n\r\nsandbox').split('\n')[2],
      'The check did not run: `no sandbox`.',
    );
  });

  it('a blank line parts the pass count from the table of transcripts', () => {
    const verdicts = [
      { name: 'ties', description: 'Ties go to pool order', passed: true },
      { name: 'done', description: '', passed: false, divergesAt: 0, expected: ['OK'], actual: [] },
    ];
    const report = checkReportOf('fail', verdicts, { file: 'b.py' });
    const lines = classroomSummary(report, classroomResult(report, HIDDEN, 1), 'LC').split('\n');
    assert.deepEqual(lines.slice(2, 5), [
      `\`b.py\` · 1 of 2 hidden transcripts pass (${Math.round((1 / 2) * 100)}%)`,
      '',
      '| Transcript | Result | Points |',
    ]);
  });
});
