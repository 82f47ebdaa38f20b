import { safeText } from '../core/text/text';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { buildClassReport, percent, type ClassReport, type LessonInfo } from '../core/grade/classReport';
import { classReportCsv } from '../core/grade/csv';
import { classReportHtml } from '../core/grade/html';
import { engineBundle } from '../node/engine/host';
import { gradeSubmissions, type GradeProgress } from '../node/grade/grader';
import { classReportJunit } from '../node/grade/junit';
import { loadAnswerKey } from '../node/grade/quizGrade';
import { forgetKey, graderStoreDir, ResultStore, runKey } from '../node/grade/resultStore';
import { findSubmissions, starterNames } from '../node/grade/submissions';
import { collectRows } from '../node/grade/collect';
import { availableSandbox, isSandboxSetting, SANDBOX_SETTINGS } from '../node/sandbox/sandbox';
import type { LoadedPack } from '../node/packs/packs';
import { bounded } from './checkCommand';
import { EXIT, UsageError, type CliCommand, type CliIO } from './command';
import { selectPack } from './packSelection';

export const FORMATS = ['json', 'csv', 'junit', 'html'] as const;
type Format = (typeof FORMATS)[number];
const FILE_OF: Record<Format, string> = {
  json: 'class-report.json',
  csv: 'class-report.csv',
  junit: 'class-report.junit.xml',
  html: 'class-report.html',
};

export const NO_SANDBOX_ADVICE =
  "Grading runs every student's program, so it requires a sandbox (bubblewrap, or unshare with user namespaces), and this machine offers none. " +
  'Install bubblewrap (e.g. `apt-get install bubblewrap`), or run again with --sandbox=off: each program then runs as you, in its own process group with the ' +
  "check's time and output limits, but it can read and write your files and use the network. Grade that way only programs you would run yourself, or on a throwaway machine.";

export function lessonInfo(pack: LoadedPack): LessonInfo {
  const m = pack.manifest;
  return {
    id: m.id,
    title: m.title,
    version: m.version,
    steps: m.readOrder.map((s) => s.title),
    questions: Object.fromEntries(m.failureQuestions.map((q) => [q.id, q.prompt])),
  };
}

function parseFormats(value: string | undefined): Format[] {
  if (value === undefined) return [...FORMATS];
  const wanted = value
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const bad = wanted.find((f) => !(FORMATS as readonly string[]).includes(f));
  if (bad !== undefined || wanted.length === 0)
    throw new UsageError(`--format takes a comma-separated list of ${FORMATS.join(', ')}, not "${value}"`);
  return [...new Set(wanted)] as Format[];
}

/** `text` with every control and bidi character written out, its line ends (CSV's CRLF too) kept as they are. */
function fileSafe(text: string): string {
  return text
    .split('\r\n')
    .map((part) => safeText(part, { multiline: true }))
    .join('\r\n');
}

/** Writes the report in each format; returns the files written. */
export async function writeClassReport(
  report: ClassReport,
  outDir: string,
  formats: readonly Format[],
): Promise<string[]> {
  await fs.mkdir(outDir, { recursive: true });
  const render: Record<Format, () => string> = {
    json: () => JSON.stringify(report, null, 2) + '\n',
    csv: () => classReportCsv(report),
    junit: () => classReportJunit(report),
    html: () => classReportHtml(report),
  };
  const written: string[] = [];
  for (const format of formats) {
    const file = path.join(outDir, FILE_OF[format]);
    // A file is read in a terminal too (`cat report.csv`) and in a browser: a pack's titles and a student's
    // folder names are written out (\u001b, \u202e), never raw, in every format. Line breaks stay.
    await fs.writeFile(file, fileSafe(render[format]()));
    written.push(file);
  }
  return written;
}

/** One line of progress on a terminal: done / total, the rate over the last completions, time left. */
export function progressLine(done: number, total: number, times: readonly number[], now: number): string {
  const window = times.slice(-10);
  const rate =
    window.length >= 2 ? (window.length - 1) / Math.max(0.001, (window[window.length - 1]! - window[0]!) / 1000) : 0;
  const left = rate > 0 ? Math.ceil((total - done) / rate) : undefined;
  const since = times.length ? Math.round((now - times[0]!) / 1000) : 0;
  return `graded ${done}/${total}${rate ? ` · ${rate.toFixed(1)}/s` : ''}${left !== undefined ? ` · ~${left < 90 ? `${left} s` : `${Math.ceil(left / 60)} min`} left` : ''}${since ? ` · ${since} s` : ''}`;
}

function summaryLine(report: ClassReport, io: CliIO, files: readonly string[]): string {
  const top = report.mistakes
    .slice(0, 3)
    .map((m) => `${m.title} ${percent(m.share)}${m.step ? ` (step ${m.step.number})` : ''}`);
  return (
    `${report.lesson.id}: ${report.students} submissions, ${percent(report.passRate)} pass` +
    (top.length ? `; most common: ${top.join(', ')}` : '') +
    `\n${files.map((f) => `  ${path.relative(io.cwd, f) || f}`).join('\n')}\n`
  );
}

