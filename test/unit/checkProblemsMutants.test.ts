/**
 * What a learner reads about a check's problems (src/core/report/checkProblems.ts) where checkProblems.test.ts
 * leaves it to chance: a many-line answer in a probe difference, a finding that stands on both the main and the
 * probe runs, a stop and a crash together, the advice of stray output and of a difference no mistake names, a
 * stray line of spaces, where a hang stopped before a many-line command, hang and flood messages worded
 * otherwise than the check words them, and the problem of lines no command asks for (`unaskedProblem`), which
 * only the whole check reaches otherwise. Every input is built inside its test, so mutation coverage (perTest)
 * credits the test that runs it.
 */
import * as assert from 'node:assert/strict';
import type { AnswerDifference } from '../../src/core/check/probe';
import { assembleProblems, stoppedProblem, unaskedProblem } from '../../src/core/report/checkProblems';
import type { Counterexample, Problem } from '../../src/core/report/report';
import { model } from '../../lessons/least-connections/model/model';
import {
  differs,
  finding,
  inputs,
  kinds,
  lessonCase,
  mainBatch,
  probe,
  processRun,
  tiesCase,
  unexplained,
} from './checkProblemsEvidence';

describe('check problems (edges): what the probe showed', () => {
  it('a many-line answer that differs between two runs is shown line by line, with " / " between the lines', () => {
    const status: AnswerDifference = { index: 3, command: 'STATUS', first: ['a:1', 'b:1'], second: ['b:1', 'a:1'] };
    const [problem] = assembleProblems(inputs({ probe: probe({ freshDifference: status }) }));
    assert.equal(problem!.kind, 'nondeterministic');
    assert.match(
      problem!.message,
      /at `STATUS` in "ties go to pool order" one run answered a:1 \/ b:1, the other b:1 \/ a:1\.$/,
    );
  });

  it('says nothing of state across the reset when a finding has any step on the probe runs, even with others on the main run', () => {
    const main = mainBatch();
    const onBoth = finding({
      steps: [
        { stream: 0, index: 1, list: 0, listIndex: 0, command: 'PICK' },
        { stream: main.streams.length, index: 1, list: 0, listIndex: 0, command: 'PICK' },
      ],
    });
    const problems = assembleProblems(
      inputs({ main, probe: probe({ resetDifference: differs(['b'], ['a'], 'twice') }), findings: [onBoth] }),
    );
    assert.deepEqual(kinds(problems), []);
  });

  it('a program that stopped answering and also crashed: the stop is said first, then the crash (only a timeout replaces the stop)', () => {
    const crash: Problem = { kind: 'crash', message: 'Your program crashed: exit code 1' };
    const problems = assembleProblems(
      inputs({
        main: mainBatch({ runs: [processRun()] }),
        runProblems: () => [crash],
        probe: probe({ freshDifference: differs(['a'], null) }),
      }),
    );
    assert.deepEqual(kinds(problems), ['timeout', 'crash']);
    assert.match(problems[0]!.message, /^Your program stopped answering at `PICK`/);
    assert.equal(problems[1]!.message, crash.message);
  });
});

describe('check problems (edges): a label or an answer that holds the words of the sentence', () => {
  it('state across the reset: the runs are named, and a label "one run after the other" and an answer "the other" are quoted as they are', () => {
    const label = 'one run after the other';
    const twice = assembleProblems(
      inputs({
        probe: probe(
          { resetDifference: differs(['the other'], ['a'], 'twice') },
          lessonCase(label, ['POOL a b', 'PICK', 'PICK']),
        ),
      }),
    );
    assert.equal(twice[0]!.kind, 'stale-state');
    assert.ok(
      twice[0]!.message.includes(`in "${label}" the first run answered the other, the second a.`),
      twice[0]!.message,
    );
    const after = assembleProblems(
      inputs({
        probe: probe(
          { resetDifference: differs(['the other'], ['a'], 'after-others') },
          lessonCase(label, ['POOL a b', 'PICK', 'PICK']),
        ),
      }),
    );
    assert.ok(
      after[0]!.message.includes(`in "${label}" run alone it answered the other, run after the other transcripts a.`),
      after[0]!.message,
    );
  });
});

