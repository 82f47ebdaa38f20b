/**
 * The words for what the evidence layer decided (core `report/contradiction`): a card's text in the form the
 * program shows, and a contradicted finding said as a difference the lesson has no name for.
 */
import * as assert from 'node:assert/strict';
import { addContradiction, cardText } from '../../src/core/report/contradiction';
import type { Problem } from '../../src/core/report/report';
import { manifest } from './fakeLesson';

const negative = manifest.mistakes.find((m) => m.id === 'negative-count')!;
const wrap32 = negative.variants!.find((v) => v.mutant === 'wrap-32')!;

describe('contradiction words', () => {
  it("a card's text: the form's own title, explanation and hint where it has them, the mistake's otherwise", () => {
    assert.equal(
      cardText(manifest, 'negative-count', 'negative-count'),
      [negative.title, negative.explanation, negative.hint].join(' '),
    );
    assert.equal(
      cardText(manifest, 'negative-count', 'wrap-32'),
      [wrap32.title ?? negative.title, wrap32.explanation, wrap32.hint ?? negative.hint].join(' '),
    );
    assert.equal(cardText(manifest, 'no-such-mistake', 'x'), '');
  });

  it("says a contradicted finding as an unnamed difference, with the mistake's read-order step", () => {
    const problems: Problem[] = [];
    addContradiction(problems, manifest, 'negative-count', 'at `DONE a` your program answered OK', true);
    const step = manifest.readOrder[negative.step! - 1]!;
    assert.deepEqual(problems, [
      {
        kind: 'unrecognised-difference',
        message:
          'Your program differs from the reference in a way this lesson has no name for: at `DONE a` your program answered OK (in the failing transcript shown), and no mistake this lesson names explains that.',
        advice: `Walk through the trace by hand, keeping the counts on paper, and read step ${negative.step} of the read order again (${step.title}).`,
      },
    ]);
  });

  it('says where the trace is only when it is the one shown, and no step for a mistake the lesson does not place', () => {
    const problems: Problem[] = [];
    addContradiction(problems, manifest, 'no-such-mistake', 'x', false);
    assert.equal(
      problems[0]!.message,
      'Your program differs from the reference in a way this lesson has no name for: x, and no mistake this lesson names explains that.',
    );
    assert.equal(problems[0]!.advice, 'Walk through the trace by hand, keeping the counts on paper.');
  });

  it('adds to an unnamed difference already said, in its place, instead of saying a second one', () => {
    const problems: Problem[] = [
      { kind: 'crash', message: 'boom' },
      { kind: 'unrecognised-difference', message: 'First.', advice: 'kept' },
    ];
    addContradiction(problems, manifest, 'negative-count', 'y', false);
    assert.deepEqual(problems, [
      { kind: 'crash', message: 'boom' },
      {
        kind: 'unrecognised-difference',
        message: 'First. Also: y, and no mistake this lesson names explains that.',
        advice: 'kept',
      },
    ]);
  });
});
