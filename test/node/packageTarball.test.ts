/**
 * [heavy] The npm package works as installed, from nothing else: `npm pack` gives a tarball of only what the
 * `files` allowlist names, and a real `npm install --global --offline` of it into an empty prefix (with an
 * empty npm cache: it has no dependencies to fetch) gives a `lesson-companion` that lists its lessons, checks
 * a program, grades a class folder and runs the Classroom check step, run from a folder outside the
 * repository so that no dev dependency in its node_modules can be loaded.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ClassroomResult } from '../../src/core/grade/classroom';
import {
  npmInstallGlobal,
  npmPack,
  PYTHON_FIXTURES,
  runInstalled,
  scratchRepository,
  type Packed,
  type Ran,
} from './publishedPackage';

const ROOT = path.join(__dirname, '..', '..');

describe('the npm package, installed from its tarball into an empty prefix [heavy]', function () {
  this.timeout(180_000);
  let tmp: string;
  let home: string;
  let prefix: string;
  let packed: Packed;
  const cli = (args: string[], cwd = tmp, env: NodeJS.ProcessEnv = {}): Promise<Ran> =>
    runInstalled(prefix, home, args, cwd, env);

  before(function () {
    this.timeout(180_000);
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-tarball-')));
    home = path.join(tmp, 'home');
    prefix = path.join(tmp, 'prefix');
    fs.mkdirSync(path.join(home, 'packs'), { recursive: true });
    packed = npmPack(tmp);
    npmInstallGlobal(packed.tarball, prefix, home, ['--offline']);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('holds what the allowlist names and nothing of the sources, tests, maps or node_modules', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.private, undefined, 'a private package cannot be published');
    for (const needed of [
      'bin/lesson-companion.js',
      'dist/cli.js',
      'dist/cli-main.js',
      'dist/cli-lessons.js',
      'dist/engine.js',
      'package.json',
    ])
      assert.ok(packed.files.includes(needed), `${needed} is in the tarball`);
    assert.ok(packed.files.includes('dist/worlds/queues.js'), 'the queue world pack models import');
    for (const wasm of ['tree-sitter.js', 'tree-sitter.wasm', 'tree-sitter-python.wasm'])
      assert.ok(packed.files.includes(`dist/tree-sitter/${wasm}`), `the repair search's parser: ${wasm}`);
    assert.ok(
      packed.files.some((f) => f.startsWith('lessons/least-connections/')),
      'the built-in lessons',
    );
    // A lesson's model and starters are TypeScript the packs ship; the product's own sources are not shipped.
    const stray = packed.files.filter(
      (f) =>
        /^(src|test|scripts|node_modules|\.ci)\//.test(f) ||
        f.endsWith('.map') ||
        (f.endsWith('.ts') && !/^(lessons|media)\//.test(f)),
    );
    assert.deepEqual(stray, []);
    assert.match(packed.integrity, /^sha512-[A-Za-z0-9+/]+={0,2}$/);
  });

  it('installs with no dependency at all: the bundles need nothing from node_modules', () => {
    const installed = path.join(prefix, 'lib', 'node_modules');
    assert.deepEqual(fs.readdirSync(installed), ['lesson-companion']);
    assert.equal(fs.existsSync(path.join(installed, 'lesson-companion', 'node_modules')), false);
    const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'lesson-companion', 'package.json'), 'utf8')) as {
      dependencies?: object;
    };
    assert.deepEqual(Object.keys(manifest.dependencies ?? {}), []);
  });

  it('lists its built-in lessons, from the installed folder', async () => {
    const ran = await cli(['lessons', '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const { lessons } = JSON.parse(ran.stdout) as { lessons: { id: string; origin: string; dir: string }[] };
    const shipped = path.join(prefix, 'lib', 'node_modules', 'lesson-companion', 'lessons');
    assert.deepEqual(
      lessons.map((l) => [l.id, l.origin, l.dir]),
      ['conn-counts', 'health-checks', 'least-connections'].map((id) => [id, 'built-in', path.join(shipped, id)]),
    );
  });

  it('checks a program: a right one passes (exit 0), a wrong one fails with its named mistake (exit 1)', async () => {
    const work = path.join(tmp, 'check');
    fs.mkdirSync(work);
    fs.copyFileSync(path.join(PYTHON_FIXTURES, 'min_first_index.py'), path.join(work, 'right.py'));
    fs.copyFileSync(path.join(PYTHON_FIXTURES, 'least_loaded_by_name.py'), path.join(work, 'wrong.py'));
    const right = await cli(['check', 'right.py', '--lesson', 'least-connections'], work);
    assert.equal(right.code, 0, right.stdout + right.stderr);
    const wrong = await cli(['check', 'wrong.py', '--lesson', 'least-connections'], work);
    assert.equal(wrong.code, 1, wrong.stdout + wrong.stderr);
    assert.match(wrong.stdout, /Wrong tiebreak/);
    // The repair search loads tree-sitter's runtime and grammar from the installed dist/tree-sitter.
    const repaired = await cli(['check', 'wrong.py', '--lesson', 'least-connections', '--repair'], work);
    assert.match(repaired.stdout, /^\+\+\+ wrong\.py$/m, repaired.stdout + repaired.stderr);
  });

  it('grades a class folder and writes the class report', async () => {
    const work = path.join(tmp, 'grade');
    for (const [student, program] of [
      ['alice', 'min_first_index.py'],
      ['bob', 'least_loaded_by_name.py'],
    ] as const) {
      fs.mkdirSync(path.join(work, 'class', student), { recursive: true });
      fs.copyFileSync(path.join(PYTHON_FIXTURES, program), path.join(work, 'class', student, 'balancer.py'));
    }
    const ran = await cli(
      ['grade', 'class', '--lesson', 'least-connections', '--out', 'report', '--format', 'json'],
      work,
    );
    assert.equal(ran.code, 0, ran.stdout + ran.stderr);
    const report = JSON.parse(fs.readFileSync(path.join(work, 'report', 'class-report.json'), 'utf8')) as {
      rows: { student: string; status: string }[];
    };
    assert.deepEqual(
      report.rows.map((r) => [r.student, r.status]),
      [
        ['alice', 'pass'],
        ['bob', 'fail'],
      ],
    );
  });

  it("runs the Classroom check step in a student's repository: the result, the summary, the report", async () => {
    const repo = path.join(tmp, 'student');
    scratchRepository(repo, 'min_first_index.py');
    const output = path.join(tmp, 'github-output');
    const summary = path.join(tmp, 'step-summary');
    fs.writeFileSync(output, '');
    fs.writeFileSync(summary, '');
    const ran = await cli(['classroom', 'run', '--lesson', 'least-connections', '--points', '2'], repo, {
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
    });
    assert.equal(ran.code, 0, ran.stdout + ran.stderr);
    const line = fs
      .readFileSync(output, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('result='))!;
    const result = JSON.parse(Buffer.from(line.slice('result='.length), 'base64').toString('utf8')) as ClassroomResult;
    assert.equal(result.status, 'pass');
    assert.equal(result.max_score, 2 * result.tests.length);
    assert.ok(result.tests.length > 0 && result.tests.every((t) => t.score === 2));
    assert.match(fs.readFileSync(summary, 'utf8'), new RegExp(`: ${result.max_score}/${result.max_score} points`));
    assert.ok(fs.existsSync(path.join(repo, 'lesson-companion-report.json')));
  });
});
