import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { CheckReport } from '../core/report/report';
import type { Language } from '../core/pack/schema';
import { beginFinding, checkFile, type CheckFileOptions } from '../node/check/checker';
import { engineBundle } from '../node/engine/host';
import { SandboxUnavailableError } from '../node/sandbox/contain';
import { fsReason } from '../node/errors/errors';
import { cgroupUnavailable } from '../node/sandbox/checkCgroup';
import {
  availableSandbox,
  isSandboxSetting,
  SANDBOX_SETTINGS,
  sandboxSettingFromEnv,
  type SandboxSetting,
} from '../node/sandbox/sandbox';
import { isLanguage, languageOf } from '../node/languages/languages';
import { EXIT, UsageError, type CliCommand, type CliIO } from './command';
import { formatReport } from './format';
import { formatRepair } from './repairFormat';
import { PassingBatchStore } from '../node/check/fastPass';
import { repairFile } from '../node/repair/repair';
import type { RepairResult } from '../core/repair/result';
import type { LoadedPack } from '../node/packs/packs';
import { selectPack } from './packSelection';

/** Bounds of the numeric options: a limit far outside them is a typo, and would fail or hang a check. */
const TIMEOUT_MS = { min: 100, max: 600_000 };
const FUZZ = { min: 0, max: 5000 };
const SEED = { min: 0, max: 2 ** 32 - 1 };

/** The option's whole number, within its bounds, or a usage error that says which bounds. */
export function bounded(
  name: string,
  value: string | undefined,
  range: { min: number; max: number },
  unit: string,
): number | undefined {
  if (value === undefined) return undefined;
  const words = `${range.min.toLocaleString('en-US')} to ${range.max.toLocaleString('en-US')}${unit ? ` ${unit}` : ''}`;
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`--${name} takes a whole number from ${words}, not "${value}"`);
  const number = Number(value.trim());
  if (number < range.min || number > range.max)
    throw new UsageError(`--${name} ${value.trim()} is out of range: use ${words}`);
  return number;
}

/** Said once, on stderr, by a check with --sandbox=off. */
export const SANDBOX_OFF_LINE =
  "lesson-companion check: --sandbox=off: the program, and a lesson pack's model that is not built in, run as you, with your files and network; a program can also write into this command's output (use --output <file> for a report it cannot touch).";

/**
 * The report written to `file` after the check has ended, every process of it with it: written whole under
 * a fresh name (O_EXCL, so no link planted there is followed), then renamed over `file`. What a program
 * wrote to `file` or to this command's own output meanwhile is not in it.
 */
async function writeReportFile(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await fs.writeFile(temporary, text, { flag: 'wx', mode: 0o644 });
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw new UsageError(`cannot write the report to ${file}: ${fsReason(error) ?? (error as Error).message}`);
  }
}

/** What a check without a sandbox cannot hold, in one line (checkCgroup.ts), or undefined. */
async function unheldLine(sandbox: SandboxSetting, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (sandbox !== 'off' && (await availableSandbox(env))) return undefined;
  return cgroupUnavailable();
}

/** What `check` was asked to do, its options read and bounded before anything is read or run. */
interface CheckRequest {
  /** As given on the command line, for messages; `file` is it resolved. */
  readonly given: string;
  readonly file: string;
  readonly language: Language;
  readonly lesson: string | undefined;
  readonly sandbox: SandboxSetting;
  /** The check's own options (the engine and the kept batches are added where it runs). */
  readonly options: Omit<CheckFileOptions, 'engine' | 'kept' | 'onPhase'> & { readonly sandbox: SandboxSetting };
  readonly json: boolean;
  readonly events: boolean;
  readonly repair: boolean;
  readonly output: string | undefined;
}

