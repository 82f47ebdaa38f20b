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
import {
  classroomWorkflow,
  PACK_HOME,
  PACKAGE_NAME,
  PLAIN_URL,
  plainLineProblem,
  tarballName,
  type Install,
} from '../core/grade/classroomWorkflow';
import type { CheckReport } from '../core/report/report';
import { copyPack, npmPack, ownVersion } from '../node/classroom/templateRepository';
import { checkFile } from '../node/check/checker';
import { engineBundle } from '../node/engine/host';
import { findByName, guardFile, isProgramText, starterNames } from '../node/grade/submissions';
import { languageOf } from '../node/languages/languages';
import { SandboxUnavailableError } from '../node/sandbox/contain';
import { isSandboxSetting, SANDBOX_SETTINGS } from '../node/sandbox/sandbox';
import { bounded } from './checkCommand';
import { EXIT, UsageError, type CliCommand, type CliIO } from './command';
import { selectPack } from './packSelection';

export const WORKFLOW_FILE = path.join('.github', 'workflows', 'classroom.yml');

const exists = (file: string): Promise<boolean> =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

/** A value that goes into the workflow as it is: refused unless it is one plain line. */
function plainLine(flag: string, value: string | undefined): string | undefined {
  const problem = value === undefined ? undefined : plainLineProblem(value);
  if (problem) throw new UsageError(`--${flag} is refused: ${problem}. Give it as one line of plain text.`);
  return value;
}

interface InstallChoice {
  readonly install?: string;
  readonly tarball?: string;
  readonly vendor?: boolean;
  readonly registry?: string;
}

/**
 * What the workflow installs: the teacher's own command (nothing pinned), else lesson-companion at an exact
 * version with the sha512 npm gives for its tarball: this CLI's own version from the registry, or the tarball
 * given with --tarball; --vendor writes that tarball into the template repository for the workflow to use.
 */
async function chooseInstall(choice: InstallChoice, repo: string, io: CliIO): Promise<Install> {
  if (choice.install !== undefined) {
    if (choice.tarball || choice.vendor || choice.registry)
      throw new UsageError(
        '--install replaces the pinned install: give it alone, without --tarball, --vendor or --registry',
      );
    return { kind: 'command', command: choice.install };
  }
  if (choice.registry !== undefined && !PLAIN_URL.test(choice.registry))
    throw new UsageError(`--registry takes an http(s) URL of plain characters, not "${choice.registry}"`);
  const version = await ownVersion(io.bundleDir);
  if (!choice.tarball && !version)
    throw new UsageError(
      'cannot tell which version of lesson-companion this is (no package.json of it beside its dist/ folder): give the tarball to install with --tarball <file>, or your own --install "<command>"',
    );
  const spec = choice.tarball ? path.resolve(io.cwd, choice.tarball) : `${PACKAGE_NAME}@${version}`;
  const registry = choice.registry ? { registry: choice.registry } : {};
  if (!choice.vendor) {
    const { version: pinned, integrity } = await npmPack(spec, { ...registry, cwd: io.cwd });
    return { kind: 'registry', version: pinned, integrity, ...registry };
  }
  const destination = path.join(repo, PACK_HOME);
  await fs.mkdir(destination, { recursive: true });
  const packed = await npmPack(spec, { ...registry, destination, cwd: io.cwd });
  if (packed.file !== path.join(destination, tarballName(packed.version)))
    throw new UsageError(`npm wrote ${packed.file ?? 'no tarball'}, not ${tarballName(packed.version)}`);
  return { kind: 'vendored', version: packed.version, integrity: packed.integrity };
}

const describeInstall = (install: Install): string =>
  install.kind === 'command'
    ? `installs with your command (nothing pinned): ${install.command}`
    : `installs ${PACKAGE_NAME} ${install.version} (${install.integrity}) ${install.kind === 'vendored' ? `from ${PACK_HOME}/${tarballName(install.version)}, with no registry` : `from ${install.registry ?? "npm's registry"}, checked against that sha512`}`;

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
    'classroom init --lesson <id> [--points <n>] [--dir <repo>] [--force] [--node <version>] [--tarball <file>] [--vendor] [--registry <url>] [--install "<command>"] | classroom run --lesson <id> [--points <n>] [--sandbox require|auto|off] [--file <path>]',
  summary:
    "GitHub Classroom: `init` writes .github/workflows/classroom.yml for an assignment's template repository (one test per hidden transcript, --points each) and copies the lesson pack into it; the workflow installs lesson-companion at this exact version, checked by its sha512 (--tarball: that tarball's; --vendor: the tarball goes into the repository, no registry needed); `run` is its check step (result for Classroom's grading reporter, Markdown summary, report artifact)",
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub === 'init') return init(rest, io);
    if (sub === 'run') return run(rest, io);
    throw new UsageError('classroom takes init or run');
  },
};
