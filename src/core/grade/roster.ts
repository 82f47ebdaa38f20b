/**
 * A class roster for grading on the teacher's side (`classroom clone`, `classroom grade-workflow`): one line
 * per student, `<student> <repository>`, or only `<owner>/<repository>` (the student is then the repository's
 * name, as GitHub Classroom names it `<assignment>-<login>`). The student's name is the folder the code is
 * cloned into and the row of the class report; the repository is `owner/name` on GitHub or a git URL.
 * Blank lines and lines starting with `#` are skipped. Pure: text in, entries or sentences out.
 */
export interface RosterEntry {
  readonly student: string;
  /** What git clones: https://github.com/owner/name.git for `owner/name`, else the URL as written. */
  readonly url: string;
  /** Whether the URL is on github.com (the only host a token is sent to). */
  readonly github: boolean;
  readonly line: number;
}

export type RosterParse =
  | { readonly ok: true; readonly entries: readonly RosterEntry[] }
  | { readonly ok: false; readonly problems: readonly string[] };

/** A folder name on every system, not hidden, not `.` or `..`. */
const STUDENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$/;
const GITHUB_REPO = /^([A-Za-z0-9-]{1,39})\/([A-Za-z0-9._-]{1,100})$/;
/** A git URL git reads as one: https, ssh (git@host:path) or file, with no spaces or shell characters. */
const GIT_URL = /^(https:\/\/|ssh:\/\/|file:\/\/|git@[A-Za-z0-9.-]+:)[A-Za-z0-9._~:/@%+-]+$/;

function entryOf(fields: readonly string[], line: number): RosterEntry | string {
  const [first, second] = fields;
  if (fields.length > 2)
    return `line ${line}: "${fields.join(' ')}" has ${fields.length} fields (give <student> <repository>)`;
  const repository = second ?? first!;
  const github = GITHUB_REPO.exec(repository);
  const student = second === undefined ? github?.[2] : first!;
  if (!github && !GIT_URL.test(repository))
    return `line ${line}: "${repository}" is neither owner/name on GitHub nor a git URL (https://, ssh://, file://, git@host:)`;
  if (student === undefined) return `line ${line}: "${repository}" needs a student name before it`;
  if (!STUDENT.test(student) || /\.\.|\.git$/.test(student))
    return `line ${line}: "${student}" is not a student name this grader takes (letters, digits and . _ -, at most 100, not hidden)`;
  const url = github ? `https://github.com/${github[1]}/${github[2]}.git` : repository;
  return { student, url, github: Boolean(github) || url.startsWith('https://github.com/'), line };
}

export function parseRoster(text: string): RosterParse {
  const entries: RosterEntry[] = [];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const content = raw.trim();
    if (content === '' || content.startsWith('#')) return;
    const entry = entryOf(content.split(/\s+/), index + 1);
    if (typeof entry === 'string') return void problems.push(entry);
    const before = seen.get(entry.student.toLowerCase());
    if (before !== undefined)
      return void problems.push(
        `line ${entry.line}: ${entry.student} is already on line ${before} (one line per student)`,
      );
    seen.set(entry.student.toLowerCase(), entry.line);
    entries.push(entry);
  });
  if (problems.length) return { ok: false, problems };
  if (entries.length === 0) return { ok: false, problems: ['the roster names no student'] };
  return { ok: true, entries };
}
