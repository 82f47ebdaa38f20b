/** Lines no command asks for (core `unaskedLines`, `unaskedAcrossRepeat`), on outcomes written out by hand. */
import * as assert from 'node:assert/strict';
import { model } from '../../lessons/least-connections/model/model';
import { lineForm, unaskedAcrossRepeat, unaskedLines } from '../../src/core/check/unasked';
import type { Outcome } from '../../src/core/model/simulate';

const commands = ['POOL a b c', 'PICK', 'PICK', 'STATUS'];
const finished = (...lines: string[]): Outcome => ({ lines, ending: 'finished' });

describe('lines no command asks for', () => {
  it('a heartbeat between the answers, at other places or in other numbers on two runs, is named', () => {
    const u = unaskedLines(
      model,
      commands,
      finished('OK', '.', 'a', 'b', 'a:1', 'b:1', 'c:0'),
      finished('OK', 'a', '.', '.', 'b', 'a:1', 'b:1', 'c:0'),
    );
    assert.deepEqual(u, { lines: ['.'], counts: [1, 2], seen: 'fresh' });
    const samePlacesOtherLine = unaskedLines(
      model,
      commands,
      finished('OK', '.', 'a', 'b', 'a:1', 'b:1', 'c:0'),
      finished('OK', 'OK.', 'a', 'b', 'a:1', 'b:1', 'c:0'),
    );
    assert.equal(samePlacesOtherLine?.seen, 'fresh');
  });

  it('random choices and counts the reference never reaches are answers, not lines nobody asked for', () => {
    assert.equal(
      unaskedLines(
        model,
        commands,
        finished('OK', 'a', 'b', 'a:1', 'b:1', 'c:0'),
        finished('OK', 'c', 'c', 'a:0', 'b:0', 'c:2'),
      ),
      undefined,
    );
    assert.equal(lineForm('web10:-3'), 'web#:#');
  });

  it('a wrong answer given at the same place every time (a deterministic debug word) is not', () => {
    const run = finished('OK', 'None', 'b', 'a:1', 'b:1', 'c:0');
    assert.equal(unaskedLines(model, commands, run, run), undefined);
  });

  it('a log line stamped with the time, at the same place on each run, is the same line by its form', () => {
    const stamped = (at: string) => finished(`2026-12-02T04:1${at}.123 INFO up`, 'OK', 'a', 'b', 'a:1', 'b:1', 'c:0');
    assert.equal(unaskedLines(model, commands, stamped('0:01'), stamped('7:59')), undefined);
    const moved = finished('OK', '2026-12-02T04:17:59.123 INFO up', 'a', 'b', 'a:1', 'b:1', 'c:0');
    assert.deepEqual(
      unaskedLines(model, commands, stamped('0:01'), moved)?.counts,
      [1, 1],
      'the same line at another place still counts',
    );
  });

  it('a line printed once per process: not twice as many when the transcript runs twice', () => {
    const once = ['working', 'OK', 'OK', 'a', 'b', 'a:1', 'b:1', 'c:0', 'working'];
    const twice = [
      'working',
      'OK',
      'OK',
      'a',
      'b',
      'a:1',
      'b:1',
      'c:0',
      'OK',
      'OK',
      'a',
      'b',
      'a:1',
      'b:1',
      'c:0',
      'working',
    ];
    assert.deepEqual(unaskedAcrossRepeat(model, commands, once, twice), {
      lines: ['working'],
      counts: [2, 2],
      seen: 'repeated',
    });
    const wrongEachTime = ['OK', 'OK', 'None', 'b', 'a:1', 'b:1', 'c:0'];
    assert.equal(unaskedAcrossRepeat(model, commands, wrongEachTime, [...wrongEachTime, ...wrongEachTime]), undefined);
  });
});