export const checkCommand: CliCommand = {
  name: 'check',
  usage:
    'check <file> [--lesson <id|dir>] [--json | --events] [--language python|javascript|typescript] [--python <path>] [--node <path>] [--timeout <ms>] [--seed <n>] [--fuzz <n>] [--sandbox auto|require|off] [--trust-model <lesson id>] [--output <file>] [--repair]',
  summary: "run a learner program against the lesson's hidden transcripts and name its mistakes",
  async run(args, io) {
    const request = parseCheckRequest(args, io);
    await announceContainment(request, io);
    const source = await readLearnerFile(request.file, request.given);
    const pack = await selectPack(io, request.lesson, request.file, source);
    requireStarter(pack, request.language);
    const engine = engineBundle(io.bundleDir);
    // --repair keeps the check's first batch: the search runs its candidates on it.
    const batches = request.repair ? new PassingBatchStore(1) : undefined;
    let report: CheckReport;
    try {
      report = await checkFile(pack, request.file, request.language, {
        ...request.options,
        ...(batches ? { kept: { passingBatches: batches } } : {}),
        // The pack's model runs in the engine worker next to this bundle, never in this process; a built-in
        // lesson's passing batch is computed here (its model is the tool's own code), for a first run at once.
        ...(engine ? { engine, builtInFirstRun: true } : {}),
        ...(request.events
          ? { onPhase: (phase: string) => io.out(`${JSON.stringify({ type: 'phase', phase })}\n`) }
          : {}),
      });
    } catch (error) {
      if (!(error instanceof SandboxUnavailableError)) throw error;
      io.err(`lesson-companion check: ${error.message}. Nothing was run.\n`);
      return EXIT.usage;
    }
    const shown = { ...report, file: path.relative(io.cwd, request.file) || request.file };
    const repair =
      request.repair && report.status !== 'pass'
        ? await repairOrSay(pack, request.file, request.language, report, shown.file, engine, batches!, request.options)
        : undefined;
    await writeOut(request, pack, report, shown, repair, io);
    // A program that cannot run (syntax error, missing interpreter) is a failed check, not a usage error.
    return shown.status === 'pass' ? EXIT.ok : EXIT.failed;
  },
};

/**
 * The arguments read, every option checked first: a mistyped one is reported before any file is read or any
 * program started.
 */
