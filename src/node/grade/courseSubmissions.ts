/**
 * Finding what to grade for a course: one folder per student, and in it one program per lesson, found
 *
 *   1. in a sub-folder named after the lesson (`alice/conn-counts/`), by the lesson's starter file name
 *      (or, failing that, by the lesson's header in a file there);
 *   2. else by the header every starter carries, `# lesson-companion: <id>` (or `// …`), in its first lines,
 *      anywhere in the student's folder (depth 4, as a lesson's own grade searches);
 *   3. else by the lesson's starter file name, when no other lesson of the course has a starter of that name
 *      and the file declares no other lesson (a student who deleted the header).
 *
 *   grade class/ --course c   every entry of class/ is a student (a folder, or one file holding one lesson)
 *   grade class/alice --course c   a folder with a sub-folder named after a lesson is itself one student
 *
 * Only a file's first 4 KiB are read, of plain files (not links) of at most MAX_SUBMISSION_BYTES; guardFile
 * then decides, as for a lesson's grade, whether the chosen file may be checked.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { declaredLesson } from '../../core/text/source';
import { languageOf } from '../languages/languages';
import { findByName, MAX_SUBMISSION_BYTES, type Submission } from './submissions';

/** A lesson of the course as the finder needs it: its id and its starters' file names. */
export interface CourseLessonNames {
  readonly id: string;
  readonly names: readonly string[];
}

/** A program file of a student's folder: where, how deep, and the lesson its header declares. */
interface Candidate {
  readonly file: string;
  readonly depth: number;
  readonly declared: string | undefined;
}

const SKIPPED = new Set(['node_modules', '.git', '__pycache__', '.venv', 'venv', 'dist', 'build']);
const MAX_DEPTH = 4;
const MAX_ENTRIES = 2000;
const HEAD_BYTES = 4096;

/** The lesson a plain file's header declares; nothing for links, large files and files that are not code. */
async function headerOf(file: string): Promise<string | undefined> {
  const stat = await fs.lstat(file).catch(() => undefined);
  if (!stat?.isFile() || stat.size > MAX_SUBMISSION_BYTES || !languageOf(file)) return undefined;
  const handle = await fs.open(file, 'r').catch(() => undefined);
  if (!handle) return undefined;
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return declaredLesson(buffer.subarray(0, bytesRead).toString('utf8'));
  } finally {
    await handle.close();
  }
}

/** Every program file (by its extension) under `dir`, shallowest first, leaving out the folders in `skip`. */
async function candidatesIn(dir: string, skip: ReadonlySet<string>): Promise<Candidate[]> {
  const found: Candidate[] = [];
  let level = [dir];
  let seen = 0;
  for (let depth = 0; depth <= MAX_DEPTH && level.length; depth++) {
    const next: string[] = [];
    for (const folder of level.sort()) {
      const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (++seen > MAX_ENTRIES) break;
        const full = path.join(folder, entry.name);
        if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) continue;
        if (entry.isDirectory()) {
          if (!(depth === 0 && skip.has(entry.name))) next.push(full);
        } else if ((entry.isFile() || entry.isSymbolicLink()) && languageOf(entry.name)) {
          found.push({ file: full, depth, declared: await headerOf(full) });
        }
      }
    }
    level = next;
  }
  return found;
}

/** The candidate a lesson takes: its header first (a starter's name before other names), then its name alone. */
function pick(candidates: readonly Candidate[], lesson: CourseLessonNames, nameIsOwn: boolean): Candidate | undefined {
  const byName = (c: Candidate): number => (lesson.names.includes(path.basename(c.file)) ? 0 : 1);
  const declared = candidates.filter((c) => c.declared === lesson.id);
  if (declared.length) return [...declared].sort((a, b) => byName(a) - byName(b) || a.depth - b.depth)[0];
  if (!nameIsOwn) return undefined;
  return candidates.find((c) => c.declared === undefined && byName(c) === 0);
}

