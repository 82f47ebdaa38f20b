import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cacheDir, pruneCacheFolder } from '../../src/node/cache/cacheDir';
import { resolveRemembered } from '../../src/node/languages/interpreter';

/** Runs `fn` with LESSON_COMPANION_CACHE_DIR (and other variables) set, restoring them after. */
async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T> | T): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('the cache folder', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-cache-test-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('is made private to the user', async () => {
    const base = path.join(root, 'private');
    const dir = await withEnv({ LESSON_COMPANION_CACHE_DIR: base }, () => cacheDir('batches'));
    assert.equal(dir, path.join(base, 'batches'));
    assert.equal(fs.statSync(dir!).mode & 0o077, 0);
  });

  it('is refused when others can write to it (someone could have planted what it holds)', async () => {
    const base = path.join(root, 'shared');
    fs.mkdirSync(path.join(base, 'batches'), { recursive: true });
    fs.chmodSync(base, 0o777);
    fs.chmodSync(path.join(base, 'batches'), 0o777);
    assert.equal(await withEnv({ LESSON_COMPANION_CACHE_DIR: base }, () => cacheDir('batches')), undefined);
  });

  it('is refused when it is a symbolic link', async () => {
    const base = path.join(root, 'linked');
    fs.mkdirSync(base, { mode: 0o700 });
    fs.mkdirSync(path.join(root, 'elsewhere'), { mode: 0o700 });
    fs.symlinkSync(path.join(root, 'elsewhere'), path.join(base, 'models'));
    assert.equal(await withEnv({ LESSON_COMPANION_CACHE_DIR: base }, () => cacheDir('models')), undefined);
  });
});

describe('interpreter resolution kept across processes', function () {
  this.timeout(20_000);
  let root: string;
  let shim: string;
  let calls: string;
  const realPython = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-interp-test-'));
    calls = path.join(root, 'calls');
    shim = path.join(root, 'shims', 'python3');
    fs.mkdirSync(path.dirname(shim));
    // A version manager laid out as pyenv is: <root>/shims/python3, a script that starts the version it
    // selects, <root>/versions/<v>/bin/python3 (here a link to the real interpreter); it counts its starts.
    const version = path.join(root, 'versions', 'test', 'bin', 'python3');
    fs.mkdirSync(path.dirname(version), { recursive: true });
    fs.symlinkSync(realPython, version);
    fs.writeFileSync(shim, `#!/bin/sh\necho x >> ${JSON.stringify(calls)}\nexec ${JSON.stringify(version)} "$@"\n`, {
      mode: 0o755,
    });
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const resolve = (): Promise<unknown> =>
    withEnv(
      {
        LESSON_COMPANION_CACHE_DIR: path.join(root, 'cache'),
        PATH: `${path.dirname(shim)}${path.delimiter}${process.env.PATH}`,
      },
      () => resolveRemembered('python3', 'python'),
    );
  const starts = (): number =>
    fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').split('\n').filter(Boolean).length : 0;

  it('asks the shim once, then remembers what it said', async () => {
    const first = await resolve();
    assert.equal(starts(), 1);
    assert.ok((first as { ok: boolean }).ok, JSON.stringify(first));
    assert.deepEqual(await resolve(), first);
    assert.equal(starts(), 1, 'the second resolution started the shim again');
  });

  it('asks again when the shim changes (another version selected or installed)', async () => {
    await resolve();
    fs.appendFileSync(shim, '# changed\n');
    await resolve();
    assert.equal(starts(), 2);
  });

  it('asks again when the remembered interpreter is gone', async () => {
    await resolve();
    const cacheFolder = path.join(root, 'cache', 'interpreters');
    const [file] = fs.readdirSync(cacheFolder);
    const kept = JSON.parse(fs.readFileSync(path.join(cacheFolder, file!), 'utf8')) as {
      executable: string;
      needs: string[];
    };
    fs.writeFileSync(
      path.join(cacheFolder, file!),
      JSON.stringify({ ...kept, executable: path.join(root, 'uninstalled', 'python3') }),
    );
    const again = (await resolve()) as { ok: boolean; interpreter: { executable: string } };
    assert.equal(starts(), 2);
    assert.notEqual(again.interpreter.executable, path.join(root, 'uninstalled', 'python3'));
  });

  it('asks again when the record names an interpreter the command could not resolve to (a fake one elsewhere)', async () => {
    await resolve();
    const cacheFolder = path.join(root, 'cache', 'interpreters');
    const [file] = fs.readdirSync(cacheFolder);
    // Outside the version manager's folder (root): where a program checked with --sandbox=off could write.
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-interp-fake-'));
    const fake = path.join(elsewhere, 'python3');
    fs.writeFileSync(fake, '#!/bin/sh\necho right answers\n', { mode: 0o755 });
    fs.writeFileSync(path.join(cacheFolder, file!), JSON.stringify({ executable: fake, needs: [path.dirname(fake)] }));
    const again = (await resolve()) as { ok: boolean; interpreter: { executable: string } };
    assert.equal(starts(), 2, 'the shim was asked again');
    assert.notEqual(again.interpreter.executable, fake);
    fs.rmSync(elsewhere, { recursive: true, force: true });
  });

  it('keeps the most recently written files when a folder is pruned', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-prune-'));
    try {
      for (let i = 0; i < 5; i++) {
        const file = path.join(folder, `entry-${i}.json`);
        fs.writeFileSync(file, '{}');
        fs.utimesSync(file, 1_700_000_000 + i, 1_700_000_000 + i);
      }
      pruneCacheFolder(folder, 3);
      assert.deepEqual(fs.readdirSync(folder).sort(), ['entry-2.json', 'entry-3.json', 'entry-4.json']);
      pruneCacheFolder(folder, 3);
      assert.equal(fs.readdirSync(folder).length, 3);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
