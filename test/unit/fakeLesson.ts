/**
 * The least-connections lesson as the engine sees it (manifest, model, hidden transcripts) and FAKE programs
 * for it: `execute` answers in-process from the reference model, so a test of core's check is exact, instant
 * and can count process runs. Shared by the unit tests of check and confirm.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Execute, ProcessResult } from '../../src/core/check/process';
import { parseManifest } from '../../src/core/pack/manifest';
import { parseTranscripts } from '../../src/core/model/transcript';
import { model } from '../../lessons/least-connections/model/model';

export { model };
export const LESSON = path.join(__dirname, '..', '..', 'lessons', 'least-connections');
const parsed = parseManifest(fs.readFileSync(path.join(LESSON, 'lesson.json'), 'utf8'), 'lesson.json');
if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
export const manifest = parsed.manifest;
export const transcripts = manifest.transcripts.flatMap((f) => parseTranscripts(fs.readFileSync(path.join(LESSON, f), 'utf8'), f));
export const CORRECT_PY = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'least-connections', 'python', 'correct.py'), 'utf8');

/** A process that ended normally, unless `r` says otherwise. */
export const done = (stdout: string, r: Partial<ProcessResult> = {}): ProcessResult => ({ stdout, stderr: '', exitCode: 0, signal: null, timedOut: false, outputLimited: false, durationMs: 1, ...r });

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
      if (step.answer.kind === 'crash') return done(stdout, { exitCode: 1, stderr: `Traceback (most recent call last):\nKeyError: '${command}'\n` });
      state = step.state;
      stdout += step.answer.lines.map((l) => `${l}\n`).join('');
    }
    return done(stdout);
  };
}

/** A program that answers like the reference model with these mutations switched on. */
export const mutantProgram = (...mutations: string[]): Execute => programWith(() => mutations);
