/**
 * The least-connections lesson as the engine sees it (manifest, model, hidden transcripts) and FAKE programs
 * for it: `execute` answers in-process from the reference model, so a test of core's check is exact, instant
 * and can count process runs; a check of a file with such a program, and programs scripted process by process.
 * Shared by the unit tests of check, confirm and probe.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Case } from '../../src/core/check/cases';
import { check, type CheckInput } from '../../src/core/check/check';
import type { Execute, ProcessResult } from '../../src/core/check/process';
import { parseManifest } from '../../src/core/pack/manifest';
import { parseTranscripts } from '../../src/core/model/transcript';
import { simulate } from '../../src/core/model/simulate';
import type { CheckReport } from '../../src/core/report/report';
import { model } from '../../lessons/least-connections/model/model';

export { model };
export const LESSON = path.join(__dirname, '..', '..', 'lessons', 'least-connections');
const parsed = parseManifest(fs.readFileSync(path.join(LESSON, 'lesson.json'), 'utf8'), 'lesson.json');
if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
export const manifest = parsed.manifest;
export const transcripts = manifest.transcripts.flatMap((f) =>
  parseTranscripts(fs.readFileSync(path.join(LESSON, f), 'utf8'), f),
);
export const CORRECT_PY = fs.readFileSync(
  path.join(__dirname, '..', 'fixtures', 'least-connections', 'python', 'correct.py'),
  'utf8',
);

/** A process that ended normally, unless `r` says otherwise. */
export const done = (stdout: string, r: Partial<ProcessResult> = {}): ProcessResult => ({
  stdout,
  stderr: '',
  exitCode: 0,
  signal: null,
  timedOut: false,
  outputLimited: false,
  durationMs: 1,
  ...r,
});

/** A program that answers like the reference model with the mutations `on` chooses (from the commands of the current list so far). */
export function programWith(on: (seenInList: readonly string[]) => readonly string[]): Execute {
  return async (input) => {
    let state = model.initial();
    let stdout = '';
    let seen: string[] = [];
    for (const command of input.split('\n').filter(Boolean)) {
      if (command.startsWith(model.resetCommand)) seen = [];
      const step = model.step(state, command, new Set(on(seen)));
      seen.push(command);
      if (step.answer.kind === 'crash')
        return done(stdout, { exitCode: 1, stderr: `Traceback (most recent call last):\nKeyError: '${command}'\n` });
      state = step.state;
      stdout += step.answer.lines.map((l) => `${l}\n`).join('');
    }
    return done(stdout);
  };
}

/** A program that answers like the reference model with these mutations switched on. */
export const mutantProgram = (...mutations: string[]): Execute => programWith(() => mutations);

/** A check of CORRECT_PY's file name with `execute` as its program, seed 2026, the clock at 0. */
export function checkFake(
  execute: Execute,
  options: Partial<CheckInput['options']> = {},
  extra: Partial<CheckInput> = {},
): Promise<CheckReport> {
  return check({
    manifest,
    model,
    transcripts,
    language: 'python',
    file: 'balancer.py',
    fileName: 'balancer.py',
    source: CORRECT_PY,
    execute,
    options: { seed: 2026, timeLimitMs: 1000, outputLimitBytes: 64 * 1024, interpreter: 'python3', ...options },
    clock: () => 0,
    ...extra,
  });
}

/** A hidden transcript T of these commands, expected as the reference answers them. */
export const caseOf = (commands: string[]): Case => ({
  name: 't',
  label: 'T',
  commands,
  expected: simulate(model, commands).outcome,
  hidden: true,
});

/** What one process does with its stdin. */
export type Script = (input: string) => ProcessResult | Promise<ProcessResult>;

/** The n-th process started is answered by `scripts[n]` (the last one for any later start); stdins are kept. */
export function perProcess(...scripts: Script[]): Execute & { stdins: string[] } {
  const stdins: string[] = [];
  return Object.assign(
    (async (input) => scripts[Math.min(stdins.push(input) - 1, scripts.length - 1)]!(input)) as Execute,
    { stdins },
  );
}

/** A process that printed these lines and ended as `r` says (exit code 0 unless told). */
export const prints =
  (lines: string[], r: Partial<ProcessResult> = {}): Script =>
  () =>
    done(lines.map((l) => `${l}\n`).join(''), r);

/** `execute`, recording every standard input it is given, so a test can count process runs. */
export function recorded(execute: Execute): Execute & { stdins: string[] } {
  const stdins: string[] = [];
  return Object.assign(
    (async (input, limits) => {
      stdins.push(input);
      return execute(input, limits);
    }) as Execute,
    { stdins },
  );
}

/**
 * A FAKE program that breaks ties like the reference on even turns and the other way on odd ones (a PICK is a
 * turn). `startOf` gives each new process its first turn; with `resetTurn`, the reset command starts it over
 * at that turn.
 */
export function turning(startOf: (process: number) => number, resetTurn: boolean): Execute {
  let processes = 0;
  return async (input) => {
    const start = startOf(processes++);
    let turn = start;
    let state = model.initial();
    let stdout = '';
    for (const command of input.split('\n').filter(Boolean)) {
      if (resetTurn && command === model.resetCommand) turn = start;
      const step = model.step(state, command, new Set(turn % 2 === 0 ? [] : ['tiebreak-rotate']));
      if (command === 'PICK') turn += 1;
      state = step.state;
      if (step.answer.kind === 'crash') return done(stdout, { exitCode: 1 });
      stdout += step.answer.lines.map((l) => `${l}\n`).join('');
    }
    return done(stdout);
  };
}

/** A FAKE program whose PICK answers a, b, c in turn for the whole process (a cursor the reset does not touch); every other command OK. */
export const rotatingPicks: Execute = async (input) => {
  let turn = 0;
  const out = input
    .split('\n')
    .filter(Boolean)
    .map((command) => (command === 'PICK' ? ['a', 'b', 'c'][turn++ % 3]! : 'OK'));
  return done(out.map((l) => `${l}\n`).join(''));
};
