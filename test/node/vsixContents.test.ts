/**
 * What the VSIX carries is what `.vscodeignore` lets through, and the extension runs checks and simulations
 * through the CLI's bundles in it. This copies exactly the files `vsce ls` lists (the VSIX's contents) into
 * an empty folder and runs a check and a simulation from there, so a bundle left out of the allowlist fails
 * here instead of in a learner's editor. (Packaging itself rebuilds in production mode, which this does not.)
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import * as yauzl from 'yauzl';
import type { CheckReport } from '../../src/core/report/report';

const ROOT = path.join(__dirname, '..', '..');

/** The entry names of a zip file. */
function zipEntries(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
const run = promisify(execFile);

describe('the VSIX contents (vsce ls) are enough to check and simulate', function () {
  this.timeout(120_000);
  let files: string[];
  let unpacked: string;

  before(async function () {
    if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) this.skip(); // `npm test` builds first
    const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
    const { stdout } = await run(process.execPath, [vsce, 'ls', '--no-dependencies'], {
      cwd: ROOT,
      maxBuffer: 4 * 1024 * 1024,
    });
    files = stdout
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-vsix-'));
    for (const file of files) {
      fs.mkdirSync(path.join(unpacked, path.dirname(file)), { recursive: true });
      fs.copyFileSync(path.join(ROOT, file), path.join(unpacked, file));
    }
  });

  after(() => {
    if (unpacked) fs.rmSync(unpacked, { recursive: true, force: true });
  });

  it('lists the bundles the extension starts, and nothing native, no source maps, no node_modules', () => {
    for (const bundle of [
      'extension.js',
      'webview.js',
      'cli.js',
      'cli-main.js',
      'cli-lessons.js',
      'engine.js',
      'vendor-scslre.js',
      'vendor-sucrase.js',
    ]) {
      assert.ok(
        files.includes(`dist/${bundle}`),
        `dist/${bundle} is not in the VSIX: ${files.filter((f) => f.startsWith('dist/')).join(', ')}`,
      );
    }
    assert.deepEqual(
      files.filter((f) => /\.(node|map)$/.test(f) || f.startsWith('node_modules/') || f.startsWith('src/')),
      [],
    );
    assert.ok(files.includes('lessons/least-connections/lesson.json'));
  });

  it('carries the tree-sitter runtime and only the Python, JavaScript and TypeScript grammars, in under 3 MiB', () => {
    assert.deepEqual(files.filter((f) => f.includes('tree-sitter')).sort(), [
      'dist/tree-sitter/tree-sitter-javascript.wasm',
      'dist/tree-sitter/tree-sitter-python.wasm',
      'dist/tree-sitter/tree-sitter-typescript.wasm',
      'dist/tree-sitter/tree-sitter.js',
      'dist/tree-sitter/tree-sitter.wasm',
    ]);
    // The VSIX is a zip: each file deflated, as vsce stores it (a few bytes of headers per file besides).
    const deflated = files.reduce((sum, f) => sum + zlib.deflateRawSync(fs.readFileSync(path.join(ROOT, f))).length, 0);
    assert.ok(deflated < 3 * 1024 * 1024, `the VSIX's files deflate to ${(deflated / 1048576).toFixed(2)} MiB`);
  });

  // npm run package's own step (after its production build): vsce refuses a folder with both .vscodeignore and
  // package.json's `files` (npm's list), so the script packages a copy of the listed files; this fails if the
  // VSIX cannot be made, or holds other files than `vsce ls` lists.
  it('npm run package makes a VSIX holding exactly the listed files', async () => {
    const out = path.join(unpacked, '..', `${path.basename(unpacked)}.vsix`);
    try {
      await run(process.execPath, [path.join(ROOT, 'scripts', 'package-vsix.mjs'), '--out', out], {
        cwd: ROOT,
        maxBuffer: 4 * 1024 * 1024,
      });
      const entries = (await zipEntries(out))
        .filter((e) => e.startsWith('extension/'))
        .map((e) => e.slice('extension/'.length));
      // vsce stores the licence and the readme under names of its own.
      const renamed: Record<string, string> = { LICENSE: 'LICENSE.txt', 'README.md': 'readme.md' };
      assert.deepEqual(entries.sort(), files.map((f) => renamed[f] ?? f).sort());
    } finally {
      fs.rmSync(out, { force: true });
    }
  });

  it('a mistaken program is checked and named from the unpacked copy, with its engine worker', async () => {
    const learner = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python', 'tiebreak-name.py');
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-vsix-cache-'));
    try {
      const result = await run(process.execPath, [path.join(unpacked, 'dist', 'cli.js'), 'check', learner, '--json'], {
        cwd: os.tmpdir(),
        env: { ...process.env, LESSON_COMPANION_CACHE_DIR: cacheDir },
        maxBuffer: 16 * 1024 * 1024,
      }).catch((error: { stdout?: string; stderr?: string; code?: number }) => ({
        stdout: error.stdout ?? '',
        stderr: error.stderr ?? '',
        code: error.code,
      }));
      const report = JSON.parse(result.stdout) as CheckReport;
      assert.equal(report.lesson, 'least-connections');
      assert.equal(report.status, 'fail');
      assert.deepEqual(
        report.mistakes.map((m) => m.id),
        ['tiebreak'],
        result.stderr,
      );
    } finally {
      fs.rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('a simulation runs from the unpacked copy', async () => {
    const learner = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python', 'correct.py');
    const { stdout } = await run(
      process.execPath,
      [path.join(unpacked, 'dist', 'cli.js'), 'simulate', learner, '--json'],
      { cwd: os.tmpdir(), maxBuffer: 16 * 1024 * 1024 },
    );
    const result = JSON.parse(stdout) as { lesson: string; scenario: { id: string }; sentence: string };
    assert.equal(result.lesson, 'least-connections');
    assert.equal(result.scenario.id, 'slow-server');
    assert.match(result.sentence, /round robin's reached 40/);
  });
});
