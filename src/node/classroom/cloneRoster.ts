/**
 * `classroom clone`: the students' repositories of a roster, cloned for `grade` (one folder per student, the
 * layout `grade` reads). Shallow, with no tags, no submodules, never asking for a password. A token (for
 * private repositories on github.com only) goes to git as an HTTP header for that one command, so it is
 * written into no clone's config; each clone's .git is removed once its commit is read, so no submission
 * folder holds a remote, a config or another commit's objects.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { RosterEntry } from '../../core/grade/roster';

export type Cloned =
  { readonly student: string; readonly commit: string } | { readonly student: string; readonly error: string };

function git(args: string[], cwd: string): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      {
        cwd,
        timeout: 300_000,
        maxBuffer: 4 * 1024 * 1024,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true', GIT_LFS_SKIP_SMUDGE: '1' },
      },
      (error, stdout, stderr) => resolve({ ok: !error, stdout, stderr: stderr || (error?.message ?? '') }),
    );
  });
}

/** git's reason in one line, with the token (should git ever echo it) taken out. */
function reason(stderr: string, token: string | undefined): string {
  const line =
    stderr
      .split('\n')
      .map((l) => l.replace(/^(fatal|error):\s*/, '').trim())
      .find((l) => l && !l.startsWith('Cloning into')) ?? 'git failed';
  return token ? line.split(token).join('***') : line;
}

export async function cloneEntry(entry: RosterEntry, into: string, token: string | undefined): Promise<Cloned> {
  const target = path.join(into, entry.student);
  if (
    await fs.stat(target).then(
      () => true,
      () => false,
    )
  )
    return { student: entry.student, error: `${target} is already there (left as it is; remove it to clone again)` };
  const header =
    entry.github && token
      ? [
          '-c',
          `http.https://github.com/.extraheader=AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`,
        ]
      : [];
  const cloned = await git(
    [
      ...header,
      '-c',
      'protocol.ext.allow=never',
      'clone',
      '--depth',
      '1',
      '--no-tags',
      '--quiet',
      '--',
      entry.url,
      target,
    ],
    into,
  );
  if (!cloned.ok) {
    // An empty folder: `grade` gives the student a row saying no program was found, instead of no row.
    await fs.rm(target, { recursive: true, force: true });
    await fs.mkdir(target, { recursive: true });
    return { student: entry.student, error: `${entry.url}: ${reason(cloned.stderr, token)}` };
  }
  const head = await git(['rev-parse', 'HEAD'], target);
  await fs.rm(path.join(target, '.git'), { recursive: true, force: true });
  return head.ok
    ? { student: entry.student, commit: head.stdout.trim() }
    : { student: entry.student, error: `${entry.url}: the clone has no commit (${reason(head.stderr, token)})` };
}

export async function cloneRoster(
  entries: readonly RosterEntry[],
  into: string,
  token: string | undefined,
): Promise<Cloned[]> {
  await fs.mkdir(into, { recursive: true });
  const results: Cloned[] = [];
  for (const entry of entries) results.push(await cloneEntry(entry, into, token));
  return results;
}
