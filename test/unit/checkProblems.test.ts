/**
 * The problems a check reports besides named mistakes (core `checkProblems`), from hand-made evidence: what
 * the probe's extra runs showed (randomness, state across the reset, a program that stopped answering),
 * stray prints, the runs' own problems, and a difference no mistake names; and the hang or flood said at
 * its command. The whole check with fake programs is in test/unit/check.test.ts.
 */
import * as assert from 'node:assert/strict';
import type { AnswerDifference } from '../../src/core/check/probe';
import { assembleProblems, stoppedProblem } from '../../src/core/report/checkProblems';
import type { Problem } from '../../src/core/report/report';
import { model } from '../../lessons/least-connections/model/model';
import {
  differs,
  finding,
  inputs,
  kinds,
  mainBatch,
  probe,
  processRun,
  tiesCase,
  unexplained,
} from './checkProblemsEvidence';

const ties = tiesCase();
const main = mainBatch();

describe('check problems: what the probe showed', () => {
  it('nothing to say about a program that answers the same way every time', () => {
    assert.deepEqual(assembleProblems(inputs({ probe: probe({}) })), []);
  });

  it('two fresh runs that differ: says where, and points at randomness', () => {
    const [problem, ...rest] = assembleProblems(inputs({ probe: probe({ freshDifference: differs(['b'], ['a']) }) }));
    assert.deepEqual(rest, []);
    assert.equal(problem!.kind, 'nondeterministic');
    assert.equal(
      problem!.message,
      'Your program answers differently on two runs of the same commands: at `PICK` in "ties go to pool order" one run answered b, the other a.',
    );
    assert.match(problem!.advice!, /random\.choice/);
  });

  it('with a finding that is a free choice, says a choice among equals has a rule', () => {
    const [problem] = assembleProblems(
      inputs({
        probe: probe({ freshDifference: differs(['b'], []) }),
        findings: [finding({ nondeterministic: true })],
      }),
    );
    assert.match(problem!.message, /one run answered b, the other \(nothing\)\.$/);
    assert.match(problem!.advice!, /a choice among equals has a rule/);
  });

  it('state that carries over the reset, seen after the other transcripts or run twice, in words for each', () => {
    const after = assembleProblems(
      inputs({ probe: probe({ resetDifference: differs(['b'], ['a'], 'after-others') }) }),
    );
    assert.deepEqual(kinds(after), ['stale-state']);
    assert.equal(
      after[0]!.message,
      'Something carries over from one transcript to the next: at `PICK` in "ties go to pool order" run alone it answered b, run after the other transcripts a.',
    );
    assert.match(after[0]!.advice!, /^`POOL` must start from scratch/);
    const twice = assembleProblems(inputs({ probe: probe({ resetDifference: differs(['b'], ['a'], 'twice') }) }));
    assert.equal(
      twice[0]!.message,
      'Something carries over from one transcript to the next: run twice in one process, at `PICK` in "ties go to pool order" the first run answered b, the second a.',
    );
  });

  it('says nothing of state across the reset when a finding already stands on the probe runs', () => {
    // A finding with a step in a stream past the main run's streams: the probe's own evidence names it.
    const named = finding({
      steps: [{ stream: main.streams.length, index: 1, list: 0, listIndex: 0, command: 'PICK' }],
    });
    assert.deepEqual(
      assembleProblems(
        inputs({ probe: probe({ resetDifference: differs(['b'], ['a'], 'twice') }), findings: [named] }),
      ),
      [],
    );
    const inMain = finding({
      steps: [{ stream: main.streams.length - 1, index: 1, list: 0, listIndex: 0, command: 'PICK' }],
    });
    assert.deepEqual(
      kinds(
        assembleProblems(
          inputs({ probe: probe({ resetDifference: differs(['b'], ['a'], 'twice') }), findings: [inMain] }),
        ),
      ),
      ['stale-state'],
    );
  });

  it('a run that gave no answer at all is a program that stopped answering, said for each way it was seen', () => {
    const when = (d: AnswerDifference, fresh: boolean): string =>
      assembleProblems(inputs({ probe: probe(fresh ? { freshDifference: d } : { resetDifference: d }) }))[0]!.message;
    assert.equal(
      when(differs(null, ['a']), true),
      'Your program stopped answering at `PICK` in "ties go to pool order" when it ran first: it gave no answer there, and none after.',
    );
    assert.match(when(differs(['a'], null, 'after-others'), false), /when it ran after the other transcripts:/);
    assert.match(when(differs(['a'], null, 'twice'), false), /the second time it ran in one process:/);
    assert.match(when(differs(['a'], null), true), /on one of two runs:/);
    const [stop, ...rest] = assembleProblems(
      inputs({
        probe: probe({ freshDifference: differs(['a'], null), resetDifference: differs(['b'], ['a'], 'twice') }),
      }),
    );
    assert.equal(stop!.kind, 'timeout');
    assert.deepEqual(rest, [], 'neither randomness nor stale state');
    assert.match(stop!.advice!, /read stdin to its end/);
  });

  it('two runs that both gave no answer, or both answered, are not a stop', () => {
    assert.deepEqual(kinds(assembleProblems(inputs({ probe: probe({ freshDifference: differs(null, null) }) }))), [
      'nondeterministic',
    ]);
    assert.match(
      assembleProblems(inputs({ probe: probe({ freshDifference: differs(null, null) }) }))[0]!.message,
      /one run answered nothing, the other nothing\./,
    );
  });
});

