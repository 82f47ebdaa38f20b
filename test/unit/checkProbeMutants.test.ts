/**
 * The whole check (core `check`) with FAKE programs, on what the probe decides: which failing transcript is
 * run again alone and twice, what a program whose answers do not follow the commands is told, whether a
 * free choice is called random, rotating or neither, and which transcript is shown when a mistake is named
 * beside a difference no mistake names. Fake on purpose: `execute` answers in-process from the reference model
 * (or a hand-written variant of it), so the report is exact and its process runs can be counted; real
 * processes are covered in test/node. Written against the surviving mutants of src/core/check/check.ts.
 */
import * as assert from 'node:assert/strict';
import { generatedCases, hiddenCases } from '../../src/core/check/cases';
import type { Execute } from '../../src/core/check/process';
import type { CheckReport } from '../../src/core/report/report';
import { checkFake, done, manifest, model, mutantProgram, transcripts, turning } from './fakeLesson';

const checkWith = (execute: Execute, fuzzTranscripts?: number): Promise<CheckReport> =>
  checkFake(execute, fuzzTranscripts === undefined ? {} : { fuzzTranscripts });

const hidden = hiddenCases(transcripts);
const generated = generatedCases(model, 2026, manifest.fuzz!.transcripts, manifest.fuzz!.length);

/** A FAKE program that shouts its picks (upper case) while its process has seen more than `from` resets and at most `to`. */
function tiring(from: number, to = Infinity): Execute {
  return async (input) => {
    let state = model.initial();
    let stdout = '';
    let resets = 0;
    for (const command of input.split('\n').filter(Boolean)) {
      if (command === model.resetCommand) resets += 1;
      const step = model.step(state, command, new Set());
      state = step.state;
      if (step.answer.kind === 'crash') return done(stdout, { exitCode: 1 });
      stdout += step.answer.lines
        .map((l) => `${command === 'PICK' && resets > from && resets <= to ? l.toUpperCase() : l}\n`)
        .join('');
    }
    return done(stdout);
  };
}

/**
 * A FAKE program that shouts its picks (upper case) in lists of 9 commands or fewer, in every other process
 * only (the 1st, 3rd, ...): two fresh runs of a short list disagree.
 */
function shoutsInShortListsEveryOtherProcess(): Execute {
  let processes = 0;
  return async (input) => {
    const shout = processes++ % 2 === 0;
    const lists: string[][] = [];
    for (const command of input.split('\n').filter(Boolean)) {
      if (command === model.resetCommand) lists.push([]);
      lists[lists.length - 1]!.push(command);
    }
    let state = model.initial();
    let stdout = '';
    for (const list of lists) {
      for (const command of list) {
        const step = model.step(state, command, new Set());
        state = step.state;
        if (step.answer.kind === 'crash') return done(stdout, { exitCode: 1 });
        stdout += step.answer.lines
          .map((l) => `${shout && command === 'PICK' && list.length <= 9 ? l.toUpperCase() : l}\n`)
          .join('');
      }
    }
    return done(stdout);
  };
}

/** The FAKE reference program with some answer lines rewritten by `rewrite`. */
function rewritten(rewrite: (stdout: string, input: string) => string, ...mutations: string[]): Execute {
  const program = mutantProgram(...mutations);
  return async (input, limits) => {
    const run = await program(input, limits);
    return { ...run, stdout: rewrite(run.stdout, input) };
  };
}

