import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { buildClassReport, type ClassReport } from '../core/grade/classReport';
import { rowWithoutCheck, type GradeRow } from '../core/grade/row';
import { inShard, parseShard, type Shard } from '../core/grade/shard';
import { engineBundle } from '../node/engine/host';
import { collectSubmissions, type CollectedExtras } from '../node/grade/collect';
import { gradeSubmissions, type GradeProgress, type GradeRun } from '../node/grade/grader';
import { graderVersion } from '../node/grade/graderVersion';
import { loadAnswerKey, type AnswerKey } from '../node/grade/quizGrade';
import { forgetKey, graderStoreDir, ResultStore, runKey } from '../node/grade/resultStore';
import { findSubmissions, starterNames, type Submission } from '../node/grade/submissions';
import { availableSandbox, isSandboxSetting, SANDBOX_SETTINGS, type SandboxSetting } from '../node/sandbox/sandbox';
import type { LoadedPack } from '../node/packs/packs';
import { bounded } from './checkCommand';
import { EXIT, UsageError, type CliCommand, type CliIO } from './command';
import { lessonInfo, parseFormats, progressLine, summaryLine, writeClassReport, type Format } from './gradeReport';
import { mergeShardReports } from './gradeMerge';
import { findCourseWork, resolveCourse, writeCourseReport } from './gradeCourse';
import { selectPack } from './packSelection';

export { FORMATS, lessonInfo, progressLine, writeClassReport } from './gradeReport';

export const NO_SANDBOX_ADVICE =
  "Grading runs every student's program, so it requires a sandbox (bubblewrap, or unshare with user namespaces), and this machine offers none. " +
  'Install bubblewrap (e.g. `apt-get install bubblewrap`), or run again with --sandbox=off: each program then runs as you, in its own process group with the ' +
  "check's time and output limits, but it can read and write your files and use the network. Grade that way only programs you would run yourself, or on a throwaway machine.";

const OPTIONS = {
  lesson: { type: 'string' },
  course: { type: 'string' },
  jobs: { type: 'string' },
  out: { type: 'string' },
  format: { type: 'string' },
  answers: { type: 'string' },
  sandbox: { type: 'string' },
  timeout: { type: 'string' },
  seed: { type: 'string' },
  fuzz: { type: 'string' },
  python: { type: 'string' },
  node: { type: 'string' },
  collect: { type: 'string' },
  shard: { type: 'string' },
  'run-id': { type: 'string' },
  merge: { type: 'boolean' },
  events: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** The settings of one grade, from its options; a UsageError says what is wrong. */
interface GradeSettings {
  readonly jobs: number;
  readonly timeLimitMs: number | undefined;
  readonly fuzzTranscripts: number | undefined;
  readonly seed: number | undefined;
  readonly formats: Format[];
  readonly sandbox: SandboxSetting;
  readonly shard: Shard | null;
  readonly runId: string | null;
  readonly interpreters: { python?: string; node?: string };
  readonly outDir: string;
}

export function parseRunId(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!/^[\w.:-]{1,100}$/.test(value))
    throw new UsageError(`--run-id takes letters, digits and . _ : - (at most 100), not "${value}"`);
  return value;
}

function gradeSettings(values: Values, io: CliIO): GradeSettings {
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  // Grading runs many strangers' programs: the sandbox is required unless the grader says otherwise.
  const sandbox = values.sandbox ?? 'require';
  if (!isSandboxSetting(sandbox))
    throw new UsageError(`--sandbox takes ${SANDBOX_SETTINGS.join(', ')}, not "${sandbox}"`);
  const shard = values.shard === undefined ? null : parseShard(values.shard);
  if (typeof shard === 'string') throw new UsageError(shard);
  return {
    jobs: bounded('jobs', values.jobs, { min: 1, max: 64 }, 'checks at a time') ?? cores,
    timeLimitMs: bounded('timeout', values.timeout, { min: 100, max: 600_000 }, 'milliseconds'),
    fuzzTranscripts: bounded('fuzz', values.fuzz, { min: 0, max: 5000 }, 'random tests'),
    seed: bounded('seed', values.seed, { min: 0, max: 2 ** 32 - 1 }, ''),
    formats: parseFormats(values.format),
    sandbox,
    shard,
    runId: parseRunId(values['run-id']),
    interpreters: {
      ...(values.python ? { python: values.python } : {}),
      ...(values.node ? { node: values.node } : {}),
    },
    outDir: path.resolve(io.cwd, values.out ?? 'grade-report'),
  };
}

/** What to grade: the submissions to check, the rows of those that give nothing to check, what collect read. */
interface Work {
  readonly submissions: Submission[];
  readonly refused: GradeRow[];
  readonly extras: ReadonlyMap<string, CollectedExtras>;
  readonly baseDir: string;
  readonly done: () => Promise<void>;
}

