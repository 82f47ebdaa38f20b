/**
 * The CLI's code cache (src/cli/codeCache.ts): written by the build beside dist/cli-main.js and taken by the
 * launcher, and never used for any code but the very bundle it was made from. Real files, real V8, real CLIs.
 * Also what keeps a start short around it: the warm-up's code in the cache, pure-ASCII bundles
 * (scripts/ascii-only.mjs), and no crypto or child_process module loaded by a command that needs neither.
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { codeCacheFile, loadBundle, writeCodeCache } from '../../src/cli/codeCache';

const ROOT = path.join(__dirname, '..', '..');

describe("the CLI's code cache", () => {
  let tmp: string;
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'code-cache-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('the build wrote one for each bundle the launcher starts (cli-main.js, cli-lessons.js), and it takes them', () => {
    for (const name of ['cli-main.js', 'cli-lessons.js']) {
      const bundle = path.join(ROOT, 'dist', name);
      assert.ok(fs.existsSync(codeCacheFile(bundle)), `${name}: run \`npm run build\` first`);
      const loaded = loadBundle(bundle);
      assert.equal(loaded.fromCache, true, name);
      assert.equal(typeof (loaded.exports as { runCli?: unknown }).runCli, 'function', name);
    }
  });

  it('`lessons` starts from dist/cli-lessons.js, and lists what dist/cli-main.js lists', () => {
    const hook = path.join(tmp, 'bundles.js');
    // Which bundle the launcher read: the code cache module reads the bundle with readFileSync.
    fs.writeFileSync(
      hook,
      "const fs = require('fs'); const read = fs.readFileSync; fs.readFileSync = function (file, ...rest) { if (/cli-(main|lessons)\\.js$/.test(String(file))) process.stderr.write('BUNDLE ' + require('path').basename(String(file)) + '\\n'); return read.call(this, file, ...rest); };",
    );
    const listed = (args: string[]): { stdout: string; stderr: string } => {
      const run = spawnSync(process.execPath, ['-r', hook, path.join(ROOT, 'dist', 'cli.js'), ...args], {
        encoding: 'utf8',
      });
      assert.equal(run.status, 0, run.stderr);
      return run;
    };
    const alone = listed(['lessons', '--json']);
    // `--debug` first: the launcher sees another first word and starts the whole command line.
    const whole = listed(['--debug', 'lessons', '--json']);
    assert.deepEqual(alone.stderr.match(/BUNDLE \S+/g), ['BUNDLE cli-lessons.js']);
    assert.deepEqual(whole.stderr.match(/BUNDLE \S+/g), ['BUNDLE cli-main.js']);
    assert.equal(alone.stdout, whole.stdout);
    assert.ok((JSON.parse(alone.stdout) as { lessons: unknown[] }).lessons.length >= 3);
  });

  it('a bundle changed since (the same length) runs from its source, not from the code made for the old one', async () => {
    const bundle = path.join(tmp, 'bundle.js');
    fs.writeFileSync(bundle, 'module.exports = { made: "old", dir: __dirname };\n');
    await writeCodeCache(bundle);
    assert.deepEqual([loadBundle(bundle).fromCache, loadBundle(bundle).exports], [true, { made: 'old', dir: tmp }]);
    fs.writeFileSync(bundle, 'module.exports = { made: "new", dir: __dirname };\n');
    const loaded = loadBundle(bundle);
    assert.equal(loaded.fromCache, false);
    assert.deepEqual(loaded.exports, { made: 'new', dir: tmp });
  });

  it('no cache, or one that is not a cache: compiled from source', () => {
    const bundle = path.join(tmp, 'bundle.js');
    fs.writeFileSync(bundle, 'module.exports = require("node:path").basename(__filename);\n');
    assert.deepEqual([loadBundle(bundle).fromCache, loadBundle(bundle).exports], [false, 'bundle.js']);
    fs.writeFileSync(codeCacheFile(bundle), 'not a cache at all');
    assert.deepEqual([loadBundle(bundle).fromCache, loadBundle(bundle).exports], [false, 'bundle.js']);
  });

  it("the build's warm-up runs before V8's code is taken: what it ran is in the cache", async () => {
    // The same length both ways: only whether the warm-up calls the big function differs.
    const big = `function big() { let s = 0; ${Array.from({ length: 400 }, (_, i) => `s += ${i} * Math.sqrt(s + ${i});`).join(' ')} return s; }`;
    const sizes: number[] = [];
    for (const call of ['big();', '0    ;']) {
      const bundle = path.join(tmp, `bundle-${sizes.length}.js`);
      fs.writeFileSync(bundle, `${big}\nexports.warmForCodeCache = async () => { ${call} };\n`);
      await writeCodeCache(bundle);
      sizes.push(fs.statSync(codeCacheFile(bundle)).size);
      assert.equal(loadBundle(bundle).fromCache, true);
    }
    assert.ok(sizes[0]! > sizes[1]! + 2000, `with the warm-up's call ${sizes[0]} bytes, without ${sizes[1]}`);
  });

  it("the CLI's bundles are pure ASCII, and `lessons` loads neither crypto nor child_process", () => {
    for (const name of ['cli-main.js', 'cli-lessons.js', 'cli.js', 'engine.js', 'service.js', 'extension.js']) {
      const bytes = fs.readFileSync(path.join(ROOT, 'dist', name));
      const at = bytes.findIndex((b) => b > 0x7f);
      assert.equal(at, -1, `dist/${name} has a non-ASCII byte at ${at}: V8 holds it as a two-byte string`);
    }
    const hook = path.join(tmp, 'modules.js');
    fs.writeFileSync(
      hook,
      "process.on('exit', () => require('fs').writeFileSync(process.env.MODULES_OUT, process.moduleLoadList.join('\\n')));",
    );
    const out = path.join(tmp, 'modules.txt');
    execFileSync(process.execPath, ['-r', hook, path.join(ROOT, 'dist', 'cli.js'), 'lessons'], {
      env: { ...process.env, MODULES_OUT: out },
      stdio: 'ignore',
    });
    const loaded = fs.readFileSync(out, 'utf8').split('\n');
    assert.ok(loaded.includes('NativeModule fs'), 'the hook saw the modules');
    for (const heavy of ['NativeModule crypto', 'NativeModule child_process'])
      assert.ok(!loaded.includes(heavy), `${heavy} was loaded by \`lessons\``);
  });

  it('asciiOnly writes non-ASCII characters as escapes that mean the same, and refuses one a backslash escapes', () => {
    // String.raw: the escapes below are the child's to read, so its source holds the real characters.
    const script = String.raw`
      import { asciiOnly } from ${JSON.stringify(path.join(ROOT, 'scripts', 'ascii-only.mjs'))};
      const source = 'const typographic = /([?!])\u2026/g; /* \u201cquoted\u201d */ const astral = /^[\u{1F600}]$/u;\n' +
        'module.exports = [typographic.test("?\u2026"), astral.test("\u{1F600}"), typographic.test("?.")];';
      const ascii = asciiOnly(source);
      const run = (text) => { const module = { exports: null }; new Function('module', text)(module); return module.exports; };
      let refused = false;
      try { asciiOnly('const escaped = /\\\u2026/;'); } catch { refused = true; }
      console.log(JSON.stringify({ ascii: /^[\x00-\x7f]*$/.test(ascii), source: /[^\x00-\x7f]/.test(source), same: JSON.stringify(run(ascii)) === JSON.stringify(run(source)), before: run(source), refused }));
    `;
    const result = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
    ) as { ascii: boolean; source: boolean; same: boolean; before: unknown[]; refused: boolean };
    assert.deepEqual(
      [result.source, ...result.before.slice(0, 2)],
      [true, true, true],
      'the source has them and matches',
    );
    assert.deepEqual([result.ascii, result.same, result.refused], [true, true, true]);
  });
});
