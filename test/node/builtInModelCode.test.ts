/**
 * The built-in lessons' models come transpiled inside the CLI's bundle (esbuild.mjs, scripts/model-code.mjs),
 * keyed by their content (src/node/engine/modelCache.ts): a check of a built-in lesson loads no transpiler, and
 * a model file that is not exactly what was built is transpiled at run time. Real processes: dist/cli.js with a
 * preload that notes which files the CLI process requires (the engine worker and the learner's program start
 * with an environment of their own and are not watched).
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const LESSON = path.join(ROOT, 'lessons', 'least-connections');
const CORRECT = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python', 'correct.py');
const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

describe('built-in models transpiled in the bundle (dist/cli.js, real processes)', function () {
  this.timeout(60000);
  let dir: string;
  let hook: string;

  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built (npm run build)');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-model-code-'));
    hook = path.join(dir, 'hook.js');
    fs.writeFileSync(
      hook,
      `const Module = require('module'); const load = Module._load; const seen = [];
       Module._load = function (request, ...rest) { seen.push(String(request)); return load.call(this, request, ...rest); };
       process.on('exit', () => require('fs').writeFileSync(process.env.LC_TEST_REQUIRES, seen.join('\\n')));`,
    );
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The check's status, and whether the CLI process loaded the transpiler. */
  function check(extra: string[]): { status: string; transpiler: boolean } {
    const requires = path.join(dir, 'requires.txt');
    const run = spawnSync(
      process.execPath,
      ['-r', hook, CLI, 'check', CORRECT, '--json', '--python', PYTHON, ...extra],
      {
        encoding: 'utf8',
        env: { ...process.env, LC_TEST_REQUIRES: requires },
      },
    );
    const report = JSON.parse(run.stdout) as { status: string };
    return { status: report.status, transpiler: /vendor-sucrase/.test(fs.readFileSync(requires, 'utf8')) };
  }

  it('checks a built-in lesson with no transpiler loaded', () => {
    assert.deepEqual(check([]), { status: 'pass', transpiler: false });
  });

  it('finds the built code by content: a copy of the lesson needs none, an edited model is transpiled', () => {
    const copy = path.join(dir, 'copy');
    fs.cpSync(LESSON, copy, { recursive: true });
    assert.deepEqual(check(['--lesson', copy]), { status: 'pass', transpiler: false });
    fs.appendFileSync(path.join(copy, 'model', 'model.ts'), '\n// edited after the build\n');
    assert.deepEqual(check(['--lesson', copy]), { status: 'pass', transpiler: true });
  });
});