async function findWork(io: CliIO, values: Values, positionals: string[], pack: LoadedPack): Promise<Work> {
  const names = starterNames(pack.manifest.starters);
  const total = pack.transcripts.length;
  if (values.collect !== undefined) {
    const dir = path.resolve(io.cwd, values.collect);
    const found = await collectSubmissions(dir, names);
    const refused = found.refusals.map((r) => ({
      ...rowWithoutCheck(r.student, null, r.status, r.reason, total, null),
      reported: r.extras.reported ?? null,
      commit: r.extras.commit ?? null,
    }));
    const done = () => fs.rm(found.workDir, { recursive: true, force: true });
    return { submissions: found.submissions, refused, extras: found.extras, baseDir: dir, done };
  }
  const paths = positionals.map((p) => path.resolve(io.cwd, p));
  const submissions = await findSubmissions(paths, names).catch((error: unknown) => {
    throw new UsageError((error as Error).message);
  });
  // Paths in rows are relative to the class folder when one was given, else to where grade was run.
  const baseDir = paths.length === 1 && (await fs.stat(paths[0]!)).isDirectory() ? paths[0]! : io.cwd;
  return { submissions, refused: [], extras: new Map(), baseDir, done: async () => {} };
}

/** Runs the checks, with progress on a terminal, --events lines, and a sentence when stopped. */
async function runChecks(
  io: CliIO,
  values: Values,
  settings: GradeSettings,
  pack: LoadedPack,
  work: Work,
  answerKey: AnswerKey | undefined,
): Promise<{ run: GradeRun; store: ResultStore | undefined; contained: boolean }> {
  const { sandbox, timeLimitMs, seed, fuzzTranscripts, interpreters } = settings;
  const engine = engineBundle(io.bundleDir);
  // Kept results are believed only from runs whose programs could not reach the store (resultStore.ts).
  const contained = sandbox === 'require' || (sandbox === 'auto' && (await availableSandbox(io.env)) !== null);
  const storeDir = graderStoreDir();
  const store = contained && storeDir ? new ResultStore(storeDir) : undefined;
  const showProgress = io.isTTY && !io.env.CI;
  const times: number[] = [performance.now()];
  let lastDone = 0;
  const onProgress = (p: GradeProgress): void => {
    lastDone = p.done;
    times.push(performance.now());
    if (showProgress) io.err(`\r\x1b[K${progressLine(p.done, p.total, times, performance.now())}`);
    // --events: one JSON line per graded submission, for the editor's progress bar.
    if (values.events)
      io.out(
        `${JSON.stringify({ type: 'progress', done: p.done, total: p.total, student: p.row.student, status: p.row.status })}\n`,
      );
  };
  // Ctrl-C: the stored results stay (each written whole); the signal handler then ends the checks' processes.
  const onSignal = (): void =>
    io.err(
      `${showProgress ? '\n' : ''}lesson-companion grade: stopped after ${lastDone} of ${work.submissions.length}; ${store ? 'their results are kept. Run the same command again to go on.' : 'nothing was kept.'}\n`,
    );
  process.prependOnceListener('SIGINT', onSignal);
  process.prependOnceListener('SIGTERM', onSignal);
  try {
    const run = await gradeSubmissions(work.submissions, {
      pack,
      jobs: settings.jobs,
      check: {
        interpreters,
        sandbox,
        ...(timeLimitMs !== undefined ? { timeLimitMs } : {}),
        ...(seed !== undefined ? { seed } : {}),
        ...(fuzzTranscripts !== undefined ? { fuzzTranscripts } : {}),
        ...(engine ? { engine } : {}),
      },
      ...(store ? { store } : {}),
      runKey: runKey(pack, engine, { sandbox, timeLimitMs, seed, fuzzTranscripts, interpreters }),
      ...(answerKey ? { answerKey } : {}),
      baseDir: work.baseDir,
      onProgress,
    });
    if (showProgress) io.err('\r\x1b[K');
    return { run, store, contained };
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    if (!contained && storeDir) forgetKey(storeDir);
  }
}

/** The lines after the summary: what was resumed, what did not verify, why nothing was kept. */
function runNotes(checks: Awaited<ReturnType<typeof runChecks>>): string {
  const { run, store, contained } = checks;
  const lines: string[] = [];
  if (run.resumed > 0) lines.push(`(${run.resumed} results from an earlier run; ${run.checked} checked now)`);
  if (store && store.rejected > 0) lines.push(`(${store.rejected} kept results did not verify and were checked again)`);
  if (!contained)
    lines.push(
      'No result was kept or resumed: without a sandbox each program ran as you and could have rewritten them.',
    );
  else if (!store) lines.push('No result was kept: there is no private folder to keep them in.');
  return lines.map((l) => `${l}\n`).join('');
}

