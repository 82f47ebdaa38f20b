/**
 * `classroom init`: writes .github/workflows/classroom.yml into an assignment's template repository.
 * `classroom run`: the workflow's check step, in the student's repository on the Actions runner: checks the
 * lesson's file (found by the starter's name) exactly as `check` does, with the sandbox required, and writes
 * what Actions and Classroom read: the grader result (base64 JSON) to $GITHUB_OUTPUT as `result`, a Markdown
 * summary to $GITHUB_STEP_SUMMARY, and the report to lesson-companion-report.json for the artifact that
 * `grade --collect` reads back. It exits 0 whatever the program did: the reporter step says pass or fail.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import {
  classroomResult,
  classroomSummary,
  CLASSROOM_RESULT_FORMAT,
  REPORT_FILE,
  type ClassroomReportFile,
} from '../core/grade/classroom';
import { classroomWorkflow, PACK_HOME } from '../core/grade/classroomWorkflow';
import type { CheckReport } from '../core/report/report';
import { copyPack } from '../node/classroom/templateRepository';
import { checkFile } from '../node/check/checker';
import { engineBundle } from '../node/engine/host';
import { findByName, guardFile, isProgramText, starterNames } from '../node/grade/submissions';
import { languageOf } from '../node/languages/languages';
import { SandboxUnavailableError } from '../node/sandbox/contain';
import { isSandboxSetting, SANDBOX_SETTINGS } from '../node/sandbox/sandbox';
import { bounded } from './checkCommand';
import { cloneCommand, gradeWorkflowCommand } from './classroomTeacher';
import { chooseInstall, describeInstall, exists, plainLine, type InstallChoice } from './classroomInstall';
import { EXIT, UsageError, type CliCommand, type CliIO } from './command';
import { selectPack } from './packSelection';

export const WORKFLOW_FILE = path.join('.github', 'workflows', 'classroom.yml');

async function init(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      lesson: { type: 'string' },
      points: { type: 'string' },
      install: { type: 'string' },
      dir: { type: 'string' },
      force: { type: 'boolean' },
      node: { type: 'string' },
      tarball: { type: 'string' },
      vendor: { type: 'boolean' },
      registry: { type: 'string' },
    },
  });
  if (!values.lesson) throw new UsageError('classroom init needs --lesson <id>');
  const install = plainLine('install', values.install);
  const nodeVersion = plainLine('node', values.node) ?? '20';
  const pack = await selectPack(io, values.lesson);
  const points = bounded('points', values.points, { min: 1, max: 100 }, 'points per transcript') ?? 1;
  const repo = path.resolve(io.cwd, values.dir ?? '.');
  const file = path.join(repo, WORKFLOW_FILE);
  if (!values.force && (await exists(file)))
    throw new UsageError(`${path.relative(io.cwd, file)} already exists (--force replaces it)`);
  const chosen = await chooseInstall(
    { ...values, ...(install !== undefined ? { install } : {}) } as InstallChoice,
    repo,
    io,
  );
  const copied = await copyPack(pack, path.join(repo, PACK_HOME, pack.manifest.id));
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, classroomWorkflow({ lesson: pack.manifest.id, points, install: chosen, nodeVersion }));
  const shown = (p: string): string => path.relative(io.cwd, p) || p;
  io.out(
    `Wrote ${shown(file)}: ${pack.transcripts.length} hidden transcripts, ${points} point(s) each (${pack.transcripts.length * points} in all); it ${describeInstall(chosen)}.
` +
      `Copied the lesson pack "${pack.manifest.id}" (${copied} files) to ${shown(path.join(repo, PACK_HOME, pack.manifest.id))}: commit it with the workflow. Students can read it in their repositories (the workflow moves it out of the folder their program sees); the points are feedback, the grade of record is \`lesson-companion grade\` on their code.\n`,
  );
  return EXIT.ok;
}

async function run(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      lesson: { type: 'string' },
      points: { type: 'string' },
      sandbox: { type: 'string' },
      file: { type: 'string' },
    },
  });
  if (!values.lesson) throw new UsageError('classroom run needs --lesson <id>');
  const sandbox = values.sandbox ?? 'require';
  if (!isSandboxSetting(sandbox))
    throw new UsageError(`--sandbox takes ${SANDBOX_SETTINGS.join(', ')}, not "${sandbox}"`);
  const points = bounded('points', values.points, { min: 1, max: 100 }, 'points per transcript') ?? 1;
  const pack = await selectPack(io, values.lesson);
  const file = values.file
    ? path.resolve(io.cwd, values.file)
    : await findByName(io.cwd, starterNames(pack.manifest.starters));
  let report: CheckReport | null = null;
  let reason: string | null = null;
  const language = file ? languageOf(file) : undefined;
  if (!file) reason = `no ${starterNames(pack.manifest.starters).join(' or ')} in the repository`;
  else reason = (await guardFile({ student: '', kind: 'folder', root: io.cwd, file })) ?? null;
  if (!reason && file && (!language || !pack.manifest.starters[language]))
    reason = `lesson "${pack.manifest.id}" has no version for ${path.basename(file)}`;
  if (!reason && file && !isProgramText(await fs.readFile(file)))
    reason = 'the file is not text (binary bytes, or not UTF-8)';
  if (!reason && file && language) {
    try {
      const engine = engineBundle(io.bundleDir);
      const checked = await checkFile(pack, file, language, { sandbox, ...(engine ? { engine } : {}) });
      report = { ...checked, file: path.relative(io.cwd, file) || file };
    } catch (error) {
      if (!(error instanceof SandboxUnavailableError)) throw error;
      reason = `${error.message}; the check requires one on the runner`;
    }
  }
  const result = classroomResult(report, pack.transcripts, points, reason ?? undefined);
  const saved: ClassroomReportFile = {
    format: CLASSROOM_RESULT_FORMAT,
    repository: io.env.GITHUB_REPOSITORY ?? null,
    commit: io.env.GITHUB_SHA ?? null,
    // The code itself, for `grade --collect` to check again (issue 28): the verdict below is only the student's word.
    source: report && file ? { file: report.file, text: await fs.readFile(file, 'utf8') } : null,
    report,
    reason,
    points,
  };
  await fs.writeFile(path.join(io.cwd, REPORT_FILE), JSON.stringify(saved, null, 2) + '\n');
  const summary = classroomSummary(report, result, pack.manifest.title, reason ?? undefined);
  if (io.env.GITHUB_STEP_SUMMARY) await fs.appendFile(io.env.GITHUB_STEP_SUMMARY, summary);
  else io.out(summary);
  if (io.env.GITHUB_OUTPUT)
    await fs.appendFile(io.env.GITHUB_OUTPUT, `result=${Buffer.from(JSON.stringify(result)).toString('base64')}\n`);
  const earned = result.tests.reduce((n, t) => n + t.score, 0);
  io.out(`${pack.manifest.id}: ${earned}/${result.max_score} points${reason ? ` (${reason})` : ''}\n`);
  return EXIT.ok;
}

export const classroomCommand: CliCommand = {
  name: 'classroom',
  usage:
    'classroom init --lesson <id> [--points <n>] [--dir <repo>] [--force] [--node <version>] [--tarball <file>] [--vendor] [--registry <url>] [--install "<command>"] | classroom run --lesson <id> [--points <n>] [--sandbox require|auto|off] [--file <path>] | classroom grade-workflow --lesson <id> [--shards <n>] [--roster <file>] [--token-secret <name>] [--dir <repo>] [--force] [--tarball <file>] [--vendor] [--registry <url>] | classroom clone --roster <file> --into <folder> [--shard i/N]',
  summary:
    "GitHub Classroom: `init` writes .github/workflows/classroom.yml for an assignment's template repository (one test per hidden transcript, --points each) and copies the lesson pack into it; the workflow installs lesson-companion at this exact version, checked by its sha512 (--tarball: that tarball's; --vendor: the tarball goes into the repository, no registry needed); `run` is its check step (result for Classroom's grading reporter, Markdown summary, report artifact). Those points are feedback for the student; the grade of record is `grade` on the code: `grade-workflow` writes .github/workflows/grade.yml for the teacher's own repository (N jobs each clone their shard of the roster and `grade --shard i/N`, then `grade --merge`), and `clone` is its clone step (a folder per student)",
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub === 'init') return init(rest, io);
    if (sub === 'run') return run(rest, io);
    if (sub === 'grade-workflow') return gradeWorkflowCommand(rest, io);
    if (sub === 'clone') return cloneCommand(rest, io);
    throw new UsageError('classroom takes init, run, grade-workflow or clone');
  },
};
