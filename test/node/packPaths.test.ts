/**
 * Paths a pack names (src/node/packs/packs.ts `resolveInside`), on a real folder: a path stays inside the pack
 * after following links, and a path with a `..` step is refused even when it would land inside. Pack paths are
 * written by hand and never need `..` (the built-in lessons use none, checked below), so a `..` is a mistake or
 * an attempt, and refusing it by its text keeps the rule independent of what the folder holds at the time.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseManifest } from '../../src/core/pack/manifest';
import { readPackFile, resolveInside } from '../../src/node/packs/packs';

const LESSONS = path.resolve(__dirname, '..', '..', 'lessons');

/** Every string in a parsed manifest that has a `..` step, the way resolveInside splits a path. */
function stringsWithDotDot(value: unknown): string[] {
  if (typeof value === 'string') return value.split(/[\\/]/).includes('..') ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(stringsWithDotDot);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsWithDotDot);
  return [];
}

describe('paths a pack names', () => {
  let tmp: string;
  let pack: string;

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-packpaths-'));
    pack = path.join(tmp, 'pack');
    fs.mkdirSync(path.join(pack, 'transcripts'), { recursive: true });
    fs.mkdirSync(path.join(pack, 'model'));
    fs.writeFileSync(path.join(pack, 'transcripts', 'basic.txt'), '> PICK\nEMPTY\n');
    fs.writeFileSync(path.join(tmp, 'outside.txt'), 'not the pack\n');
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('resolves a plain relative path to its real path inside the pack', async () => {
    assert.equal(
      await resolveInside(pack, 'transcripts/basic.txt'),
      path.join(fs.realpathSync(pack), 'transcripts', 'basic.txt'),
    );
    assert.equal(await readPackFile(pack, 'transcripts/basic.txt'), '> PICK\nEMPTY\n');
  });

  it('refuses a `..` step even when the path would land inside the pack (a/../b)', async () => {
    assert.equal(await resolveInside(pack, 'model/../transcripts/basic.txt'), undefined);
    assert.equal(await resolveInside(pack, 'model\\..\\transcripts\\basic.txt'), undefined);
    await assert.rejects(readPackFile(pack, 'model/../transcripts/basic.txt'), /points outside the pack folder/);
  });

  it('refuses paths that leave the pack: `..`, absolute, and a link out', async () => {
    assert.equal(await resolveInside(pack, '../outside.txt'), undefined);
    assert.equal(await resolveInside(pack, path.join(tmp, 'outside.txt')), undefined);
    fs.symlinkSync(path.join(tmp, 'outside.txt'), path.join(pack, 'transcripts', 'link.txt'));
    assert.equal(await resolveInside(pack, 'transcripts/link.txt'), undefined);
  });

  it('the built-in lessons name no path with a `..` step', () => {
    for (const lesson of fs.readdirSync(LESSONS)) {
      const file = path.join(LESSONS, lesson, 'lesson.json');
      if (!fs.existsSync(file)) continue; // a course folder (course.json only)
      const parsed = parseManifest(fs.readFileSync(file, 'utf8'), file);
      assert.ok(parsed.ok, `${lesson}/lesson.json parses`);
      const { $schema: _schema, ...manifest } = parsed.manifest as unknown as Record<string, unknown>;
      assert.deepEqual(stringsWithDotDot(manifest), [], lesson);
    }
  });
});
