/**
 * [heavy] GitHub Classroom: the workflow `classroom init` writes (here with the package's own tarball,
 * vendored) is valid for GitHub's own parser (@actions/workflow-parser) and has what Classroom needs; its
 * steps, run here by bash in order as the runner runs them (all but the sandbox's apt-get, which needs root),
 * take the pack out of the checkout, check the vendored tarball's sha512 and install it offline into an empty
 * prefix, and run the check step with GITHUB_OUTPUT and GITHUB_STEP_SUMMARY set: the grader result the
 * reporter decodes, the Markdown summary and the report artifact; `grade --collect` builds the class report
 * from those artifacts. `init` itself refuses what would change the workflow's shape.
 */
import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ClassReport } from '../../src/core/grade/classReport';
import { REPORT_FILE, RUNNER_ID, type ClassroomReportFile, type ClassroomResult } from '../../src/core/grade/classroom';
import { PACK_HOME } from '../../src/core/grade/classroomWorkflow';
import { buildCliBundle } from './cliBundle';
import { npmEnv, npmPack, type Packed } from './publishedPackage';
import { parseWithGitHubsParser, runJobSteps, type JobRun, type Parsed } from './workflowRun';

const ROOT = path.join(__dirname, '..', '..');
const REAL = path.join(ROOT, 'test', 'fixtures', 'real-style', 'least-connections', 'python');

