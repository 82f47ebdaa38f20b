/**
 * The whole check (core `check`) with FAKE programs, on the paths that otherwise only real processes reach:
 * a program that cannot start or parse, a placeholder, a byte after every answer, a hang, a crash on
 * strangers; the phases and the passing batch a host is handed; tracing (`locate`); and what a named
 * mistake carries. The verdict paths (naming, shrinking, leaks, seeds) are in test/unit/check.test.ts.
 */
import * as assert from 'node:assert/strict';
import { generatedCases, hiddenCases } from '../../src/core/check/cases';
import { type CheckInput, type CheckPhase, type LocateAttempt, type PassingBatch } from '../../src/core/check/check';
import type { Execute } from '../../src/core/check/process';
import type { CheckReport } from '../../src/core/report/report';
import { simulate } from '../../src/core/model/simulate';
import {
  checkFake,
  CORRECT_PY,
  done,
  manifest,
  model,
  mutantProgram,
  programWith,
  transcripts,
  turning,
} from './fakeLesson';

const checkWith = (
  execute: Execute,
  extra: Partial<CheckInput> = {},
  options: Partial<CheckInput['options']> = {},
): Promise<CheckReport> => checkFake(execute, options, extra);

/** Every answer line of the program with `suffix` added where `where` says. */
function withSuffix(execute: Execute, suffix: string, where: (line: string) => boolean = () => true): Execute {
  return async (input, limits) => {
    const run = await execute(input, limits);
    return {
      ...run,
      stdout: run.stdout
        .split('\n')
        .map((line, i, all) => (i === all.length - 1 || !where(line) ? line : line + suffix))
        .join('\n'),
    };
  };
}

const hidden = hiddenCases(transcripts);
const shortestHidden = [...hidden].sort((a, b) => a.commands.length - b.commands.length)[0]!;

describe('check paths: programs that do not run', () => {
  it('a file that does not compile: an error, that one problem, every hidden transcript failed, one run', async () => {
    const report = await checkWith(async () =>
      done('', { exitCode: null, prepareError: { message: 'Unexpected token (3:4)', line: 3 } }),
    );
    assert.equal(report.status, 'error');
    assert.deepEqual(
      report.problems.map((p) => [p.kind, p.line]),
      [['syntax', 3]],
    );
    assert.deepEqual(
      report.transcripts.map((t) => [t.name, t.passed]),
      transcripts.map((t) => [t.name, false]),
    );
    assert.deepEqual(report.checks, { total: transcripts.length, passed: 0, failed: transcripts.length, notRun: 0 });
    assert.equal(report.processRuns, 1);
    assert.deepEqual([report.mistakes, report.counterexample], [[], null]);
  });

  it('an interpreter that is not there: an error that says which', async () => {
    const report = await checkWith(async () =>
      done('', { exitCode: null, startError: { command: 'python3', code: 'ENOENT' } }),
    );
    assert.equal(report.status, 'error');
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ['interpreter-missing'],
    );
  });

  it('a placeholder: fails where it stopped, at no further cost, with the counterexample cut after that command', async () => {
    const stub: Execute = async () =>
      done('OK\n', { exitCode: 1, stderr: 'Traceback (most recent call last):\nNotImplementedError: write pick()\n' });
    const report = await checkWith(stub);
    assert.equal(report.status, 'fail');
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ['unimplemented'],
    );
    assert.equal(report.processRuns, 1, 'a stub is not run again per transcript');
    const example = report.counterexample!;
    assert.equal(example.reproduced, false);
    assert.equal(example.transcript, hidden[0]!.name, 'the first failing transcript');
    assert.deepEqual(example.commands, hidden[0]!.commands.slice(0, 1), 'up to the command it stopped at');
    assert.equal(example.shrunkFrom, hidden[0]!.commands.length);
    assert.deepEqual(report.mistakes, []);
  });
});

