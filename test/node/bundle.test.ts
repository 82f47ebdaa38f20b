import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import yauzl from 'yauzl';
import { main } from '../../src/cli/main';
import type { CliIO } from '../../src/cli/command';
import { ARCHIVE_MANIFEST, integrityInput, type ArchiveFile } from '../../src/core/pack/archive';
import { BundleError, bundlePack } from '../../src/node/authoring/bundlePack';
import { checkFile } from '../../src/node/check/checker';
import { InstallError, installPack, type InstallOptions } from '../../src/node/packs/installPack';
import { discoverPacks, loadPack } from '../../src/node/packs/packs';
import { createPack } from '../../src/node/authoring/scaffold';
import { craftZip, type CraftedEntry } from './zipCraft';

const root = path.resolve(__dirname, '..', '..');
const SOLUTION = path.join(root, 'test/fixtures/packs/solutions/balancer.py');
const quick = { validation: { runStarters: false } };
const sha = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

let tmp: string;
let packsRoot: string;
beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-bundle-'));
  packsRoot = path.join(tmp, 'packs');
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

async function readZip(file: string): Promise<Map<string, Buffer>> {
  const zip = await yauzl.openPromise(file, { autoClose: false });
  const entries = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of (await zip.openReadStreamPromise(entry)) as AsyncIterable<Buffer>) chunks.push(chunk);
    entries.set(entry.fileName, Buffer.concat(chunks));
  }
  zip.close();
  return entries;
}

/** A scaffold pack at `version`, bundled. */
async function bundled(version = '0.1.0', name = `demo-${version}`): Promise<string> {
  const parent = path.join(tmp, name);
  const { dir } = await createPack(parent, 'demo');
  const file = path.join(dir, 'lesson.json');
  await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('"version": "0.1.0"', `"version": "${version}"`));
  return (await bundlePack(dir, path.join(tmp, `${name}.lessonpack`), quick)).file;
}

/** An archive with a correct manifest for `files`: hashes and integrity match, whatever the files hold. */
function archiveOf(files: Map<string, Buffer>, id = 'demo', version = '0.1.0'): Buffer {
  const listed: ArchiveFile[] = [...files].map(([p, data]) => ({ path: p, sha256: sha(data), size: data.length }));
  const manifest = { format: 1, id, version, files: listed, integrity: sha(integrityInput(listed)) };
  return craftZip([
    { name: ARCHIVE_MANIFEST, data: Buffer.from(JSON.stringify(manifest)) },
    ...[...files].map(([name, data]) => ({ name, data, method: 8 as const })),
  ]);
}

async function installedEntries(): Promise<string[]> {
  return fs.readdir(packsRoot).catch(() => []);
}

async function expectRefused(
  archive: Buffer | string,
  reason: InstallError['reason'],
  message: RegExp,
  options: Partial<InstallOptions> = {},
): Promise<void> {
  const file = typeof archive === 'string' ? archive : path.join(tmp, 'hostile.lessonpack');
  if (typeof archive !== 'string') await fs.writeFile(file, archive);
  const before = await installedEntries();
  await assert.rejects(installPack(file, { packsRoot, ...options }), (error: unknown) => {
    assert.ok(error instanceof InstallError, String(error));
    assert.equal(error.reason, reason, error.message);
    assert.match(error.message, message);
    return true;
  });
  assert.deepEqual(await installedEntries(), before, 'nothing is left behind in the packs folder');
}

function fakeIo(cwd: string, env: NodeJS.ProcessEnv = {}): CliIO & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
    isTTY: false,
    env: { NO_COLOR: '1', ...env },
    cwd,
    bundleDir: path.join(root, 'dist'),
  };
  return io;
}