describe('GitHub Classroom workflow (built CLI, the packed package, real processes) [heavy]', function () {
  this.timeout(180_000);
  let tmp: string;
  let bin: string;
  let template: Parsed['template'];
  let workflowText: string;
  let packed: Packed;
  const templateRepo = (): string => path.join(tmp, 'template');

  const cli = (args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(
        path.join(bin, 'lesson-companion'),
        args,
        { cwd, env: { ...process.env, LESSON_COMPANION_PACKS: path.join(tmp, 'installed') } },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      );
    });

  const runJob = (repo: string, repository: string): JobRun => runJobSteps(template.jobs[0]!.steps, repo, repository);

  /** A student's repository as Classroom makes it: a copy of the template, with the student's program. */
  function studentRepo(name: string, program: string): string {
    const repo = path.join(tmp, 'repos', name);
    fs.cpSync(templateRepo(), repo, { recursive: true });
    fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
    fs.copyFileSync(path.join(REAL, program), path.join(repo, 'src', 'balancer.py'));
    return repo;
  }

  before(async function () {
    this.timeout(180_000);
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-classroom-')));
    packed = npmPack(tmp);
    fs.mkdirSync(path.join(tmp, 'installed'));
    fs.symlinkSync(path.join(ROOT, 'lessons'), path.join(tmp, 'lessons'));
    await buildCliBundle(path.join(tmp, 'dist', 'cli.js'));
    bin = path.join(tmp, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(
      path.join(bin, 'lesson-companion'),
      `#!/bin/sh\nexec "${process.execPath}" "${path.join(tmp, 'dist', 'cli.js')}" "$@"\n`,
      { mode: 0o755 },
    );
    const template_ = templateRepo();
    fs.mkdirSync(template_);
    const init = await cli(
      ['classroom', 'init', '--lesson', 'least-connections', '--points', '2', '--tarball', packed.tarball, '--vendor'],
      template_,
    );
    assert.equal(init.code, 0, init.stderr);
    workflowText = fs.readFileSync(path.join(template_, '.github', 'workflows', 'classroom.yml'), 'utf8');
    const parsed = parseWithGitHubsParser(path.join(template_, '.github', 'workflows', 'classroom.yml'));
    assert.deepEqual(parsed.errors, []);
    template = parsed.template;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('writes a workflow GitHub parses, named and shaped as Classroom records points from', () => {
    assert.match(workflowText, /^name: Autograding Tests$/m);
    assert.deepEqual(
      template.jobs.map((j) => j.id),
      ['run-autograding-tests'],
    );
    assert.ok('push' in template.events && 'repository_dispatch' in template.events);
    const steps = template.jobs[0]!.steps;
    const check = steps.find((s) => s.id === RUNNER_ID)!;
    assert.match(
      check.run!,
      /lesson-companion classroom run --lesson "\$RUNNER_TEMP\/lesson-companion\/least-connections" --points 2 --sandbox=require/,
    );
    const install = steps.find((s) => s.name === 'Install Lesson Companion')!;
    assert.ok(install.run!.includes(`if [ "$actual" != "${packed.integrity}" ]; then`), install.run);
    const reporter = steps.find((s) => s.uses?.startsWith('classroom-resources/autograding-grading-reporter@'))!;
    assert.deepEqual(
      reporter.env!.map.map((e) => [e.Key, e.Value.expr]),
      [[`${RUNNER_ID.toUpperCase()}_RESULTS`, `steps.${RUNNER_ID}.outputs.result`]],
    );
    assert.match(workflowText, new RegExp(`runners: ${RUNNER_ID}\\n`));
    assert.ok(steps.some((s) => s.uses?.startsWith('actions/upload-artifact@')));
    assert.ok(
      steps.findIndex((s) => s.run?.includes('bubblewrap')) < steps.indexOf(check),
      'the sandbox is installed before the check',
    );
  });

  it('put the pack and the pinned tarball into the template repository, beside the workflow', () => {
    const home = path.join(templateRepo(), PACK_HOME);
    assert.ok(fs.existsSync(path.join(home, 'least-connections', 'lesson.json')));
    assert.equal(fs.existsSync(path.join(home, 'least-connections', 'authoring')), false, 'no authoring notes');
    const vendored = path.join(home, path.basename(packed.tarball));
    assert.deepEqual(fs.readFileSync(vendored), fs.readFileSync(packed.tarball));
  });

  it('refuses an --install or --node that is not one plain line, and writes nothing', async () => {
    const repo = path.join(tmp, 'refused');
    fs.mkdirSync(repo);
    for (const [flag, value] of [
      ['--install', 'npm i x\n  evil: 1'],
      ['--node', '20\n      - run: curl evil'],
      ['--install', 'npm i x\u2028evil: 1'],
    ] as const) {
      const ran = await cli(['classroom', 'init', '--lesson', 'least-connections', flag, value], repo);
      assert.equal(ran.code, 2, ran.stdout + ran.stderr);
      assert.match(ran.stderr, new RegExp(`${flag} is refused: it holds a (line break|control character)`));
    }
    assert.deepEqual(fs.readdirSync(repo), []);
  });

  it('refuses a tarball that is not lesson-companion, with a sentence, and writes nothing', async () => {
    const repo = path.join(tmp, 'not-ours');
    fs.mkdirSync(repo);
    const other = path.join(tmp, 'other');
    fs.mkdirSync(other);
    fs.writeFileSync(
      path.join(other, 'package.json'),
      JSON.stringify({ name: 'lesson-companion-evil', version: '1.0.0' }),
    );
    const tgz = execFileSync('npm', ['pack', '--silent', '--pack-destination', tmp], {
      cwd: other,
      encoding: 'utf8',
      env: npmEnv(tmp),
    }).trim();
    const ran = await cli(
      ['classroom', 'init', '--lesson', 'least-connections', '--tarball', path.join(tmp, tgz)],
      repo,
    );
    assert.equal(ran.code, 2, ran.stdout + ran.stderr);
    assert.match(ran.stderr, /is not a lesson-companion package: it is lesson-companion-evil, not lesson-companion/);
    assert.deepEqual(fs.readdirSync(repo), []);
  });

  it('runs its check step: points per hidden transcript for the reporter, a summary, the report artifact; then grade --collect', async () => {
    const alice = studentRepo('lc-alice', 'least_loaded_by_name.py');
    const bob = studentRepo('lc-bob', 'min_first_index.py');
    const ran = runJob(alice, 'class/lc-alice');
    runJob(bob, 'class/lc-bob');
    assert.ok(
      fs.existsSync(path.join(ran.prefix, 'bin', 'lesson-companion')),
      'the job installed the vendored tarball',
    );
    assert.equal(fs.existsSync(path.join(alice, PACK_HOME)), false, 'the pack is out of the checkout');

    // The reporter reads `${runner.toUpperCase()}_RESULTS` as base64 JSON, adds up the tests' scores.
    const line = ran.output.split('\n').find((l) => l.startsWith('result='))!;
    const result = JSON.parse(Buffer.from(line.slice('result='.length), 'base64').toString('utf8')) as ClassroomResult;
    const saved = JSON.parse(fs.readFileSync(path.join(alice, REPORT_FILE), 'utf8')) as ClassroomReportFile;
    assert.equal(saved.repository, 'class/lc-alice');
    assert.equal(saved.report?.status, 'fail');
    assert.equal(result.version, 1);
    assert.equal(result.status, 'fail');
    assert.equal(result.tests.length, saved.report!.checks.total);
    assert.equal(result.max_score, 2 * saved.report!.checks.total);
    assert.equal(
      result.tests.reduce((n, t) => n + t.score, 0),
      2 * saved.report!.checks.passed,
    );
    assert.ok(result.tests.some((t) => t.status === 'fail' && /first differs at command \d+/.test(t.message ?? '')));
    assert.match(
      ran.summary,
      new RegExp(`^## Least Connections[^\\n]*: ${2 * saved.report!.checks.passed}/${result.max_score} points`, 'm'),
    );
    assert.match(ran.summary, /Wrong tiebreak/);
    assert.match(ran.summary, /^\| Transcript \| Result \| Points \|$/m);

    const artifacts = path.join(tmp, 'artifacts');
    for (const [repo, name] of [
      [alice, 'lc-alice'], // one folder per repository, named as the teacher's download names it
      [bob, 'lc-bob'],
    ] as const) {
      fs.mkdirSync(path.join(artifacts, name), { recursive: true });
      fs.copyFileSync(path.join(repo, REPORT_FILE), path.join(artifacts, name, REPORT_FILE));
    }
    const collected = await cli(
      [
        'grade',
        '--collect',
        'artifacts',
        '--lesson',
        'least-connections',
        '--out',
        'collected',
        '--format',
        'json,csv',
      ],
      tmp,
    );
    assert.equal(collected.code, 0, collected.stderr);
    const report = JSON.parse(fs.readFileSync(path.join(tmp, 'collected', 'class-report.json'), 'utf8')) as ClassReport;
    assert.deepEqual(
      report.rows.map((r) => [r.student, r.status]),
      [
        ['lc-alice', 'fail'],
        ['lc-bob', 'pass'],
      ],
    );
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.count]),
      [['tiebreak', 1]],
    );
  });
});
