/**
 * [heavy] The teacher's side, for real: `classroom grade-workflow` (the built CLI) writes a workflow GitHub's
 * own parser (@actions/workflow-parser) reads as a matrix of N shard jobs and a merge job that needs them,
 * with the pack copied beside it; and `classroom clone --shard i/N`, run with real git against a class of
 * 12 repositories (file:// URLs of scratch git repositories), clones each student exactly once over the 3
 * shards, a folder per student with the program and no .git, and an empty folder for a repository that
 * cannot be cloned; then the workflow's own clone, grade and merge commands (its run blocks, with the matrix
 * value and the run id put in as Actions would) grade the class in 3 shards and merge them into the same rows
 * as one `grade` of the whole class.
 */
import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCliBundle } from './cliBundle';
import { ROOT, scratchRepository, type Ran } from './publishedPackage';
import { parseWithGitHubsParser } from './workflowRun';

const STUDENTS = Array.from({ length: 12 }, (_, i) => `student-${String(i + 1).padStart(2, '0')}`);

describe('classroom grade-workflow and clone (built CLI, real git) [heavy]', function () {
  this.timeout(120_000);
  let tmp: string;
  const heads = new Map<string, string>();

  const cli = (args: string[], cwd = tmp, env: NodeJS.ProcessEnv = {}): Promise<Ran> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [path.join(tmp, 'dist', 'cli.js'), ...args],
        { cwd, env: { ...process.env, LESSON_COMPANION_PACKS: path.join(tmp, 'no-packs'), ...env } },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      );
    });

  before(async function () {
    this.timeout(120_000);
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-grade-workflow-')));
    fs.symlinkSync(path.join(ROOT, 'lessons'), path.join(tmp, 'lessons'));
    await buildCliBundle(path.join(tmp, 'dist', 'cli.js'));
    for (const [i, student] of STUDENTS.entries())
      heads.set(
        student,
        scratchRepository(path.join(tmp, 'origin', student), i % 2 ? 'min_first_index.py' : 'least_loaded_by_name.py'),
      );
    const lines = STUDENTS.map((s) => `${s} file://${path.join(tmp, 'origin', s)}`);
    fs.writeFileSync(path.join(tmp, 'roster.txt'), `# the class\n${lines.join('\n')}\nghost file://${tmp}/no-such\n`);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('writes a workflow GitHub parses: a matrix of N shard jobs, then a merge that needs them all', async () => {
    const repo = path.join(tmp, 'teacher');
    fs.mkdirSync(repo);
    const ran = await cli(
      [
        'classroom',
        'grade-workflow',
        '--lesson',
        'least-connections',
        '--shards',
        '4',
        '--install',
        'npm i -g lesson-companion@0.1.0',
      ],
      repo,
    );
    assert.equal(ran.code, 0, ran.stdout + ran.stderr);
    const parsed = parseWithGitHubsParser(path.join(repo, '.github', 'workflows', 'grade.yml'));
    assert.deepEqual(parsed.errors, []);
    const [shard, merge] = parsed.template.jobs;
    assert.deepEqual([shard!.id, merge!.id, merge!.needs], ['grade-shard', 'merge', ['grade-shard']]);
    assert.deepEqual(JSON.parse(JSON.stringify(shard!.strategy!.map.find((e) => e.Key === 'matrix')!.Value)), {
      type: 2,
      map: [{ Key: 'shard', Value: { type: 1, seq: [1, 2, 3, 4] } }],
    });
    const clone = shard!.steps.find((s) => s.name === "Clone this shard's repositories")!;
    // A run block holding an expression is one to GitHub: format('… --shard {0}/4 …', matrix.shard).
    const run = clone.run as unknown as { expr: string };
    assert.match(run.expr, /--shard \{0\}\/4 .*, matrix\.shard\)$/s);
    assert.ok(fs.existsSync(path.join(repo, '.github', 'lesson-companion', 'least-connections', 'lesson.json')));
  });

  it('clone --shard i/3 over the three shards clones each student exactly once, at their commit, without .git', async () => {
    const where = new Map<string, number>();
    for (const i of [1, 2, 3]) {
      const ran = await cli([
        'classroom',
        'clone',
        '--roster',
        'roster.txt',
        '--shard',
        `${i}/3`,
        '--into',
        `shard-${i}`,
      ]);
      assert.equal(ran.code, 0, ran.stdout + ran.stderr);
      for (const student of fs.readdirSync(path.join(tmp, `shard-${i}`))) {
        assert.equal(where.get(student), undefined, `${student} is in shard ${where.get(student)} and ${i}`);
        where.set(student, i);
        const folder = path.join(tmp, `shard-${i}`, student);
        assert.equal(fs.existsSync(path.join(folder, '.git')), false, `${student}: no .git`);
        if (student === 'ghost') {
          assert.deepEqual(fs.readdirSync(folder), [], 'a repository that cannot be cloned is an empty folder');
          assert.match(ran.stderr, /^ghost: not cloned: file:\/\/.*no-such: /m);
        } else {
          assert.ok(fs.existsSync(path.join(folder, 'balancer.py')));
          assert.match(ran.stdout, new RegExp(`^${student}\\t${heads.get(student)}$`, 'm'));
        }
      }
    }
    assert.deepEqual([...where.keys()].sort(), [...STUDENTS, 'ghost'].sort());
    assert.ok(new Set(where.values()).size > 1, 'the class is spread over more than one shard');
  });

  it("the workflow's clone, grade and merge commands, run for 3 shards, give the rows one grade of the class gives", async function () {
    this.timeout(600_000);
    const repo = path.join(tmp, 'teacher-3');
    fs.mkdirSync(repo);
    fs.copyFileSync(path.join(tmp, 'roster.txt'), path.join(repo, 'roster.txt'));
    const init = await cli(['classroom', 'grade-workflow', '--lesson', 'least-connections', '--install', 'true'], repo);
    assert.equal(init.code, 0, init.stdout + init.stderr);
    const text = fs.readFileSync(path.join(repo, '.github', 'workflows', 'grade.yml'), 'utf8');
    const shim = path.join(tmp, 'shim');
    fs.mkdirSync(shim, { recursive: true });
    fs.writeFileSync(
      path.join(shim, 'lesson-companion'),
      `#!/bin/sh\nexec "${process.execPath}" "${path.join(tmp, 'dist', 'cli.js')}" "$@"\n`,
      { mode: 0o755 },
    );
    /** A step's run block, with what Actions would put in for `${{ matrix.shard }}` and `${{ github.run_id }}`. */
    const step = (job: string, name: string, shard = 0): void => {
      const from = text.indexOf(`\n  ${job}:\n`);
      const at = text.indexOf(`      - name: ${name}\n        `, from);
      const lines = text.slice(at).split('\n').slice(1);
      const body = lines.slice(lines.findIndex((l) => l.endsWith('run: |')) + 1);
      const script = body
        .slice(
          0,
          body.findIndex((l) => !l.startsWith('          ')),
        )
        .map((l) =>
          l.slice(10).replaceAll('${{ matrix.shard }}', String(shard)).replaceAll('${{ github.run_id }}', '4242'),
        )
        .join('\n');
      execFileSync('bash', ['-e', '-c', script], {
        cwd: repo,
        env: {
          ...process.env,
          PATH: `${shim}:${process.env.PATH}`,
          RUNNER_TEMP: path.join(tmp, `runner-${job}-${shard}`),
          LESSON_COMPANION_PACKS: path.join(tmp, 'no-packs'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    };
    const whole = path.join(tmp, 'whole-class');
    for (const shard of [1, 2, 3]) {
      fs.mkdirSync(path.join(tmp, `runner-grade-shard-${shard}`));
      for (const name of ['Copy the lesson beside the checkout', "Clone this shard's repositories", 'Grade this shard'])
        step('grade-shard', name, shard);
      const runner = path.join(tmp, `runner-grade-shard-${shard}`);
      fs.mkdirSync(path.join(tmp, 'runner-merge-0', 'shards', `shard-${shard}`), { recursive: true });
      fs.copyFileSync(
        path.join(runner, 'shard', 'class-report.json'),
        path.join(tmp, 'runner-merge-0', 'shards', `shard-${shard}`, 'class-report.json'),
      );
      fs.cpSync(path.join(runner, 'submissions'), whole, { recursive: true });
    }
    step('merge', 'Copy the lesson beside the checkout');
    step('merge', 'Merge the shard reports of this run');
    const single = await cli(['grade', whole, '--lesson', 'least-connections', '--out', 'single', '--format', 'json']);
    assert.equal(single.code, 0, single.stdout + single.stderr);
    type Rows = { rows: { student: string; status: string; mistakes: { id: string }[] }[] };
    const rows = (file: string): string[][] =>
      (JSON.parse(fs.readFileSync(file, 'utf8')) as Rows).rows
        .map((r) => [
          r.student,
          r.status,
          r.mistakes
            .map((m) => m.id)
            .sort()
            .join(','),
        ])
        .sort((a, b) => a[0]!.localeCompare(b[0]!));
    const merged = rows(path.join(repo, 'class-report', 'class-report.json'));
    assert.equal(merged.length, STUDENTS.length + 1, 'every student of the roster, the ghost too');
    assert.deepEqual(merged, rows(path.join(tmp, 'single', 'class-report.json')));
  });

  it('refuses a roster with a line it cannot take, and clones nothing', async () => {
    fs.writeFileSync(path.join(tmp, 'bad-roster.txt'), 'alice org/a\n../eve org/e\n');
    const ran = await cli(['classroom', 'clone', '--roster', 'bad-roster.txt', '--into', 'bad']);
    assert.equal(ran.code, 2);
    assert.match(ran.stderr, /bad-roster\.txt: line 2: "\.\.\/eve" is not a student name .* Nothing was cloned\./);
    assert.equal(fs.existsSync(path.join(tmp, 'bad')), false);
  });
});