describe('check problems: the runs and the differences', () => {
  it('stray prints: the first one quoted, and a hint to print to stderr', () => {
    const [problem] = assembleProblems(inputs({ main: { ...main, strayLines: ['debug: 1', 'debug: 2'] } }));
    assert.equal(problem!.kind, 'stray-output');
    assert.match(problem!.message, /e\.g\. "debug: 1"\./);
  });

  it('a flood makes no claim of state carried over (what it printed around the flood is no evidence of it)', () => {
    const run = processRun();
    const found: Problem[] = [{ kind: 'output-limit', message: 'flood' }];
    const leak = assembleProblems(
      inputs({
        main: { ...main, runs: [run] },
        runProblems: () => found,
        probe: {
          probed: {
            name: 't',
            label: 'T',
            commands: ['PICK'],
            expected: { lines: ['a'], ending: 'finished' },
            hidden: true,
          },
          determinism: { fresh: 'same', afterReset: 'different', runs: 3 },
          streams: [],
          alone: { lines: ['a'], ending: 'finished' },
          resetDifference: { index: 0, command: 'PICK', first: ['a'], second: ['b'], seen: 'twice' },
        },
      }),
    );
    assert.deepEqual(
      leak.map((p) => p.kind),
      ['output-limit'],
    );
  });

  it('stray prints: the line printed most, and an empty line said in words', () => {
    const said = (strayLines: string[]): string =>
      assembleProblems(inputs({ main: { ...main, strayLines } }))[0]!.message;
    assert.match(said(['', '.', '.', 'x']), /e\.g\. "\."\./);
    assert.match(said(['', ' ']), /e\.g\. an empty line\./);
    assert.doesNotMatch(said(['']), /""/);
  });

  it("each kind of a run's own problem once, an output flood first, then crash before timeout", () => {
    const run = processRun();
    const found: Problem[] = [
      { kind: 'output-limit', message: 'flood' },
      { kind: 'timeout', message: 'hang' },
      { kind: 'crash', message: 'boom' },
    ];
    const problems = assembleProblems(inputs({ main: { ...main, runs: [run, run] }, runProblems: () => found }));
    assert.deepEqual(
      problems.map((p) => p.message),
      ['flood', 'boom', 'hang'],
    );
  });

  it("a run's own timeout replaces the probe's stop in place: the same hang, with the run's numbers", () => {
    const run = processRun({ exitCode: null, signal: 'SIGKILL', timedOut: true });
    const problems = assembleProblems(
      inputs({
        main: { ...main, runs: [run], strayLines: ['x'] },
        runProblems: () => [{ kind: 'timeout', message: 'hang' }],
        probe: probe({ freshDifference: differs(['a'], null) }),
      }),
    );
    assert.deepEqual(
      problems.map((p) => p.message.slice(0, 4)),
      ['hang', 'Your'],
      'stray output stays after it',
    );
  });

  it('a difference no mistake names: its first sentence, the command and transcript, and how many more', () => {
    const [one] = assembleProblems(
      inputs({ diagnosis: unexplained(['at `PICK` your program answered a, where the reference answers b']) }),
    );
    assert.equal(
      one!.message,
      'Your program differs from the reference in a way this lesson has no name for: at `PICK` your program answered a, where the reference answers b (in "ties go to pool order").',
    );
    const [two] = assembleProblems(inputs({ diagnosis: unexplained(['first', 'second']) }));
    assert.match(two!.message, /first \(in "ties go to pool order"\)\. It differs like this at 2 commands\.$/);
    const [start] = assembleProblems(inputs({ diagnosis: unexplained(['x'], -1), cases: [] }));
    assert.match(start!.message, /\(at the start of "a transcript"\)\.$/);
  });

  it('says no unnamed difference where a crash, stale state or a stop already explains it', () => {
    const crash = { kind: 'crash', message: 'boom' } as Problem;
    const run = processRun();
    const crashed = inputs({ main: { ...main, runs: [run] }, runProblems: () => [crash] });
    assert.deepEqual(
      kinds(assembleProblems({ ...crashed, diagnosis: unexplained(['at `PICK` your program crashed']) })),
      ['crash'],
    );
    assert.deepEqual(
      kinds(assembleProblems({ ...crashed, diagnosis: unexplained(['at `PICK` your program crashed', 'answered a']) })),
      ['crash', 'unrecognised-difference'],
      'not every difference is the crash',
    );
    assert.deepEqual(
      kinds(assembleProblems(inputs({ diagnosis: unexplained(['at `PICK` your program crashed']) }))),
      ['unrecognised-difference'],
      'a crash with no crash problem',
    );
    assert.deepEqual(
      kinds(
        assembleProblems(
          inputs({ diagnosis: unexplained(['a']), probe: probe({ resetDifference: differs(['b'], ['a'], 'twice') }) }),
        ),
      ),
      ['stale-state'],
    );
    assert.deepEqual(
      kinds(
        assembleProblems(
          inputs({ diagnosis: unexplained(['a']), probe: probe({ freshDifference: differs(['a'], null) }) }),
        ),
      ),
      ['timeout'],
    );
  });
});

