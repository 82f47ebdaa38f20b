/**
 * `grade --collect`: the class report from the reports GitHub Classroom's runs uploaded (the artifact of
 * each student's `classroom run`, lesson-companion-report.json), downloaded into one folder, e.g. with
 * `gh run download` per repository. Each file is one student: named by its repository (owner/assignment-
 * student → assignment-student), else by the folder it was found in.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { CLASSROOM_RESULT_FORMAT, REPORT_FILE, type ClassroomReportFile } from '../../core/grade/classroom';
import { rowFromReport, rowWithoutCheck, type GradeRow } from '../../core/grade/row';
import type { LoadedPack } from '../packs/packs';
import { WordedError } from '../errors/errors';

const MAX_DEPTH = 4;

async function reportFiles(dir: string, depth = 0): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isFile() && entry.name === REPORT_FILE) out.push(full);
    else if (entry.isDirectory() && depth < MAX_DEPTH) out.push(...(await reportFiles(full, depth + 1)));
  }
  return out;
}

export async function collectRows(dir: string, pack: LoadedPack): Promise<GradeRow[]> {
  if (
    !(await fs.stat(dir).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  )
    throw new WordedError(`${dir} is not a folder of downloaded artifacts`);
  const rows: GradeRow[] = [];
  const total = pack.transcripts.length;
  for (const file of (await reportFiles(dir)).sort()) {
    const fallback = path.relative(dir, path.dirname(file)) || path.basename(dir);
    let saved: ClassroomReportFile;
    try {
      saved = JSON.parse(await fs.readFile(file, 'utf8')) as ClassroomReportFile;
      if (saved.format !== CLASSROOM_RESULT_FORMAT)
        throw new Error(`format ${String(saved.format)}, not ${CLASSROOM_RESULT_FORMAT}`);
    } catch (error) {
      rows.push(
        rowWithoutCheck(
          fallback,
          null,
          'check-failed',
          `${path.relative(dir, file)} cannot be read: ${(error as Error).message.split('\n')[0]}`,
          total,
          null,
        ),
      );
      continue;
    }
    const student = saved.repository ? saved.repository.split('/').pop()! : fallback;
    if (saved.report && saved.report.lesson !== pack.manifest.id) {
      rows.push(
        rowWithoutCheck(
          student,
          saved.report.file,
          'check-failed',
          `the report is for lesson "${saved.report.lesson}", not "${pack.manifest.id}"`,
          total,
          null,
        ),
      );
    } else if (saved.report) {
      rows.push(rowFromReport(student, saved.report.file, saved.report, null));
    } else {
      rows.push(
        rowWithoutCheck(
          student,
          null,
          /^no /.test(saved.reason ?? '') ? 'missing' : 'check-failed',
          saved.reason ?? 'no report',
          total,
          null,
        ),
      );
    }
  }
  return rows;
}
