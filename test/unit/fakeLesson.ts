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
import type { ConfirmContext } from '../../src/core/check/confirmRuns';
import type { Execute, ProcessResult } from '../../src/core/check/process';
import { parseManifest } from '../../src/core/pack/manifest';
import { parseTranscripts } from '../../src/core/model/transcript';
import { simulate } from '../../src/core/model/simulate';
import type { CheckReport } from '../../src/core/report/report';
import { model as lessonModel } from '../../lessons/least-connections/model/model';
import type { Random } from '../../src/core/model/model';

const NAME_POOL = ['zeta', 'alpha', 'mid', 'a', 'b', 'c', 'web1', 'web10', 'web2'];

function shuffled(random: Random, items: readonly string[]): string[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The lesson's generator as it was before its pools went up to 8 backends (issue 31): pools of 0 to 4. The
 * tests of core's check pin which generated transcript a check probes, shows and counts; they test the check,
 * so they keep the transcripts they were written against (test/unit/poolSize.test.ts tests the lesson's own).
 */
function generateFourAtMost(random: Random, length: number): string[] {
  const pool = shuffled(random, NAME_POOL).slice(0, random.int(5));
  const commands = [`POOL ${pool.join(' ')}`.trimEnd()];
  let current = pool;
  while (commands.length < length) {
    const roll = random.int(100);
    if (roll < 45) commands.push('PICK');
    else if (roll < 73 && current.length > 0) commands.push(`DONE ${random.pick(current)}`);
    else if (roll < 81) commands.push(`DONE ${random.pick(['ghost', 'zz', 'Alpha'])}`);
    else if (roll < 96 || current.length === 0) commands.push('STATUS');
    else {
      const kept = shuffled(random, current).slice(0, Math.max(1, current.length - 1));
      current = [...kept, random.pick(NAME_POOL.filter((n) => !current.includes(n)))];
      commands.push(`POOL ${current.join(' ')}`);
    }
  }
  return commands;
}

/** The least-connections reference model, with the generator of pools of up to 4 backends. */
export const model: typeof lessonModel = { ...lessonModel, poolSize: { min: 0, max: 4 }, generate: generateFourAtMost };
export const LESSON = path.join(__dirname, '..', '..', 'lessons', 'least-connections');
const parsed = parseManifest(fs.readFileSync(path.join(LESSON, 'lesson.json'), 'utf8'), 'lesson.json');
if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
export const manifest = parsed.manifest;
/**
 * The hidden transcripts the core check's tests were written against: the lesson's, less numbers.txt (stop 42: a
 * count past 9, for a program that compares counts as text), which would renumber and reorder what they pin, as
 * the generator above would.
 */
export const transcripts = manifest.transcripts
  .filter((f) => f !== 'transcripts/numbers.txt')
  .flatMap((f) => parseTranscripts(fs.readFileSync(path.join(LESSON, f), 'utf8'), f));
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

/**
 * FAKE program that breaks ties by a rule of its own: of the tied backends (those `tiebreak-any` offers), the first in
 * `order` (given the number of the process, from 0), with `mistakes` (the model's mutations) besides; a crash ends
 * its process with an error exit.
 */
export function tiesByRule(
  order: (a: string, b: string, process: number) => number,
  mistakes: readonly string[] = [],
): Execute {
  let processes = 0;
  return async (input) => {
    const process = processes++;
    let state = model.initial();
    let stdout = '';
    for (const command of input.split('\n').filter(Boolean)) {
      const offered = model.step(state, command, new Set(['tiebreak-any']));
      const tied = offered.answer.kind === 'lines' ? [offered.answer.lines, ...(offered.alternatives ?? [])] : [];
      const chosen =
        command === 'PICK' && tied.length > 1
          ? [tied.map((lines) => lines[0]!).sort((a, b) => order(a, b, process))[0]!]
          : undefined;
      const step = model.step(state, command, new Set(mistakes), chosen);
      if (step.answer.kind === 'crash')
        return done(stdout, { exitCode: 1, stderr: `Traceback (most recent call last):\nValueError: ${command}\n` });
      state = step.state;
      stdout += (chosen ?? step.answer.lines).map((line) => `${line}\n`).join('');
    }
    return done(stdout);
  };
}

/** A confirm phase's context for `execute` (a program that keeps nothing across the reset), with `over` on top. */
export const confirmContextOf = (execute: Execute, over: Partial<ConfirmContext> = {}): ConfirmContext => ({
  model,
  execute,
  cases: [],
  streams: [],
  random: false,
  leaky: false,
  concurrency: 1,
  maxShrinkRounds: 8,
  ...over,
});