describe('check problems: where a hang or flood stopped', () => {
  const hang: Problem = { kind: 'timeout', message: 'Your program stopped answering for 2 s.' };
  const flood: Problem = { kind: 'output-limit', message: 'Your program printed more than 64 KB, so it was stopped.' };

  it('says the command a hang stopped at: the one after the last answered', () => {
    const stopped = stoppedProblem(model, ties, { lines: ['OK', 'b'], ending: 'timed-out' }, [hang]);
    assert.equal(stopped!.message, 'Your program stopped answering at `PICK` in "ties go to pool order" for 2 s.');
  });

  it('says the command a flood stopped at, at most the last one', () => {
    const stopped = stoppedProblem(model, ties, { lines: ['OK', 'b', 'a', 'a:1', 'b:1'], ending: 'output-limit' }, [
      flood,
    ]);
    assert.equal(
      stopped!.message,
      'Your program printed more than 64 KB at `STATUS` in "ties go to pool order", so it was stopped.',
    );
  });

  it('has nothing to add for a run that finished or crashed, or when no such problem was reported', () => {
    assert.equal(stoppedProblem(model, ties, { lines: ['OK'], ending: 'crashed' }, [hang, flood]), undefined);
    assert.equal(stoppedProblem(model, ties, { lines: ['OK'], ending: 'timed-out' }, [flood]), undefined);
    assert.equal(stoppedProblem(model, ties, { lines: ['OK'], ending: 'output-limit' }, [hang]), undefined);
  });
});
