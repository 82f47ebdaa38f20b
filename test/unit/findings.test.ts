// A named mistake in the learner's words, the same on every surface: confidence, where it points, the
// evidence, and transcripts by description, never by internal name.
import * as assert from 'node:assert/strict';
import {
  behaviourText,
  counterexampleLabel,
  currentLines,
  diagnosticMessage,
  evidenceText,
  functionAnchors,
  inlineMessage,
  INLINE_MESSAGE_MAX,
  inlineMessageFits,
  inlineMessageLine,
  linesText,
  mistakeExplanation,
  mistakeHeadline,
  mistakeSeverity,
  mistakeTitle,
  mistakeWhere,
  revealedByLabels,
  transcriptLabel,
} from '../../src/core/report/findings';
import type { CheckReport, NamedMistake } from '../../src/core/report/report';

const mistake = (over: Partial<NamedMistake> = {}): NamedMistake => ({
  id: 'tiebreak',
  title: 'Ties are not broken by pool order',
  function: 'pick',
  line: 25,
  confidence: 'exact',
  explanation: 'Ties go to the first backend in the pool.',
  hint: 'Compare with < , not <=.',
  mutants: ['tiebreak-last'],
  revealedBy: ['pool-order-not-name'],
  counterexample: null,
  evidence: {
    steps: 7,
    transcripts: 3,
    first: {
      transcript: 'pool-order-not-name',
      label: 'ties follow pool order, STATUS follows name order',
      index: 3,
      command: 'PICK',
    },
  },
  ...over,
});
const report: Pick<CheckReport, 'transcripts'> = {
  transcripts: [
    { name: 'pool-order-not-name', description: 'ties follow pool order, STATUS follows name order', passed: false },
  ],
};

