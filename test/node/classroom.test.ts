/**
 * GitHub Classroom: the workflow `classroom init` writes is valid for GitHub's own parser
 * (@actions/workflow-parser) and has what Classroom needs; its check step, run here by bash as the runner
 * runs it (GITHUB_OUTPUT and GITHUB_STEP_SUMMARY set, `lesson-companion` on the PATH as the built CLI),
 * writes the grader result the reporter decodes, the Markdown summary and the report artifact; and
 * `grade --collect` builds the class report from those artifacts.
 *
 * The parser is an ES module that imports JSON without import attributes, so it is loaded in a child Node
 * with tsx's loader. WORKFLOW_PARSER_DIR may point at an installed copy when node_modules has none yet.
 */
import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ClassReport } from '../../src/core/grade/classReport';
import { REPORT_FILE, RUNNER_ID, type ClassroomReportFile, type ClassroomResult } from '../../src/core/grade/classroom';
import { buildCliBundle } from './cliBundle';

const ROOT = path.join(__dirname, '..', '..');
const REAL = path.join(ROOT, 'test', 'fixtures', 'real-style', 'least-connections', 'python');

interface Step {
  readonly id: string;
  readonly name?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly env?: { map: { Key: string; Value: { expr?: string } }[] };
}
interface Parsed {
  readonly errors: string[];
  readonly template: { jobs: { id: string; steps: Step[] }[]; events: Record<string, unknown> };
}

/** The workflow through @actions/workflow-parser: its errors, and the template it converts to. */
function parseWithGitHubsParser(file: string): Parsed {
  const script = `
    import * as fs from 'node:fs';
    const where = process.env.WORKFLOW_PARSER_DIR ? process.env.WORKFLOW_PARSER_DIR + '/dist/index.js' : '@actions/workflow-parser';
    const { parseWorkflow, convertWorkflowTemplate } = await import(where);
    const errors = [];
    const trace = { info() {}, verbose() {}, error(m) { errors.push(String(m)); } };
    const parsed = parseWorkflow({ name: 'classroom.yml', content: fs.readFileSync(${JSON.stringify(file)}, 'utf8') }, trace);
    errors.push(...parsed.context.errors.getErrors().map((e) => e.message));
    const template = await convertWorkflowTemplate(parsed.context, parsed.value);
    process.stdout.write(JSON.stringify({ errors, template }));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out) as Parsed;
}

describe('GitHub Classroom workflow (built CLI, real processes)', function () {
  this.timeout(120_000);
  let tmp: string;
  let bin: string;
  let template: Parsed['template'];
  let workflowText: string;

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

  /** The check step's shell, run by bash in a student's repository as the runner runs it. */
  function runCheckStep(repo: string, repository: string): { output: string; summary: string } {
    const step = template.jobs[0]!.steps.find((s) => s.id === RUNNER_ID)!;
    const output = path.join(repo, '..', `${path.basename(repo)}.output`);
    const summary = path.join(repo, '..', `${path.basename(repo)}.summary`);
    fs.writeFileSync(output, '');
    fs.writeFileSync(summary, '');
    execFileSync('bash', ['-e', '-c', step.run!], {
      cwd: repo,
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH}`,
        LESSON_COMPANION_PACKS: path.join(tmp, 'installed'),
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_REPOSITORY: repository,
        GITHUB_SHA: 'abc123',
        CI: 'true',
      },
      encoding: 'utf8',
    });
    return { output: fs.readFileSync(output, 'utf8'), summary: fs.readFileSync(summary, 'utf8') };
  }

  function studentRepo(name: string, program: string): string {
    const repo = path.join(tmp, 'repos', name);
    fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
    fs.copyFileSync(path.join(REAL, program), path.join(repo, 'src', 'balancer.py'));
    return repo;
  }

  before(async function () {
    this.timeout(120_000);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-classroom-'));
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
    const template_ = path.join(tmp, 'template');
    fs.mkdirSync(template_);
    const init = await cli(['classroom', 'init', '--lesson', 'least-connections', '--points', '2'], template_);
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
      /lesson-companion classroom run --lesson "least-connections" --points 2 --sandbox=require/,
    );
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

  it('runs its check step: points per hidden transcript for the reporter, a summary, the report artifact; then grade --collect', async () => {
    const alice = studentRepo('lc-alice', 'least_loaded_by_name.py');
    const bob = studentRepo('lc-bob', 'min_first_index.py');
    const ran = runCheckStep(alice, 'class/lc-alice');
    runCheckStep(bob, 'class/lc-bob');

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
