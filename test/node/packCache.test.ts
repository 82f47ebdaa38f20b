/**
 * Packs kept from their last load in this process's memory (src/node/packs/packCache.ts; the check service lives
 * on them), on a real copy of a built-in pack: the kept load is used while nothing changed, and never once a file the load depends on changed, went missing, or turned
 * into a link out of the pack, whatever its size and modification time say.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadPack, PackError } from '../../src/node/packs/packs';

const SOURCE = path.resolve(__dirname, '..', '..', 'lessons', 'least-connections');

describe('packs kept from their last load', () => {
  let tmp: string;
  let pack: string;
  let savedCacheDir: string | undefined;

  beforeEach(() => {
    savedCacheDir = process.env.LESSON_COMPANION_CACHE_DIR;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-packcache-'));
    process.env.LESSON_COMPANION_CACHE_DIR = path.join(tmp, 'cache');
    pack = path.join(tmp, 'least-connections');
    fs.cpSync(SOURCE, pack, { recursive: true });
  });
  afterEach(() => {
    if (savedCacheDir === undefined) delete process.env.LESSON_COMPANION_CACHE_DIR;
    else process.env.LESSON_COMPANION_CACHE_DIR = savedCacheDir;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Marks the kept entry (the loads share its manifest object), so a load that used it shows the mark. */
  const markKept = async (): Promise<void> => {
    ((await loadPack(pack, 'folder')).manifest as { title: string }).title = 'KEPT';
  };

  it('gives the same pack from the kept load while nothing changed', async () => {
    const first = await loadPack(pack, 'folder');
    const again = await loadPack(pack, 'folder');
    assert.deepEqual(JSON.parse(JSON.stringify(again)), JSON.parse(JSON.stringify(first)));
    await markKept();
    assert.equal((await loadPack(pack, 'folder')).manifest.title, 'KEPT', 'the kept load is used');
    // Another origin is another load: an installed pack is not a folder's.
    assert.notEqual((await loadPack(pack, 'built-in')).manifest.title, 'KEPT');
  });

  it('loads again when a transcript changed, even with its old size and times put back', async () => {
    const file = path.join(pack, 'transcripts', 'done.txt');
    // A whole second, so that it can be put back exactly.
    fs.utimesSync(file, 1_700_000_000, 1_700_000_000);
    await loadPack(pack, 'folder');
    await markKept();
    const text = fs.readFileSync(file, 'utf8');
    // Same length, same modification time: only the inode's change time tells.
    fs.writeFileSync(file, text.replace('done-at-zero', 'done-at-nil0'));
    fs.utimesSync(file, 1_700_000_000, 1_700_000_000);
    assert.equal(fs.statSync(file).mtimeMs, 1_700_000_000_000);
    const loaded = await loadPack(pack, 'folder');
    assert.notEqual(loaded.manifest.title, 'KEPT');
    assert.ok(loaded.transcripts.some((t) => t.name === 'done-at-nil0'));
  });

  it('loads again, and refuses, when a starter went missing or became a link out of the pack', async () => {
    await loadPack(pack, 'folder');
    const starter = path.join(pack, 'starter', 'python', 'balancer.py');
    fs.rmSync(starter);
    await assert.rejects(loadPack(pack, 'folder'), (error: PackError) =>
      error.problems.some((p) => p.message.includes('does not exist')),
    );
    const outside = path.join(tmp, 'elsewhere.py');
    fs.writeFileSync(outside, 'print("hi")\n');
    fs.symlinkSync(outside, starter);
    await assert.rejects(loadPack(pack, 'folder'), (error: PackError) =>
      error.problems.some((p) => p.message.includes('is a symbolic link')),
    );
  });

  it('keeps nothing of a pack that did not load', async () => {
    const manifest = path.join(pack, 'lesson.json');
    fs.writeFileSync(
      manifest,
      fs.readFileSync(manifest, 'utf8').replace('"transcripts/long.txt"', '"transcripts/missing.txt"'),
    );
    await assert.rejects(loadPack(pack, 'folder'), PackError);
    assert.equal(
      fs.existsSync(path.join(tmp, 'cache', 'packs')) && fs.readdirSync(path.join(tmp, 'cache', 'packs')).length > 0,
      false,
    );
    await assert.rejects(loadPack(pack, 'folder'), PackError);
  });

  it('writes nothing to the cache folder: a kept pack holds the hidden transcripts', async () => {
    await loadPack(pack, 'folder');
    await loadPack(pack, 'folder');
    assert.equal(
      fs.existsSync(path.join(tmp, 'cache')) ? fs.readdirSync(path.join(tmp, 'cache'), { recursive: true }).length : 0,
      0,
    );
  });
});
