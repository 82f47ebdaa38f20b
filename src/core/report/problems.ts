import type { ProcessResult } from '../check/process';
import type { Problem } from './report';
import type { Language } from '../pack/schema';

const PYTHON_SYNTAX = /^(SyntaxError|IndentationError|TabError)\b/m;
const NODE_SYNTAX = /^SyntaxError\b/m;
const UNIMPLEMENTED = /NotImplementedError|not implemented|TODO: write/i;

/** The last line of the learner's own file named in a traceback or stack, if any. */
export function crashLine(stderr: string, language: Language, fileName: string): number | null {
  const escaped = fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern =
    language === 'python'
      ? new RegExp(`File "[^"]*${escaped}", line (\\d+)`, 'g')
      : new RegExp(`${escaped}:(\\d+)(?::\\d+)?`, 'g');
  let line: number | null = null;
  for (const match of stderr.matchAll(pattern)) {
    line = Number(match[1]);
    if (language !== 'python') break; // a JS stack lists the innermost frame first
  }
  return line;
}

/** The learner-facing essence of an error output: the exception line, not the whole stack. */
export function errorSummary(stderr: string, language: Language): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  if (language === 'python') {
    const last = [...lines]
      .reverse()
      .find((l) => /^[A-Za-z_][\w.]*(Error|Exception|Interrupt|Exit)\b|^[A-Za-z_][\w.]*:/.test(l));
    return last ?? lines[lines.length - 1] ?? '';
  }
  return lines.find((l) => /^[A-Za-z]*Error\b|^Error\b/.test(l.trim()))?.trim() ?? lines[0] ?? '';
}