describe('check paths: a byte after every answer', () => {
  it('right once the byte is off: fails with that problem alone, no transcript passes, and shows the shortest hidden transcript as printed', async () => {
    const report = await checkWith(withSuffix(mutantProgram(), '\r'), { replay: (stdin) => `replay ${stdin.length}` });
    assert.equal(report.status, 'fail');
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ['line-endings'],
    );
    assert.match(
      report.problems[0]!.message,
      /^Every answer of your program ends in `\\r`.*Without that byte, every answer is right\.$/,
    );
    assert.equal(report.checks.passed, 0);
    assert.deepEqual(
      report.transcripts.map((t) => [t.name, t.passed]),
      hidden.map((h) => [h.name, false]),
    );
    const example = report.counterexample!;
    assert.equal(example.transcript, shortestHidden.name);
    assert.deepEqual(example.commands, shortestHidden.commands);
    assert.equal(example.reproduced, true);
    // The replay starts a fresh process with the reset command, as the check's own run of it did.
    const stdin = [model.resetCommand, ...shortestHidden.commands].join('\n') + '\n';
    assert.deepEqual(example.replay, { stdin, shell: `replay ${stdin.length}` });
    assert.equal(report.processRuns, 2, 'the check, then the shortest transcript as printed');
    assert.deepEqual(report.mistakes, []);
  });

  it('a trailing space on some lines beside a real mistake: the problem first, the mistake still named, passing transcripts still pass', async () => {
    const picksOnly = (line: string): boolean => line !== 'OK' && !line.includes(':');
    const report = await checkWith(withSuffix(mutantProgram('negative-count'), ' ', picksOnly));
    assert.equal(report.status, 'fail');
    assert.equal(report.problems[0]!.kind, 'line-endings');
    assert.match(
      report.problems[0]!.message,
      /^\d+ of your program's \d+ answer lines end in `␠`.*The check below compares the answers without it\.$/,
    );
    assert.deepEqual(
      report.mistakes.map((m) => m.id),
      ['negative-count'],
    );
    const clean = await checkWith(mutantProgram('negative-count'));
    assert.deepEqual(report.transcripts, clean.transcripts, 'the verdicts are those of the program without the byte');
  });

  it('a byte after the answers of a program that does not run at all says only why it does not run', async () => {
    const report = await checkWith(async () =>
      done('OK\r\n', { exitCode: 1, prepareError: { message: 'Unexpected token (1:1)', line: 1 } }),
    );
    assert.equal(report.status, 'error');
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ['syntax'],
    );
  });
});

describe('check paths: hangs and crashes', () => {
  it('a hang: stops after the first, says the command it stopped at, and cuts the counterexample there', async () => {
    // Hangs at the first DONE of a list: answers everything before it, then nothing.
    const hangs: Execute = async (input, limits) => {
      const upto = input.split('\n').findIndex((l) => l.startsWith('DONE'));
      if (upto < 0) return mutantProgram()(input, limits);
      const run = await mutantProgram()(input.split('\n').slice(0, upto).join('\n') + '\n', limits);
      return { ...run, exitCode: null, signal: 'SIGKILL', timedOut: true };
    };
    const report = await checkWith(hangs);
    assert.equal(report.status, 'fail');
    const timeout = report.problems.find((p) => p.kind === 'timeout')!;
    const example = report.counterexample!;
    assert.equal(example.commands.at(-1)!.split(' ')[0], 'DONE', example.commands.join(' | '));
    assert.equal(example.reproduced, false);
    assert.ok(timeout.message.includes(`at \`${example.commands.at(-1)}\` in `), timeout.message);
    assert.ok(report.processRuns <= 3, `${report.processRuns} runs`);
  });

  it('a crash on strangers: named, and the other transcripts with a stranger are not each run in a process of their own', async () => {
    const program = mutantProgram('unknown-crash');
    const report = await checkWith(program);
    assert.deepEqual(
      report.mistakes.map((m) => m.id),
      ['unknown-backend'],
    );
    assert.ok(report.problems.some((p) => p.kind === 'crash'));
    // A crash is no reason to give up on the other transcripts: only those the crashing mutant says crash alike
    // are left out (once two of them did), and every other one ran.
    for (const t of report.transcripts.filter((v) => v.notRun)) {
      const commands = hidden.find((h) => h.name === t.name)!.commands;
      assert.equal(simulate(model, commands, new Set(['unknown-crash'])).outcome.ending, 'crashed', t.name);
    }
    const crashing = hidden.filter(
      (h) => simulate(model, h.commands, new Set(['unknown-crash'])).outcome.ending === 'crashed',
    );
    assert.equal(report.checks.passed, hidden.length - crashing.length, 'every transcript that can pass ran');
    const strangers = report.transcripts.filter((t) => !t.passed);
    assert.ok(strangers.length > 0);
    assert.ok(
      report.processRuns <= strangers.length + 4,
      `${report.processRuns} runs for ${strangers.length} failing hidden transcripts`,
    );
    assert.ok(
      report.fuzz.notRun > 0 || report.fuzz.failed > 0,
      'generated transcripts with a stranger are left out or fail',
    );
  });

  it('says where each failing hidden transcript first differs, with its expected and actual answers', async () => {
    const report = await checkWith(mutantProgram('tiebreak-name'));
    const failing = report.transcripts.filter((t) => !t.passed);
    assert.ok(failing.length > 0);
    for (const verdict of failing) {
      const t = hidden.find((x) => x.name === verdict.name)!;
      const reference = simulate(model, t.commands).steps.map((s) => s.answer);
      const mutant = simulate(model, t.commands, new Set(['tiebreak-name'])).steps.map((s) => s.answer);
      const first = reference.findIndex((answer, i) => JSON.stringify(answer) !== JSON.stringify(mutant[i]));
      assert.equal(verdict.divergesAt, first, verdict.name);
      assert.deepEqual(verdict.expected, simulate(model, t.commands).outcome.lines);
      assert.deepEqual(verdict.actual, simulate(model, t.commands, new Set(['tiebreak-name'])).outcome.lines);
    }
  });
});

