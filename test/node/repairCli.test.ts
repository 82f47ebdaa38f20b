/**
 * `check --repair` as a learner runs it: the built CLI with its engine worker and the tree-sitter files beside
 * it (as dist/ is laid out), real learner processes in the sandbox. The patch it prints is applied with the
 * real `patch -p0` and `git apply -p0`, and the patched file is checked again by a plain `check`: it must
 * pass. A pack that caps the ladder below rung 4, and a program with no fix, get a plain sentence instead.
 */
import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import type { CheckReport } from '../../src/core/report/report';
import type { RepairResult } from '../../src/core/repair/result';
import { buildCliBundle } from './cliBundle';

const ROOT = path.join(__dirname, '..', '..');
const CORPUS = path.join(ROOT, 'test', 'fixtures', 'real-style', 'least-connections');
const LESSON = path.join(ROOT, 'lessons', 'least-connections');
const TREE_SITTER = path.join(ROOT, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm');

interface Result {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

describe('check --repair (built CLI, real processes, real patch and git apply)', function () {
  this.timeout(240_000);
  let tmp: string;
  let cli: string;

  const run = (args: string[], cwd: string): Promise<Result> =>
    new Promise((resolve) => {
      const env = { ...process.env, LESSON_COMPANION_PACKS: path.join(tmp, 'installed'), NO_COLOR: '1' };
      execFile(process.execPath, [cli, ...args], { cwd, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      );
    });
  const repairOf = (result: Result): RepairResult & { status?: string } => {
    const report = JSON.parse(result.stdout) as CheckReport & { repair?: RepairResult };
    assert.ok(report.repair, `no repair field: ${result.stdout.slice(0, 400)} ${result.stderr}`);
    return report.repair;
  };
  /** A fresh folder holding one corpus program. */
  const copy = (rel: string): { dir: string; name: string } => {
    const dir = fs.mkdtempSync(path.join(tmp, 'work-'));
    const name = path.basename(rel);
    fs.copyFileSync(path.join(CORPUS, rel), path.join(dir, name));
    return { dir, name };
  };

  before(async function () {
    this.timeout(120_000);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-repair-'));
    fs.mkdirSync(path.join(tmp, 'installed'));
    cli = path.join(tmp, 'dist', 'cli.js');
    await buildCliBundle(cli);
    await esbuild.build({
      entryPoints: [path.join(ROOT, 'src', 'node', 'engine', 'worker.ts')],
      outfile: path.join(tmp, 'dist', 'engine.js'),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      mainFields: ['module', 'main'],
      logLevel: 'silent',
    });
    fs.mkdirSync(path.join(tmp, 'dist', 'tree-sitter'));
    for (const file of fs
      .readdirSync(TREE_SITTER)
      .filter((f) => /^tree-sitter(-python|-javascript|-typescript)?\.(js|wasm)$/.test(f)))
      fs.copyFileSync(path.join(TREE_SITTER, file), path.join(tmp, 'dist', 'tree-sitter', file));
  });

  after(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  for (const [rel, tool] of [
    ['python/least_loaded_by_name.py', 'patch'],
    ['javascript/nginx_least_conn.js', 'git'],
  ] as const) {
    it(`prints a verified fix for ${rel} that ${tool === 'patch' ? 'patch -p0' : 'git apply -p0'} applies and that passes`, async function () {
      if (!fs.existsSync(path.join(CORPUS, rel))) this.skip();
      const { dir, name } = copy(rel);
      const repair = repairOf(await run(['check', name, '--lesson', LESSON, '--repair', '--json'], dir));
      assert.ok(repair.patch, `no fix: ${'reason' in repair ? repair.reason : ''}`);
      assert.ok(repair.verified.hidden > 0 && repair.verified.generated > 0);
      assert.equal(repair.verified.seeds.length, 2);
      assert.ok(repair.changedLines.length >= 1 && repair.candidates >= 1);
      fs.writeFileSync(path.join(dir, 'fix.patch'), repair.patch);
      const before = fs.readFileSync(path.join(dir, name), 'utf8');
      if (tool === 'patch') execFileSync('patch', ['-p0', '-i', 'fix.patch'], { cwd: dir });
      else execFileSync('git', ['apply', '-p0', 'fix.patch'], { cwd: dir });
      assert.notEqual(fs.readFileSync(path.join(dir, name), 'utf8'), before);
      const again = await run(['check', name, '--lesson', LESSON, '--json'], dir);
      assert.equal((JSON.parse(again.stdout) as CheckReport).status, 'pass', again.stdout.slice(0, 600));
    });
  }

  it('shows the diff under the card, with what it was verified against', async () => {
    const { dir, name } = copy('python/least_loaded_by_name.py');
    const text = await run(['check', name, '--lesson', LESSON, '--repair'], dir);
    assert.match(
      text.stdout,
      /A fix to your file \(line \d+\) that passes all \d+ hidden transcripts and \d+ random tests/,
    );
    assert.match(text.stdout, /^-.*sorted\(/m);
    assert.match(text.stdout, /^\+/m);
  });

  it('grade never searches for a fix: it has no --repair', async () => {
    const { dir } = copy('python/least_loaded_by_name.py');
    const graded = await run(['grade', dir, '--lesson', LESSON, '--repair'], tmp);
    assert.equal(graded.code, 2, graded.stdout + graded.stderr);
    assert.match(graded.stderr, /repair/);
  });

  it('says plainly that a pack capped below rung 4 shows no fix', async () => {
    const pack = path.join(tmp, 'capped');
    fs.cpSync(LESSON, pack, { recursive: true });
    const manifest = JSON.parse(fs.readFileSync(path.join(pack, 'lesson.json'), 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(path.join(pack, 'lesson.json'), JSON.stringify({ ...manifest, hints: { maxRung: 3 } }, null, 2));
    const { dir, name } = copy('python/least_loaded_by_name.py');
    const repair = repairOf(await run(['check', name, '--lesson', pack, '--repair', '--json'], dir));
    assert.equal(repair.patch, null);
    assert.match('reason' in repair ? repair.reason : '', /rung 3 \(hints\.maxRung\)/);
  });
});