describe('check: lines no command asks for', () => {
  it('a writer of its own (a tick at another place in every process): says so about the probed transcript, names no mistake, shows its run', async () => {
    // FAKE program: right, but each process prints "tick" after its 2nd, 3rd or 4th line, in turn.
    let processes = 0;
    const ticking = rewritten((stdout) => {
      const lines = stdout.split('\n');
      lines.splice(2 + (processes++ % 3), 0, 'tick');
      return lines.join('\n');
    });
    const report = await checkWith(ticking);
    // The probed transcript is the shortest failing one with enough free choices that chance agreement is unlikely.
    // (Under the mistakes the first look suspects: a likely one that is a corner of a bigger unexplained difference
    // is no longer among them, so the count of free choices is the reference's.)
    const probed = generated[15]!;
    assert.equal(probed.label, 'a random test (#16)');
    assert.equal(report.status, 'fail');
    assert.deepEqual(
      report.problems.map((p) => [p.kind, p.message]),
      [
        [
          'stray-output',
          `Your program printed lines no command asks for ("tick") between its answers: on two runs of "${probed.label}" they came at different places. ` +
            'Its output does not follow the commands, so its answers could not be checked, and no mistake is named.',
        ],
      ],
    );
    assert.deepEqual(report.mistakes, []);
    const shown = report.counterexample!;
    assert.deepEqual(
      [shown.transcript, shown.label, shown.commands, shown.shrunkFrom, shown.reproduced],
      [probed.name, probed.label, probed.commands, probed.commands.length, false],
    );
    assert.deepEqual(report.determinism, { fresh: 'different', afterReset: 'unknown', runs: 2 });
    assert.equal(report.processRuns, 3);
  });

  it('when no failing transcript has enough free choices to tell chance, the one with most is probed, the shortest of those', async () => {
    // Hidden transcripts only: the failing ones (8 commands or fewer, with a PICK) have at most 18 ways to break
    // their ties; worked-trace, pool-order-not-name and tie-after-done have 18, and tie-after-done is the shortest.
    const report = await checkWith(shoutsInShortListsEveryOtherProcess(), 0);
    const probed = hidden.find((c) => c.name === 'tie-after-done')!;
    assert.deepEqual(
      report.problems.map((p) => [p.kind, p.message]),
      [
        [
          'stray-output',
          `Your program printed lines no command asks for ("A", "B") between its answers: none on one run of "${probed.label}" and 3 on another run of the same commands. ` +
            'Its output does not follow the commands, so its answers could not be checked, and no mistake is named.',
        ],
      ],
    );
    assert.deepEqual(
      [report.counterexample!.transcript, report.counterexample!.commands],
      [probed.name, probed.commands],
    );
    assert.deepEqual(report.determinism, { fresh: 'different', afterReset: 'unknown', runs: 2 });
    assert.equal(report.processRuns, 3);
  });
});

describe('check: state carried over from the other transcripts', () => {
  it('right alone and twice over, wrong after other transcripts: said as carried-over state, replayed after the lists that ran before it', async () => {
    const report = await checkWith(tiring(3));
    assert.deepEqual(report.mistakes, []);
    assert.deepEqual(
      report.problems.map((p) => [p.kind, p.message]),
      [
        [
          'stale-state',
          'Something carries over from one transcript to the next: at `PICK` in "a random test (#16)" run alone it answered web1, run after the other transcripts WEB1.',
        ],
      ],
    );
    assert.deepEqual(report.determinism, { fresh: 'same', afterReset: 'different', runs: 3 });
    const example = report.counterexample!;
    assert.deepEqual(
      [example.transcript, example.commands, example.reproduced, example.shrunkFrom],
      ['generated-6', ['POOL web1 mid c zeta', 'PICK'], false, 2],
    );
    assert.deepEqual(report.checks, { total: 17, passed: 5, failed: 12, notRun: 0 });
    assert.equal(report.processRuns, 12);
  });

  it('wrong only after exactly the lists before it: the replay runs those lists and no others, and confirms it', async () => {
    // Shouts only in the 4th to 6th list of a process: a replay with every list of the main run before it
    // (or all but the last) would answer right, and the state would go unconfirmed.
    const report = await checkWith(tiring(3, 6));
    assert.deepEqual(
      report.problems.map((p) => [p.kind, p.message]),
      [
        [
          'stale-state',
          'Something carries over from one transcript to the next: at `PICK` in "a freed backend that is first in the pool wins the tie again" run alone it answered a, run after the other transcripts A.',
        ],
      ],
    );
    assert.deepEqual(report.determinism, { fresh: 'same', afterReset: 'different', runs: 3 });
    const example = report.counterexample!;
    assert.deepEqual(
      [example.transcript, example.commands, example.reproduced],
      ['tie-after-done', ['POOL a b c', 'PICK', 'DONE a', 'PICK', 'PICK'], false],
    );
    // 28: a name dropped from the POOL with the DONE that names it is one more candidate run alone.
    assert.equal(report.processRuns, 28);
  });
});

