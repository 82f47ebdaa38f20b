/**
 * What shrinking costs (core `shrinkCommands`), beyond shrink.test.ts: every call of the predicate may be a
 * process run of the learner's program, so a round sends only candidates that can change the result. Splitting
 * in two sends the two halves only (the complement of one half is the other), and a list with no command of
 * two or more arguments sends no argument round at all (no empty batch, which would still cost a call).
 */
import * as assert from 'node:assert/strict';
import { shrinkCommands, type BatchPredicate } from '../../src/core/check/shrink';

/** A batch predicate from a plain one, recording every call's candidates. */
function recorded(
  holds: (commands: readonly string[]) => boolean,
): BatchPredicate & { calls: (readonly string[])[][] } {
  const calls: (readonly string[])[][] = [];
  const predicate = async (candidates: readonly (readonly string[])[]): Promise<boolean[]> => {
    calls.push([...candidates]);
    return candidates.map(holds);
  };
  return Object.assign(predicate, { calls });
}

describe('shrinking: what each call of the predicate is asked', () => {
  it('asks for the two halves only when it splits in two, then for quarters and their complements', async () => {
    // Fails only with C0 and C3 both there: neither half fails, so it splits in four.
    const predicate = recorded((c) => c.includes('C0') && c.includes('C3'));
    const result = await shrinkCommands(['C0', 'C1', 'C2', 'C3'], predicate);
    assert.deepEqual(result, ['C0', 'C3']);
    assert.deepEqual(predicate.calls[0], [
      ['C0', 'C1'],
      ['C2', 'C3'],
    ]);
    assert.deepEqual(predicate.calls[1], [
      ['C0'],
      ['C1'],
      ['C2'],
      ['C3'],
      ['C1', 'C2', 'C3'],
      ['C0', 'C2', 'C3'],
      ['C0', 'C1', 'C3'],
      ['C0', 'C1', 'C2'],
    ]);
  });

  it('never asks about an empty batch: commands without two arguments get no argument round', async () => {
    const predicate = recorded((c) => c.includes('PICK'));
    assert.deepEqual(await shrinkCommands(['POOL a', 'STATUS', 'PICK'], predicate), ['PICK']);
    assert.ok(
      predicate.calls.every((call) => call.length > 0),
      JSON.stringify(predicate.calls),
    );
    // ddmin: halves [POOL a, STATUS] | [PICK] -> [PICK]; nothing left to shrink, and no argument to drop.
    assert.deepEqual(predicate.calls, [[['POOL a', 'STATUS'], ['PICK']]]);
  });
});
