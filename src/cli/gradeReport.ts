/**
 * Writing a class report (every format) and the lines `grade` prints: the summary, with the slowest rows
 * named, and the progress line on a terminal.
 */
import { safeText } from '../core/text/text';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { percent, type ClassReport, type LessonInfo } from '../core/grade/classReport';
import { classReportCsv } from '../core/grade/csv';
import { classReportHtml } from '../core/grade/html';
import { classReportJunit } from '../node/grade/junit';
import type { LoadedPack } from '../node/packs/packs';
import { UsageError, type CliIO } from './command';

export const FORMATS = ['json', 'csv', 'junit', 'html'] as const;
export type Format = (typeof FORMATS)[number];
export const FILE_OF: Record<Format, string> = {
  json: 'class-report.json',
  csv: 'class-report.csv',
  junit: 'class-report.junit.xml',
  html: 'class-report.html',
};

export function lessonInfo(pack: LoadedPack): LessonInfo {
  const m = pack.manifest;
  return {
    id: m.id,
    title: m.title,
    version: m.version,
    steps: m.readOrder.map((s) => s.title),
    questions: Object.fromEntries([...m.failureQuestions, ...(m.quiz ?? [])].map((q) => [q.id, q.prompt])),
    ...(m.hints?.maxRung !== undefined ? { maxRung: m.hints.maxRung } : {}),
  };
}

export function parseFormats(value: string | undefined): Format[] {
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

/** What `grade` prints when it is done: the class in one line, the slowest rows, the files written. */
export function summaryLine(report: ClassReport, io: CliIO, files: readonly string[]): string {
  const top = report.mistakes
    .slice(0, 3)
    .map((m) => `${m.title} ${percent(m.share)}${m.step ? ` (step ${m.step.number})` : ''}`);
  const shard = report.run.shard ? ` (shard ${report.run.shard.index}/${report.run.shard.count})` : '';
  const slowest = report.slowest.length
    ? `\nslowest: ${report.slowest.map((s) => `${s.student} ${s.seconds} s (${s.why})`).join(', ')}`
    : '';
  return (
    `${report.lesson.id}${shard}: ${report.students} submissions, ${percent(report.passRate)} pass` +
    (top.length ? `; most common: ${top.join(', ')}` : '') +
    `${slowest}\n${files.map((f) => `  ${path.relative(io.cwd, f) || f}`).join('\n')}\n`
  );
}
