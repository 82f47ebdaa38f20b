/**
 * What the check traces for a named mistake from the transcripts it was seen in (core `locateAttempts`, when
 * the counterexample has no right command of the wrong one's kind): one transcript cut out of a process run,
 * with the program's answers to it, the command the mistake was seen at, the other wrong ones set aside, and
 * the transcript named (the learner is told "in a random test (#2)", not "in the table"). Runs stopped by a
 * time or output limit are not used: their last answers are not the program's. FAKE program: the toy model of
 * locateToys.ts with the program's mistakes on, run as one process over several transcripts.
 */
import * as assert from 'node:assert/strict';
import { locateAttempts } from '../../src/core/check/locateAttempts';
import { casesOf, findingOf, model, stepAt, streamOf } from './locateToys';

/** Every GET after an INC is wrong under `double`; the second list has a right GET (before the INC) and two wrong. */
const lists = [
  ['INC', 'GET'],
  ['GET', 'INC', 'GET', 'INC', 'GET'],
];

describe('tracing a mistake in a transcript it was seen in (fake program)', () => {
  it('cuts the transcript out of the run, traces where the counts first part, and names the transcript', () => {
    // A third transcript follows: its answers are not the second's.
    const streams = [streamOf([...lists, ['GET']], ['double'])];
    // Stream commands: 0 SET 0, 1 INC, 2 GET | 3 SET 0, 4 GET, 5 INC, 6 GET, 7 INC, 8 GET | 9 SET 0, 10 GET.
    const finding = findingOf('double', [stepAt(streams, 0, 2), stepAt(streams, 0, 6), stepAt(streams, 0, 8)]);
    // The first transcript has one INC only, nothing to compare with: the second is traced, once.
    assert.deepEqual(locateAttempts(model, null, finding, streams, casesOf(lists)), [
      {
        commands: ['SET 0', 'GET', 'INC', 'GET', 'INC', 'GET'],
        answers: [['OK'], ['0'], ['OK'], ['2'], ['OK'], ['4']],
        failingIndex: 2,
        otherFailing: [5, 3],
        origin: { table: false, transcript: 'generated-2', label: 'a random test (#2)' },
      },
    ]);
  });

  it('traces a random choice at the command it was seen at, and names no transcript when the check has no case for it', () => {
    const streams = [streamOf(lists, ['double'])];
    const [attempt] = locateAttempts(model, null, findingOf('double', [stepAt(streams, 0, 6)], true), streams, []);
    // A random choice is not moved to where the counts part; the later wrong GET is set aside.
    assert.deepEqual(attempt, {
      commands: ['SET 0', 'GET', 'INC', 'GET', 'INC', 'GET'],
      answers: [['OK'], ['0'], ['OK'], ['2'], ['OK'], ['4']],
      failingIndex: 3,
      otherFailing: [5],
    });
  });

  for (const ending of ['timed-out', 'output-limit'] as const) {
    it(`does not use a run stopped by ${ending === 'timed-out' ? 'the time limit' : 'the output limit'}, and takes the next run the mistake was seen in`, () => {
      const stopped = streamOf([lists[1]!], ['double'], ending);
      const finished = streamOf([lists[1]!], ['double'], undefined, 1);
      const streams = [stopped, finished];
      const finding = findingOf('double', [stepAt(streams, 0, 3), stepAt(streams, 1, 3)]);
      const attempts = locateAttempts(model, null, finding, streams, casesOf(lists));
      assert.deepEqual(
        attempts.map((a) => a.origin),
        [{ table: false, transcript: 'generated-2', label: 'a random test (#2)' }],
      );
    });
  }

  it('skips a step in a run it was not given, or outside every transcript of its run', () => {
    const streams = [streamOf([lists[1]!], ['double'])];
    const finding = findingOf('double', [
      { ...stepAt(streams, 0, 3), stream: 4 },
      { ...stepAt(streams, 0, 3), index: 40 },
      stepAt(streams, 0, 3),
    ]);
    assert.deepEqual(
      locateAttempts(model, null, finding, streams, casesOf([lists[1]!])).map((a) => a.failingIndex),
      [2],
    );
  });

  it('tries a transcript again at a later command of another kind when its first cannot be traced', () => {
    // One x too many and INC counting two: the LIST (stream command 1) has no other LIST to compare with, so
    // the transcript is tried again at its GET (command 4), which has a right GET (command 2) before it.
    const ownLists = [['LIST', 'GET', 'INC', 'GET']];
    const streams = [streamOf(ownLists, ['double', 'list-extra'])];
    const finding = findingOf('double', [stepAt(streams, 0, 1), stepAt(streams, 0, 4)], true);
    const atGet = locateAttempts(
      model,
      null,
      findingOf('double', [stepAt(streams, 0, 4)], true),
      streams,
      casesOf(ownLists),
    );
    assert.equal(atGet.length, 1, 'traced at its GET alone');
    assert.deepEqual(locateAttempts(model, null, finding, streams, casesOf(ownLists)), atGet);
    assert.deepEqual(
      locateAttempts(model, null, findingOf('double', [stepAt(streams, 0, 1)], true), streams, casesOf(ownLists)),
      [],
      'not at its LIST alone',
    );
  });

  it('traces a wrong answer to the reset in the transcript that reset starts, compared with a later SET', () => {
    // The program says OK! to every SET 0. The step is the second transcript's reset (stream command 2).
    const ownLists = [['GET'], ['SET 5', 'GET']];
    const streams = [streamOf(ownLists, ['reset-loud'])];
    const attempts = locateAttempts(
      model,
      null,
      findingOf('reset-loud', [stepAt(streams, 0, 2)]),
      streams,
      casesOf(ownLists),
    );
    assert.deepEqual(attempts, [
      {
        commands: ['SET 0', 'SET 5', 'GET'],
        answers: [['OK!'], ['OK'], ['5']],
        failingIndex: 0,
        otherFailing: [],
        origin: { table: false, transcript: 'generated-2', label: 'a random test (#2)' },
      },
    ]);
  });

  it('looks at the first twenty commands the mistake was seen at, no further', () => {
    // Twenty transcripts with one INC each (nothing to compare the INC with), then one that could be traced.
    const ownLists = [...Array.from({ length: 20 }, () => ['INC', 'GET']), lists[1]!];
    const streams = [streamOf(ownLists, ['double'])];
    const steps = ownLists.map((_, k) => stepAt(streams, 0, streams[0]!.segments[k]!.start + 2));
    assert.deepEqual(locateAttempts(model, null, findingOf('double', steps), streams, casesOf(ownLists)), []);
    assert.equal(
      locateAttempts(model, null, findingOf('double', steps.slice(1)), streams, casesOf(ownLists)).length,
      1,
      'the twenty-first is tried when it is among the first twenty',
    );
  });
});

