/**
 * The CLI's code cache (src/cli/codeCache.ts): written by the build beside dist/cli-main.js and taken by the
 * launcher, and never used for any code but the very bundle it was made from. Real files, real V8.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { codeCacheFile, loadBundle, writeCodeCache } from '../../src/cli/codeCache';

const ROOT = path.join(__dirname, '..', '..');

describe("the CLI's code cache", () => {
  let tmp: string;
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'code-cache-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('the build wrote one for dist/cli-main.js, and the launcher takes it', () => {
    const bundle = path.join(ROOT, 'dist', 'cli-main.js');
    assert.ok(fs.existsSync(codeCacheFile(bundle)), 'run `npm run build` first');
    const loaded = loadBundle(bundle);
    assert.equal(loaded.fromCache, true);
    assert.equal(typeof (loaded.exports as { runCli?: unknown }).runCli, 'function');
  });

  it('a bundle changed since (the same length) runs from its source, not from the code made for the old one', () => {
    const bundle = path.join(tmp, 'bundle.js');
    fs.writeFileSync(bundle, 'module.exports = { made: "old", dir: __dirname };\n');
    writeCodeCache(bundle);
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
});
