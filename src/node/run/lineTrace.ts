/**
 * Runs a learner program once under a line tracer and says which lines of the learner's own files ran
 * while it handled each command: the evidence `src/core/diagnosis/spectrum.ts` ranks to point at the code that
 * went wrong (a helper that `pick()` calls) rather than at the function the lesson names.
 *
 * Python runs under `sys.settrace`, Node under the inspector's precise block coverage; both from an
 * inline bootstrap (traceBootstraps.ts) that then runs the program exactly as `python3 file.py` or
 * `node file.js` would, driver first when the lesson has one. The bootstrap marks the moments the
 * program takes a stdin line and finishes an answer, and `src/core/diagnosis/lineAttribution.ts` cuts the lines at
 * those moments. Its records go to stderr behind a random marker, so the program's answers are
 * untouched and its own stderr is given back as it was.
 */
import { randomBytes } from 'node:crypto';
import {
  attributeLines,
  type Attribution,
  type TraceRecord,
  type TraceRecordKind,
} from '../../core/diagnosis/lineAttribution';
import type { ProcessResult } from '../../core/check/process';
import { outputLines } from '../../core/model/segment';
import type { Language } from '../../core/pack/schema';
import type { PreparedProgram } from '../languages/languages';
import { runProcess, type ProcessSpec } from './runner';
import { NODE_TRACE_BOOTSTRAP, PYTHON_TRACE_BOOTSTRAP } from './traceBootstraps';

/** A file whose lines count: the path the process runs, and the path to report (the TypeScript source). */
export interface TracedFile {
  readonly run: string;
  readonly source: string;
}

export interface LineTraceRequest {
  readonly language: Language;
  /** The untraced run, exactly as the check makes it (interpreter, driver and learner file, cwd, limits). */
  readonly spec: ProcessSpec;
  /** The learner's own files; lines of any other file (the driver, libraries) are not counted. */
  readonly files: readonly TracedFile[];
  readonly commands: readonly string[];
  /**
   * The program's own answer to each command it answered, from a run on exactly these commands: fewer
   * entries than commands when it stopped early. The traced run must give the same answers.
   */
  readonly answers: readonly (readonly string[])[];
}

export interface LineTrace {
  /**
   * Per command: the lines (1-based) of each learner file, by `source` path, that ran while the program
   * handled it. undefined where the trace cannot say (see lineAttribution.ts).
   */
  readonly perCommand: readonly (ReadonlyMap<string, ReadonlySet<number>> | undefined)[];
  /** How the commands were told apart: by the program's stdin reads, or by its answers. */
  readonly by: Attribution['by'];
  /** The traced run, with the tracer's records taken out of stderr. */
  readonly run: ProcessResult;
}

const KINDS = new Set<TraceRecordKind>(['R', 'E', 'B', 'A', 'X']);

function parseRecord(json: string): TraceRecord | undefined {
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value) || value.length !== 4) return undefined;
    const [kind, at, hits, stdoutLines] = value as [unknown, unknown, unknown, unknown];
    if (
      typeof kind !== 'string' ||
      !KINDS.has(kind as TraceRecordKind) ||
      typeof at !== 'number' ||
      typeof stdoutLines !== 'number'
    )
      return undefined;
    if (typeof hits !== 'object' || hits === null) return undefined;
    const byFile = new Map<number, number[]>();
    for (const [file, lines] of Object.entries(hits)) {
      if (!Array.isArray(lines) || !lines.every((line) => Number.isInteger(line))) return undefined;
      byFile.set(Number(file), lines as number[]);
    }
    return { kind: kind as TraceRecordKind, value: at, hits: byFile, stdoutLines };
  } catch {
    return undefined;
  }
}

/** The tracer's records, and stderr without them (a record may follow the program's own unfinished line). */
export function takeRecords(
  stderr: string,
  nonce: string,
): { records: TraceRecord[]; stderr: string; malformed: boolean } {
  const records: TraceRecord[] = [];
  let malformed = false;
  const pattern = new RegExp(`\\x1e${nonce} ([^\\n]*)\\n`, 'g');
  const rest = stderr.replace(pattern, (_whole, json: string) => {
    const record = parseRecord(json);
    if (record) records.push(record);
    else malformed = true;
    return '';
  });
  return { records, stderr: rest, malformed };
}

