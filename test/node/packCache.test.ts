/**
 * Packs kept from their last load (src/node/packs/packCache.ts), on a real copy of a built-in pack: the kept load
 * is used while nothing changed, and never once a file the load depends on changed, went missing, or turned
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

  const keptEntry = (): string => {
    const folder = path.join(tmp, 'cache', 'packs');
    const [name] = fs.readdirSync(folder);
    return path.join(folder, name!);
  };
  /** Marks the kept entry, so a load that used it shows the mark. */
  const markKept = (): void => {
    const entry = JSON.parse(fs.readFileSync(keptEntry(), 'utf8')) as { manifest: { title: string } };
    entry.manifest.title = 'KEPT';
    fs.writeFileSync(keptEntry(), JSON.stringify(entry));
  };

  it('gives the same pack from the kept load while nothing changed', async () => {
    const first = await loadPack(pack, 'folder');
    const again = await loadPack(pack, 'folder');
    assert.deepEqual(JSON.parse(JSON.stringify(again)), JSON.parse(JSON.stringify(first)));
    markKept();
    assert.equal((await loadPack(pack, 'folder')).manifest.title, 'KEPT', 'the kept load is used');
    // Another origin is another load: an installed pack is not a folder's.
    assert.notEqual((await loadPack(pack, 'built-in')).manifest.title, 'KEPT');
  });

  it('loads again when a transcript changed, even with its old size and times put back', async () => {
    const file = path.join(pack, 'transcripts', 'done.txt');
    // A whole second, so that it can be put back exactly.
    fs.utimesSync(file, 1_700_000_000, 1_700_000_000);
    await loadPack(pack, 'folder');
    markKept();
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
    await assert.rejects(loadPack(pack, 'folder'), (error: PackError) => error.problems.some((p) => p.message.includes('does not exist')));
    const outside = path.join(tmp, 'elsewhere.py');
    fs.writeFileSync(outside, 'print("hi")\n');
    fs.symlinkSync(outside, starter);
    await assert.rejects(loadPack(pack, 'folder'), (error: PackError) => error.problems.some((p) => p.message.includes('is a symbolic link')));
  });

  it('keeps nothing of a pack that did not load', async () => {
    const manifest = path.join(pack, 'lesson.json');
    fs.writeFileSync(manifest, fs.readFileSync(manifest, 'utf8').replace('"transcripts/long.txt"', '"transcripts/missing.txt"'));
    await assert.rejects(loadPack(pack, 'folder'), PackError);
    assert.equal(fs.existsSync(path.join(tmp, 'cache', 'packs')) && fs.readdirSync(path.join(tmp, 'cache', 'packs')).length > 0, false);
    await assert.rejects(loadPack(pack, 'folder'), PackError);
  });

  it('ignores a kept entry that is not one', async () => {
    await loadPack(pack, 'folder');
    fs.writeFileSync(keptEntry(), '{"format":1,"stamps":"no"}');
    const loaded = await loadPack(pack, 'folder');
    assert.equal(loaded.manifest.id, 'least-connections');
  });
});
