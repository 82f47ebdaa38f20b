/**
 * A student's row from their check report (core `grade/row`): the status, the one-line reason, each mistake
 * with its step, question, form and behaviour, the unnamed difference, and the flags the class report counts.
 */
import * as assert from 'node:assert/strict';
import { exampleOf, rowFromReport } from '../../src/core/grade/row';
import type { CheckReport, Counterexample, NamedMistake, Problem } from '../../src/core/report/report';

const example = (commands: string[]): Counterexample =>
  ({
    transcript: 't',
    label: 'the t transcript',
    commands,
    expected: ['OK', 'a'],
    actual: ['OK', 'b'],
    divergesAt: 1,
    trace: [],
    shrunkFrom: 4,
    preamble: [],
    reproduced: true,
  }) as Counterexample;

const mistake = (extra: Partial<NamedMistake>): NamedMistake =>
  ({
    id: 'tiebreak',
    title: 'Wrong tiebreak',
    function: 'pick',
    line: 3,
    confidence: 'exact',
    explanation: 'why',
    hint: 'fix',
    mutants: ['tiebreak-name'],
    evidence: { steps: 1, transcripts: 1, first: null },
    revealedBy: [],
    counterexample: null,
    ...extra,
  }) as NamedMistake;

function report(status: CheckReport['status'], extra: Partial<CheckReport> = {}): CheckReport {
  return {
    lesson: 'least-connections',
    language: 'python',
    file: 'balancer.py',
    status,
    checks: { total: 5, passed: status === 'pass' ? 5 : 2, failed: status === 'pass' ? 0 : 3, notRun: 0 },
    transcripts: [],
    mistakes: [],
    problems: [],
    counterexample: null,
    fuzz: { seed: 1, transcripts: 0, failed: 0, notRun: 0 },
    durationMs: 42,
    processRuns: 1,
    ...extra,
  };
}

const problem = (kind: Problem['kind'], message: string): Problem => ({ kind, message });

describe('grade row from a check report', () => {
  it('a pass: no reason, the checks and the time, no flags', () => {
    const quiz = { right: 1, total: 2, wrong: ['q2'], unanswered: [] };
    assert.deepEqual(rowFromReport('amy', 'amy/balancer.py', report('pass'), quiz), {
      student: 'amy',
      file: 'amy/balancer.py',
      status: 'pass',
      reason: null,
      mistakes: [],
      checks: { passed: 5, total: 5 },
      problems: [],
      unrecognised: null,
      random: false,
      stoppedAnswering: false,
      quiz,
      durationMs: 42,
    });
  });

  it('mistakes: their titles as the reason, each with its step, question, form, behaviour and smallest example', () => {
    const named = [
      mistake({
        step: 3,
        question: 'fq-tie',
        variant: { mutant: 'tiebreak-lru', explanation: 'lru' },
        behaviour: 'random',
        counterexample: example(['POOL a b', 'PICK']),
      }),
      mistake({ id: 'late', title: 'Late count' }),
    ];
    const row = rowFromReport(
      'bob',
      'bob/b.py',
      report('fail', { mistakes: named, problems: [problem('stray-output', 'prints')] }),
      null,
    );
    assert.equal(row.reason, 'Wrong tiebreak; Late count');
    assert.deepEqual(row.mistakes, [
      {
        id: 'tiebreak',
        title: 'Wrong tiebreak',
        step: 3,
        question: 'fq-tie',
        variant: 'tiebreak-lru',
        behaviour: 'random',
        example: { commands: ['POOL a b', 'PICK'], divergesAt: 1, expected: ['OK', 'a'], actual: ['OK', 'b'] },
        rung: 3,
      },
      // No transcript but a line: the card's rung 2.
      { id: 'late', title: 'Late count', example: null, rung: 2 },
    ]);
    assert.equal(row.random, true, 'a mistake made at random');
    assert.deepEqual(row.problems, ['stray-output']);
  });

  it("no mistake: the first problem's kind and first line as the reason, else the failed checks", () => {
    assert.equal(
      rowFromReport(
        'c',
        'c.py',
        report('fail', { problems: [problem('timeout', 'stopped\nat PICK'), problem('crash', 'x')] }),
        null,
      ).reason,
      'timeout: stopped',
    );
    assert.equal(rowFromReport('c', 'c.py', report('fail'), null).reason, '3 of 5 checks failed');
    const broken = report('error', { mistakes: [mistake({})], problems: [problem('syntax', 'does not compile')] });
    assert.equal(
      rowFromReport('c', 'c.py', broken, null).reason,
      'syntax: does not compile',
      'an error says its problem even beside mistakes',
    );
  });

  it('flags: each problem kind once, randomness, a hang, and the unnamed difference shown', () => {
    const shown = example(['POOL a', 'STATUS']);
    const row = rowFromReport(
      'd',
      'd.py',
      report('fail', {
        problems: [
          problem('nondeterministic', 'x'),
          problem('timeout', 'y'),
          problem('timeout', 'z'),
          problem('unrecognised-difference', 'w'),
        ],
        counterexample: shown,
      }),
      null,
    );
    assert.deepEqual(row.problems, ['nondeterministic', 'timeout', 'unrecognised-difference']);
    assert.deepEqual([row.random, row.stoppedAnswering], [true, true]);
    assert.deepEqual(row.unrecognised, exampleOf(shown));
    const named = rowFromReport(
      'e',
      'e.py',
      report('fail', { counterexample: shown, mistakes: [mistake({ behaviour: 'rotating' })] }),
      null,
    );
    assert.deepEqual([named.unrecognised, named.random, named.stoppedAnswering], [null, false, false]);
  });

  it('an example is the compared text of a counterexample, or null', () => {
    assert.equal(exampleOf(null), null);
    assert.equal(exampleOf(undefined), null);
  });
});
