import * as assert from 'node:assert/strict';
import { model } from '../../lessons/least-connections/model/model';
import { model as healthChecks } from '../../lessons/health-checks/model/model';
import { noteAnswerForms, outputLines, segmentAnswers } from '../../src/core/model/segment';
import { simulate } from '../../src/core/model/simulate';
import { showInvisibles } from '../../src/core/text/text';

describe('segmenting output into answers', () => {
  it('gives each one-line command one line and each STATUS every line of its shape', () => {
    const commands = ['POOL a b', 'PICK', 'STATUS', 'DONE a', 'STATUS', 'PICK'];
    const lines = ['OK', 'a', 'a:1', 'b:0', 'OK', 'a:0', 'b:0', 'a'];
    assert.deepEqual(segmentAnswers(model, commands, lines), [
      ['OK'],
      ['a'],
      ['a:1', 'b:0'],
      ['OK'],
      ['a:0', 'b:0'],
      ['a'],
    ]);
  });

  it("gives an empty STATUS (empty pool) an empty answer, not the next command's line", () => {
    assert.deepEqual(segmentAnswers(model, ['STATUS', 'PICK'], ['EMPTY']), [[], ['EMPTY']]);
  });

  it('stops where the output stops, so the length says how far the program got', () => {
    assert.deepEqual(segmentAnswers(model, ['POOL a', 'PICK', 'PICK'], ['OK', 'a']), [['OK'], ['a']]);
  });

  it('for a program that did not finish, does not count a STATUS at the very end as answered', () => {
    // The program crashed on STATUS: "printed nothing" and "never answered" look the same, so say the latter.
    assert.deepEqual(segmentAnswers(model, ['POOL', 'STATUS'], ['OK'], false), [['OK']]);
    // A program that finished did answer that STATUS, with nothing (the pool is empty).
    assert.deepEqual(segmentAnswers(model, ['POOL', 'STATUS'], ['OK'], true), [['OK'], []]);
    // Lines that are there still count, finished or not.
    assert.deepEqual(segmentAnswers(model, ['POOL a', 'STATUS'], ['OK', 'a:0'], false), [['OK'], ['a:0']]);
  });

  it("keeps a row of a known form with something after it (`c:0 (down)`) in STATUS's answer, never the next command's", () => {
    // A program whose STATUS marks a down backend `(down)` where the lesson says `down`: taken for PICK's answer,
    // the row shifted every later answer by one, and the shift was told as state carried over between transcripts.
    const commands = ['POOL a c', 'DOWN c', 'STATUS', 'PICK', 'STATUS'];
    const lines = ['OK', 'OK', 'a:0', 'c:0 (down)', 'a', 'a:1', 'c:0 (down)'];
    assert.deepEqual(segmentAnswers(healthChecks, commands, lines), [
      ['OK'],
      ['OK'],
      ['a:0', 'c:0 (down)'],
      ['a'],
      ['a:1', 'c:0 (down)'],
    ]);
    // A bare word after the rows is still the next command's answer.
    assert.deepEqual(segmentAnswers(healthChecks, ['STATUS', 'PICK'], ['a:0', 'c']), [['a:0'], ['c']]);
  });

  it('keeps rows joined on one line (`a:0 b:1`), and the empty line they make for an empty pool, in STATUS', () => {
    // A STATUS printed with " ".join(rows): taken for the next commands' answers, the line and the empty one of an
    // empty pool shifted every later answer, and the check said late-increment (likely) and a state leak.
    noteAnswerForms(model, simulate(model, ['POOL a b', 'STATUS']).steps);
    const commands = ['POOL', 'STATUS', 'PICK', 'POOL a b', 'PICK', 'STATUS', 'PICK'];
    const lines = ['OK', '', 'EMPTY', 'OK', 'a', 'a:1 b:0', 'b'];
    assert.deepEqual(segmentAnswers(model, commands, lines), [
      ['OK'],
      [''],
      ['EMPTY'],
      ['OK'],
      ['a'],
      ['a:1 b:0'],
      ['b'],
    ]);
  });

  it('splits stdout into lines, dropping only the final newline', () => {
    assert.deepEqual(outputLines(''), []);
    assert.deepEqual(outputLines('OK\na\n'), ['OK', 'a']);
    assert.deepEqual(outputLines('OK\n\na'), ['OK', '', 'a']);
  });

  it('makes invisible characters visible in trace cells', () => {
    assert.equal(showInvisibles('a '), 'a·');
    assert.equal(showInvisibles('  a'), '··a');
    assert.equal(showInvisibles('a\r'), 'a␍');
    assert.equal(showInvisibles('a\tb'), 'a␉b');
    assert.equal(showInvisibles('a\u200bb'), 'a\\u200bb');
    assert.equal(showInvisibles('a b'), 'a b');
  });
});
