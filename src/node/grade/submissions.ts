/**
 * Finding what to grade. A submission is one file, or one student's folder (or repository); inside a
 * folder the lesson's starter file name (balancer.py, least_conn.ts, ...) finds the file to check.
 *
 *   grade class/            every entry of class/ is a submission (alice/, bob.py, ...)
 *   grade class/alice       a folder holding the starter's file is itself one submission
 *   grade bob.py            one file
 *
 * Nothing here reads a file's contents: guardFile says, from its size and where it really is, whether a
 * found file may be checked at all.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export interface Submission {
  /** The student: the folder's name, or the file's name without its extension. */
  readonly student: string;
  readonly kind: 'file' | 'folder';
  /** The student's folder, or the file itself for a one-file submission. */
  readonly root: string;
  /** The file to check, when one was found. */
  readonly file?: string;
  /** answers.json, when the student's folder holds one. */
  readonly answers?: string;
  /** Why there is no file, when there is none. */
  readonly missing?: string;
}

export const ANSWERS_FILE = 'answers.json';
/** Folders never searched: dependencies and version control, which can be huge and are not the student's. */
const SKIPPED = new Set(['node_modules', '.git', '__pycache__', '.venv', 'venv', 'dist', 'build']);
const MAX_DEPTH = 4;
const MAX_ENTRIES = 2000;

/** The file names that a submission of this lesson may have: its starters' main file names. */
export function starterNames(starters: Readonly<Record<string, { main: string } | undefined>>): string[] {
  return [...new Set(Object.values(starters).flatMap((s) => (s ? [path.basename(s.main)] : [])))];
}

/** The shallowest file (then the first by name) under `dir` whose name is one of `names`. */
export async function findByName(dir: string, names: readonly string[]): Promise<string | undefined> {
  let level = [dir];
  let seen = 0;
  for (let depth = 0; depth <= MAX_DEPTH && level.length; depth++) {
    const next: string[] = [];
    const found: string[] = [];
    for (const folder of level.sort()) {
      const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (++seen > MAX_ENTRIES) break;
        const full = path.join(folder, entry.name);
        // A symbolic link is a candidate by its name; guardFile decides whether it may be read.
        if ((entry.isFile() || entry.isSymbolicLink()) && names.includes(entry.name)) found.push(full);
        else if (entry.isDirectory() && !SKIPPED.has(entry.name) && !entry.name.startsWith('.')) next.push(full);
      }
    }
    if (found.length)
      return found.sort(
        (a, b) => names.indexOf(path.basename(a)) - names.indexOf(path.basename(b)) || (a < b ? -1 : 1),
      )[0];
    level = next;
  }
  return undefined;
}

async function isFile(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

async function folderSubmission(dir: string, student: string, names: readonly string[]): Promise<Submission> {
  const file = await findByName(dir, names);
  const answers = path.join(dir, ANSWERS_FILE);
  const withAnswers = (await isFile(answers)) ? { answers } : {};
  if (file) return { student, kind: 'folder', root: dir, file, ...withAnswers };
  return { student, kind: 'folder', root: dir, missing: `no ${names.join(' or ')} in the folder`, ...withAnswers };
}

/**
 * The submissions under the paths given: each path is a file, a student's folder (it holds a starter file
 * at its top), or a class folder whose entries are submissions. Sorted by student; two with the same name
 * (alice.py and alice/) get the path's name as well, so that every row is told apart.
 */
export async function findSubmissions(
  paths: readonly string[],
  starterFileNames: readonly string[],
): Promise<Submission[]> {
  const out: Submission[] = [];
  for (const given of paths) {
    const stat = await fs.lstat(given).catch(() => undefined);
    if (!stat) throw new Error(`${given}: no such file or folder`);
    if (!stat.isDirectory()) {
      out.push({
        student: path.basename(given).replace(/\.[^.]+$/, ''),
        kind: 'file',
        root: path.dirname(given),
        file: given,
      });
      continue;
    }
    const entries = await fs.readdir(given, { withFileTypes: true });
    if (entries.some((e) => starterFileNames.includes(e.name))) {
      out.push(await folderSubmission(given, path.basename(given), starterFileNames));
      continue;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(given, entry.name);
      if (entry.isDirectory()) out.push(await folderSubmission(full, entry.name, starterFileNames));
      else out.push({ student: entry.name.replace(/\.[^.]+$/, ''), kind: 'file', root: given, file: full });
    }
  }
  const counts = new Map<string, number>();
  for (const s of out) counts.set(s.student, (counts.get(s.student) ?? 0) + 1);
  return out
    .map((s) =>
      counts.get(s.student)! > 1
        ? { ...s, student: s.kind === 'file' ? path.basename(s.file!) : `${path.basename(s.root)}/` }
        : s,
    )
    .sort((a, b) => (a.student < b.student ? -1 : a.student > b.student ? 1 : 0));
}

/** The largest file a check reads: a learner's program is a few kB; 50 MB of it is not a program to run. */
export const MAX_SUBMISSION_BYTES = 1024 * 1024;

/**
 * Whether a found file may be checked: a real file, inside the student's folder once links are followed
 * (a link to /etc/passwd or to another student's work is refused), of at most MAX_SUBMISSION_BYTES.
 * Returns the reason when it may not.
 */
export async function guardFile(submission: Submission): Promise<string | undefined> {
  const file = submission.file!;
  let real: string;
  try {
    real = await fs.realpath(file);
  } catch {
    return 'the file is a link to nothing';
  }
  const stat = await fs.lstat(file);
  if (stat.isSymbolicLink()) {
    const root = await fs.realpath(submission.root);
    if (real !== root && !real.startsWith(root + path.sep))
      return "the file is a link to a place outside the student's folder";
  }
  const target = await fs.stat(real);
  if (!target.isFile()) return 'it is not a regular file';
  if (target.size > MAX_SUBMISSION_BYTES)
    return `the file is ${(target.size / 1024 / 1024).toFixed(1)} MB, more than the ${MAX_SUBMISSION_BYTES / 1024 / 1024} MB a program may have`;
  return undefined;
}

/** Whether bytes read as a program's text: UTF-8, and no NUL bytes (a binary). */
export function isProgramText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
