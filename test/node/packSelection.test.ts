/**
 * Which pack a check uses for a lesson id (src/cli/packSelection.ts): the one `lessons` lists for that id, found
 * by loading that pack alone. Real pack folders, copies of least-connections under the ids' usual rules: of the
 * folders with the same id, the last in name order is kept; a broken one is passed over for one that loads.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CliIO } from '../../src/cli/command';
import { allPacks, selectPack } from '../../src/cli/packSelection';

const LESSON = path.resolve(__dirname, '..', '..', 'lessons', 'least-connections');

describe('the pack of a lesson id (real pack folders)', () => {
  let tmp: string;
  let io: CliIO;
  const lessons = (): string => path.join(tmp, 'lessons');

  /** A copy of least-connections in the built-in folder under `name`, its lesson.json changed by `edit`. */
  function copy(name: string, edit: (manifest: Record<string, unknown>) => void = () => undefined): void {
    const dir = path.join(lessons(), name);
    fs.cpSync(LESSON, dir, { recursive: true });
    const file = path.join(dir, 'lesson.json');
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    edit(manifest);
    fs.writeFileSync(file, JSON.stringify(manifest, null, 2));
  }

  /** The folder a check uses for least-connections, and the one the listing keeps. */
  async function chosen(): Promise<{ check: string; listing: string | undefined }> {
    const pack = await selectPack(io, 'least-connections');
    const { packs } = await allPacks(io);
    return {
      check: path.basename(pack.dir),
      listing: packs
        .find((p) => p.manifest.id === 'least-connections')
        ?.dir.split(path.sep)
        .pop(),
    };
  }

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-select-'));
    io = {
      out: () => undefined,
      err: () => undefined,
      isTTY: false,
      env: { ...process.env, LESSON_COMPANION_PACKS: path.join(tmp, 'installed') },
      cwd: tmp,
      bundleDir: path.join(tmp, 'dist'),
    };
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('keeps the last folder in name order, as the listing does', async () => {
    copy('least-connections');
    copy('zz-other', (m) => (m.title = 'Another copy'));
    assert.deepEqual(await chosen(), { check: 'zz-other', listing: 'zz-other' });
  });

  it('passes over a broken folder with the id for one that loads, as the listing does', async () => {
    copy('a-first', (m) => (m.title = 'A first copy'));
    copy('least-connections');
    copy('z-broken', (m) => delete m.title);
    assert.deepEqual(await chosen(), { check: 'least-connections', listing: 'least-connections' });
  });
});
