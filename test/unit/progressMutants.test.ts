import * as assert from 'node:assert/strict';
import type { CheckReport, Problem } from '../../src/core/report/report';
import { namedMistake as mistake } from './namedMistake';
import {
  checkDetails,
  checkDetailsTooltip,
  checkSummary,
  countsLegend,
  doneEvidence,
  doneWhenItems,
  failureFocus,
  lensTitle,
  lensTooltip,
  LENS_TITLE_MAX,
  mistakesIn,
  pointedFunctions,
  progressLine,
  stepCommand,
  verdictSentence,
} from '../../src/core/report/progress';

function report(overrides: Partial<CheckReport> = {}): CheckReport {
  return {
    lesson: 'least-connections',
    language: 'python',
    file: 'shop.py',
    status: 'fail',
    checks: { total: 5, passed: 3, failed: 2, notRun: 0 },
    transcripts: [],
    mistakes: [],
    problems: [],
    counterexample: null,
    fuzz: { seed: 7, transcripts: 40, failed: 3, notRun: 2 },
    durationMs: 1,
    processRuns: 1,
    ...overrides,
  };
}

const problem = (kind: Problem['kind'], line?: number | null): Problem => ({
  kind,
  message: 'm',
  ...(line !== undefined ? { line } : {}),
});

