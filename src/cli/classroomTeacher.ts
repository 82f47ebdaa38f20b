/**
 * The teacher's side of GitHub Classroom, where the grade of record is made on the code:
 * `classroom grade-workflow` writes .github/workflows/grade.yml for the teacher's own repository (N jobs,
 * each cloning and grading its shard of the roster, then a merge), and `classroom clone` is its clone step,
 * usable by hand too: the roster's repositories, one folder per student, for `grade`.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { PACK_HOME } from '../core/grade/classroomWorkflow';
import { gradeWorkflow, MAX_SHARDS, PLAIN_PATH, SECRET_NAME } from '../core/grade/gradeWorkflow';
import { parseRoster } from '../core/grade/roster';
import { inShard, parseShard } from '../core/grade/shard';
import { cloneRoster } from '../node/classroom/cloneRoster';
import { copyPack } from '../node/classroom/templateRepository';
import { bounded } from './checkCommand';
import { chooseInstall, describeInstall, exists, plainLine, type InstallChoice } from './classroomInstall';
import { EXIT, UsageError, type CliIO } from './command';
import { selectPack } from './packSelection';

export const GRADE_WORKFLOW_FILE = path.join('.github', 'workflows', 'grade.yml');
export const DEFAULT_ROSTER = 'roster.txt';
export const DEFAULT_TOKEN_SECRET = 'CLASSROOM_TOKEN';
/** The environment variable `classroom clone` reads a token from (the workflow sets it from the secret). */
export const TOKEN_VARIABLE = 'LESSON_COMPANION_GIT_TOKEN';

async function readRoster(io: CliIO, file: string): Promise<ReturnType<typeof parseRoster>> {
  const text = await fs.readFile(path.resolve(io.cwd, file), 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `cannot read the roster ${file}: ${error.code === 'ENOENT' ? 'there is no such file' : error.message}`,
    );
  });
  return parseRoster(text);
}

export async function cloneCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { roster: { type: 'string' }, into: { type: 'string' }, shard: { type: 'string' } },
  });
  if (!values.roster || !values.into) throw new UsageError('classroom clone needs --roster <file> and --into <folder>');
  const shard = values.shard === undefined ? null : parseShard(values.shard);
  if (typeof shard === 'string') throw new UsageError(shard);
  const roster = await readRoster(io, values.roster);
  if (!roster.ok) {
    io.err(`lesson-companion classroom clone: ${values.roster}: ${roster.problems.join('; ')}. Nothing was cloned.\n`);
    return EXIT.usage;
  }
  const mine = roster.entries.filter((e) => inShard(e.student, shard));
  const token = io.env[TOKEN_VARIABLE] || undefined;
  const results = await cloneRoster(mine, path.resolve(io.cwd, values.into), token);
  for (const r of results)
    if ('commit' in r) io.out(`${r.student}\t${r.commit}\n`);
    else io.err(`${r.student}: not cloned: ${r.error}\n`);
  const cloned = results.filter((r) => 'commit' in r).length;
  io.out(
    `Cloned ${cloned} of ${mine.length} repositories${shard ? ` (shard ${shard.index}/${shard.count} of ${roster.entries.length})` : ''} into ${values.into}${cloned < mine.length ? '; each one not cloned is an empty folder, so `grade` gives it a row' : ''}.\n`,
  );
  return EXIT.ok;
}

export async function gradeWorkflowCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      lesson: { type: 'string' },
      shards: { type: 'string' },
      roster: { type: 'string' },
      'token-secret': { type: 'string' },
      dir: { type: 'string' },
      force: { type: 'boolean' },
      node: { type: 'string' },
      install: { type: 'string' },
      tarball: { type: 'string' },
      vendor: { type: 'boolean' },
      registry: { type: 'string' },
    },
  });
  if (!values.lesson) throw new UsageError('classroom grade-workflow needs --lesson <id>');
  const install = plainLine('install', values.install);
  const nodeVersion = plainLine('node', values.node) ?? '20';
  const shards = bounded('shards', values.shards, { min: 1, max: MAX_SHARDS }, 'jobs') ?? 3;
  const roster = values.roster ?? DEFAULT_ROSTER;
  if (!PLAIN_PATH.test(roster) || roster.split('/').includes('..'))
    throw new UsageError(`--roster takes a path inside the repository (letters, digits and . _ / -), not "${roster}"`);
  const tokenSecret = values['token-secret'] ?? DEFAULT_TOKEN_SECRET;
  if (!SECRET_NAME.test(tokenSecret))
    throw new UsageError(`--token-secret takes a secret's name (letters, digits and _), not "${tokenSecret}"`);
  const pack = await selectPack(io, values.lesson);
  const repo = path.resolve(io.cwd, values.dir ?? '.');
  const file = path.join(repo, GRADE_WORKFLOW_FILE);
  if (!values.force && (await exists(file)))
    throw new UsageError(`${path.relative(io.cwd, file)} already exists (--force replaces it)`);
  const chosen = await chooseInstall(
    { ...values, ...(install !== undefined ? { install } : {}) } as InstallChoice,
    repo,
    io,
  );
  await copyPack(pack, path.join(repo, PACK_HOME, pack.manifest.id));
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(
    file,
    gradeWorkflow({ lesson: pack.manifest.id, shards, install: chosen, nodeVersion, roster, tokenSecret }),
  );
  const shown = path.relative(io.cwd, file) || file;
  io.out(
    `Wrote ${shown}: ${shards} jobs each clone and grade their shard of ${roster}, then one merges the shard reports into the class-report artifact; it ${describeInstall(chosen)}.\n` +
      `Commit it with ${roster} (a line per student: <student> <owner/repository>) and ${PACK_HOME}/${pack.manifest.id}; add a ${tokenSecret} secret that can read the students' repositories, then run it from the Actions tab.\n`,
  );
  return EXIT.ok;
}