describe("core/findings: a mistake in the learner's words", () => {
  it('carries the confidence: "likely" in the headline, a warning rather than an error', () => {
    assert.equal(mistakeHeadline(mistake()), 'Ties are not broken by pool order');
    assert.equal(mistakeSeverity(mistake()), 'error');
    const likely = mistake({ confidence: 'likely' });
    assert.equal(mistakeHeadline(likely), 'Ties are not broken by pool order (likely)');
    assert.equal(mistakeSeverity(likely), 'warning');
    assert.match(diagnosticMessage(likely), /^Ties are not broken by pool order \(likely\): Compare with/);
  });

  it('shows the variant the program has in place of the general wording', () => {
    const wrapped = mistake({
      title: 'A count goes below zero',
      variant: {
        mutant: 'done-unsigned',
        title: 'A count wraps around',
        explanation: 'An unsigned counter wraps to 4294967295.',
      },
    });
    assert.equal(mistakeTitle(wrapped), 'A count wraps around');
    assert.equal(mistakeExplanation(wrapped), 'An unsigned counter wraps to 4294967295.');
    assert.equal(mistakeExplanation(mistake()), 'Ties go to the first backend in the pool.');
  });

  it("points at the traced lines in the learner's helper, with the reason, else at the function", () => {
    const traced = mistake({
      location: { lines: [75, 74, 80], function: 'select', reason: 'these lines ran when PICK chose alpha' },
    });
    assert.deepEqual(mistakeWhere(traced), {
      function: 'select',
      lines: [75, 74, 80],
      text: 'Lines 74–75 and 80 of select()',
      reason: 'these lines ran when PICK chose alpha',
    });
    assert.match(
      diagnosticMessage(traced),
      /\(Lines 74–75 and 80 of select\(\): these lines ran when PICK chose alpha\.\)$/,
    );
    assert.deepEqual(mistakeWhere(mistake()), { function: 'pick', lines: [], text: 'In pick()' });
    assert.deepEqual(mistakeWhere({ ...mistake(), line: null }), {
      function: 'pick',
      lines: [],
      text: 'Your program has no function named pick(): look for the code that does its job',
    });
    assert.equal(linesText([12]), 'line 12');
    assert.equal(linesText([3, 1, 2, 7, 9, 8]), 'lines 1–3 and 7–9');
    assert.equal(linesText([1, 3, 5]), 'lines 1, 3 and 5');
  });

  it('names transcripts by description, generated ones as "a random test (#N)", never by internal name', () => {
    assert.equal(transcriptLabel(report, 'pool-order-not-name'), 'ties follow pool order, STATUS follows name order');
    assert.equal(transcriptLabel(report, 'generated-24'), 'a random test (#24)');
    assert.deepEqual(revealedByLabels(report, mistake()), ['ties follow pool order, STATUS follows name order']);
    // Transcripts that share a description are said once, with how many they are.
    const mixed = {
      transcripts: ['long-1', 'long-2', 'long-3'].map((name) => ({ name, description: '40 mixed commands' })),
    } as unknown as Parameters<typeof revealedByLabels>[0];
    assert.deepEqual(revealedByLabels(mixed, mistake({ revealedBy: ['long-1', 'long-3'] })), [
      '40 mixed commands (2 transcripts)',
    ]);
    // A first-version report put the name in the label too.
    assert.equal(
      counterexampleLabel({ transcript: 'generated-3', label: 'generated-3' }, report),
      'a random test (#3)',
    );
    assert.equal(counterexampleLabel({ transcript: 'generated-3', label: 'a random test (#3)' }), 'a random test (#3)');
  });

  it('says the evidence and the tie behaviour in words', () => {
    assert.equal(
      evidenceText(mistake()),
      'Seen at 7 commands in 3 transcripts, first at PICK in “ties follow pool order, STATUS follows name order”.',
    );
    // With the report, the count says where it comes from: 1 hidden transcript (revealedBy) and 2 random tests.
    const scoped = {
      transcripts: [...report.transcripts, { name: 'other', description: 'other', passed: true }],
      fuzz: { seed: 1, transcripts: 40, failed: 2, notRun: 0 },
    };
    assert.equal(
      evidenceText(mistake(), scoped),
      'Seen at 7 commands in 1 of 2 hidden transcripts and 2 of 40 random tests, first at PICK in “ties follow pool order, STATUS follows name order”.',
    );
    const random = mistake({
      revealedBy: [],
      evidence: {
        steps: 2,
        transcripts: 1,
        first: { transcript: 'generated-24', label: 'a random test (#24)', index: 0, command: 'PICK' },
      },
    });
    assert.equal(
      evidenceText(random, scoped),
      'Seen at 2 commands in 1 of 40 random tests, first at PICK in a random test (#24).',
    );
    assert.equal(
      evidenceText(mistake({ evidence: { steps: 1, transcripts: 1, first: null } })),
      'Seen at 1 command in 1 transcript.',
    );
    assert.match(
      behaviourText(mistake({ behaviour: 'random' }))!,
      /at random: two runs of the same commands gave different answers/,
    );
    assert.match(behaviourText(mistake({ behaviour: 'rotating' }))!, /rotate/);
    assert.equal(behaviourText(mistake()), undefined);
  });

  it("keeps the editor's inline message short enough to read beside the code", () => {
    const long = mistake({
      title: 'The count of a backend that is done is taken down twice when the same DONE arrives again',
      confidence: 'likely',
    });
    assert.ok(inlineMessage(long).length <= INLINE_MESSAGE_MAX, inlineMessage(long));
    // The badge goes only after a line it fits beside (48 columns: a 1440×900 window with the Explorer and the panel).
    assert.equal(inlineMessageFits('        return best;', '✗ Wrong tiebreak'), true);
    assert.equal(inlineMessageFits('  readonly active: Map<string, number> = ConnCounts.registry;', '✗ A new…'), false);
    assert.equal(inlineMessageFits(`${'x'.repeat(28)}`, '✗ Wrong tiebreak'), true);
    assert.equal(inlineMessageFits(`${'x'.repeat(29)}`, '✗ Wrong tiebreak'), false);
    assert.equal(inlineMessageFits('\t\t\t\t\t\t\tx', '✗ Wrong tiebreak'), false);
    assert.match(inlineMessage(long), /…$/);
    assert.equal(inlineMessage(mistake()), '✗ Ties are not broken by…');
    assert.equal(inlineMessage(mistake({ title: 'A count goes below zero' })), '✗ A count goes below zero');
  });

  it('moves traced lines with their function when lines are added above it', () => {
    const checked = 'def helper():\n    pass\n\ndef select(pool):\n    best = pool[0]\n    return best\n';
    const traced = mistake({ id: 'tiebreak', location: { lines: [5], function: 'select', reason: 'r' } });
    const anchors = functionAnchors({ mistakes: [traced] }, checked, 'python');
    assert.deepEqual(anchors, { tiebreak: 4 });
    assert.deepEqual(currentLines(traced, `# one\n# two\n${checked}`, 'python', anchors), [7]);
    assert.deepEqual(currentLines(traced, checked, 'python', anchors), [5]);
    assert.deepEqual(currentLines(traced, checked, 'python', undefined), [5]);
  });
});

describe("core/findings: where the editor's one-line message goes", () => {
  const source = [
    'def pick(counts, backends):',
    '    """Pick one."""',
    '    return _least_busy(counts, backends)',
    '',
    'def _least_busy(counts, backends):',
    '    loads = [counts.active.get(backend, 0) for backend in backends]',
    '    best = backends[0]',
    '    for backend in backends[1:]:',
    '        if counts.active.get(backend, 0) < counts.active.get(best, 0):',
    '            best = backend',
    '    return best',
    '',
    'def connection_closed(counts: ConnCounts, backend: str) -> None:',
    '    # one off, never below zero',
    '    counts.active[backend] = counts.active.get(backend, 0) - 1',
  ].join('\n');

  it('on the squiggle: the shortest line of the block of traced lines it covers, never a line outside it', () => {
    const traced = mistake({ location: { lines: [9, 8, 7, 2], function: '_least_busy', reason: 'r' } });
    // The squiggle covers 7–9 (the block holding the first line, 9); line 2 is shorter but not under it.
    assert.equal(inlineMessageLine(traced, source, 'python', undefined), 7);
  });

  it("without traced lines, the function's own line, where the squiggle is", () => {
    assert.equal(
      inlineMessageLine(mistake({ function: 'connection_closed', location: undefined }), source, 'python', undefined),
      13,
    );
    assert.equal(inlineMessageLine(mistake({ function: 'pick' }), source, 'python', undefined), 1);
    assert.ok(inlineMessage(mistake({ confidence: 'likely' })).startsWith('⚠ '));
  });
});
