/**
 * A reference model that throws is a finding of `validate`, not a crash of the CLI: the finding names the
 * hidden transcript and command that made it throw (found by replaying the transcripts, under the reference
 * and then under each mutation), the model's own file and line (the thrown error's first frame in the pack,
 * mapped through the transpiler's source map back to the author's TypeScript), and the thrown message.
 */
import * as fs from 'node:fs';
import { SourceMap } from 'node:module';
import * as path from 'node:path';
import type { ReferenceModel } from '../../core/model/model';
import type { Transcript } from '../../core/model/transcript';
import type { ValidationProblem } from '../../core/validation/problem';
import { sourceMapOf } from '../languages/transpile';
import { ModelError } from '../engine/modelLoader';

/** Where in the pack the thrown error was raised: its first stack frame in a file under `packDir`. */
export interface ModelFrame {
  readonly file: string;
  readonly line: number;
  readonly column?: number;
}

function thrownMessage(reason: unknown): string {
  const message = (reason as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(reason);
}

/** The first frame of the thrown error's stack that lies in the pack, at the author's own line and column. */
export function frameInPack(reason: unknown, packDir: string): ModelFrame | undefined {
  const stack = (reason as { stack?: unknown } | null)?.stack;
  if (typeof stack !== 'string') return undefined;
  const roots = [path.resolve(packDir), fs.realpathSync(packDir)];
  for (const match of stack.matchAll(/\(?((?:[A-Za-z]:)?[^\s():]+):(\d+):(\d+)\)?/g)) {
    const file = match[1]!;
    const root = roots.find((r) => file.startsWith(r + path.sep));
    if (!root) continue;
    const relative = path.relative(root, file).split(path.sep).join('/');
    return { file: relative, ...originalPosition(file, Number(match[2]), Number(match[3])) };
  }
  return undefined;
}

/** A position in the transpiled code as a position in the source the author wrote. */
function originalPosition(file: string, line: number, column: number): { line: number; column?: number } {
  let source: string;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch {
    return { line };
  }
  const map = sourceMapOf(source, file);
  if (!map) return { line };
  // The loader wraps the code in a function header on its first line; the frame's column there includes it.
  const entry = new SourceMap(map).findEntry(line - 1, column - 1) as {
    originalLine?: number;
    originalColumn?: number;
  };
  if (entry.originalLine === undefined) return { line };
  return { line: entry.originalLine + 1, column: (entry.originalColumn ?? 0) + 1 };
}

interface Trigger {
  readonly transcript: Transcript;
  readonly stepIndex: number;
  readonly mutation?: string;
  readonly error: ModelError;
}

/** Replays one transcript from a fresh initial(); the ModelError it throws, at which command, if any. */
function replay(
  model: ReferenceModel,
  transcript: Transcript,
  on: ReadonlySet<string>,
): Omit<Trigger, 'transcript'> | undefined {
  let state: unknown;
  let index = -1;
  try {
    state = model.initial();
    for (index = 0; index < transcript.steps.length; index++) {
      const result = model.step(state, transcript.steps[index]!.command, on);
      if (result.answer.kind === 'crash') return undefined;
      state = result.state;
    }
  } catch (error) {
    if (error instanceof ModelError) return { stepIndex: Math.max(0, index), error };
    throw error;
  }
  return undefined;
}

/** The first hidden transcript that makes the model throw, under the reference, then under each mutation. */
export function findModelThrow(model: ReferenceModel, transcripts: readonly Transcript[]): Trigger | undefined {
  const sets: { mutation?: string; on: ReadonlySet<string> }[] = [
    { on: new Set() },
    ...model.mutations.map((m) => ({ mutation: m.id, on: new Set([m.id]) })),
  ];
  for (const { mutation, on } of sets) {
    for (const transcript of transcripts) {
      const found = replay(model, transcript, on);
      if (found) return { transcript, ...found, ...(mutation ? { mutation } : {}) };
    }
  }
  return undefined;
}

/**
 * The finding for a model that threw: at the model's line, naming the transcript and command when a hidden
 * transcript makes it throw, else the operation validate was doing (generated transcripts, a mutation).
 */
export function modelThrewProblem(
  packDir: string,
  error: ModelError,
  model: ReferenceModel | undefined,
  transcripts: readonly Transcript[],
): ValidationProblem {
  const trigger = model ? findModelThrow(model, transcripts) : undefined;
  const cause = trigger?.error ?? error;
  const frame = frameInPack(cause.reason, packDir);
  const under = trigger?.mutation ? ` with mutation "${trigger.mutation}" on` : '';
  const step = trigger ? trigger.transcript.steps[trigger.stepIndex] : undefined;
  const during = trigger
    ? `in ${cause.operation}${under}, on transcript "${trigger.transcript.name}" (${trigger.transcript.file}:${step?.line ?? '?'})`
    : `in ${cause.operation}, while validate ran its own generated commands`;
  return {
    severity: 'error',
    area: 'model',
    file: frame?.file ?? cause.file,
    ...(frame ? { line: frame.line, ...(frame.column ? { column: frame.column } : {}) } : {}),
    message: `the model threw ${during}: ${thrownMessage(cause.reason)}`,
    advice:
      'A model must answer every command, also one it does not know: return an answer (e.g. `ERROR`) or `{ kind: "crash" }` for a mutant that would crash, instead of throwing. The other checks run once it no longer throws.',
  };
}
