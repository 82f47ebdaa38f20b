// The pure parts of the editor front: what a report means on screen (core/progress) and the message
// guards on both sides of the webview boundary (shared/messages).
import * as assert from 'node:assert/strict';
import {
  checkDetails,
  checkDetailsTooltip,
  checkSummary,
  countsLegend,
  doneWhenItems,
  failureFocus,
  lensTitle,
  progressLine,
  stepCommand,
  verdictSentence,
} from '../../src/core/report/progress';
import { answerCell, traceCells } from '../../src/core/report/traceView';
import type { CheckReport, NamedMistake } from '../../src/core/report/report';
import { parseFromWebview, parseToWebview, PROTOCOL_VERSION, type PanelState } from '../../src/shared/messages';

const mistake = (over: Partial<NamedMistake> = {}): NamedMistake => ({
  id: 'tiebreak',
  title: 'Wrong tiebreak',
  function: 'pick',
  line: 25,
  confidence: 'exact',
  explanation: 'e',
  hint: 'h',
  mutants: ['tiebreak-name'],
  revealedBy: ['ties'],
  evidence: { steps: 1, transcripts: 1, first: null },
  counterexample: null,
  ...over,
});

const report = (over: Partial<CheckReport> = {}): CheckReport => ({
  lesson: 'least-connections',
  language: 'python',
  file: 'balancer.py',
  status: 'fail',
  checks: { total: 14, passed: 12, failed: 2, notRun: 0 },
  transcripts: [],
  mistakes: [mistake()],
  problems: [],
  counterexample: null,
  fuzz: { seed: 1, transcripts: 40, failed: 3, notRun: 0 },
  durationMs: 10,
  processRuns: 2,
  ...over,
});