describe('check paths: what a host is told', () => {
  it('reports the phases it goes through, and none past the first run for a passing program', async () => {
    const phases: CheckPhase[] = [];
    await checkWith(mutantProgram('tiebreak-name'), { onPhase: (p) => phases.push(p) });
    assert.deepEqual(phases, ['run', 'diagnose', 'confirm']);
    const passing: CheckPhase[] = [];
    await checkWith(mutantProgram(), { onPhase: (p) => passing.push(p) });
    assert.deepEqual(passing, ['run']);
    const probedAndTraced: CheckPhase[] = [];
    await checkWith(mutantProgram('tiebreak-lru'), {
      onPhase: (p) => probedAndTraced.push(p),
      locate: async () => ({ runs: 1 }),
    });
    assert.deepEqual(probedAndTraced, ['run', 'diagnose', 'confirm', 'locate']);
    const shouting: Execute = async (input) => ({
      ...(await mutantProgram()(input)),
      stdout: (await mutantProgram()(input)).stdout.replace(/^EMPTY$/gm, 'NONE'),
    });
    const probed: CheckPhase[] = [];
    await checkWith(shouting, { onPhase: (p) => probed.push(p) });
    assert.deepEqual(probed, ['run', 'diagnose', 'probe', 'confirm']);
  });

  it("hands over the first run's whole input and the exact output of a program that passes it", async () => {
    let batch: PassingBatch | undefined;
    const report = await checkWith(mutantProgram(), { onBatch: (b) => (batch = b) }, { fuzzTranscripts: 3 });
    assert.ok(batch);
    assert.equal(batch.expectedStdout, (await mutantProgram()(batch.input)).stdout);
    assert.ok(batch.input.startsWith(`${model.resetCommand}\n${hidden[0]!.commands[0]}\n`));
    const cases = [...hidden, ...generatedCases(model, 2026, 3, manifest.fuzz!.length)];
    assert.equal(batch.input, cases.map((c) => [model.resetCommand, ...c.commands].join('\n') + '\n').join(''));
    assert.deepEqual(
      batch.transcripts,
      transcripts.map((t) => ({
        name: t.name,
        description: report.transcripts.find((v) => v.name === t.name)!.description,
      })),
    );
    assert.deepEqual(batch.fuzz, { seed: 2026, transcripts: 3 });
  });

  it('names a mistake with its card, its step and question, the transcripts that revealed it and where it was first seen', async () => {
    const report = await checkWith(mutantProgram('wrap-32'));
    const [mistake] = report.mistakes;
    const spec = manifest.mistakes.find((m) => m.id === 'negative-count')!;
    const variant = spec.variants!.find((v) => v.mutant === 'wrap-32')!;
    assert.equal(mistake!.id, 'negative-count');
    assert.deepEqual(mistake!.mutants, ['wrap-32']);
    assert.equal(mistake!.title, variant.title ?? spec.title);
    assert.equal(mistake!.hint, variant.hint ?? spec.hint);
    assert.equal(mistake!.explanation, spec.explanation);
    assert.equal(mistake!.variant?.mutant, 'wrap-32');
    assert.equal(mistake!.variant?.explanation, variant.explanation);
    assert.equal(mistake!.variant?.title, variant.title);
    assert.deepEqual([mistake!.step, mistake!.question, mistake!.function], [spec.step, spec.question, spec.function]);
    assert.equal(typeof mistake!.line, 'number', 'the function is found in the learner file');
    const failing = report.transcripts.filter((t) => !t.passed).map((t) => t.name);
    assert.deepEqual(mistake!.revealedBy, failing, 'every failing hidden transcript shows it here');
    assert.ok(
      mistake!.evidence.steps >= mistake!.evidence.transcripts && mistake!.evidence.transcripts >= failing.length,
    );
    const first = mistake!.evidence.first!;
    const t = hidden.find((x) => x.name === first.transcript)!;
    assert.equal(t.commands[first.index], first.command);
    assert.equal(first.label, report.transcripts.find((v) => v.name === first.transcript)!.description);
  });

  it('a mistake with no variant of that form carries none', async () => {
    const report = await checkWith(mutantProgram('negative-count'));
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.variant, m.title]),
      [['negative-count', undefined, manifest.mistakes.find((m) => m.id === 'negative-count')!.title]],
    );
  });
});