describe('check: a free choice among tied backends', () => {
  it('a tie broken at random (another start in every process): named as a likely free choice, called random, with the difference seen', async () => {
    const report = await checkWith(turning((process) => process, false));
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.mutants, m.confidence, m.behaviour]),
      [['tiebreak', ['tiebreak-any'], 'likely', 'random']],
    );
    assert.deepEqual(report.determinism, { fresh: 'different', afterReset: 'unknown', runs: 2 });
    assert.deepEqual(
      report.problems.map((p) => [p.kind, p.message]),
      [
        [
          'nondeterministic',
          'Your program answers differently on two runs of the same commands: at `PICK` in "40 mixed commands" one run answered web1, the other web10.',
        ],
      ],
    );
    assert.deepEqual(report.mistakes[0]!.revealedBy, ['tie-after-done', 'long-mixed-1', 'long-mixed-2']);
    // Seen at 30 commands of 14 transcripts, the probe's runs of the probed one counted as that one transcript.
    assert.deepEqual([report.mistakes[0]!.evidence.steps, report.mistakes[0]!.evidence.transcripts], [30, 14]);
    assert.deepEqual(report.mistakes[0]!.evidence.first, {
      transcript: 'tie-after-done',
      label: 'a freed backend that is first in the pool wins the tie again',
      index: 3,
      command: 'PICK',
    });
    assert.equal(report.processRuns, 8);
  });

  it('ties rotated by a turn that survives the reset: the same in fresh runs, different after the reset, so called rotating', async () => {
    const report = await checkWith(turning(() => 0, false));
    // Not the wording of a fixed rule: this one's choice changes after the reset.
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.mutants, m.confidence, m.behaviour, m.variant?.mutant]),
      [['tiebreak', ['tiebreak-any'], 'likely', 'rotating', undefined]],
    );
    // T twice, T alone, the check's batch again: that replay confirms T after the others (no replay of T and T).
    assert.deepEqual(report.determinism, { fresh: 'same', afterReset: 'different', runs: 3 });
    assert.deepEqual(report.problems, []);
    assert.deepEqual(report.mistakes[0]!.counterexample!.commands, [
      'POOL zeta web2 web10 a',
      'PICK',
      'DONE zeta',
      'PICK',
    ]);
    // Shrunk one candidate a process (the turn survives the reset), none started after the first that holds.
    assert.equal(report.processRuns, 56);
  });

  it('ties rotated by a turn the reset starts over: more fresh runs agree, so the free choice is a fixed rule, said as certain', async () => {
    const report = await checkWith(turning(() => 0, true));
    // The same choice on every fresh run and after the reset: a rule of the program's own, never "likely" or random.
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.mutants, m.confidence, m.behaviour, m.variant?.mutant]),
      [['tiebreak', ['tiebreak-any'], 'exact', undefined, 'tiebreak-any']],
    );
    // Two runs of the probe, then the check's whole batch again and T after its prefixes, in one process: 3 in all.
    assert.deepEqual(report.determinism, { fresh: 'same', afterReset: 'same', runs: 3 });
    assert.deepEqual(report.problems, []);
    assert.deepEqual([report.mistakes[0]!.evidence.steps, report.mistakes[0]!.evidence.transcripts], [20, 7]);
    // The fixed rule shows only after a few commands: the program does not follow its mutant on the model's
    // shortest list, but on another of the model's lists, asked in the first round of shrinking on the program
    // (one process). Shrinking from the transcript alone took 12 runs. The model's first tries rode in the probe's
    // replay, and the list the shrinking ends with ran beside its observed twin there: 7 runs before both.
    assert.equal(report.processRuns, 5);
    const shown = report.mistakes[0]!.counterexample!;
    assert.equal(shown.reproduced, true);
    assert.ok(shown.commands.length <= 6, JSON.stringify(shown.commands));
  });
  it('ties that agree on the first two fresh runs and differ on a later one: the more fresh runs find the randomness, and it is called random', async () => {
    // The main run and both probe runs start at turn 0; the 4th process on, each starts at its own number.
    const report = await checkWith(turning((process) => (process < 3 ? 0 : process), true));
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.mutants, m.confidence, m.behaviour]),
      [['tiebreak', ['tiebreak-any'], 'likely', 'random']],
    );
    assert.deepEqual(report.determinism, { fresh: 'different', afterReset: 'unknown', runs: 3 });
    assert.deepEqual(
      report.problems.map((p) => [p.kind, p.message]),
      [
        [
          'nondeterministic',
          'Your program answers differently on two runs of the same commands: at `PICK` in "the lesson\'s worked trace on three backends" one run answered a, the other c.',
        ],
      ],
    );
    // Settled over more random draws, as any program found to choose at random.
    assert.equal(report.mistakes[0]!.evidence.steps, 24);
    assert.equal(report.processRuns, 9);
  });

  it('randomness the more fresh runs found, with no generated transcripts to settle over: the free choice is weighed as random at once', async () => {
    // Without generated transcripts there are no more random draws to settle the verdict on, so the steps
    // counted for it are those of the diagnosis redone as random right after the fresh runs differed.
    const report = await checkWith(
      turning((process) => (process < 3 ? 0 : process), true),
      0,
    );
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.mutants, m.confidence, m.behaviour, m.evidence.steps]),
      [['tiebreak', ['tiebreak-any'], 'likely', 'random', 13]],
    );
    assert.deepEqual(report.determinism, { fresh: 'different', afterReset: 'unknown', runs: 3 });
    assert.equal(report.processRuns, 8);
  });
});