export const gradeCommand: CliCommand = {
  name: 'grade',
  usage:
    'grade (<folder|file…> | --collect <artifacts folder>) --lesson <id|dir> [--jobs N] [--out <dir>] [--format json,csv,junit,html] [--answers <file>] [--sandbox require|auto|off] [--events] [--timeout <ms>] [--seed <n>] [--fuzz <n>] [--python <path>] [--node <path>]',
  summary:
    "check every submission of a class (a file, or a student's folder found by the starter's file name) in parallel and write the class report; each result is kept in --out (default grade-report), so a stopped run resumes",
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        lesson: { type: 'string' },
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
        events: { type: 'boolean' },
      },
    });
    if (!values.lesson) throw new UsageError('grade needs --lesson <id|dir>');
    if (values.collect !== undefined) {
      if (positionals.length > 0)
        throw new UsageError('grade --collect reads the downloaded artifacts only: give no submission folders with it');
      const pack = await selectPack(io, values.lesson);
      const rows = await collectRows(path.resolve(io.cwd, values.collect), pack);
      const report = buildClassReport(lessonInfo(pack), rows, new Date().toISOString());
      const files = await writeClassReport(
        report,
        path.resolve(io.cwd, values.out ?? 'grade-report'),
        parseFormats(values.format),
      );
      io.out(summaryLine(report, io, files));
      return EXIT.ok;
    }
    if (positionals.length === 0)
      throw new UsageError(
        'grade needs at least one folder or file of submissions (or --collect <folder of artifacts>)',
      );
    const cores = os.availableParallelism?.() ?? os.cpus().length;
    const jobs = bounded('jobs', values.jobs, { min: 1, max: 64 }, 'checks at a time') ?? cores;
    const timeLimitMs = bounded('timeout', values.timeout, { min: 100, max: 600_000 }, 'milliseconds');
    const fuzzTranscripts = bounded('fuzz', values.fuzz, { min: 0, max: 5000 }, 'random tests');
    const seed = bounded('seed', values.seed, { min: 0, max: 2 ** 32 - 1 }, '');
    const formats = parseFormats(values.format);
    // Grading runs many strangers' programs: the sandbox is required unless the grader says otherwise.
    const sandbox = values.sandbox ?? 'require';
    if (!isSandboxSetting(sandbox))
      throw new UsageError(`--sandbox takes ${SANDBOX_SETTINGS.join(', ')}, not "${sandbox}"`);
    const pack = await selectPack(io, values.lesson);
    if (sandbox === 'require' && !(await availableSandbox(io.env))) {
      io.err(`lesson-companion grade: ${NO_SANDBOX_ADVICE}\nNothing was run.\n`);
      return EXIT.usage;
    }
    const answerKey = values.answers ? await loadAnswerKey(pack, path.resolve(io.cwd, values.answers)) : undefined;
    const paths = positionals.map((p) => path.resolve(io.cwd, p));
    const submissions = await findSubmissions(paths, starterNames(pack.manifest.starters)).catch((error: unknown) => {
      throw new UsageError((error as Error).message);
    });
    const outDir = path.resolve(io.cwd, values.out ?? 'grade-report');
    const interpreters = {
      ...(values.python ? { python: values.python } : {}),
      ...(values.node ? { node: values.node } : {}),
    };
    const engine = engineBundle(io.bundleDir);
    const settings = { sandbox, timeLimitMs, seed, fuzzTranscripts, interpreters };
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
        `${showProgress ? '\n' : ''}lesson-companion grade: stopped after ${lastDone} of ${submissions.length}; ${store ? 'their results are kept. Run the same command again to go on.' : 'nothing was kept.'}\n`,
      );
    process.prependOnceListener('SIGINT', onSignal);
    process.prependOnceListener('SIGTERM', onSignal);
    let run;
    try {
      run = await gradeSubmissions(submissions, {
        pack,
        jobs,
        check: {
          interpreters,
          sandbox,
          ...(timeLimitMs !== undefined ? { timeLimitMs } : {}),
          ...(seed !== undefined ? { seed } : {}),
          ...(fuzzTranscripts !== undefined ? { fuzzTranscripts } : {}),
          ...(engine ? { engine } : {}),
        },
        ...(store ? { store } : {}),
        runKey: runKey(pack, engine, settings),
        ...(answerKey ? { answerKey } : {}),
        // Paths in rows are relative to the class folder when one was given, else to where grade was run.
        baseDir: paths.length === 1 && (await fs.stat(paths[0]!)).isDirectory() ? paths[0]! : io.cwd,
        onProgress,
      });
    } finally {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
      if (!contained && storeDir) forgetKey(storeDir);
    }
    if (showProgress) io.err('\r\x1b[K');
    const report = buildClassReport(lessonInfo(pack), run.rows, new Date().toISOString());
    const files = await writeClassReport(report, outDir, formats);
    io.out(summaryLine(report, io, files));
    if (run.resumed > 0) io.out(`(${run.resumed} results from an earlier run; ${run.checked} checked now)\n`);
    if (store && store.rejected > 0) io.out(`(${store.rejected} kept results did not verify and were checked again)\n`);
    if (!contained)
      io.out(
        'No result was kept or resumed: without a sandbox each program ran as you and could have rewritten them.\n',
      );
    else if (!store) io.out('No result was kept: there is no private folder to keep them in.\n');
    const withAnswers = submissions.filter((s) => s.answers).length;
    if (withAnswers > 0 && !answerKey)
      io.out(
        `${withAnswers} ${withAnswers === 1 ? 'submission carries' : 'submissions carry'} answers.json: grade them with --answers <your plain answers file> (authoring/${pack.manifest.id}.answers.json).\n`,
      );
    return EXIT.ok;
  },
};
