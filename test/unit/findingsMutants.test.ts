import * as assert from 'node:assert/strict';
import type { CheckReport } from '../../src/core/report/report';
import { namedMistake as mistake, tableOf } from './namedMistake';
import {
  behaviourText,
  counterexampleLabel,
  counterexampleSource,
  currentLines,
  diagnosticMessage,
  evidenceText,
  functionAnchors,
  inlineMessage,
  inlineMessageLine,
  linesText,
  mistakeWhere,
  shorten,
  transcriptLabel,
} from '../../src/core/report/findings';

type Scope = Pick<CheckReport, 'transcripts' | 'fuzz'>;

/** A report with `hidden` hidden transcripts (h1, h2, …) and `random` random tests. */
function scope(hidden: number, random: number): Scope {
  return {
    transcripts: Array.from({ length: hidden }, (_, i) => ({
      name: `h${i + 1}`,
      description: `hidden ${i + 1}`,
      passed: false,
    })),
    fuzz: { seed: 1, transcripts: random, failed: 0, notRun: 0 },
  };
}

describe('findings: where and why, in the learner’s words', () => {
  describe('linesText', () => {
    it('says nothing for no usable line', () => {
      assert.equal(linesText([]), '');
      assert.equal(linesText([0]), '');
      assert.equal(linesText([-3]), '');
      assert.equal(linesText([2.5]), '');
    });
    it('sorts numerically, merges runs and repeats', () => {
      assert.equal(linesText([5]), 'line 5');
      assert.equal(linesText([7, 7]), 'line 7');
      assert.equal(linesText([10, 9]), 'lines 9–10');
      assert.equal(linesText([80, 75, 74, 74]), 'lines 74–75 and 80');
      assert.equal(linesText([12, 3, 4, 5, 9, 11]), 'lines 3–5, 9 and 11–12');
    });
  });

  describe('mistakeWhere', () => {
    it('names the traced lines, their function and the row of the table the reason is about', () => {
      const traced = mistake({
        location: {
          lines: [75, 74],
          function: 'select',
          reason: 'these lines ran when PICK answered b',
          at: { table: true, row: 3 },
        },
        counterexample: tableOf(['PICK', 'DONE a', 'PICK']),
      });
      assert.deepEqual(mistakeWhere(traced), {
        function: 'select',
        lines: [75, 74],
        text: 'Lines 74–75 of select()',
        reason: 'at command 3 (PICK) in the table below, these lines ran when PICK answered b',
      });
      assert.equal(
        mistakeWhere(traced, 'panel').reason,
        "at command 3 (PICK) in the lesson panel's table, these lines ran when PICK answered b",
      );
      // A row the table does not have gets no number at all.
      const past = { ...traced, location: { ...traced.location!, at: { table: true as const, row: 4 } } };
      assert.equal(mistakeWhere(past).reason, 'these lines ran when PICK answered b');
      const zero = { ...traced, location: { ...traced.location!, at: { table: true as const, row: 0 } } };
      assert.equal(mistakeWhere(zero).reason, 'these lines ran when PICK answered b');
      assert.equal(mistakeWhere({ ...traced, counterexample: null }).reason, 'these lines ran when PICK answered b');
    });
    it('says when the reason is about another transcript than the table', () => {
      const hidden = mistakeWhere(
        mistake({
          location: {
            lines: [4],
            function: null,
            reason: 'ran',
            at: { table: false, transcript: 'ties-pool', label: 'ties follow pool order' },
          },
        }),
      );
      assert.equal(hidden.text, 'Line 4');
      assert.equal(hidden.function, 'pick');
      assert.equal(hidden.reason, 'in “ties follow pool order”, not the table below, ran');
      const random = mistakeWhere(
        mistake({
          location: {
            lines: [4],
            function: null,
            reason: 'ran',
            at: { table: false, transcript: 'generated-8', label: 'a random test (#8)' },
          },
        }),
      );
      assert.equal(random.reason, 'in a random test (#8), not the table below, ran');
      const nowhere = mistakeWhere(mistake({ location: { lines: [4], function: null, reason: 'ran' } }));
      assert.equal(nowhere.reason, 'ran');
    });
    it('falls back to the function, with no line number, without traced lines', () => {
      assert.deepEqual(mistakeWhere(mistake({ location: { lines: [], function: 'x', reason: 'r' } })), {
        function: 'pick',
        lines: [],
        text: 'In pick()',
      });
      assert.deepEqual(mistakeWhere(mistake({ line: null })), {
        function: 'pick',
        lines: [],
        text: 'Your program has no function named pick(): look for the code that does its job',
      });
    });
  });

  describe('transcript labels', () => {
    it('uses the description, else a random test number, else the name in words', () => {
      const report = scope(2, 0);
      assert.equal(transcriptLabel(report, 'h2'), 'hidden 2');
      assert.equal(transcriptLabel(null, 'generated-24'), 'a random test (#24)');
      assert.equal(transcriptLabel(undefined, 'ties-follow-pool'), 'ties follow pool');
      assert.equal(transcriptLabel(report, 'xgenerated-3'), 'xgenerated 3');
      assert.equal(transcriptLabel(report, 'generated-3-b'), 'generated 3 b');
    });
    it('prefers the counterexample’s own label unless it is only the name', () => {
      assert.equal(counterexampleLabel({ label: 'my label', transcript: 'generated-2' }), 'my label');
      assert.equal(counterexampleLabel({ label: 'generated-2', transcript: 'generated-2' }), 'a random test (#2)');
      assert.equal(counterexampleLabel({ label: 'h1', transcript: 'h1' }, scope(1, 0)), 'hidden 1');
    });
    it('quotes a hidden transcript as a caption source, not a random test', () => {
      assert.equal(
        counterexampleSource({ label: 'a random test (#12)', transcript: 'generated-12' }),
        'a random test (#12)',
      );
      assert.equal(counterexampleSource({ label: 'ties', transcript: 'my-generated-1' }), 'the transcript “ties”');
      assert.equal(counterexampleSource({ label: 'ties', transcript: 'generated-1-b' }), 'the transcript “ties”');
      assert.equal(counterexampleSource({ label: 'ties', transcript: 'generated-ab' }), 'the transcript “ties”');
      assert.equal(counterexampleSource({ label: 'h1', transcript: 'h1' }, scope(1, 0)), 'the transcript “hidden 1”');
    });
  });

  it('quotes only a hidden transcript where the lines ran', () => {
    const where = (transcript: string): string | undefined =>
      mistakeWhere(
        mistake({
          location: { lines: [4], function: null, reason: 'ran', at: { table: false, transcript, label: 'L' } },
        }),
      ).reason;
    assert.equal(where('generated-3'), 'in L, not the table below, ran');
    assert.equal(where('xgenerated-3'), 'in “L”, not the table below, ran');
    assert.equal(where('generated-3-b'), 'in “L”, not the table below, ran');
  });

  describe('evidenceText', () => {
    it('is empty when no command showed it', () => {
      assert.equal(evidenceText(mistake()), '');
    });
    it('counts commands and transcripts, and names the transcript of the first command with no row number', () => {
      const evidence = {
        steps: 7,
        transcripts: 3,
        first: { transcript: 'ties-pool', label: 'ties follow pool order', index: 3, command: 'PICK' },
      };
      assert.equal(
        evidenceText(mistake({ evidence })),
        'Seen at 7 commands in 3 transcripts, first at PICK in “ties follow pool order”.',
      );
      const one = {
        steps: 1,
        transcripts: 1,
        first: { transcript: 'generated-3', label: 'a random test (#3)', index: 0, command: 'DONE a' },
      };
      assert.equal(
        evidenceText(mistake({ evidence: one })),
        'Seen at 1 command in 1 transcript, first at DONE a in a random test (#3).',
      );
    });
    it('gives the row number only when the first command is that row of the card’s own table', () => {
      const evidence = {
        steps: 2,
        transcripts: 1,
        first: { transcript: 'ties-pool', label: 'ties follow pool order', index: 2, command: 'PICK' },
      };
      const whole = tableOf(['PICK', 'DONE a', 'PICK']);
      assert.equal(
        evidenceText(mistake({ evidence, counterexample: whole })),
        'Seen at 2 commands in 1 transcript, first at command 3 (PICK) in the table below.',
      );
      const other = 'Seen at 2 commands in 1 transcript, first at PICK in “ties follow pool order”.';
      // Shrunk: its rows are not the transcript's commands.
      assert.equal(
        evidenceText(mistake({ evidence, counterexample: tableOf(['DONE a', 'PICK', 'PICK'], 'ties-pool', 6) })),
        other,
      );
      // Another transcript.
      assert.equal(
        evidenceText(mistake({ evidence, counterexample: tableOf(['PICK', 'DONE a', 'PICK'], 'h2') })),
        other,
      );
      // The row holds another command.
      assert.equal(evidenceText(mistake({ evidence, counterexample: tableOf(['PICK', 'DONE a', 'DONE b']) })), other);
    });
    it('says where the transcripts were counted, from the report’s totals', () => {
      const m = mistake({ evidence: { steps: 7, transcripts: 3, first: null }, revealedBy: ['h1', 'h2', 'h1'] });
      assert.equal(
        evidenceText(m, scope(15, 40)),
        'Seen at 7 commands in 2 of 15 hidden transcripts and 1 of 40 random tests.',
      );
      assert.equal(
        evidenceText(m, scope(2, 1)),
        'Seen at 7 commands in 2 of 2 hidden transcripts and 1 of 1 random test.',
      );
      const hiddenOnly = mistake({ evidence: { steps: 2, transcripts: 1, first: null }, revealedBy: ['h1'] });
      assert.equal(evidenceText(hiddenOnly, scope(1, 40)), 'Seen at 2 commands in 1 of 1 hidden transcript.');
      const randomOnly = mistake({ evidence: { steps: 5, transcripts: 40, first: null }, revealedBy: [] });
      assert.equal(evidenceText(randomOnly, scope(15, 40)), 'Seen at 5 commands in 40 of 40 random tests.');
    });
    it('falls back to a plain count when the totals do not add up', () => {
      const fewer = mistake({ evidence: { steps: 3, transcripts: 1, first: null }, revealedBy: ['h1', 'h2'] });
      assert.equal(evidenceText(fewer, scope(15, 40)), 'Seen at 3 commands in 1 transcript.');
      const tooManyRandom = mistake({ evidence: { steps: 3, transcripts: 5, first: null }, revealedBy: [] });
      assert.equal(evidenceText(tooManyRandom, scope(15, 4)), 'Seen at 3 commands in 5 transcripts.');
      const tooManyHidden = mistake({ evidence: { steps: 3, transcripts: 2, first: null }, revealedBy: ['h1', 'h2'] });
      assert.equal(evidenceText(tooManyHidden, scope(1, 40)), 'Seen at 3 commands in 2 transcripts.');
      const none = mistake({ evidence: { steps: 2, transcripts: 0, first: null }, revealedBy: [] });
      assert.equal(evidenceText(none, scope(15, 40)), 'Seen at 2 commands in 0 transcripts.');
    });
  });

  it('says how the ties behave', () => {
    assert.equal(
      behaviourText({ behaviour: 'random' }),
      'Your ties are broken at random: two runs of the same commands gave different answers.',
    );
    assert.equal(
      behaviourText({ behaviour: 'rotating' }),
      'Your ties rotate: the same commands after a reset gave a different answer, so something carries over between picks.',
    );
    assert.equal(behaviourText({}), undefined);
  });

  it('writes the diagnostic with the lines and why, when traced', () => {
    const traced = mistake({
      confidence: 'likely',
      location: { lines: [4, 5], function: 'pick', reason: 'these ran', at: { table: true, row: 2 } },
      counterexample: tableOf(['PICK', 'PICK']),
    });
    // A hover has no table below it: the row is the lesson panel's.
    assert.equal(
      diagnosticMessage(traced),
      "Ties go to the last backend (likely): Keep the first of equal counts (Lines 4–5 of pick(): at command 2 (PICK) in the lesson panel's table, these ran.)",
    );
    // No line found: the hover says why only the function's name is underlined.
    assert.equal(
      diagnosticMessage(mistake()),
      'Ties go to the last backend: Keep the first of equal counts (Only the name pick is underlined: the check found no line of pick() that ran only where your program went wrong, so read all of it, with the table in the lesson panel.)',
    );
    assert.equal(
      diagnosticMessage(mistake({ line: null })),
      'Ties go to the last backend: Keep the first of equal counts',
    );
  });

  describe('shorten and inlineMessage', () => {
    it('keeps text that fits', () => {
      assert.equal(shorten('0123456789', 10), '0123456789');
    });
    it('cuts at a word past half the room, else mid-word', () => {
      assert.equal(shorten('the quick brown fox jumps', 12), 'the quick…');
      assert.equal(shorten('ab cdefghijklmnop', 10), 'ab cdefgh…');
      assert.equal(shorten('abcde fghijklmnop', 10), 'abcde fgh…');
    });
    it('drops punctuation left at the cut', () => {
      assert.equal(shorten('alpha beta:; gamma', 14), 'alpha beta…');
    });
    it('marks a certain and a likely finding, within 26 characters', () => {
      assert.equal(inlineMessage(mistake({ title: 'Ties go last' })), '✗ Ties go last');
      assert.equal(inlineMessage(mistake({ title: 'Ties go last', confidence: 'likely' })), '⚠ Ties go last (likely)');
      const long = inlineMessage(mistake({ title: 'Counts drop below zero when a backend finishes twice' }));
      assert.equal(long, '✗ Counts drop below zero…');
      assert.ok(long.length <= 26);
    });
  });

  describe('lines in the current source', () => {
    const source = [
      'def pick(pool):', // 1
      '    # the least loaded', // 2
      '    best = None', // 3
      '', // 4
      '    for b in pool:', // 5
      '        ab = 1', // 6
      '    abc = 1', // 7
      '    abd = 2', // 8
      '    return best', // 9
    ].join('\n');

    it('puts the inline message on the shortest code line of the first block, first of equals', () => {
      const m = mistake({ location: { lines: [5, 2, 3, 4, 6, 7, 8], function: 'pick', reason: 'r' } });
      assert.equal(inlineMessageLine(m, source, 'python', undefined), 7);
      assert.equal(inlineMessageLine(m, source.replace(/\n/g, '\r\n'), 'python', undefined), 7);
    });
    it('skips comments and blank lines, and uses the first line of a block with no code', () => {
      const blank = mistake({ location: { lines: [3, 4, 2], function: 'pick', reason: 'r' } });
      assert.equal(inlineMessageLine(blank, source, 'python', undefined), 3);
      const onlyComment = mistake({ location: { lines: [2], function: 'pick', reason: 'r' } });
      assert.equal(inlineMessageLine(onlyComment, source, 'python', undefined), 2);
    });
    it('skips indented comments and blank-looking lines, up to the last line of the file', () => {
      const src = ['def pick(pool):', '    # x', '    ', '    abcd = 1', '  ab = 1'].join('\n');
      const m = mistake({ location: { lines: [2, 3, 4, 5], function: 'pick', reason: 'r' } });
      assert.equal(inlineMessageLine(m, src, 'python', undefined), 5);
    });
    it('uses the function’s own line without traced lines', () => {
      assert.equal(inlineMessageLine(mistake({ function: 'pick' }), `\n\n${source}`, 'python', undefined), 3);
    });
    it('moves traced lines with their function and drops those outside the file', () => {
      const m = mistake({ location: { lines: [1, 9, 10], function: 'pick', reason: 'r' } });
      const moved = `# a\n# b\n${source}`; // 11 lines, pick() now at line 3
      assert.deepEqual(currentLines(m, moved, 'python', { 'ties-last': 1 }), [3, 11]);
      assert.deepEqual(currentLines(m, source, 'python', undefined), [1, 9]);
      const up = mistake({ location: { lines: [1, 2, 11], function: 'pick', reason: 'r' } });
      assert.deepEqual(currentLines(up, source, 'python', { 'ties-last': 3 }), [9]);
      // The function is gone: the lines stay where they were.
      assert.deepEqual(currentLines(m, source.replace('def pick', 'def choose'), 'python', { 'ties-last': 1 }), [1, 9]);
      assert.deepEqual(currentLines(mistake(), source, 'python', { 'ties-last': 1 }), []);
    });
    it('anchors only the mistakes that were traced', () => {
      const report = {
        mistakes: [
          mistake({ id: 'a', location: { lines: [6], function: 'pick', reason: 'r' } }),
          mistake({ id: 'b' }),
          mistake({ id: 'c', location: { lines: [], function: 'pick', reason: 'r' } }),
        ],
      };
      assert.deepEqual(functionAnchors(report, `\n${source}`, 'python'), { a: 2 });
    });
  });
});
