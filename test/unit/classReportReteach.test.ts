/**
 * The class report for reteaching (issue 28) and its honest numbers (issue 34): a bar per mistake variant in
 * that variant's words, the quiz per question with its most common wrong answer, the slowest rows named, no
 * full marks on a failing row, Markdown prompts rendered (and escaped) in HTML, JUnit's time the wall time.
 */
import * as assert from 'node:assert/strict';
import { buildClassReport, NO_RUN } from '../../src/core/grade/classReport';
import { checksCell, classReportHtml, promptHtml } from '../../src/core/grade/html';
import { rowFromReport } from '../../src/core/grade/row';
import type { CheckReport } from '../../src/core/report/report';
import { classReportJunit } from '../../src/node/grade/junit';
import { CLASS_LESSON, named, studentRow, transcript } from './gradeClass';

const wrap = transcript(['CONNECT a', 'DISCONNECT a', 'DISCONNECT a'], ['0'], ['255']);
const negative = transcript(['DISCONNECT a'], ['0'], ['-1']);

describe('class report for reteaching', () => {
  it('a mistake made in two variants is two bars, each titled and shown in its own variant', () => {
    const rows = [
      studentRow('amy', 'fail', { mistakes: [{ ...named('counter', wrap, 'Wraps at 255'), variant: 'wrap' }] }),
      studentRow('bob', 'fail', { mistakes: [{ ...named('counter', negative, 'Goes below zero'), variant: 'neg' }] }),
      studentRow('cy', 'fail', { mistakes: [{ ...named('counter', negative, 'Goes below zero'), variant: 'neg' }] }),
    ];
    const bars = buildClassReport(CLASS_LESSON, rows, 't').mistakes;
    assert.deepEqual(
      bars.map((b) => [b.id, b.variant, b.title, b.count, b.students, b.commonExample?.actual]),
      [
        ['counter', 'neg', 'Goes below zero', 2, ['bob', 'cy'], ['-1']],
        ['counter', 'wrap', 'Wraps at 255', 1, ['amy'], ['255']],
      ],
    );
  });

  it('the quiz per question: answered, right, and the most common wrong answer', () => {
    const quiz = (wrong: Record<string, string>, unanswered: string[] = []) => ({
      right: 2 - Object.keys(wrong).length - unanswered.length,
      total: 2,
      wrong: Object.keys(wrong),
      unanswered,
      questions: ['q1', 'q2'],
      wrongAnswers: wrong,
    });
    const rows = [
      studentRow('a', 'pass', { quiz: quiz({ q1: 'b' }) }),
      studentRow('b', 'pass', { quiz: quiz({ q1: 'c' }) }),
      studentRow('c', 'pass', { quiz: quiz({ q1: 'c' }, ['q2']) }),
      studentRow('d', 'pass', { quiz: quiz({}) }),
    ];
    const lesson = { ...CLASS_LESSON, questions: { q1: 'Which server?' } };
    assert.deepEqual(buildClassReport(lesson, rows, 't').quiz.questions, [
      { id: 'q1', prompt: 'Which server?', answered: 4, right: 1, commonWrong: { answer: 'c', count: 2 } },
      { id: 'q2', prompt: 'q2', answered: 3, right: 3, commonWrong: null },
    ]);
  });

  it('names the slowest rows (over a second), slowest first, with why', () => {
    const rows = [
      studentRow('flood', 'fail', { durationMs: 49_000, problems: ['flood'] }),
      studentRow('hang', 'fail', { durationMs: 46_040, stoppedAnswering: true }),
      studentRow('tie', 'fail', { durationMs: 12_000, random: true }),
      studentRow('quick', 'pass', { durationMs: 900 }),
      studentRow('ok', 'pass', { durationMs: 1_500 }),
    ];
    assert.deepEqual(buildClassReport(CLASS_LESSON, rows, 't').slowest, [
      { student: 'flood', seconds: 49, why: 'flood' },
      { student: 'hang', seconds: 46, why: 'stopped answering (time limit)' },
      { student: 'tie', seconds: 12, why: 'answers differ between runs (checked again)' },
    ]);
  });
});

describe('class report: no row lies (issue 34)', () => {
  const stray: CheckReport = {
    lesson: 'lc',
    language: 'python',
    file: 'b.py',
    status: 'fail',
    checks: { total: 16, passed: 16, failed: 0, notRun: 0 },
    transcripts: [],
    mistakes: [],
    problems: [
      {
        kind: 'stray-output',
        message: 'Your program printed lines that are not answers, e.g. "dbg". They were ignored for the checks below.',
      },
    ],
    counterexample: null,
    fuzz: { seed: 1, transcripts: 0, failed: 0, notRun: 0 },
    durationMs: 5,
    processRuns: 1,
  } as unknown as CheckReport;

  it('a stray-output fail shows no full marks and points at no checks below', () => {
    const row = rowFromReport('sam', 'b.py', stray, null);
    assert.doesNotMatch(row.reason!, /checks below/);
    assert.match(row.reason!, /^stray-output: .*every answer was right, but the check fails on this/);
    assert.doesNotMatch(checksCell(row), /16\/16/);
    const report = buildClassReport(CLASS_LESSON, [row], 't');
    assert.doesNotMatch(classReportHtml(report), /16\/16/);
    assert.doesNotMatch(classReportJunit(report), /16\/16/);
    assert.equal(checksCell({ ...row, status: 'pass' }), '16/16');
  });

  it("renders a prompt's Markdown in HTML and escapes raw HTML in it", () => {
    assert.equal(promptHtml('What does `pick()` return?'), 'What does <code>pick()</code> return?');
    assert.equal(promptHtml('<img src=x onerror=1> *x*'), '&lt;img src=x onerror=1&gt; <em>x</em>');
    assert.equal(promptHtml('[link](https://example.com)'), '[link](https://example.com)');
    const lesson = { ...CLASS_LESSON, questions: { q: 'Why is `conn` off?' } };
    const row = studentRow('a', 'fail', { mistakes: [{ ...named('m'), question: 'q' }] });
    const html = classReportHtml(buildClassReport(lesson, [row], 't'));
    assert.ok(html.includes('Why is <code>conn</code> off?'));
    assert.ok(!html.includes('`conn`'));
  });

  it("JUnit's time is the grade's wall time, not the sum of its rows", () => {
    const rows = [studentRow('a', 'pass', { durationMs: 4000 }), studentRow('b', 'pass', { durationMs: 6000 })];
    const xml = classReportJunit(buildClassReport(CLASS_LESSON, rows, 't', { ...NO_RUN, wallMs: 5500 }));
    assert.match(xml, /<testsuites [^>]*time="5\.500"/);
    assert.match(xml, /<testsuite [^>]*time="5\.500"/);
  });
});