/** The traced command line: the bootstrap and its settings in front of the program's own arguments. */
export function tracedSpec(request: LineTraceRequest, nonce: string): ProcessSpec {
  const ends: number[] = [];
  let total = 0;
  for (const answer of request.answers) ends.push((total += answer.length));
  const config = JSON.stringify({ nonce, files: request.files.map((file) => file.run), ends });
  if (request.language === 'python')
    return { ...request.spec, args: ['-c', PYTHON_TRACE_BOOTSTRAP, config, ...request.spec.args] };
  // Node's own options (those before the script) stay in front of the bootstrap.
  const script = request.spec.args.findIndex(
    (arg, i) => !arg.startsWith('-') && !(i > 0 && request.spec.args[i - 1] === '--import'),
  );
  const options = script < 0 ? [] : request.spec.args.slice(0, script);
  const rest = script < 0 ? request.spec.args : request.spec.args.slice(script);
  return { ...request.spec, args: [...options, '-e', NODE_TRACE_BOOTSTRAP, '--', config, ...rest] };
}

/** True when the traced run printed the answers the untraced run did, and the tracer saw every line of it. */
function sameAnswers(
  run: ProcessResult,
  answers: readonly (readonly string[])[],
  records: readonly TraceRecord[],
): boolean {
  const printed = outputLines(run.stdout);
  const expected = answers.flat();
  if (printed.length < expected.length || expected.some((line, i) => printed[i] !== line)) return false;
  // Lines written past the tracer (os.write(1, …)) would shift every answer boundary it saw.
  return records[records.length - 1]?.stdoutLines === printed.length;
}

/**
 * Traces one run of the program on `commands`. undefined when the run cannot be traced at all (the
 * bootstrap did not start, the program answered differently from the untraced run, or wrote past the
 * tracer); otherwise per-command lines, undefined for the commands whose lines cannot be told apart.
 */
export async function traceCommandLines(
  request: LineTraceRequest,
  /** Runs the traced command line; the check passes its contained runner (the sandbox) here. */
  runner: (spec: ProcessSpec, input: string) => Promise<ProcessResult> = runProcess,
  /**
   * Runs to make at most while the traced run answers otherwise than the untraced one did (a program that
   * draws at random: on a short transcript a run or two more often answers the same again).
   */
  tries = 1,
  /** This request's run, started before it was made (startTrace): the first try. */
  started?: StartedTrace,
): Promise<LineTrace | undefined> {
  for (let tried = 1; ; tried++) {
    const traced = await traceOnce(request, tried === 1 && started ? started : startTrace(request, runner));
    if (traced !== 'answered otherwise') return traced;
    if (tried >= tries) return undefined;
  }
}

/** A traced run under way, and the marker its records carry. */
export interface StartedTrace {
  readonly nonce: string;
  readonly run: Promise<ProcessResult>;
}

/** Starts one traced run of the request's commands. */
export function startTrace(
  request: LineTraceRequest,
  runner: (spec: ProcessSpec, input: string) => Promise<ProcessResult>,
): StartedTrace {
  const nonce = randomBytes(8).toString('hex');
  const input = request.commands.map((command) => `${command}\n`).join('');
  return { nonce, run: runner(tracedSpec(request, nonce), input) };
}

/**
 * What makes two requests' traced runs the same run: the commands, and where the tracer is told each answer ends.
 * A run started for one serves the other.
 */
export function traceKey(request: Pick<LineTraceRequest, 'commands' | 'answers'>): string {
  return JSON.stringify([request.commands, request.answers.map((answer) => answer.length)]);
}

async function traceOnce(
  request: LineTraceRequest,
  started: StartedTrace,
): Promise<LineTrace | 'answered otherwise' | undefined> {
  const run = await started.run;
  const { records, stderr, malformed } = takeRecords(run.stderr, started.nonce);
  const cleaned: ProcessResult = { ...run, stderr };
  if (malformed || run.startError || run.outputLimited || records[records.length - 1]?.kind !== 'X') return undefined;
  if (!sameAnswers(run, request.answers, records)) return 'answered otherwise';
  const attribution = attributeLines(
    records,
    request.answers.map((answer) => answer.length),
    request.commands.length,
  );
  const perCommand = attribution.perCommand.map((lines) => {
    if (!lines) return undefined;
    const bySource = new Map<string, ReadonlySet<number>>();
    for (const [index, set] of lines) {
      const file = request.files[index];
      if (file) bySource.set(file.source, set);
    }
    return bySource;
  });
  return { perCommand, by: attribution.by, run: cleaned };
}

/** The learner's files of a prepared program, as the traced process runs them. */
export function tracedFiles(program: PreparedProgram, learnerFile: string): TracedFile[] {
  return program.learnerFiles ? [...program.learnerFiles] : [{ run: learnerFile, source: learnerFile }];
}

/** One file's lines per command, for the spectrum. */
export function linesIn(trace: LineTrace, source: string): (ReadonlySet<number> | undefined)[] {
  return trace.perCommand.map((files) => (files ? (files.get(source) ?? new Set<number>()) : undefined));
}
