/**
 * Where a mistake that crashes the program is: the line of the learner's own file that the crash's traceback
 * names (its innermost frame in that file), read from the run where the program died at the command the
 * mistake explains. No tracing is needed: the interpreter already said where.
 */
import type { ProcessResult } from './process';
import type { Stream } from './batch';
import type { Case } from './cases';
import type { Finding } from '../diagnosis/finding';
import type { ReferenceModel } from '../model/model';
import { segmentAnswers } from '../model/segment';
import { simulate } from '../model/simulate';
import type { Language } from '../pack/schema';
import { crashLine, errorSummary } from '../report/problems';
import type { Location } from '../report/report';
import { enclosingFunction } from '../text/source';

export interface CrashEvidence {
  readonly model: ReferenceModel;
  /** The evidence streams, the first `runs.length` of them one per process run of the main batch, in order. */
  readonly streams: readonly Stream[];
  readonly runs: readonly ProcessResult[];
  readonly cases: readonly Case[];
  readonly language: Language;
  /** The learner file's base name as tracebacks show it (the transpiled `.js` of a `.ts` file, same lines). */
  readonly fileName: string;
  readonly source: string;
}

/** How many of a finding's steps are looked at for the crash (the first ones; a crash ends its stream). */
const MAX_STEPS = 50;

/**
 * The traceback's line for a finding whose mistake crashes the program (its mutant crashes at a command where
 * the program died); undefined when the finding is not a crash, or no traceback names the learner's file.
 */
export function crashLocation(e: CrashEvidence, finding: Finding | undefined): Location | undefined {
  if (!finding) return undefined;
  for (const step of finding.steps.slice(0, MAX_STEPS)) {
    const stream = e.streams[step.stream];
    const run = e.runs[step.stream];
    if (!stream || !run || stream.ending !== 'crashed') continue;
    // The program died at this command: it answered every command before it, and not this one.
    if (segmentAnswers(e.model, stream.commands, stream.lines, false).length !== step.index) continue;
    const segment = stream.segments.find((s) => step.index >= s.start && step.index < s.start + s.length);
    if (!segment) continue;
    const upto = stream.commands.slice(segment.start, step.index + 1);
    const mutant = simulate(e.model, upto, new Set([finding.mutation])).steps;
    if (mutant.length !== upto.length || !mutant[mutant.length - 1]!.crashed) continue;
    const line = crashLine(run.stderr, e.language, e.fileName);
    if (line === null) continue;
    const verb = step.command.trim().split(/\s+/)[0] ?? step.command;
    const summary = errorSummary(run.stderr, e.language);
    const source = e.cases[segment.list];
    return {
      lines: [line],
      function: enclosingFunction(e.source, e.language, line),
      reason: `your program crashed on this line at ${verb}${summary ? ` (${summary})` : ''}`,
      ...(source ? { at: { table: false as const, transcript: source.name, label: source.label } } : {}),
    };
  }
  return undefined;
}