describe("core/progress: a report on the learner's screen", () => {
  it('summarises pass, fail and error', () => {
    assert.equal(checkSummary(report()), '12 of 14 hidden transcripts pass');
    assert.equal(
      checkSummary(report({ status: 'pass', checks: { total: 14, passed: 14, failed: 0, notRun: 0 } })),
      'All 14 hidden transcripts pass',
    );
    assert.match(checkSummary(report({ status: 'error' })), /^Could not check/);
    assert.equal(
      checkSummary(report({ checks: { total: 14, passed: 3, failed: 11, notRun: 9 } })),
      '3 of 14 hidden transcripts pass (9 not run: the program stopped answering)',
    );
    assert.match(
      checkSummary(report({ checks: { total: 14, passed: 14, failed: 0, notRun: 0 } })),
      /^Not everything is right, though the 14 hidden transcripts pass/,
    );
    assert.equal(
      checkSummary(
        report({
          checks: { total: 14, passed: 14, failed: 0, notRun: 0 },
          fuzz: { seed: 1, transcripts: 40, failed: 3, notRun: 0 },
        }),
      ),
      'Not everything is right, though the 14 hidden transcripts pass: 3 of 40 random tests fail',
    );
    // Random tests left out after the program crashed three times: counted as the line under it counts them.
    const leftOut = report({
      checks: { total: 14, passed: 14, failed: 0, notRun: 0 },
      fuzz: { seed: 1, transcripts: 40, failed: 3, notRun: 27 },
    });
    assert.equal(
      checkSummary(leftOut),
      'Not everything is right, though the 14 hidden transcripts pass: 3 of 13 random tests fail (27 not run)',
    );
    assert.equal(checkDetails(leftOut), 'Also 40 random tests: 3 of 13 failed (27 not run) · seed 1');
  });

  it("labels a function's CodeLens with the mistake found in it, and only there", () => {
    assert.equal(lensTitle(report(), 'pick'), '✗ Wrong tiebreak · Check again');
    assert.equal(
      lensTitle(report({ mistakes: [mistake(), mistake({ id: 'late', title: 'Late' })] }), 'pick'),
      '✗ Wrong tiebreak +1 · Check again',
    );
    assert.equal(lensTitle(report(), 'done'), '12 of 14 pass · Check again');
    assert.equal(lensTitle(null, 'pick'), '$(beaker) Check');
    assert.match(lensTitle(report(), 'pick', true), /Checking/);
  });

  it('says "likely" on the CodeLens of a likely finding, and puts it on the helper the program was traced into', () => {
    const traced = mistake({
      confidence: 'likely',
      location: { lines: [74, 75], function: 'select', reason: 'these lines ran when PICK chose alpha' },
    });
    assert.equal(lensTitle(report({ mistakes: [traced] }), 'select'), '⚠ Wrong tiebreak (likely) · Check again');
    assert.equal(lensTitle(report({ mistakes: [traced] }), 'pick'), '12 of 14 pass · Check again');
  });

  it('leads the verdict with what failed and what to do next, with random tests in the quiet line', () => {
    assert.equal(
      verdictSentence(report()),
      'One mistake found: “Wrong tiebreak”. Read its card below, fix it, then Check again.',
    );
    assert.match(
      verdictSentence(
        report({ mistakes: [mistake({ confidence: 'likely' }), mistake({ id: 'late', title: 'Late' })] }),
      ),
      /^2 mistakes found\. Start with “Wrong tiebreak” \(likely\):/,
    );
    assert.match(verdictSentence(report({ status: 'pass', mistakes: [] })), /^Every check passes/);
    assert.match(
      verdictSentence(report({ status: 'error', mistakes: [], problems: [{ kind: 'syntax', message: 'x' }] })),
      /^Your program does not start\. Fix that first/,
    );
    assert.equal(checkDetails(report()), 'Also 40 random tests: 3 of 40 failed · seed 1');
    assert.equal(checkDetails(report({ status: 'error' })), '');
    const tooltip = checkDetailsTooltip(report());
    assert.match(tooltip, /seed 1\b/);
    // The extension installs no CLI on the PATH: the tooltip points at what the panel offers instead.
    assert.doesNotMatch(tooltip, /lesson-companion/);
    assert.match(tooltip, /Run in terminal/);
    assert.equal(
      countsLegend(report()),
      'The Testing view marks the 2 hidden transcripts that did not pass; Problems lists the mistake found.',
    );
    assert.match(
      checkDetailsTooltip(
        report({ determinism: { fresh: 'different', afterReset: 'unknown', runs: 2 }, containment: 'sandbox' }),
      ),
      /different answers: something in your program is random\.\nYour program ran in a sandbox/,
    );
    assert.equal(progressLine({ stepsRead: 2, steps: 6, answered: 1, questions: 5 }), '2 of 6 read · 1 of 5 answered');
  });

  it('ticks a "done when" item only by the evidence it names, with its numbers filled in', () => {
    const statements = [
      'Every hidden transcript passes: N of N.',
      'You can explain why a DONE on a down backend still counts.',
      'You have read every step.',
    ];
    const passing = report({ status: 'pass', checks: { total: 15, passed: 15, failed: 0, notRun: 0 } });
    const facts = { report: passing, hiddenTranscripts: 15, stepsRead: 6, steps: 6, answered: 1, questions: 18 };
    const items = doneWhenItems(statements, facts);
    assert.deepEqual(
      items.map((i) => [i.text, i.met, i.evidence]),
      [
        ['Every hidden transcript passes: 15 of 15.', true, '15 of 15 pass'],
        // One passing check does not show the learner can explain anything: 1 of 18 questions answered.
        ['You can explain why a DONE on a down backend still counts.', false, '1 of 18 questions answered'],
        ['You have read every step.', true, '6 of 6 steps read'],
      ],
    );
    const before = doneWhenItems(statements, { ...facts, report: null, stepsRead: 2, answered: 18 });
    assert.deepEqual(
      before.map((i) => [i.text, i.met]),
      [
        ['Every hidden transcript passes: 0 of 15.', false],
        [statements[1], true],
        [statements[2], false],
      ],
    );
    assert.ok(items.every((i) => !/\bN of N\b/.test(i.text)));
  });

  it("points a failure at the first mistake's lines or function, else at a problem's line", () => {
    assert.deepEqual(failureFocus(report()), { function: 'pick', line: 25 });
    assert.deepEqual(
      failureFocus(report({ mistakes: [mistake({ location: { lines: [80, 81], function: 'select', reason: 'r' } })] })),
      { function: 'select', line: 80 },
    );
    assert.deepEqual(failureFocus(report({ mistakes: [], problems: [{ kind: 'crash', message: 'x', line: 7 }] })), {
      function: null,
      line: 7,
    });
  });

  it('makes invisible characters visible in trace cells and marks the first difference', () => {
    const cells = traceCells({
      transcript: 't',
      label: 't',
      reproduced: true,
      commands: ['POOL a', 'PICK'],
      expected: ['OK', 'a'],
      actual: ['OK', 'a '],
      divergesAt: 1,
      shrunkFrom: 5,
      trace: [
        { command: 'POOL a', expected: ['OK'], actual: ['OK'], counts: { a: 0 }, matches: true },
        { command: 'PICK', expected: ['a'], actual: ['a '], counts: { a: 1 }, matches: false },
      ],
    });
    assert.equal(cells.rows[1]!.actual, 'a·');
    assert.equal(cells.rows[1]!.diverges, true);
    assert.deepEqual(cells.rows[0]!.shouldBe, [{ text: 'a:0', differs: false }]);
    assert.equal(cells.columns, 'reference');
    assert.equal(answerCell(null), '(no answer)');
    assert.equal(answerCell([]), '(nothing)');
    assert.equal(answerCell(['']), '(an empty line)');
    assert.equal(answerCell(['a:0', '']), 'a:0 / (an empty line)');
  });

  it("picks a step's command for the session language", () => {
    assert.equal(stepCommand({ run: 'make run' }, 'python'), 'make run');
    assert.equal(stepCommand({ run: { python: 'python3 b.py' } }, 'python'), 'python3 b.py');
    assert.equal(stepCommand({ run: { python: 'python3 b.py' } }, 'javascript'), undefined);
  });
});