describe('check: which transcript is shown', () => {
  it("a named mistake beside a difference no mistake names: the counterexample shown is the named mistake's", async () => {
    // FAKE program: a count below zero, and `c` picked is printed `C` (no mistake of the lesson does that).
    const report = await checkWith(rewritten((stdout) => stdout.replace(/^c$/gm, 'C'), 'negative-count'));
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.confidence]),
      [['negative-count', 'likely']],
    );
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ['unrecognised-difference'],
    );
    const example = report.mistakes[0]!.counterexample!;
    assert.deepEqual(example.commands, ['POOL a b', 'DONE b', 'PICK']);
    assert.deepEqual(report.counterexample, example);
    assert.deepEqual(report.determinism, { fresh: 'same', afterReset: 'same', runs: 2 });
    assert.equal(report.processRuns, 4);
  });

  it('a difference no mistake names: the shortest run that shows it, found from the transcripts it was seen in', async () => {
    // FAKE program that shouts every pick (upper case).
    const shouting = rewritten((stdout, input) => {
      const picks = new Set(input.split('\n').flatMap((l) => (l.startsWith('POOL') ? l.split(' ').slice(1) : [])));
      return stdout
        .split('\n')
        .map((l) => (picks.has(l) ? l.toUpperCase() : l))
        .join('\n');
    });
    const report = await checkWith(shouting);
    assert.deepEqual(report.mistakes, []);
    const example = report.counterexample!;
    assert.deepEqual(
      [example.transcript, example.commands, example.reproduced, example.shrunkFrom],
      ['generated-6', ['POOL zeta', 'PICK'], true, 2],
    );
    assert.deepEqual(report.determinism, { fresh: 'same', afterReset: 'same', runs: 3 });
    // The last shrinking call asks each subset's drops of names too: nothing is left to ask after it (7 runs before),
    // and the list it ends with ran there beside its observed twin, so it needs no fresh run (6 before).
    assert.equal(report.processRuns, 5);
    assert.deepEqual(report.checks, { total: 17, passed: 2, failed: 15, notRun: 0 });
  });

  it('a mistake its own counts contradict is not named: its run is shown, and the difference is said as one the lesson has no name for', async () => {
    // FAKE program whose picks go below zero like `negative-count`, but whose STATUS prints a count's size
    // (`abs(count)`): 1 where the count is -1.
    const report = await checkWith(rewritten((stdout) => stdout.replace(/:-(\d+)$/gm, ':$1'), 'negative-count'));
    assert.deepEqual(report.mistakes, []);
    const example = report.counterexample!;
    assert.deepEqual(
      [example.transcript, example.commands, example.reproduced],
      ['done-at-zero', ['POOL a b', 'DONE b', 'PICK'], true],
    );
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ['unrecognised-difference'],
    );
    const message = report.problems[0]!.message;
    assert.ok(
      message.startsWith(
        'Your program differs from the reference in a way this lesson has no name for: STATUS printed web1:1 where web1 has 0 in flight',
      ),
      message,
    );
    // The contradicted run is the one shown, so the sentence points at the trace.
    assert.ok(
      message.endsWith(
        ' Also: after `DONE b` your counts were a:0 b:1 where they should be a:0 b:0 (in the failing transcript shown), and no mistake this lesson names explains that.',
      ),
      message,
    );
    assert.equal(report.processRuns, 4);
  });
  it("a contradicted mistake beside a named one: the run shown is the named mistake's, so the sentence does not point at the trace", async () => {
    // FAKE program: below zero at a DONE at 0 (its STATUS shows the count's size), and a reload keeps the counts.
    const report = await checkWith(
      rewritten((stdout) => stdout.replace(/:-(\d+)$/gm, ':$1'), 'negative-count', 'reset-keeps-counts'),
    );
    assert.deepEqual(
      report.mistakes.map((m) => m.id),
      ['stale-counts'],
    );
    assert.deepEqual(report.counterexample, report.mistakes[0]!.counterexample);
    const message = report.problems.find((p) => p.kind === 'unrecognised-difference')!.message;
    assert.ok(
      message.endsWith(
        ' Also: after `DONE b` your counts were a:0 b:1 where they should be a:0 b:0, and no mistake this lesson names explains that.',
      ),
      message,
    );
  });

  it('a count below zero that STATUS prints as 0 is named in that form, never as a tie going the wrong way', async () => {
    // FAKE program: below zero at a DONE at 0, and STATUS prints max(0, count) (clamp_in_status.py, written as a
    // learner would). By its STATUS the counts were tied, so its pick looked like a tiebreak of its own: `tiebreak`
    // was named, likely, where the mistake is in done() (stop 42).
    const clamped = (stdout: string) => stdout.replace(/:-\d+$/gm, ':0');
    const alone = await checkWith(rewritten(clamped, 'negative-count'));
    assert.deepEqual(
      alone.mistakes.map((m) => [m.id, m.mutants, m.confidence]),
      [['negative-count', ['negative-hidden'], 'exact']],
    );
    assert.deepEqual(alone.problems, []);
    const beside = await checkWith(rewritten(clamped, 'negative-count', 'unknown-added'));
    assert.deepEqual(beside.mistakes.map((m) => [m.id, m.mutants, m.confidence]).sort(), [
      ['negative-count', ['negative-hidden'], 'exact'],
      ['unknown-backend', ['unknown-added'], 'exact'],
    ]);
  });
});

describe('check: which form of a mistake is named', () => {
  it('a count ranked as unsigned beside a difference no mistake names: the plain form is named, since the choices may be chance', async () => {
    const spec = manifest.mistakes.find((m) => m.id === 'negative-count')!;
    // Alone, the special form is named exactly.
    const alone = await checkWith(mutantProgram('negative-unsigned'));
    assert.deepEqual(
      alone.mistakes.map((m) => [m.id, m.mutants, m.confidence]),
      [['negative-count', ['negative-unsigned'], 'exact']],
    );
    // FAKE program: the same, and `c` picked is printed `C`. Its counts are the plain form's; its choices
    // could be unsigned ranking or the same unexplained chooser, so the plain form is named.
    const report = await checkWith(rewritten((stdout) => stdout.replace(/^c$/gm, 'C'), 'negative-unsigned'));
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.mutants, m.confidence, m.title]),
      [['negative-count', ['negative-count'], 'likely', spec.title]],
    );
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ['unrecognised-difference'],
    );
  });
});