describe('check paths: tracing', () => {
  const pickLine = CORRECT_PY.split('\n').findIndex((l) => l.includes('def pick')) + 2;

  it('traces the counterexample (reset first) when it has a right command of the kind that failed, and places the mistake there', async () => {
    // Ties to the least recently picked: the table has a PICK answered right before the wrong one.
    const asked: LocateAttempt[] = [];
    const plain = await checkWith(mutantProgram('tiebreak-lru'));
    const report = await checkWith(mutantProgram('tiebreak-lru'), {
      locate: async (attempts) => {
        asked.push(...attempts);
        return { location: { lines: [pickLine], function: null, reason: 'ran at the wrong PICK' }, runs: 2 };
      },
    });
    assert.equal(asked.length, 1, 'the first attempt that names a line is the last');
    const example = report.mistakes[0]!.counterexample!;
    assert.deepEqual(asked[0]!.commands, [model.resetCommand, ...example.commands]);
    assert.equal(asked[0]!.failingIndex, example.divergesAt + 1, 'the reset is command 0');
    assert.deepEqual(asked[0]!.origin, { table: true, row: example.divergesAt + 1 });
    assert.deepEqual(asked[0]!.answers, [
      model.resetAnswer,
      ...example.trace.filter((r) => r.actual !== null).map((r) => r.actual),
    ]);
    const location = report.mistakes[0]!.location!;
    assert.equal(location.function, 'pick', 'the function around the line, when the tracer does not say');
    assert.deepEqual(location.at, asked[0]!.origin);
    assert.equal(report.processRuns, plain.processRuns + 2);
  });

  it('starts the traced run locate asks for first beside the run that confirms the counterexample, counted once', async () => {
    const events: string[] = [];
    const ahead: LocateAttempt[] = [];
    const asked: LocateAttempt[] = [];
    const program = mutantProgram('tiebreak-lru');
    const plain = await checkWith(program);
    const report = await checkWith(
      async (input, limits) => {
        const run = await program(input, limits);
        events.push('run ended');
        return run;
      },
      {
        onPhase: (phase) => events.push(phase),
        traceAhead: (attempt) => {
          events.push('ahead');
          ahead.push(attempt);
        },
        // The tracer took the run started ahead: it started none of its own.
        locate: async (attempts) => {
          asked.push(...attempts);
          return { location: { lines: [pickLine], function: null, reason: 'ran at the wrong PICK' }, runs: 0 };
        },
      },
    );
    assert.equal(ahead.length, 1);
    assert.deepEqual(
      [ahead[0]!.commands, ahead[0]!.answers],
      [asked[0]!.commands, asked[0]!.answers],
      'the run started ahead is the one locate is asked for first',
    );
    const confirming = events.indexOf('confirm');
    assert.ok(confirming >= 0 && events.indexOf('ahead') > confirming, 'started in the confirm phase');
    assert.equal(events[events.indexOf('ahead') + 1], 'run ended', 'before the confirming run ended');
    assert.equal(report.processRuns, plain.processRuns + 1);
    assert.equal(report.runsByPhase?.locate, 1);
    assert.deepEqual(report.mistakes[0]!.location?.lines, [pickLine]);
  });

  it('starts no traced run ahead for a program the probe looked at, nor where no tracing is asked for', async () => {
    const ahead: LocateAttempt[] = [];
    // FAKE program whose ties turn with its PICKs, carried across the reset: the probe runs it fresh.
    const report = await checkWith(
      turning(() => 0, false),
      {
        traceAhead: (attempt) => ahead.push(attempt),
        locate: async () => ({ runs: 1 }),
      },
    );
    assert.ok(report.determinism, 'the probe ran');
    assert.equal(ahead.length, 0);
    const untraced = await checkWith(mutantProgram('tiebreak-lru'), { traceAhead: (attempt) => ahead.push(attempt) });
    assert.equal(untraced.status, 'fail');
    assert.equal(ahead.length, 0, 'no locate, no trace ahead');
  });

  it('asks for one traced run per attempt of a program the probe ran fresh, random or not, and leaves it to the tracer otherwise', async () => {
    // FAKE program whose ties go one way or another by the turn, the first turn another in each process (a draw),
    // with counts that go negative besides.
    let processes = 0;
    const drawing: Execute = async (input) => {
      let turn = processes++;
      let state = model.initial();
      let stdout = '';
      for (const command of input.split('\n').filter(Boolean)) {
        const step = model.step(
          state,
          command,
          new Set(['negative-count', ...(turn % 2 === 0 ? [] : ['tiebreak-rotate'])]),
        );
        if (command === 'PICK') turn += 1;
        state = step.state;
        if (step.answer.kind === 'crash') return done(stdout, { exitCode: 1 });
        stdout += step.answer.lines.map((l) => `${l}\n`).join('');
      }
      return done(stdout);
    };
    const tries = async (program: Execute): Promise<(number | undefined)[]> => {
      const asked: LocateAttempt[] = [];
      await checkWith(program, {
        locate: async (attempts) => {
          asked.push(...attempts);
          return { runs: 1 };
        },
      });
      return asked.map((a) => a.tries);
    };
    const random = await tries(drawing);
    assert.ok(random.length > 0 && random.every((t) => t === 1), JSON.stringify(random));
    // Ties that rotate by a turn the reset does not start over: the same on fresh runs, so a traced run that
    // answers otherwise would again.
    const rotating = await tries(turning(() => 0, false));
    assert.ok(rotating.length > 0 && rotating.every((t) => t === 1), JSON.stringify(rotating));
    // An exact mistake needs no probe: the tracer decides.
    const fixed = await tries(mutantProgram('negative-count'));
    assert.ok(fixed.length > 0 && fixed.every((t) => t === undefined), JSON.stringify(fixed));
  });

  it('tries the transcript the mistake was seen in when the table names no line, and counts every run', async () => {
    const asked: LocateAttempt[] = [];
    const plain = await checkWith(mutantProgram('tiebreak-lru'));
    const report = await checkWith(mutantProgram('tiebreak-lru'), {
      locate: async (attempts) => {
        asked.push(...attempts);
        return asked.length === 1
          ? { runs: 1 }
          : { location: { lines: [pickLine], function: 'select', reason: 'ran at the wrong PICK' }, runs: 1 };
      },
    });
    assert.deepEqual(
      asked.map((a) => a.origin?.table),
      [true, false],
    );
    const second = asked[1]!;
    const origin = second.origin as { transcript: string; label: string };
    const seenIn = hidden.find((c) => c.name === origin.transcript)!;
    assert.equal(origin.label, seenIn.label);
    assert.deepEqual(second.commands, [model.resetCommand, ...seenIn.commands]);
    assert.equal(second.commands[second.failingIndex]!.split(' ')[0], 'PICK');
    assert.deepEqual(report.mistakes[0]!.location, {
      lines: [pickLine],
      function: 'select',
      reason: 'ran at the wrong PICK',
      at: second.origin,
    });
    assert.equal(report.processRuns, plain.processRuns + 2);
  });

  it('traces a whole transcript when the counterexample has nothing right to compare with', async () => {
    // A wrong tiebreak's counterexample is one tie: its only PICK is the wrong one.
    const asked: LocateAttempt[] = [];
    await checkWith(mutantProgram('tiebreak-name'), {
      locate: async (attempts) => {
        asked.push(...attempts);
        return { runs: 1 };
      },
    });
    // The table's own run is tried last, for the lines of its PICK (it cannot tell which of them is wrong).
    assert.deepEqual(
      asked.map((a) => a.origin?.table),
      [false, true],
    );
    const attempt = asked[0]!;
    const failing = attempt.commands[attempt.failingIndex]!;
    assert.equal(failing, 'PICK');
    assert.ok(
      attempt.commands.some((c, i) => c === 'PICK' && i !== attempt.failingIndex && !attempt.otherFailing.includes(i)),
      'a PICK answered right to compare with',
    );
  });

  it('a tracer that fails costs one run and leaves the mistake unplaced', async () => {
    const plain = await checkWith(mutantProgram('tiebreak-name'));
    const report = await checkWith(mutantProgram('tiebreak-name'), {
      locate: async () => Promise.reject(new Error('no tracer')),
    });
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.location]),
      [['tiebreak', undefined]],
    );
    assert.ok(report.processRuns > plain.processRuns);
  });

  it('does not trace a passing program', async () => {
    let asked = 0;
    const report = await checkWith(
      programWith(() => []),
      {
        locate: async () => {
          asked += 1;
          return { runs: 1 };
        },
      },
    );
    assert.equal(report.status, 'pass');
    assert.equal(asked, 0);
  });
});