describe('which answers of a transcript count as wrong (fake program)', () => {
  /** The attempt for the GET at stream command `index` of one transcript run with these mistakes, no finding's cause. */
  const attemptAt = (list: readonly string[], on: string[], index: number, ending?: 'crashed') => {
    const streams = [streamOf([list], on, ending)];
    return locateAttempts(model, null, findingOf(on[0]!, [stepAt(streams, 0, index)], true), streams, [])[0];
  };

  it('counts an empty list as an answer of a program that finished, and right when the count is zero', () => {
    const attempt = attemptAt(['GET', 'INC', 'GET', 'SET 0', 'LIST'], ['double'], 3);
    assert.deepEqual(attempt?.answers, [['OK'], ['0'], ['OK'], ['2'], ['OK'], []]);
    assert.deepEqual(attempt?.otherFailing, []);
  });

  it('counts an empty list at the end of a crashed run as never answered: it is set aside, not compared with', () => {
    const attempt = attemptAt(['GET', 'INC', 'GET', 'SET 0', 'LIST'], ['double'], 3, 'crashed');
    assert.deepEqual(attempt?.answers, [['OK'], ['0'], ['OK'], ['2'], ['OK']]);
    assert.deepEqual(attempt?.otherFailing, [5]);
  });

  it('counts a list with a line too few or too many as wrong, and a list with the right lines (none, at zero) as right', () => {
    // One x too few: the empty LIST at zero is right, the one at 1 (traced) and at 2 are wrong.
    const short = attemptAt(['LIST', 'INC', 'LIST', 'GET', 'INC', 'LIST'], ['list-short'], 3);
    assert.deepEqual(short?.answers, [['OK'], [], ['OK'], [], ['1'], ['OK'], ['x']]);
    assert.deepEqual(short?.otherFailing, [6]);
    // One x too many, beside a GET that is wrong and traced.
    const extra = attemptAt(['GET', 'INC', 'GET', 'LIST'], ['double', 'list-extra'], 3);
    assert.deepEqual(extra?.answers, [['OK'], ['0'], ['OK'], ['2'], ['x', 'x', 'x']]);
    assert.deepEqual(extra?.otherFailing, [4]);
  });

  it('counts every answer after a command the reference stops at as wrong: the reference has none to compare with', () => {
    // The program answers OK to BAD and goes on; the reference stops there.
    const attempt = attemptAt(['GET', 'INC', 'GET', 'BAD', 'GET'], ['lenient', 'double'], 3);
    assert.deepEqual(attempt?.answers, [['OK'], ['0'], ['OK'], ['2'], ['OK'], ['2']]);
    assert.deepEqual(attempt?.otherFailing, [4, 5]);
  });
});