describe('shared/messages: the webview boundary', () => {
  it("accepts the webview's messages and nothing else", () => {
    assert.deepEqual(parseFromWebview({ type: 'ready', protocol: PROTOCOL_VERSION }), {
      type: 'ready',
      protocol: PROTOCOL_VERSION,
    });
    assert.deepEqual(parseFromWebview({ type: 'runTrace', mistakeId: 'tiebreak' }), {
      type: 'runTrace',
      mistakeId: 'tiebreak',
    });
    assert.deepEqual(parseFromWebview({ type: 'debugTrace', mistakeId: null }), {
      type: 'debugTrace',
      mistakeId: null,
    });
    assert.deepEqual(parseFromWebview({ type: 'showAnswer', questionId: 'fq1' }), {
      type: 'showAnswer',
      questionId: 'fq1',
    });
    // The webview names a trace; it never sends a command line to run.
    assert.deepEqual(parseFromWebview({ type: 'runTrace', mistakeId: 'tiebreak', shell: 'rm -rf ~' }), {
      type: 'runTrace',
      mistakeId: 'tiebreak',
    });
    assert.deepEqual(parseFromWebview({ type: 'openStep', index: 3, extra: 1 }), { type: 'openStep', index: 3 });
    assert.deepEqual(parseFromWebview({ type: 'answer', questionId: 'fq1', answer: '2' }), {
      type: 'answer',
      questionId: 'fq1',
      answer: '2',
    });
    for (const bad of [
      null,
      'ready',
      { type: 'eval', code: '1' },
      { type: 'openStep', index: 0 },
      { type: 'openStep', index: '3' },
      { type: 'answer', questionId: '../x', answer: 'a' },
      { type: 'answer', questionId: 'q', answer: 'a'.repeat(5000) },
      { type: 'openMistake', id: '' },
      { type: 'runTrace' },
      { type: 'runTrace', mistakeId: 3 },
      { type: 'debugTrace', mistakeId: 'a b' },
      { type: 'showAnswer', questionId: '' },
    ]) {
      assert.equal(parseFromWebview(bad), undefined, JSON.stringify(bad)?.slice(0, 80));
    }
  });

  it("accepts the extension's messages only with a well-formed state", () => {
    const state: PanelState = { lesson: null, trusted: true, checking: false, check: null };
    assert.equal(PROTOCOL_VERSION, 3);
    assert.equal(parseToWebview({ type: 'init', protocol: PROTOCOL_VERSION, state })?.type, 'init');
    // A version-1 check (a "fuzz" line, no sentence) from a stale panel is not taken for a version-2 one.
    const v1 = {
      status: 'fail',
      summary: '1 of 2 hidden transcripts pass',
      passed: 1,
      total: 2,
      fuzz: '',
      mistakes: [],
      problems: [],
      durationMs: 1,
      at: '',
    };
    assert.equal(parseToWebview({ type: 'state', state: { ...state, check: v1 } }), undefined);
    assert.equal(parseToWebview({ type: 'state', state: { ...state, trusted: 'yes' } }), undefined);
    assert.equal(parseToWebview({ type: 'reveal', target: { kind: 'mistake', id: 'tiebreak' } })?.type, 'reveal');
    assert.equal(parseToWebview({ type: 'reveal', target: { kind: 'script' } }), undefined);
    assert.equal(parseToWebview({ type: 'unknown' }), undefined);
  });
});
