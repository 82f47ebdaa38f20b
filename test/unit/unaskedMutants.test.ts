/**
 * Lines no command asks for (core `unaskedLines`, `unaskedAcrossRepeat`): the edges unasked.test.ts leaves
 * open. Which runs can be compared at all, when two runs' stray lines count as "at other places", which line
 * is an answer the lesson could give, and which few lines the learner is shown (most frequent first). Outcomes
 * are written out by hand, as the batch would record them.
 */
import * as assert from 'node:assert/strict';
import { model } from '../../lessons/least-connections/model/model';
import { unaskedAcrossRepeat, unaskedLines } from '../../src/core/check/unasked';
import type { Outcome } from '../../src/core/model/simulate';

const commands = ['POOL a b c', 'PICK', 'PICK', 'STATUS'];
/** The reference's answers to `commands`, without the reset's OK. */
const answers = ['OK', 'a', 'b', 'a:1', 'b:1', 'c:0'];
const finished = (...lines: string[]): Outcome => ({ lines, ending: 'finished' });

describe('lines no command asks for: runs that cannot be compared', () => {
  it('a run the batch never started (an earlier list hung) is compared with nothing, whichever of the two it is', () => {
    // Without the check, the dot of the run that did run would be "one line at another place than none".
    const never: Outcome = { lines: [], ending: 'not-run' };
    const ticking = finished('OK', '.', 'a', 'b', 'a:1', 'b:1', 'c:0');
    assert.equal(unaskedLines(model, commands, never, ticking), undefined);
    assert.equal(unaskedLines(model, commands, ticking, never), undefined);
    // The same dot against a run that did finish is named: it is the not-run ending that says nothing.
    assert.deepEqual(unaskedLines(model, commands, finished(...answers), ticking), {
      lines: ['.'],
      counts: [0, 1],
      seen: 'fresh',
    });
  });
});

describe('lines no command asks for: same places or other places', () => {
  it('a heartbeat at the same place in both runs and once more at the end of one is named: not as many', () => {
    // The first run's places are a prefix of the second's: still a different number of them.
    const once = finished('OK', '.', 'a', 'b', 'a:1', 'b:1', 'c:0');
    const twice = finished('OK', '.', 'a', 'b', 'a:1', 'b:1', 'c:0', '.');
    assert.deepEqual(unaskedLines(model, commands, once, twice), { lines: ['.'], counts: [1, 2], seen: 'fresh' });
    assert.deepEqual(unaskedLines(model, commands, twice, once), { lines: ['.'], counts: [2, 1], seen: 'fresh' });
  });

  it('as many such lines on each run, the first at the same place and the second not, is named', () => {
    // One place in common is not enough: every place must match for the lines to follow the commands.
    const first = finished('OK', '.', 'a', 'b', '.', 'a:1', 'b:1', 'c:0');
    const second = finished('OK', '.', 'a', 'b', 'a:1', '.', 'b:1', 'c:0');
    assert.deepEqual(unaskedLines(model, commands, first, second), { lines: ['.'], counts: [2, 2], seen: 'fresh' });
  });
});

describe('lines no command asks for: what an answer could be', () => {
  it('a one-letter line that names no backend of the pool is not an answer to any of these commands', () => {
    // "e" could be a PICK's answer in another pool, not in this one (a b c), and no mistake of the lesson
    // offers it either: a debug print of a loop variable at other places on the two runs is named.
    for (const stray of ['e', 'h', 's', 'w']) {
      const early = finished('OK', stray, 'a', 'b', 'a:1', 'b:1', 'c:0');
      const late = finished('OK', 'a', 'b', stray, 'a:1', 'b:1', 'c:0');
      assert.deepEqual(
        unaskedLines(model, commands, early, late),
        { lines: [stray], counts: [1, 1], seen: 'fresh' },
        stray,
      );
      assert.deepEqual(
        unaskedAcrossRepeat(model, commands, ['OK', stray, ...answers], ['OK', stray, ...answers, ...answers]),
        { lines: [stray], counts: [1, 1], seen: 'repeated' },
        stray,
      );
    }
  });

  it('a backend of the pool printed where no PICK asked for it is an answer some command could be: not named', () => {
    // By form only: where it stands is not checked, so "c" (a possible PICK answer) is never a line nobody asked for.
    assert.equal(
      unaskedLines(model, commands, finished('OK', 'c', 'a', 'b', 'a:1', 'b:1', 'c:0'), finished(...answers)),
      undefined,
    );
  });
});

describe('lines no command asks for: which lines are shown', () => {
  // Four different stray lines, first seen in this order: x (once), zz (twice), beat (twice), tick (three times).
  // Shown: the three most frequent, most frequent first, and of as frequent ones the first by name.
  const shown = ['tick', 'beat', 'zz'];

  it('two fresh runs: the three most frequent lines across both runs, most frequent first, ties by name', () => {
    const first = finished('x', 'zz', 'beat', 'tick', 'tick', ...answers);
    const second = finished('OK', 'zz', 'beat', 'tick', 'a', 'b', 'a:1', 'b:1', 'c:0');
    assert.deepEqual(unaskedLines(model, commands, first, second), { lines: shown, counts: [5, 3], seen: 'fresh' });
  });

  it('a run once and a run twice in one process: the same three lines, in the same order', () => {
    const once = ['x', 'zz', 'tick', 'OK', ...answers];
    const twice = ['zz', 'beat', 'beat', 'tick', 'tick', 'OK', ...answers, 'OK', ...answers];
    assert.deepEqual(unaskedAcrossRepeat(model, commands, once, twice), {
      lines: shown,
      counts: [3, 5],
      seen: 'repeated',
    });
  });

  it('as frequent lines are shown by name, in whatever order they were printed', () => {
    for (const printed of [
      ['dd', 'cc', 'bb'],
      ['bb', 'dd', 'cc'],
    ]) {
      const first = finished(...printed, ...answers);
      const second = finished(...answers, ...printed);
      assert.deepEqual(unaskedLines(model, commands, first, second)?.lines, ['bb', 'cc', 'dd'], printed.join(' '));
      assert.deepEqual(
        unaskedAcrossRepeat(model, commands, [...printed, 'OK', ...answers], ['OK', ...answers, 'OK', ...answers])
          ?.lines,
        ['bb', 'cc', 'dd'],
        printed.join(' '),
      );
    }
  });
});