function missingReason(lesson: CourseLessonNames, nameIsOwn: boolean): string {
  return (
    `no ${lesson.id}/ folder and no file with the header "lesson-companion: ${lesson.id}"` +
    (nameIsOwn ? ` or named ${lesson.names.join(' or ')}` : '')
  );
}

/** One student's submission for each lesson, in the course's order. */
async function studentSubmissions(
  root: string,
  student: string,
  given: Candidate[] | undefined,
  lessons: readonly CourseLessonNames[],
): Promise<Submission[]> {
  const ids = new Set(lessons.map((l) => l.id));
  const candidates = given ?? (await candidatesIn(root, ids));
  const out: Submission[] = [];
  for (const lesson of lessons) {
    const nameIsOwn = !lessons.some((l) => l !== lesson && l.names.some((n) => lesson.names.includes(n)));
    const own = path.join(root, lesson.id);
    if (!given && (await fs.lstat(own).catch(() => undefined))?.isDirectory()) {
      const file =
        (await findByName(own, lesson.names)) ?? pick(await candidatesIn(own, new Set()), lesson, false)?.file;
      out.push(
        file
          ? { student, kind: 'folder', root, file }
          : { student, kind: 'folder', root, missing: `no ${lesson.names.join(' or ')} in ${lesson.id}/` },
      );
      continue;
    }
    const chosen = pick(candidates, lesson, nameIsOwn);
    out.push(
      chosen
        ? { student, kind: given ? 'file' : 'folder', root, file: chosen.file }
        : { student, kind: given ? 'file' : 'folder', root, missing: missingReason(lesson, nameIsOwn) },
    );
  }
  return out;
}

/**
 * For each lesson of the course (by id), every student's submission, sorted by student. A path given is a
 * student's folder when it holds a sub-folder named after a lesson, else a class folder of students.
 */
export async function findCourseSubmissions(
  paths: readonly string[],
  lessons: readonly CourseLessonNames[],
): Promise<Map<string, Submission[]>> {
  const students: Submission[][] = [];
  for (const given of paths) {
    const stat = await fs.lstat(given).catch(() => undefined);
    if (!stat) throw new Error(`${given}: no such file or folder`);
    if (!stat.isDirectory()) throw new Error(`${given}: grade --course takes class folders or students' folders`);
    const entries = await fs.readdir(given, { withFileTypes: true });
    if (entries.some((e) => e.isDirectory() && lessons.some((l) => l.id === e.name))) {
      students.push(await studentSubmissions(given, path.basename(given), undefined, lessons));
      continue;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(given, entry.name);
      if (entry.isDirectory()) students.push(await studentSubmissions(full, entry.name, undefined, lessons));
      else if (languageOf(entry.name)) {
        // One file is one student's work for the lesson its header (or its name) says; the others are missing.
        const file: Candidate = { file: full, depth: 0, declared: await headerOf(full) };
        students.push(await studentSubmissions(given, entry.name.replace(/\.[^.]+$/, ''), [file], lessons));
      }
    }
  }
  const byLesson = new Map(lessons.map((l, i) => [l.id, students.map((s) => s[i]!)]));
  for (const [id, list] of byLesson) byLesson.set(id, uniqueStudents(list));
  return byLesson;
}

/** Two students of the same name (alice.py and alice/) get the path's name as well, so every row is told apart. */
function uniqueStudents(list: readonly Submission[]): Submission[] {
  const counts = new Map<string, number>();
  for (const s of list) counts.set(s.student, (counts.get(s.student) ?? 0) + 1);
  return list
    .map((s) =>
      counts.get(s.student)! > 1
        ? { ...s, student: s.kind === 'file' ? path.basename(s.file ?? s.student) : `${path.basename(s.root)}/` }
        : s,
    )
    .sort((a, b) => (a.student < b.student ? -1 : a.student > b.student ? 1 : 0));
}