describe('progress: the verdict, the lens and the done list', () => {
  describe('checkSummary', () => {
    it('says how many hidden transcripts pass and why some did not run', () => {
      const notRun = { total: 5, passed: 3, failed: 2, notRun: 2 };
      assert.equal(
        checkSummary(report({ checks: notRun, problems: [problem('unimplemented')] })),
        '3 of 5 hidden transcripts pass (2 not run: the code is not written yet)',
      );
      assert.equal(
        checkSummary(report({ checks: notRun, problems: [problem('timeout')] })),
        '3 of 5 hidden transcripts pass (2 not run: the program stopped answering)',
      );
      assert.equal(
        checkSummary(report({ checks: notRun, problems: [problem('crash')] })),
        '3 of 5 hidden transcripts pass (2 not run: the program crashed too many times)',
      );
      assert.equal(
        checkSummary(report({ checks: notRun, problems: [problem('crash'), problem('timeout')] })),
        '3 of 5 hidden transcripts pass (2 not run: the program stopped answering)',
      );
      assert.equal(
        checkSummary({ status: 'fail', checks: notRun }),
        '3 of 5 hidden transcripts pass (2 not run: the program stopped answering)',
      );
      assert.equal(checkSummary(report()), '3 of 5 hidden transcripts pass');
    });
  });

  describe('lensTitle', () => {
    it('names the first mistake in the function, and how many more', () => {
      const one = report({ mistakes: [mistake()] });
      assert.equal(lensTitle(one, 'pick'), '✗ Ties go to the last backend · Check again');
      const two = report({
        mistakes: [
          mistake({ confidence: 'likely' }),
          mistake({ id: 'b' }),
          mistake({ id: 'c' }),
          mistake({ id: 'd', function: 'other' }),
        ],
      });
      assert.equal(lensTitle(two, 'pick'), '⚠ Ties go to the last backend… +2 · Check again');
    });
    it('fits an 80-column editor: a long headline is shortened, whole in the tooltip', () => {
      const title = 'A count goes below zero when a backend finishes the same request twice';
      const long = report({ mistakes: [mistake({ title }), mistake({ id: 'b' })] });
      assert.equal(lensTitle(long, 'pick'), '✗ A count goes below zero… +1 · Check again');
      assert.ok(lensTitle(long, 'pick').length <= LENS_TITLE_MAX);
      assert.equal(
        lensTooltip(long, 'pick', 'main.py'),
        `${title}\nTies go to the last backend\n\nClick to run the lesson's hidden transcripts against main.py`,
      );
      assert.equal(
        lensTooltip(null, 'pick', 'main.py'),
        "Click to run the lesson's hidden transcripts against main.py",
      );
    });
    it('falls back to the whole result elsewhere', () => {
      assert.equal(lensTitle(report({ mistakes: [mistake()] }), 'done'), '3 of 5 pass · Check again');
      assert.equal(
        lensTitle(report({ status: 'pass', checks: { total: 5, passed: 5, failed: 0, notRun: 0 } }), 'pick'),
        '✓ All 5 hidden transcripts pass · Check again',
      );
      assert.equal(lensTitle(report({ status: 'error' }), 'pick'), '✗ Could not run · Check again');
      assert.equal(lensTitle(null, 'pick'), '$(beaker) Check');
      assert.equal(lensTitle(report(), 'pick', true), '$(sync~spin) Checking…');
    });
    it('finds mistakes by the function they point at', () => {
      const r = report({
        mistakes: [
          mistake(),
          mistake({ id: 'b', location: { lines: [3], function: 'select', reason: 'r' } }),
          mistake({ id: 'c' }),
        ],
      });
      assert.deepEqual(
        mistakesIn(r, 'select').map((m) => m.id),
        ['b'],
      );
      assert.deepEqual(mistakesIn(null, 'pick'), []);
      assert.deepEqual(pointedFunctions(r), ['pick', 'select']);
      assert.deepEqual(pointedFunctions(undefined), []);
    });
  });

  describe('failureFocus', () => {
    it('points at the first mistake’s first traced line, else its function line', () => {
      assert.deepEqual(
        failureFocus(
          report({ mistakes: [mistake({ location: { lines: [30, 29], function: 'select', reason: 'r' } })] }),
        ),
        { function: 'select', line: 30 },
      );
      assert.deepEqual(failureFocus(report({ mistakes: [mistake()] })), { function: 'pick', line: 12 });
    });
    it('else at the first problem with a real line', () => {
      assert.deepEqual(
        failureFocus(
          report({ problems: [problem('crash', 0), problem('crash', null), problem('crash', 7), problem('crash', 9)] }),
        ),
        { function: null, line: 7 },
      );
      assert.deepEqual(failureFocus(report({ problems: [problem('crash')] })), { function: null, line: null });
    });
  });

  describe('verdictSentence', () => {
    it('leads with the problem when nothing ran', () => {
      assert.equal(
        verdictSentence(report({ status: 'error', problems: [problem('syntax')] })),
        'Your program does not start. Fix that first (see below), then Check again.',
      );
      assert.equal(
        verdictSentence(report({ status: 'error' })),
        'Your program did not run. Fix that first (see below), then Check again.',
      );
    });
    it('names one mistake, or how many and the first', () => {
      assert.equal(
        verdictSentence(report({ mistakes: [mistake({ confidence: 'likely' })] })),
        'One mistake found: “Ties go to the last backend” (likely). Read its card below, fix it, then Check again.',
      );
      const three = report({
        mistakes: [mistake(), mistake({ id: 'b', title: 'B' }), mistake({ id: 'c', title: 'C' })],
      });
      assert.equal(
        verdictSentence(three),
        `${three.mistakes.length} mistakes found. Start with “Ties go to the last backend”: read its card below, fix it, then Check again.`,
      );
    });
    it('explains a failure without a named mistake', () => {
      assert.equal(
        verdictSentence(report({ problems: [problem('unimplemented')] })),
        'Your code is not written yet: write the functions the card below names, then Check again.',
      );
      assert.equal(
        verdictSentence(report({ problems: [problem('model-error')] })),
        "The lesson's own reference failed: this is not your mistake. Tell the lesson's author (details below).",
      );
      assert.equal(
        verdictSentence(report({ problems: [problem('stray-output')] })),
        'Lines that are not answers. Read the card below, fix it, then Check again.',
      );
      assert.equal(
        verdictSentence(report()),
        'Some answers differ from the expected ones. Compare the transcript below with your code, then Check again.',
      );
    });
  });

  describe('checkDetails', () => {
    it('counts the random tests that ran, failed and did not run, with the seed', () => {
      assert.equal(checkDetails(report()), 'Also 40 random tests: 3 of 38 failed (2 not run) · seed 7');
      assert.equal(
        checkDetails(report({ fuzz: { seed: 9, transcripts: 40, failed: 0, notRun: 0 } })),
        'Also 40 random tests: all 40 passed · seed 9',
      );
      const older = { status: 'fail', fuzz: { seed: 9, transcripts: 10, failed: 1 } } as unknown as Pick<
        CheckReport,
        'status' | 'fuzz'
      >;
      assert.equal(checkDetails(older), 'Also 10 random tests: 1 of 10 failed · seed 9');
    });
    it('is empty when no random test ran', () => {
      assert.equal(checkDetails(report({ fuzz: { seed: 9, transcripts: 0, failed: 0, notRun: 0 } })), '');
      assert.equal(checkDetails(report({ status: 'error' })), '');
      assert.equal(checkDetails(report({ fuzz: { seed: 9, transcripts: 4, failed: 0, notRun: 4 } })), '');
    });
  });

  describe('countsLegend', () => {
    it('tells the Testing view count from the Problems count', () => {
      assert.equal(
        countsLegend(report({ checks: { total: 5, passed: 4, failed: 1, notRun: 0 }, mistakes: [mistake()] })),
        'The Testing view marks the 1 hidden transcript that did not pass; Problems lists the mistake found.',
      );
      assert.equal(
        countsLegend(report({ mistakes: [mistake(), mistake({ id: 'b' }), mistake({ id: 'c' })] })),
        'The Testing view marks the 2 hidden transcripts that did not pass; Problems lists the 3 mistakes found.',
      );
      // The untouched starter: 1 failed, 15 never run. Not "16 failing" beside "(15 not run)".
      assert.equal(
        countsLegend(report({ checks: { total: 16, passed: 0, failed: 16, notRun: 15 }, mistakes: [] })),
        'The Testing view marks the 16 hidden transcripts that did not pass (1 failed, 15 not run).',
      );
      assert.equal(
        countsLegend(
          report({
            checks: { total: 5, passed: 5, failed: 0, notRun: 0 },
            mistakes: [mistake(), mistake({ id: 'b' })],
          }),
        ),
        'Problems lists the 2 mistakes found.',
      );
    });
    it('is empty when there is nothing to tell apart', () => {
      assert.equal(countsLegend(report({ checks: { total: 5, passed: 5, failed: 0, notRun: 0 } })), '');
      assert.equal(countsLegend(report({ status: 'pass', mistakes: [mistake()] })), '');
    });
  });

  describe('checkDetailsTooltip', () => {
    it('explains the random tests, randomness and the sandbox', () => {
      const r = report({
        determinism: { fresh: 'different', afterReset: 'different', runs: 2 },
        containment: 'sandbox',
      });
      assert.equal(
        checkDetailsTooltip(r),
        [
          'Besides the hidden transcripts, each check runs 40 random transcripts made from seed 7. The same seed makes the same transcripts. To replay a failing one, use “Run in terminal” under its table.',
          'Two runs of the same commands gave different answers: something in your program is random.',
          "Your program ran in a sandbox: it could not see the lesson's files or other processes.",
        ].join('\n'),
      );
      const reset = report({
        status: 'error',
        determinism: { fresh: 'same', afterReset: 'different', runs: 2 },
        containment: 'process-group',
      });
      assert.equal(
        checkDetailsTooltip(reset),
        'The same commands after a reset gave different answers: something carries over from one run to the next.',
      );
    });
    it('is empty with nothing to explain', () => {
      assert.equal(
        checkDetailsTooltip(
          report({
            fuzz: { seed: 1, transcripts: 0, failed: 0, notRun: 0 },
            determinism: { fresh: 'same', afterReset: 'same', runs: 2 },
          }),
        ),
        '',
      );
      assert.equal(checkDetailsTooltip(report({ status: 'error' })), '');
    });
  });

  it('shows reading progress, and questions only when the lesson has some', () => {
    assert.equal(progressLine({ stepsRead: 2, steps: 6, answered: 1, questions: 5 }), '2 of 6 read · 1 of 5 answered');
    assert.equal(progressLine({ stepsRead: 2, steps: 6, answered: 0, questions: 0 }), '2 of 6 read');
  });

  describe('the done list', () => {
    it('reads which evidence a statement names', () => {
      assert.equal(doneEvidence('Every hidden transcript passes: N of N.'), 'transcripts');
      assert.equal(doneEvidence('You have read every step.'), 'steps');
      assert.equal(doneEvidence('Every step is done.'), 'steps');
      assert.equal(doneEvidence('You can explain the steps.'), 'questions');
      assert.equal(doneEvidence('You know the model.'), 'questions');
    });
    it('ticks each item by its own evidence, with the numbers beside it', () => {
      const facts = { report: report(), hiddenTranscripts: 9, stepsRead: 6, steps: 6, answered: 1, questions: 5 };
      const items = doneWhenItems(
        ['Every hidden transcript passes: N of N.', 'You have read every step.', 'You can explain ties.'],
        facts,
      );
      assert.deepEqual(items, [
        { text: 'Every hidden transcript passes: 3 of 5.', met: false, evidence: '3 of 5 pass' },
        { text: 'You have read every step.', met: true, evidence: '6 of 6 steps read' },
        { text: 'You can explain ties.', met: false, evidence: '1 of 5 questions answered' },
      ]);
    });
    it('before any check, and for a lesson without steps or questions', () => {
      const facts = { report: null, hiddenTranscripts: 9, stepsRead: 0, steps: 0, answered: 0, questions: 0 };
      assert.deepEqual(doneWhenItems(['All N of N transcripts pass.', 'You can explain ties.'], facts), [
        { text: 'All 0 of 9 transcripts pass.', met: false, evidence: 'not checked yet' },
        { text: 'You can explain ties.', met: false, evidence: '0 of 0 steps read' },
      ]);
    });
  });

  it('gives a step’s command for the language', () => {
    assert.equal(stepCommand({}, 'python'), undefined);
    assert.equal(stepCommand({ run: 'make test' }, 'python'), 'make test');
    assert.equal(
      stepCommand({ run: { python: 'python3 shop.py', javascript: 'node shop.js' } }, 'javascript'),
      'node shop.js',
    );
  });
});
