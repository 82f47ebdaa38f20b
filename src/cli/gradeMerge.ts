/**
 * `grade --merge <class-report.json…> --run-id <id>`: one class report from the reports of a sharded grade
 * (`grade --shard i/N --run-id <id>` on N machines). It takes only reports of that one run: the run id the
 * teacher's workflow gave every shard, the same grader version, the same lesson, every shard 1..N once and
 * no student in two of them, so the merged report rests on code those jobs checked. Rows are taken as the
 * shards wrote them; every count of the class is computed again from them.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { buildClassReport, CLASS_REPORT_FORMAT, type ClassReport } from '../core/grade/classReport';
import { EXIT, UsageError, type CliIO } from './command';
import { parseFormats, summaryLine, writeClassReport } from './gradeReport';

interface MergeValues {
  readonly 'run-id'?: string | undefined;
  readonly out?: string | undefined;
  readonly format?: string | undefined;
}

async function readReport(file: string): Promise<ClassReport> {
  let data: unknown;
  try {
    data = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`${file} cannot be read as a class report: ${(error as Error).message.split('\n')[0]}`);
  }
  const report = data as Partial<ClassReport>;
  if (report.format !== CLASS_REPORT_FORMAT || !report.run || !Array.isArray(report.rows) || !report.lesson)
    throw new UsageError(
      `${file} is not a class report of this grader (class-report.json, format ${CLASS_REPORT_FORMAT})`,
    );
  return report as ClassReport;
}

/** Why these reports are not the shards of one run, or undefined when they are. */
function notOneRun(reports: readonly { file: string; report: ClassReport }[], runId: string): string | undefined {
  const first = reports[0]!.report;
  const count = first.run.shard?.count;
  const seen = new Map<number, string>();
  const students = new Map<string, string>();
  for (const { file, report } of reports) {
    const { run, lesson } = report;
    if (run.id !== runId) return `${file} is of run ${JSON.stringify(run.id)}, not "${runId}"`;
    if (run.grader !== first.run.grader)
      return `${file} was graded by ${run.grader}, ${reports[0]!.file} by ${first.run.grader}: grade every shard with the same grader`;
    if (lesson.id !== first.lesson.id || lesson.version !== first.lesson.version)
      return `${file} is for lesson ${lesson.id} ${lesson.version}, not ${first.lesson.id} ${first.lesson.version}`;
    if (!run.shard || run.shard.count !== count) return `${file} is not shard i/${count ?? 'N'} of a sharded grade`;
    const twice = seen.get(run.shard.index);
    if (twice) return `${file} and ${twice} are both shard ${run.shard.index}/${count}`;
    seen.set(run.shard.index, file);
    for (const row of report.rows) {
      const other = students.get(row.student);
      if (other) return `${row.student} is in both ${other} and ${file}`;
      students.set(row.student, file);
    }
  }
  const missing = Array.from({ length: count ?? 0 }, (_, i) => i + 1).filter((i) => !seen.has(i));
  return missing.length ? `shard ${missing.map((i) => `${i}/${count}`).join(', ')} is missing` : undefined;
}

export async function mergeShardReports(io: CliIO, files: readonly string[], values: MergeValues): Promise<number> {
  const runId = values['run-id'];
  if (!runId) throw new UsageError('grade --merge needs --run-id <the id every shard was graded with>');
  if (files.length === 0) throw new UsageError("grade --merge needs the shards' class-report.json files");
  const formats = parseFormats(values.format);
  const reports = [];
  for (const file of files) reports.push({ file, report: await readReport(path.resolve(io.cwd, file)) });
  const why = notOneRun(reports, runId);
  if (why) {
    io.err(`lesson-companion grade --merge: ${why}. Nothing was merged.\n`);
    return EXIT.usage;
  }
  const first = reports[0]!.report;
  const merged = buildClassReport(
    first.lesson,
    reports.flatMap((r) => r.report.rows),
    new Date().toISOString(),
    { id: runId, grader: first.run.grader, shard: null, wallMs: Math.max(...reports.map((r) => r.report.run.wallMs)) },
  );
  const written = await writeClassReport(merged, path.resolve(io.cwd, values.out ?? 'grade-report'), formats);
  io.out(summaryLine(merged, io, written));
  return EXIT.ok;
}