describe('bundle', function () {
  this.timeout(60_000);

  it('is deterministic: sorted entries, manifest first, no dotfiles or authoring files, same bytes every time', async () => {
    const { dir } = await createPack(tmp, 'demo');
    await fs.writeFile(path.join(dir, '.DS_Store'), 'x');
    await fs.mkdir(path.join(dir, '.git'));
    await fs.writeFile(path.join(dir, '.git/config'), 'x');
    await fs.writeFile(path.join(dir, 'starter/python/balancer.py~'), 'x');
    const first = await bundlePack(dir, path.join(tmp, 'a.lessonpack'), quick);
    await fs.utimes(path.join(dir, 'lesson.json'), new Date(), new Date(2001, 1, 1));
    const second = await bundlePack(dir, path.join(tmp, 'b.lessonpack'), quick);
    assert.ok((await fs.readFile(first.file)).equals(await fs.readFile(second.file)), 'identical bytes');
    const entries = [...(await readZip(first.file)).keys()];
    assert.deepEqual(entries, [
      ARCHIVE_MANIFEST,
      'lesson.json',
      'model/model.js',
      'starter/javascript/balancer.js',
      'starter/python/balancer.py',
      'starter/typescript/balancer.ts',
      'transcripts/hidden.txt',
    ]);
    assert.equal(first.manifest.files.length, 6);
  });

  it('takes only what lesson.json names: package.json, lock files, tsconfig.json and node_modules stay out, each said', async () => {
    const { dir } = await createPack(tmp, 'demo');
    for (const [file, text] of [
      ['package.json', '{"devDependencies": {"lesson-companion": "file:/home/me/lesson-companion"}}'],
      ['package-lock.json', '{"packages": {"node_modules/lesson-companion": {"resolved": "/home/me"}}}'],
      ['tsconfig.json', '{}'],
      ['node_modules/lesson-companion/index.js', 'x'],
      ['notes/plan.md', 'x'],
      ['model/helpers.js', 'module.exports = {};'],
      ['starter/javascript/package-lock.json', '{}'],
    ]) {
      await fs.mkdir(path.dirname(path.join(dir, file!)), { recursive: true });
      await fs.writeFile(path.join(dir, file!), text!);
    }
    const result = await bundlePack(dir, path.join(tmp, 'a.lessonpack'), quick);
    assert.deepEqual(
      [...(await readZip(result.file)).keys()],
      [
        ARCHIVE_MANIFEST,
        'lesson.json',
        'model/helpers.js',
        'model/model.js',
        'starter/javascript/balancer.js',
        'starter/python/balancer.py',
        'starter/typescript/balancer.ts',
        'transcripts/hidden.txt',
      ],
    );
    assert.deepEqual(
      result.leftOut.map((l) => l.path),
      [
        'node_modules/',
        'notes/',
        'package-lock.json',
        'package.json',
        'starter/javascript/package-lock.json',
        'tsconfig.json',
      ],
    );
    const io = fakeIo(tmp);
    assert.equal(await main(['bundle', dir, '-o', path.join(tmp, 'b.lessonpack')], io), 0, io.stderr);
    assert.match(io.stdout, /Left out: node_modules\/ \(installed packages are never bundled\)/);
    assert.match(io.stdout, /Left out: notes\/, package\.json, tsconfig\.json \(not named by lesson\.json\)/);
    assert.match(io.stdout, /Left out: package-lock\.json, starter\/javascript\/package-lock\.json \(a lock file/);
  });

  it('refuses an invalid pack, with the validation problems, and writes nothing', async () => {
    const { dir } = await createPack(tmp, 'demo');
    await fs.writeFile(path.join(dir, 'transcripts/hidden.txt'), '=== t: x\n> POOL a\nOK\n> PICK\nb\n');
    const out = path.join(tmp, 'x.lessonpack');
    await assert.rejects(bundlePack(dir, out, quick), (error: unknown) => {
      assert.ok(error instanceof BundleError && error.validation);
      assert.ok(error.validation.problems.some((p) => p.file === 'transcripts/hidden.txt' && p.line === 4));
      return true;
    });
    assert.equal(await fs.stat(out).catch(() => undefined), undefined);
  });

  it('refuses a symbolic link inside the pack', async () => {
    const { dir } = await createPack(tmp, 'demo');
    await fs.symlink('/etc/hostname', path.join(dir, 'starter/python/data.txt'));
    const out = path.join(tmp, 'x.lessonpack');
    // Refused as the pack loads (so validate says it too), with the link named.
    await assert.rejects(bundlePack(dir, out, quick), (error: unknown) => {
      assert.ok(error instanceof BundleError && error.validation, String(error));
      const said = error.validation.problems.map((p) => `${p.file ?? ''} ${p.message}`).join('\n');
      assert.match(said, /starter\/python\/data\.txt.*symbolic link|symbolic link.*starter\/python\/data\.txt/);
      return true;
    });
    assert.equal(await fs.stat(out).catch(() => undefined), undefined);
  });
});

describe('install', function () {
  this.timeout(60_000);

  it('round trip: bundle → install → a correct program passes against the installed pack', async () => {
    const file = (
      await bundlePack(path.join(root, 'lessons/least-connections'), path.join(tmp, 'lc.lessonpack'), quick)
    ).file;
    const result = await installPack(file, { packsRoot });
    assert.deepEqual(
      [result.id, result.dir],
      ['least-connections', path.join(await fs.realpath(packsRoot), 'least-connections')],
    );
    const installed = await loadPack(result.dir, 'installed');
    const learner = path.join(tmp, 'work/balancer.py');
    await fs.mkdir(path.dirname(learner));
    await fs.copyFile(SOLUTION, learner);
    const report = await checkFile(installed, learner, 'python', { fuzzTranscripts: 10 });
    assert.equal(report.status, 'pass', JSON.stringify(report.problems));
    assert.equal(report.checks.total, installed.transcripts.length);
    const listing = await discoverPacks([{ dir: packsRoot, origin: 'installed' }]);
    assert.deepEqual(
      listing.packs.map((p) => p.manifest.id),
      ['least-connections'],
    );
    const io = fakeIo(tmp, { LESSON_COMPANION_PACKS: packsRoot });
    assert.equal(await main(['lessons', '--json'], io), 0);
    assert.ok(
      (JSON.parse(io.stdout) as { lessons: { id: string; origin: string }[] }).lessons.some(
        (l) => l.id === 'least-connections' && l.origin === 'installed',
      ),
    );
  });

  it('refuses zip-slip, absolute paths, backslashes, symlinks and duplicates, and writes nothing', async () => {
    const lesson = { name: 'lesson.json', data: Buffer.from('{}') };
    const outside = path.join(os.tmpdir(), `lc-evil-${process.pid}`);
    await expectRefused(
      craftZip([lesson, { name: '../evil', data: Buffer.from('x') }]),
      'unsafe',
      /outside the pack folder: "\.\.\/evil" climbs out of the pack folder/,
    );
    await expectRefused(
      craftZip([{ name: `${outside}/evil`, data: Buffer.from('x') }]),
      'unsafe',
      /is an absolute path/,
    );
    assert.equal(await fs.stat(outside).catch(() => undefined), undefined, 'nothing was written outside');
    await expectRefused(craftZip([{ name: 'a\\..\\..\\evil', data: Buffer.from('x') }]), 'unsafe', /backslash/);
    await expectRefused(
      craftZip([lesson, { name: 'starter/link.py', data: Buffer.from('/etc/passwd'), unixMode: 0o120777 }]),
      'unsafe',
      /"starter\/link.py" is a symbolic link/,
    );
    await expectRefused(craftZip([lesson, lesson]), 'unsafe', /"lesson.json" appears twice/);
    await expectRefused(
      craftZip([lesson, { name: 'LESSON.JSON', data: Buffer.from('{}') }]),
      'unsafe',
      /appears twice/,
    );
  });

  it('refuses oversized entries, zip bombs and too many entries before reading them', async () => {
    await expectRefused(
      craftZip([{ name: 'big.txt', data: Buffer.from('x'), method: 8, declaredSize: 0xffffff00 }]),
      'too-large',
      /"big.txt" would unpack to 4096.0 MiB; one pack file may be at most 5.0 MiB/,
    );
    await expectRefused(
      craftZip([{ name: 'zeros.txt', data: Buffer.alloc(2 * 1024 * 1024), method: 8 }]),
      'too-large',
      /compressed \d+ to 1, which only a zip bomb does/,
    );
    await expectRefused(await bundled(), 'too-large', /it has 7 entries; a lesson pack may have at most 3/, {
      limits: { entries: 3 },
    });
  });

  it('refuses a truncated file, a file that is not a zip, and a tampered or padded archive', async () => {
    const good = await fs.readFile(await bundled());
    await expectRefused(
      good.subarray(0, Math.floor(good.length / 2)),
      'damaged',
      /not a readable lesson pack .*cut short or damaged/,
    );
    await expectRefused(Buffer.from('just text\n'), 'damaged', /not a readable lesson pack/);
    const files = await readZip(path.join(tmp, 'demo-0.1.0.lessonpack'));
    const tampered = new Map(files);
    tampered.set('lesson.json', Buffer.from(files.get('lesson.json')!.toString().replace('TODO', 'HACKED')));
    const entries = (m: Map<string, Buffer>): CraftedEntry[] => [...m].map(([name, data]) => ({ name, data }));
    await expectRefused(
      craftZip(entries(tampered)),
      'damaged',
      /"lesson.json" does not match its SHA-256 in the manifest/,
    );
    // Re-hashing the edited file in the manifest is not enough: the file list no longer matches the integrity hash.
    const manifest = JSON.parse(files.get(ARCHIVE_MANIFEST)!.toString()) as { files: ArchiveFile[] };
    const edited = tampered.get('lesson.json')!;
    manifest.files = manifest.files.map((f) =>
      f.path === 'lesson.json' ? { ...f, sha256: sha(edited), size: edited.length } : f,
    );
    const rehashed = new Map(tampered).set(
      ARCHIVE_MANIFEST,
      Buffer.from(JSON.stringify({ ...JSON.parse(files.get(ARCHIVE_MANIFEST)!.toString()), files: manifest.files })),
    );
    await expectRefused(craftZip(entries(rehashed)), 'damaged', /does not match its integrity hash/);
    const padded = new Map(files).set('starter/python/extra.py', Buffer.from('import os\n'));
    await expectRefused(
      craftZip(entries(padded)),
      'damaged',
      /"starter\/python\/extra.py" is in the archive but not in its manifest/,
    );
    const relisted = new Map(files);
    relisted.delete(ARCHIVE_MANIFEST);
    await expectRefused(craftZip(entries(relisted)), 'damaged', /it has no manifest.lessonpack.json/);
  });

  it('refuses a well-formed archive whose pack does not load, keeping the installed version', async () => {
    await installPack(await bundled('0.1.0'), { packsRoot });
    const files = await readZip(path.join(tmp, 'demo-0.1.0.lessonpack'));
    files.delete(ARCHIVE_MANIFEST);
    files.set(
      'lesson.json',
      Buffer.from(
        files
          .get('lesson.json')!
          .toString()
          .replace('"0.1.0"', '"0.2.0"')
          .replace('"model/model.js"', '"model/no-such-model.js"'),
      ),
    );
    let asked = false;
    await expectRefused(
      archiveOf(files, 'demo', '0.2.0'),
      'invalid',
      /the lesson pack inside is not valid[^]*no-such-model.js does not exist/,
      { confirmReplace: async () => (asked = true) },
    );
    assert.equal(asked, false, 'no question about replacing with a pack that does not load');
    assert.equal((await loadPack(path.join(packsRoot, 'demo'))).manifest.version, '0.1.0');
  });

  it('replaces an older version only after confirmation; same or older only when forced', async () => {
    const v1 = await bundled('0.1.0');
    const v2 = await bundled('0.2.0');
    const version = async (): Promise<string> => (await loadPack(path.join(packsRoot, 'demo'))).manifest.version;
    assert.equal((await installPack(v1, { packsRoot })).version, '0.1.0');
    const asked: string[][] = [];
    await expectRefused(v2, 'declined', /kept demo 0.1.0: replacing it with 0.2.0 was not confirmed/, {
      confirmReplace: async (a, b) => (asked.push([a, b]), false),
    });
    assert.deepEqual(asked, [['0.1.0', '0.2.0']]);
    assert.equal(await version(), '0.1.0');
    const replaced = await installPack(v2, { packsRoot, confirmReplace: async () => true });
    assert.deepEqual([replaced.version, replaced.replaced], ['0.2.0', '0.1.0']);
    assert.equal(await version(), '0.2.0');
    await expectRefused(
      v1,
      'not-newer',
      /demo 0.2.0 is already installed and demo-0.1.0.lessonpack holds an older one \(0.1.0\)/,
      { confirmReplace: async () => true },
    );
    await expectRefused(v2, 'not-newer', /holds the same version/);
    assert.equal((await installPack(v1, { packsRoot, force: true })).version, '0.1.0');
    assert.equal(await version(), '0.1.0');
    assert.deepEqual(await installedEntries(), ['demo'], 'no staging folders left');
  });

  it('the install command: exit 0, then 1 with the reason, --yes to replace', async () => {
    const v1 = await bundled('0.1.0');
    const v2 = await bundled('0.2.0');
    const run = async (...args: string[]): Promise<{ code: number; io: ReturnType<typeof fakeIo> }> => {
      const io = fakeIo(tmp);
      return { code: await main(['install', ...args, '--packs-dir', packsRoot], io), io };
    };
    // Every pack carries code (its model): the CLI asks, and without a terminal only --yes says yes.
    const unasked = await run(v1);
    assert.equal(unasked.code, 1);
    assert.match(
      unasked.io.stderr,
      /contains code \(its reference model, model\/model\.js\) that runs on this computer when you check[^]*re-run with --yes/,
    );
    const first = await run(v1, '--yes');
    assert.equal(first.code, 0, first.io.stderr);
    assert.match(first.io.stdout, /Installed demo 0.1.0 in /);
    const again = await run(v1, '--yes');
    assert.equal(again.code, 1);
    assert.match(
      again.io.stderr,
      /already installed .* the same version; nothing was changed\. Install it anyway with --force\./,
    );
    // The upgrade's question keeps the warning that the pack contains code.
    const upgradeUnasked = await run(v2);
    assert.equal(upgradeUnasked.code, 1);
    assert.match(
      upgradeUnasked.io.stderr,
      /replace the installed version 0\.1\.0 with 0\.2\.0\? 0\.2\.0 contains code \(its reference model\) that runs on this computer when you check/,
    );
    const newer = await run(v2, '--yes');
    assert.equal(newer.code, 0, newer.io.stderr);
    assert.match(newer.io.stdout, /Installed demo 0.2.0 \(replacing 0.1.0\)/);
    const hostile = path.join(tmp, 'evil.lessonpack');
    await fs.writeFile(hostile, craftZip([{ name: '../evil', data: Buffer.from('x') }]));
    const refused = await run(hostile);
    assert.equal(refused.code, 1);
    assert.match(
      refused.io.stderr,
      /^lesson-companion install: refused evil.lessonpack: an entry would be written outside the pack folder/,
    );
  });

  it('the bundle command validates for real and names the file <id>-<version>.lessonpack', async () => {
    const { dir } = await createPack(tmp, 'demo');
    const io = fakeIo(tmp);
    assert.equal(await main(['bundle', 'demo'], io), 0, io.stderr);
    assert.match(io.stdout, /^Bundled demo 0.1.0: 6 files, [\d.]+ KiB → demo-0.1.0.lessonpack/);
    assert.ok(await fs.stat(path.join(tmp, 'demo-0.1.0.lessonpack')));
    await fs.writeFile(path.join(dir, 'transcripts/hidden.txt'), '=== t: x\n> POOL a\nOK\n> PICK\nb\n');
    const bad = fakeIo(tmp);
    assert.equal(await main(['bundle', 'demo', '-o', 'bad.lessonpack'], bad), 1);
    assert.match(bad.stderr, /demo\/transcripts\/hidden.txt:4: transcript "t": the reference answers `PICK` with "a"/);
    assert.match(bad.stderr, /is not a valid lesson pack, so it was not bundled/);
  });
});
