import * as assert from 'node:assert/strict';
import { addContradiction } from '../../src/core/report/contradiction';
import type { Problem } from '../../src/core/report/report';
import { manifest } from './fakeLesson';

describe('contradiction: one card for every unnamed difference', () => {
  it('adds to an unnamed difference that comes first rather than making a second card', () => {
    const problems: Problem[] = [{ kind: 'unrecognised-difference', message: 'Your program differs.' }];
    addContradiction(problems, manifest, 'no-such-mistake', 'PICK answered b', false);
    assert.deepEqual(problems, [
      {
        kind: 'unrecognised-difference',
        message: 'Your program differs. Also: PICK answered b, and no mistake this lesson names explains that.',
      },
    ]);
  });
});
