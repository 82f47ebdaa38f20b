/**
 * The hint ladder's rung 4 (src/core/repair/ladder.ts): a fix is offered for a mistake only when an earlier
 * check already showed that mistake's smallest transcript (rung 3), never on a pass, never above the pack's
 * hints.maxRung; and the panel's "Show a fix" message is accepted only with a mistake id.
 */
import * as assert from 'node:assert/strict';
import type { CheckReport, NamedMistake } from '../../src/core/report/report';
import { cardRung, fixOffered, rungThreeSeen } from '../../src/core/repair/ladder';
import { parseFromWebview } from '../../src/shared/messages';

const example = {
  transcript: 't',
  label: 't',
  commands: ['PICK'],
  expected: ['a'],
  actual: ['b'],
  divergesAt: 0,
  trace: [],
  shrunkFrom: 3,
  reproduced: true,
};

function mistake(id: string, parts: { lines?: number[]; counterexample?: boolean } = {}): NamedMistake {
  return {
    id,
    title: id,
    function: 'pick',
    line: null,
    confidence: 'exact',
    explanation: '',
    hint: '',
    mutants: [],
    evidence: { steps: 1, transcripts: 1, first: null },
    revealedBy: [],
    counterexample: parts.counterexample ? example : null,
    ...(parts.lines ? { location: { lines: parts.lines, function: 'pick', reason: 'r' } } : {}),
  };
}

function report(status: CheckReport['status'], mistakes: NamedMistake[]): CheckReport {
  return {
    lesson: 'l',
    language: 'python',
    file: 'f.py',
    status,
    checks: { total: 1, passed: 0, failed: 1, notRun: 0 },
    transcripts: [],
    mistakes,
    problems: [],
    counterexample: null,
    fuzz: { seed: 1, transcripts: 0, failed: 0, notRun: 0 },
    durationMs: 1,
    processRuns: 1,
  };
}

describe('the hint ladder', () => {
  it('numbers what a card shows: the question, then the lines, then the smallest transcript', () => {
    assert.equal(cardRung(mistake('a')), 1);
    assert.equal(cardRung(mistake('a', { lines: [3] })), 2);
    assert.equal(cardRung(mistake('a', { lines: [3], counterexample: true })), 3);
  });

  it('offers a fix only for a mistake whose rung 3 an earlier check showed', () => {
    const first = report('fail', [mistake('tie', { counterexample: true }), mistake('floor', { lines: [2] })]);
    assert.deepEqual(fixOffered(first, new Set(), undefined), []);
    const seen = new Set(rungThreeSeen(first));
    assert.deepEqual([...seen], ['tie']);
    const second = report('fail', [
      mistake('tie', { counterexample: true }),
      mistake('floor', { counterexample: true }),
    ]);
    assert.deepEqual(fixOffered(second, seen, undefined), ['tie']);
    assert.deepEqual(fixOffered(second, seen, 4), ['tie']);
  });

  it('never offers one on a pass or above the pack cap', () => {
    const seen = new Set(['tie']);
    const failing = report('fail', [mistake('tie', { counterexample: true })]);
    assert.deepEqual(fixOffered(failing, seen, 3), []);
    assert.deepEqual(fixOffered(report('pass', []), seen, undefined), []);
  });

  it('takes "Show a fix" from the panel only with a mistake id', () => {
    assert.deepEqual(parseFromWebview({ type: 'showFix', mistakeId: 'tiebreak' }), {
      type: 'showFix',
      mistakeId: 'tiebreak',
    });
    assert.equal(parseFromWebview({ type: 'showFix', mistakeId: '<img src=x>' }), undefined);
    assert.equal(parseFromWebview({ type: 'showFix' }), undefined);
  });
});