describe('check problems (edges): stray output and differences no mistake names', () => {
  it('stray output: the advice says where debugging prints go instead, in Python and in JavaScript', () => {
    const [problem] = assembleProblems(inputs({ main: mainBatch({ strayLines: ['debug'] }) }));
    assert.equal(problem!.kind, 'stray-output');
    assert.match(problem!.advice!, /stderr/);
    assert.match(problem!.advice!, /print\(\.\.\., file=sys\.stderr\)/);
    assert.match(problem!.advice!, /console\.error/);
  });

  it('a stray line of spaces only is said to be an empty line, not quoted', () => {
    const [problem] = assembleProblems(inputs({ main: mainBatch({ strayLines: ['   ', '   '] }) }));
    assert.match(problem!.message, /e\.g\. an empty line\./);
    assert.doesNotMatch(problem!.message, /" +"/);
  });

  it('differences that are all crashes are still named when stray output is the only other problem (a crash problem explains them, nothing else)', () => {
    const diagnosis = unexplained(['at `PICK` your program crashed', 'at `STATUS` your program crashed']);
    const problems = assembleProblems(inputs({ main: mainBatch({ strayLines: ['debug'] }), diagnosis }));
    assert.deepEqual(kinds(problems), ['stray-output', 'unrecognised-difference']);
    assert.match(problems[1]!.message, /It differs like this at 2 commands\.$/);
  });

  it('a difference at the first command of a transcript names the transcript, not "at the start", and the advice is to walk through the trace by hand', () => {
    const [problem] = assembleProblems(
      inputs({ diagnosis: unexplained(['at `POOL b a` your program answered NO', 'x'], 0) }),
    );
    assert.equal(problem!.kind, 'unrecognised-difference');
    assert.match(problem!.message, /\(in "ties go to pool order"\)\./);
    assert.doesNotMatch(problem!.message, /at the start/);
    // No table is shown with this check: the advice names the transcript, and never points at a trace "below" (the
    // CLI prints the table above the cards, an LRU pack's card pointed at one that was not there: issue 31).
    assert.match(problem!.advice!, /^Walk through "ties go to pool order" by hand/);
    assert.match(problem!.advice!, /compare each answer with the rules/);
    const shown = { trace: [] } as unknown as Counterexample;
    const [withTable] = assembleProblems(
      inputs({ diagnosis: unexplained(['at `POOL b a` your program answered NO', 'x'], 0), counterexample: shown }),
    );
    assert.match(withTable!.advice!, /^Walk through the failing transcript shown with this check by hand/);
    for (const p of [problem!, withTable!]) assert.doesNotMatch(`${p.message} ${p.advice}`, /below/);
  });
});

describe('check problems (edges): where a hang or flood stopped', () => {
  it('a hang that stopped after the answers before a STATUS names that STATUS, not the PICK after it', () => {
    const c = lessonCase('status then pick', ['POOL a b', 'STATUS', 'PICK']);
    const hang: Problem = {
      kind: 'timeout',
      message: 'Your program stopped answering: no result within 2.0 s, so it was stopped.',
    };
    const stopped = stoppedProblem(model, c, { lines: ['OK'], ending: 'timed-out' }, [hang]);
    assert.match(stopped!.message, /^Your program stopped answering at `STATUS` in "status then pick": no result/);
  });

  it('a hang message that does not start with "Your program stopped answering" is left as it is', () => {
    const hang: Problem = { kind: 'timeout', message: 'After 2 s. Your program stopped answering.' };
    const stopped = stoppedProblem(model, tiesCase(), { lines: ['OK', 'b'], ending: 'timed-out' }, [hang]);
    assert.equal(stopped!.message, hang.message);
  });

  it('a flood message saying ", so it was stopped." twice: only the final one moves after the command', () => {
    const flood: Problem = {
      kind: 'output-limit',
      message: 'It printed on, so it was stopped. Then more than 64 KiB, so it was stopped.',
    };
    const stopped = stoppedProblem(model, tiesCase(), { lines: ['OK', 'b'], ending: 'output-limit' }, [flood]);
    assert.equal(
      stopped!.message,
      'It printed on, so it was stopped. Then more than 64 KiB at `PICK` in "ties go to pool order", so it was stopped.',
    );
  });
});

describe('check problems (edges): lines no command asks for', () => {
  it('is stray output that names the lines and says no mistake could be named, with advice to send heartbeats to stderr', () => {
    const problem = unaskedProblem({ lines: ['tick', ''], counts: [2, 3], seen: 'fresh' }, 'ties go to pool order');
    assert.equal(problem.kind, 'stray-output');
    assert.match(
      problem.message,
      /^Your program printed lines no command asks for \("tick", an empty line\) between its answers: /,
    );
    assert.match(
      problem.message,
      /\. Its output does not follow the commands, so its answers could not be checked, and no mistake is named\.$/,
    );
    assert.match(problem.advice!, /^Print only the answer to each command, when the command comes/);
    assert.match(problem.advice!, /heartbeat lines .* go to stderr/);
  });

  it('seen across a repeat: how many when the transcript ran once, and how many (not twice that) when it ran twice', () => {
    const [once, twice] = [2, 3] as const;
    const problem = unaskedProblem(
      { lines: ['tick'], counts: [once, twice], seen: 'repeated' },
      'ties go to pool order',
    );
    assert.match(
      problem.message,
      new RegExp(
        `: ${once} of them when "ties go to pool order" ran once, and ${twice} \\(not ${2 * once}\\) when it ran twice in one process\\. `,
      ),
    );
    assert.doesNotMatch(problem.message, /another run/);
  });

  it('seen on two fresh runs: the two counts, or where they came when the counts agree', () => {
    const differ = unaskedProblem({ lines: ['tick'], counts: [2, 3], seen: 'fresh' }, 'ties go to pool order');
    assert.match(
      differ.message,
      /: 2 of them on one run of "ties go to pool order" and 3 on another run of the same commands\. /,
    );
    const fromNone = unaskedProblem({ lines: ['.'], counts: [0, 3], seen: 'fresh' }, 'ties go to pool order');
    assert.match(
      fromNone.message,
      /: none on one run of "ties go to pool order" and 3 on another run/,
      'not "0 of them"',
    );
    assert.match(
      unaskedProblem({ lines: ['.'], counts: [3, 0], seen: 'fresh' }, 'ties').message,
      /: 3 of them on one run of "ties" and none on another run/,
    );
    assert.doesNotMatch(differ.message, /ran twice|different places/);
    const agree = unaskedProblem({ lines: ['tick'], counts: [2, 2], seen: 'fresh' }, 'ties go to pool order');
    assert.match(agree.message, /: on two runs of "ties go to pool order" they came at different places\. /);
    assert.doesNotMatch(agree.message, /2 of them/);
  });
});