/** One lesson's grade of `found`: the checks, the class report written to `outDir`, and the lines to print. */
async function gradeLesson(
  io: CliIO,
  values: Values,
  settings: GradeSettings,
  pack: LoadedPack,
  found: Work,
  answerKey: AnswerKey | undefined,
  outDir: string,
  started = performance.now(),
): Promise<{ report: ClassReport; text: string }> {
  const work = {
    ...found,
    submissions: found.submissions.filter((s) => inShard(s.student, settings.shard)),
    refused: found.refused.filter((r) => inShard(r.student, settings.shard)),
  };
  let checks;
  try {
    checks = await runChecks(io, values, settings, pack, work, answerKey);
  } finally {
    await work.done();
  }
  const rows = [
    ...checks.run.rows.map((row) => {
      const extras = work.extras.get(row.student);
      // A row graded from an artifact's source names the file as the artifact did, not the grader's copy of it.
      return extras
        ? {
            ...row,
            file: row.file ? path.basename(row.file) : null,
            reported: extras.reported ?? null,
            commit: extras.commit ?? null,
          }
        : row;
    }),
    ...work.refused,
  ];
  const report = buildClassReport(lessonInfo(pack), rows, new Date().toISOString(), {
    id: settings.runId,
    grader: graderVersion(),
    shard: settings.shard,
    wallMs: Math.round(performance.now() - started),
  });
  const files = await writeClassReport(report, outDir, settings.formats);
  return { report, text: summaryLine(report, io, files) + runNotes(checks) };
}

/** Stops before anything runs when the sandbox is required and there is none; the exit code, or undefined. */
async function refuseWithoutSandbox(io: CliIO, settings: GradeSettings): Promise<number | undefined> {
  if (settings.sandbox !== 'require' || (await availableSandbox(io.env))) return undefined;
  io.err(`lesson-companion grade: ${NO_SANDBOX_ADVICE}\nNothing was run.\n`);
  return EXIT.usage;
}

async function gradeClass(io: CliIO, values: Values, positionals: string[]): Promise<number> {
  const started = performance.now();
  const settings = gradeSettings(values, io);
  const pack = await selectPack(io, values.lesson!);
  const refused = await refuseWithoutSandbox(io, settings);
  if (refused !== undefined) return refused;
  const answerKey = values.answers ? await loadAnswerKey(pack, path.resolve(io.cwd, values.answers)) : undefined;
  const found = await findWork(io, values, positionals, pack);
  const { text } = await gradeLesson(io, values, settings, pack, found, answerKey, settings.outDir, started);
  io.out(text);
  const withAnswers = found.submissions.filter((s) => s.answers).length;
  if (withAnswers > 0 && !answerKey)
    io.out(
      `${withAnswers} ${withAnswers === 1 ? 'submission carries' : 'submissions carry'} answers.json: grade them with --answers <your plain answers file> (authoring/${pack.manifest.id}.answers.json).\n`,
    );
  return EXIT.ok;
}

/** `--course`: each lesson graded as `--lesson` grades it, its report in `<out>/<lesson id>/`, and the course's table. */
async function gradeCourseClass(io: CliIO, values: Values, positionals: string[]): Promise<number> {
  const settings = gradeSettings(values, io);
  const graded = await resolveCourse(io, values.course!);
  const refused = await refuseWithoutSandbox(io, settings);
  if (refused !== undefined) return refused;
  const { byLesson, baseDir } = await findCourseWork(io, positionals, graded.packs);
  const reports: ClassReport[] = [];
  for (const pack of graded.packs) {
    const submissions = byLesson.get(pack.manifest.id) ?? [];
    const work: Work = { submissions, refused: [], extras: new Map(), baseDir, done: async () => {} };
    const outDir = path.join(settings.outDir, pack.manifest.id);
    const { report, text } = await gradeLesson(io, values, settings, pack, work, undefined, outDir);
    reports.push(report);
    io.out(text);
  }
  io.out(await writeCourseReport(io, graded, reports, settings.outDir));
  return EXIT.ok;
}

export const gradeCommand: CliCommand = {
  name: 'grade',
  usage:
    'grade (<folder|file…> | --collect <downloads folder> | --merge <class-report.json…> --run-id <id>) (--lesson <id|dir> | --course <id|dir>) [--shard i/N] [--run-id <id>] [--jobs N] [--out <dir>] [--format json,csv,junit,html] [--answers <file>] [--sandbox require|auto|off] [--events] [--timeout <ms>] [--seed <n>] [--fuzz <n>] [--python <path>] [--node <path>]',
  summary:
    "check every submission of a class (a file, or a student's folder found by the starter's file name) in parallel and write the class report (--course: every lesson of a course, a report per lesson); each result is kept in the grader's private store, so a stopped run resumes",
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: OPTIONS });
    if (values.merge) return mergeShardReports(io, positionals, values);
    if (values.course !== undefined) {
      if (values.lesson || values.collect !== undefined || values.answers)
        throw new UsageError(
          'grade --course grades every lesson of the course from the class folder: give it no --lesson, --collect or --answers (grade a quiz with --lesson)',
        );
      if (positionals.length === 0) throw new UsageError("grade --course needs a class folder (or a student's folder)");
      return gradeCourseClass(io, values, positionals);
    }
    if (!values.lesson) throw new UsageError('grade needs --lesson <id|dir> (or --course <id|dir>)');
    if (values.collect !== undefined && positionals.length > 0)
      throw new UsageError('grade --collect reads the downloaded folders only: give no submission folders with it');
    if (values.collect === undefined && positionals.length === 0)
      throw new UsageError(
        'grade needs at least one folder or file of submissions (or --collect <folder of downloads>)',
      );
    return gradeClass(io, values, positionals);
  },
};