/** Keeps the learner's traceback readable and bounded. */
export function trimDetails(stderr: string, maxLines = 30): string {
  // Node's own frames and version banner say nothing about the learner's code.
  const lines = stderr
    .trimEnd()
    .split('\n')
    .filter((l) => !/^\s+at .*\(node:internal\/|^\s+at node:internal\/|^Node\.js v\d/.test(l));
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  return lines.length <= maxLines ? lines.join('\n') : ['…', ...lines.slice(-maxLines)].join('\n');
}

export interface ProblemContext {
  readonly language: Language;
  /** Base name of the learner file as it appears in tracebacks. */
  readonly fileName: string;
  /** Base name of the learner file as the learner knows it (main.ts where a stack says main.js). */
  readonly shownName?: string;
  readonly interpreter: string;
  readonly timeLimitMs: number;
  readonly outputLimitBytes: number;
  /** Where a stalled run stopped answering, in words, e.g. "command 12 (`CHOOSE`)", when the caller knows it. */
  readonly stalledAt?: string;
}

/**
 * Problems a single run shows on its own, whatever the transcripts mean: it could not start, did not
 * parse, is a stub, crashed, hung or flooded. Returns [] for a run that ended normally.
 */
export function runProblems(run: ProcessResult, ctx: ProblemContext): Problem[] {
  const problem = startProblem(run, ctx) ?? stopProblem(run, ctx) ?? exitProblem(run, ctx);
  return problem ? [problem] : [];
}

/** It could not start, or does not compile or parse. */
function startProblem(run: ProcessResult, ctx: ProblemContext): Problem | undefined {
  if (run.startError) {
    return {
      kind: 'interpreter-missing',
      message: `Could not start \`${run.startError.command}\` (${run.startError.code}).`,
      advice:
        ctx.language === 'python'
          ? 'Install Python 3, or point the Python path setting (--python on the command line) at your interpreter.'
          : 'Install Node.js 18 or newer, or point the Node path setting (--node on the command line) at it.',
    };
  }
  if (run.prepareError) {
    const where = /\s*\((\d+):(\d+)\)\s*$/.exec(run.prepareError.message);
    const message = where
      ? `${run.prepareError.message.slice(0, where.index)} (line ${where[1]}, column ${where[2]})`
      : run.prepareError.message;
    return {
      kind: 'syntax',
      message: `Your file does not compile: ${message}`,
      line: run.prepareError.line,
      advice: 'Fix the syntax error at that line; a half-written function still needs to be valid code.',
    };
  }
  const summary = errorSummary(run.stderr, ctx.language);
  const line = crashLine(run.stderr, ctx.language, ctx.fileName);
  const syntax = ctx.language === 'python' ? PYTHON_SYNTAX : NODE_SYNTAX;
  if (run.stdout === '' && syntax.test(run.stderr) && run.exitCode !== 0) {
    return {
      kind: 'syntax',
      message: `Your program does not start: ${summary}${line ? ` (line ${line})` : ''}`,
      line,
      advice: 'Fix the syntax error at that line; a half-written function still needs to be valid code.',
      details: trimDetails(run.stderr),
    };
  }
  return undefined;
}

/** We stopped it: it hung, ran past its time, flooded, or ran out of memory. */
function stopProblem(run: ProcessResult, ctx: ProblemContext): Problem | undefined {
  const line = crashLine(run.stderr, ctx.language, ctx.fileName);
  if (run.stalled) {
    return {
      kind: 'timeout',
      message: `Your program stopped answering${ctx.stalledAt ? ` at ${ctx.stalledAt}` : ''}: it had been given all the commands but printed nothing for ${silenceText(run.silentMs)}, so it was stopped.`,
      advice: 'Look for a loop that never ends, or code that waits for more input than one line per command.',
    };
  }
  if (run.timedOut) {
    return {
      kind: 'timeout',
      message: `Your program stopped answering: no result within ${((run.timeLimitMs ?? ctx.timeLimitMs) / 1000).toFixed(1)} s, so it was stopped.`,
      advice: 'Look for a loop that never ends, or code that waits for more input than one line per command.',
    };
  }
  if (run.outputLimited) {
    return {
      kind: 'output-limit',
      message: `Your program printed more than ${Math.round(ctx.outputLimitBytes / 1024)} KiB, so it was stopped.`,
      advice: 'Look for a print inside a loop that never ends.',
    };
  }
  if (run.memoryExceeded) {
    return {
      // The report has no kind of its own for it yet: the program failed, and the message says why.
      kind: 'crash',
      message: `Your program ran out of memory${run.memoryLimitMiB ? ` (limit ${run.memoryLimitMiB} MiB)` : ''}, so it was stopped.`,
      line,
      advice: 'Look for a list, dict or string that grows on every pass of a loop that never ends.',
      details: trimDetails(run.stderr),
    };
  }
  return undefined;
}

/**
 * Python's `input()` past the last line: a loop written for the keyboard (`while True: input()`) that the check's
 * input, which ends, brings to an EOFError after the last command.
 */
const END_OF_INPUT_ADVICE =
  'Your program asked for a line after the last one: input() raises EOFError when the input has ended. End the loop there (`except EOFError: break`), or read the lines with `for line in sys.stdin:`, which stops by itself.';

/** It failed by itself: at a placeholder, or in a crash. */
function exitProblem(run: ProcessResult, ctx: ProblemContext): Problem | undefined {
  const summary = errorSummary(run.stderr, ctx.language);
  const line = crashLine(run.stderr, ctx.language, ctx.fileName);
  if (run.exitCode !== 0 && UNIMPLEMENTED.test(run.stderr)) {
    return {
      kind: 'unimplemented',
      message: `Your program stopped at a placeholder: ${summary}`,
      line,
      advice: 'Replace the placeholder with your own code, then check again.',
    };
  }
  if (run.exitCode !== 0) {
    const module = missingOwnModule(run.stderr, ctx.language);
    return {
      kind: 'crash',
      message: `Your program crashed${line ? ` at line ${line}` : ''}: ${summary || `exit code ${run.exitCode ?? run.signal}`}`,
      line,
      advice: module
        ? outOfViewAdvice(module, ctx.shownName ?? ctx.fileName)
        : ctx.language === 'python' && /^EOFError\b/m.test(run.stderr)
          ? END_OF_INPUT_ADVICE
          : ctx.language === 'python'
            ? 'Read the traceback below from the bottom up: the last line is the error, the lines above it say where.'
            : 'Read the error below from the top: the first lines show the line of your file and the error, then the calls that led there.',
      details: trimDetails(run.stderr),
    };
  }

  return undefined;
}

/**
 * The file a crash says it could not import, when it can be the learner's own beside their file: Python's
 * `No module named 'helper'` (helper.py), Node's `Cannot find module './helper'`. Undefined for a package name.
 */
export function missingOwnModule(stderr: string, language: Language): string | undefined {
  if (language === 'python') {
    const name = /ModuleNotFoundError: No module named '([A-Za-z_][\w.]*)'/.exec(stderr)?.[1];
    return name ? `${name.replace(/\./g, '/')}.py` : undefined;
  }
  return /Cannot find module '(\.\.?\/[^'\n]+)'/.exec(stderr)?.[1];
}

/**
 * A check shows the program only the learner's own file and the files the lesson's starter comes with (its folder
 * may be shared: a class folder holds other students' work), so a module of theirs beside it is not found there.
 */
function outOfViewAdvice(module: string, fileName: string): string {
  return `If \`${module}\` is a file of yours beside ${fileName}: a check shows your program only ${fileName} and the files the lesson's starter comes with, never the rest of its folder (it may hold other people's work). Put that code into ${fileName}, then check again.`;
}

/** "1 s", "3.4 s": how long a stalled run was silent (about a second when the runner did not say). */
export function silenceText(silentMs: number | undefined): string {
  if (silentMs === undefined) return 'about 1 s';
  const seconds = Math.round(silentMs / 100) / 10;
  return `${Number.isInteger(seconds) ? seconds.toFixed(0) : seconds.toFixed(1)} s`;
}
