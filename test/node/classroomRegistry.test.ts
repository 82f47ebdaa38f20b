/**
 * [heavy] The whole Classroom path through a real registry on loopback (Verdaccio, no uplinks): `npm publish`
 * the packed tarball to it; the teacher installs lesson-companion from it into an empty prefix and runs
 * `classroom init --registry`, which pins the version and the integrity the registry serves; a student's
 * repository (a copy of the template, a scratch git repository) runs the workflow's steps: fetch from the
 * registry, check the sha512, install into the job's own empty prefix, `classroom run` with GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY set. A pin that does not match what the registry serves installs nothing.
 * Verdaccio is stopped at the end, whatever happened.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPORT_FILE, type ClassroomReportFile, type ClassroomResult } from '../../src/core/grade/classroom';
import { startLoopbackRegistry, type LoopbackRegistry } from './loopbackRegistry';
import {
  npmEnv,
  npmInstallGlobal,
  npmPack,
  PYTHON_FIXTURES,
  runInstalled,
  scratchRepository,
  type Packed,
} from './publishedPackage';
import { parseWithGitHubsParser, runJobSteps, type Parsed, type Step } from './workflowRun';

describe('Classroom through a loopback npm registry (Verdaccio) [heavy]', function () {
  this.timeout(240_000);
  let tmp: string;
  let home: string;
  let registry: LoopbackRegistry | undefined;
  let packed: Packed;
  let teacherPrefix: string;
  let workflow: { text: string; parsed: Parsed };
  const templateRepo = (): string => path.join(tmp, 'template');

  before(async function () {
    this.timeout(240_000);
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-registry-')));
    home = path.join(tmp, 'home');
    fs.mkdirSync(path.join(home, 'packs'), { recursive: true });
    registry = await startLoopbackRegistry(path.join(tmp, 'registry'));
    packed = npmPack(tmp);
    execFileSync('npm', ['publish', packed.tarball, '--registry', registry.url], {
      cwd: tmp,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: npmEnv(home, { npm_config_userconfig: registry.npmrc }),
    });
    teacherPrefix = path.join(tmp, 'teacher-prefix');
    npmInstallGlobal(`lesson-companion@${packed.version}`, teacherPrefix, home, ['--registry', registry.url]);
  });
  after(async () => {
    await registry?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('the teacher installs the published version from the registry, and it runs', async () => {
    const installed = path.join(teacherPrefix, 'lib', 'node_modules', 'lesson-companion', 'package.json');
    assert.equal((JSON.parse(fs.readFileSync(installed, 'utf8')) as { version: string }).version, packed.version);
    const ran = await runInstalled(teacherPrefix, home, ['lessons'], tmp);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /least-connections/);
  });

  it('classroom init pins the exact version and the sha512 the registry serves', async () => {
    fs.mkdirSync(templateRepo());
    const ran = await runInstalled(
      teacherPrefix,
      home,
      ['classroom', 'init', '--lesson', 'least-connections', '--points', '2', '--registry', registry!.url],
      templateRepo(),
    );
    assert.equal(ran.code, 0, ran.stdout + ran.stderr);
    const file = path.join(templateRepo(), '.github', 'workflows', 'classroom.yml');
    workflow = { text: fs.readFileSync(file, 'utf8'), parsed: parseWithGitHubsParser(file) };
    assert.deepEqual(workflow.parsed.errors, []);
    const install = installStep(workflow.parsed.template.jobs[0]!.steps);
    assert.ok(
      install.run!.includes(`npm pack lesson-companion@${packed.version} --registry ${registry!.url} `),
      install.run,
    );
    assert.ok(install.run!.includes(`if [ "$actual" != "${packed.integrity}" ]; then`), install.run);
  });

  it("a student's job installs from the registry into an empty prefix and its check step reports", () => {
    const repo = studentRepository('alice', 'min_first_index.py');
    const job = runJobSteps(workflow.parsed.template.jobs[0]!.steps, repo, 'class/alice');
    assert.ok(fs.existsSync(path.join(job.prefix, 'bin', 'lesson-companion')));
    const line = job.output.split('\n').find((l) => l.startsWith('result='))!;
    const result = JSON.parse(Buffer.from(line.slice('result='.length), 'base64').toString('utf8')) as ClassroomResult;
    assert.equal(result.status, 'pass');
    assert.equal(result.max_score, 2 * result.tests.length);
    assert.equal(
      result.tests.reduce((n, t) => n + t.score, 0),
      result.max_score,
    );
    assert.match(
      job.summary,
      new RegExp(`^## Least Connections[^\\n]*: ${result.max_score}/${result.max_score} points`, 'm'),
    );
    const saved = JSON.parse(fs.readFileSync(path.join(repo, REPORT_FILE), 'utf8')) as ClassroomReportFile;
    assert.equal(saved.repository, 'class/alice');
    assert.equal(saved.report?.status, 'pass');
  });

  it('a pin the registry does not match installs nothing, and the step says why', () => {
    const repo = studentRepository('mallory', 'least_loaded_by_name.py');
    const other = `sha512-${createHash('sha512').update('someone else claimed the name').digest('base64')}`;
    const steps = workflow.parsed.template.jobs[0]!.steps.map((s) =>
      s === installStep(workflow.parsed.template.jobs[0]!.steps)
        ? { ...s, run: s.run!.replace(packed.integrity, other) }
        : s,
    );
    assert.throws(
      () => runJobSteps(steps, repo, 'class/mallory'),
      (error: { stdout?: string }) =>
        new RegExp(
          `::error::lesson-companion-${packed.version.replace(/\./g, '\\.')}\\.tgz is not the lesson-companion ${packed.version.replace(/\./g, '\\.')} this workflow pins \\(its sha512 is ${packed.integrity.replace(/[+/]/g, '\\$&')}\\)`,
        ).test(error.stdout ?? ''),
    );
    assert.equal(fs.existsSync(path.join(`${repo}.prefix`, 'bin', 'lesson-companion')), false);
  });

  function installStep(steps: readonly Step[]): Step {
    return steps.find((s) => s.name === 'Install Lesson Companion')!;
  }

  /** A student's repository as Classroom makes it: a copy of the template with the student's program, committed. */
  function studentRepository(student: string, program: string): string {
    const repo = path.join(tmp, 'repos', student);
    fs.cpSync(templateRepo(), repo, { recursive: true });
    assert.ok(fs.existsSync(path.join(PYTHON_FIXTURES, program)));
    scratchRepository(repo, program);
    return repo;
  }
});