function parseCheckRequest(args: readonly string[], io: CliIO): CheckRequest {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      lesson: { type: 'string' },
      json: { type: 'boolean' },
      language: { type: 'string' },
      python: { type: 'string' },
      node: { type: 'string' },
      timeout: { type: 'string' },
      seed: { type: 'string' },
      fuzz: { type: 'string' },
      sandbox: { type: 'string' },
      events: { type: 'boolean' },
      repair: { type: 'boolean' },
      output: { type: 'string' },
      'trust-model': { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new UsageError('check takes exactly one file');
  const timeLimitMs = bounded('timeout', values.timeout, TIMEOUT_MS, 'milliseconds');
  const fuzzTranscripts = bounded('fuzz', values.fuzz, FUZZ, 'random tests');
  const seed = bounded('seed', values.seed, SEED, '');
  const fromEnv = io.env.LESSON_COMPANION_SANDBOX?.trim().toLowerCase();
  if (values.sandbox === undefined && fromEnv && !isSandboxSetting(fromEnv)) {
    // A grader's typo ("required") must not quietly run without the sandbox it asked for.
    throw new UsageError(
      `LESSON_COMPANION_SANDBOX takes ${SANDBOX_SETTINGS.join(', ')}, not "${io.env.LESSON_COMPANION_SANDBOX}"`,
    );
  }
  const sandbox = values.sandbox ?? sandboxSettingFromEnv(io.env);
  if (!isSandboxSetting(sandbox))
    throw new UsageError(`--sandbox takes ${SANDBOX_SETTINGS.join(', ')}, not "${sandbox}"`);
  const file = path.resolve(io.cwd, positionals[0]!);
  const language = values.language ?? languageOf(file);
  if (!language || !isLanguage(language)) {
    throw new UsageError(`cannot tell the language of ${positionals[0]}: use a .py, .js or .ts file, or --language`);
  }
  const interpreters = {
    ...(values.python ? { python: values.python } : {}),
    ...(values.node ? { node: values.node } : {}),
  };
  if (values.output !== undefined && values.events) throw new UsageError('--output and --events do not go together');
  return {
    given: positionals[0]!,
    file,
    language: language as Language,
    lesson: values.lesson,
    sandbox,
    options: {
      interpreters,
      ...(timeLimitMs !== undefined ? { timeLimitMs } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(fuzzTranscripts !== undefined ? { fuzzTranscripts } : {}),
      sandbox,
      ...(values['trust-model'] !== undefined ? { trustModel: values['trust-model'] } : {}),
    },
    json: values.json === true,
    events: values.events === true,
    repair: values.repair === true,
    output: values.output,
  };
}

/**
 * Said on stderr before the check: that --sandbox=off runs everything as the user, and what a check without a
 * sandbox cannot hold. Finding the interpreters and the sandbox starts here too, while the file and pack are read.
 */
async function announceContainment(request: CheckRequest, io: CliIO): Promise<void> {
  const { sandbox } = request;
  if (sandbox === 'off') io.err(`${SANDBOX_OFF_LINE}\n`);
  beginFinding(request.language, request.options.interpreters ?? {}, sandbox);
  const unheld = sandbox === 'require' ? undefined : await unheldLine(sandbox, io.env);
  if (unheld) io.err(`lesson-companion check: ${unheld}.\n`);
}

/** The learner's file as text; `given` is its name as the command line gave it, for the message. */
export async function readLearnerFile(file: string, given: string): Promise<string> {
  return fs.readFile(file, 'utf8').catch((error: unknown) => {
    // "is a folder", "permission denied": said as they are; a missing file in the words tests and users know.
    const why = fsReason(error);
    throw new UsageError(`cannot read ${given}: ${why && why !== 'it does not exist' ? why : 'no such file'}`);
  });
}

/** The pack must have a starter (and so a driver and anchors) in the file's language. */
export function requireStarter(pack: LoadedPack, language: Language): void {
  if (!pack.manifest.starters[language]) {
    throw new UsageError(
      `lesson "${pack.manifest.id}" has no ${language} version (it has ${Object.keys(pack.manifest.starters).join(', ')})`,
    );
  }
}

/**
 * The report where it was asked for: --events one JSON object per line (phases as the check went, then the
 * report), for the editor; --output a file written after the check; else this command's output, as JSON or text.
 */
async function writeOut(
  request: CheckRequest,
  pack: LoadedPack,
  report: CheckReport,
  shown: CheckReport & { readonly file: string },
  repair: RepairResult | undefined,
  io: CliIO,
): Promise<void> {
  const maxRung = pack.manifest.hints?.maxRung;
  if (request.events) io.out(`${JSON.stringify({ type: 'report', report: { ...report, file: request.file } })}\n`);
  else if (request.output !== undefined) {
    const text = request.json
      ? JSON.stringify(repair ? { ...shown, repair } : shown, null, 2) + '\n'
      : formatReport(shown, false, maxRung) + (repair ? formatRepair(repair, false) : '');
    await writeReportFile(path.resolve(io.cwd, request.output), text);
  } else if (request.json) io.out(JSON.stringify(repair ? { ...shown, repair } : shown, null, 2) + '\n');
  else {
    io.out(formatReport(shown, io.isTTY && !io.env.NO_COLOR, maxRung));
    if (repair) io.out(formatRepair(repair, io.isTTY && !io.env.NO_COLOR));
  }
}

/** Rung 4 asked for directly: a verified fix, or a plain sentence why there is none (the pack's cap included). */
async function repairOrSay(
  pack: LoadedPack,
  file: string,
  language: Language,
  report: CheckReport,
  shownFile: string,
  engine: string | undefined,
  batches: PassingBatchStore,
  checkOptions: Omit<CheckFileOptions, 'engine'>,
): Promise<RepairResult> {
  const mistake = report.mistakes.map((m) => m.id).join(', ');
  if (!engine)
    return {
      mistake,
      patch: null,
      reason: 'the engine bundle (dist/engine.js) is missing, and fixes are verified by it.',
      searchMs: 0,
      candidates: 0,
    };
  const batch = batches.all()[0];
  return repairFile(pack, file, language, report, {
    check: { ...checkOptions, engine },
    ...(batch ? { batch } : {}),
    // The patch names the file as the check was given it, so `patch -p0` applies it from here.
    patchName: shownFile.startsWith('..') || path.isAbsolute(shownFile) ? path.basename(file) : shownFile,
  });
}
