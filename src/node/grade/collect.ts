/**
 * `grade --collect`: a class graded from what the teacher downloaded, one folder per student (e.g. `gh run
 * download -R <org>/<repo> -n lesson-companion-report -D artifacts/<repo>`, or `gh repo clone` into the same
 * folder). The grade rests on code, never on a student's claim:
 *
 * - a folder holding the lesson's file (a cloned repository) is a submission like any other;
 * - a folder holding the artifact of `classroom run` (lesson-companion-report.json) is graded from the source
 *   the artifact carries: that file is written to a private folder of the grader's and checked there,
 *   contained as every check is. The verdict the student's workflow wrote is kept beside the row as
 *   "reported", never counted: the student controls that workflow, so it proves nothing;
 * - the student is the folder's name, never a field of the artifact. An artifact that names another
 *   repository than its folder (a classmate's artifact, renamed) is refused, and says so;
 * - anything that cannot be read as an artifact becomes a row with its reason; nothing stops the grade.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPORT_FILE } from '../../core/grade/classroom';
import { parseArtifact, type Artifact } from '../../core/grade/artifact';
import type { ReportedVerdict, RowStatus } from '../../core/grade/row';
import { WordedError } from '../errors/errors';
import { findByName, type Submission } from './submissions';

/** What collect found for one student besides the submission to check. */
export interface CollectedExtras {
  readonly reported?: ReportedVerdict | null;
  readonly commit?: string | null;
}

/** A student whose folder gives nothing to check: their row, with the reason. */
export interface CollectedRefusal {
  readonly student: string;
  readonly status: Extract<RowStatus, 'missing' | 'refused'>;
  readonly reason: string;
  readonly extras: CollectedExtras;
}

export interface Collected {
  readonly submissions: Submission[];
  readonly refusals: CollectedRefusal[];
  /** Student → what the artifact reported, for rows graded from an artifact's source. */
  readonly extras: Map<string, CollectedExtras>;
  /** The private folder holding the artifacts' sources; removed by the caller when the grade is done. */
  readonly workDir: string;
}

/** Whether a repository `owner/name` is the one a folder stands for: `name`, or `<assignment>-<folder>`. */
export function repositoryMatches(repository: string, folder: string): boolean {
  const name = repository.split('/').pop() ?? '';
  return name === folder || name.endsWith(`-${folder}`) || folder.endsWith(`-${name}`);
}

function extrasOf(artifact: Artifact): CollectedExtras {
  return { reported: artifact.reported, commit: artifact.commit };
}

/** One student's folder: a cloned repository, an artifact with source, or a row saying why neither. */
async function collectOne(
  folder: string,
  student: string,
  starterNames: readonly string[],
  workDir: string,
  out: Collected,
): Promise<void> {
  const reportFile = await findByName(folder, [REPORT_FILE]);
  if (!reportFile) {
    const file = await findByName(folder, starterNames);
    if (file) out.submissions.push({ student, kind: 'folder', root: folder, file });
    else
      out.refusals.push({
        student,
        status: 'missing',
        reason: `neither ${REPORT_FILE} nor ${starterNames.join(' or ')} in the folder`,
        extras: {},
      });
    return;
  }
  const artifact = parseArtifact(await fs.readFile(reportFile, 'utf8').catch((e: Error) => e), starterNames);
  if (typeof artifact === 'string') {
    out.refusals.push({ student, status: 'refused', reason: `${REPORT_FILE}: ${artifact}`, extras: {} });
    return;
  }
  const extras = extrasOf(artifact);
  if (artifact.repository !== null && !repositoryMatches(artifact.repository, student)) {
    out.refusals.push({
      student,
      status: 'refused',
      reason: `the artifact says it comes from ${artifact.repository}, not from this folder's repository (${student}): a classmate's artifact? Not counted`,
      extras,
    });
    return;
  }
  if (!artifact.source) {
    out.refusals.push({
      student,
      status: 'missing',
      reason:
        'the artifact carries no source code to check (a verdict alone proves nothing): grade the cloned repository',
      extras,
    });
    return;
  }
  const root = path.join(workDir, String(out.submissions.length));
  await fs.mkdir(root, { recursive: true, mode: 0o700 });
  const file = path.join(root, artifact.source.name);
  await fs.writeFile(file, artifact.source.text, { mode: 0o600 });
  out.submissions.push({ student, kind: 'folder', root, file });
  out.extras.set(student, extras);
}

export async function collectSubmissions(dir: string, starterNames: readonly string[]): Promise<Collected> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => {
    throw new WordedError(`${dir} is not a folder of downloaded artifacts or cloned repositories`);
  });
  const workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-collect-'));
  const out: Collected = { submissions: [], refusals: [], extras: new Map(), workDir };
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (!entry.isDirectory()) {
      out.refusals.push({
        student: entry.name,
        status: 'refused',
        reason: "a file, not a student's folder: download each repository's artifact into a folder of its own",
        extras: {},
      });
      continue;
    }
    try {
      await collectOne(full, entry.name, starterNames, workDir, out);
    } catch (error) {
      out.refusals.push({
        student: entry.name,
        status: 'refused',
        reason: `the folder cannot be read: ${(error as Error).message.split('\n')[0]}`,
        extras: {},
      });
    }
  }
  return out;
}
