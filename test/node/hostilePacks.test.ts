/**
 * The hostile-pack corpus (test/fixtures/hostile/packs, README there): each pack is refused or handled
 * with words by loading, `validate`, `bundle` and `install`, within the test's time bound (a hang or an
 * out-of-memory would fail it), and nothing is written outside where it should be. How long each refusal
 * took is printed at the end; it is not asserted.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import yauzl from 'yauzl';
import { main } from '../../src/cli/main';
import { ARCHIVE_MANIFEST } from '../../src/core/pack/archive';
import { renderMarkdown } from '../../src/ext/panel/markdown';
import { lessonView } from '../../src/ext/panel/panelState';
import { bundlePack } from '../../src/node/authoring/bundlePack';
import { InstallError, installPack } from '../../src/node/packs/installPack';
import { loadPack, PackError } from '../../src/node/packs/packs';
import {
  archiveOf,
  archiveOfFolder,
  assertWords,
  changes,
  fakeIo,
  makeCase,
  printTimings,
  ROOT,
  snapshot,
  timed,
} from './hostileKit';
import { craftZip } from './zipCraft';

const quick = { validation: { runStarters: false } };

describe('hostile packs (test/fixtures/hostile/packs)', function () {
  this.timeout(60_000);
  let tmp: string;
  let packsRoot: string;
  let savedTmpdir: string | undefined;

  beforeEach(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-hostile-'));
    packsRoot = path.join(tmp, 'packs');
    // A private temporary folder, so "nothing left behind" covers validate's and TypeScript's temp folders too.
    savedTmpdir = process.env.TMPDIR;
    process.env.TMPDIR = path.join(tmp, 'tmpdir');
    await fs.mkdir(process.env.TMPDIR);
  });
  afterEach(async () => {
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
    await fs.rm(tmp, { recursive: true, force: true });
  });
  after(() => printTimings('time to refuse or handle each hostile pack'));

  /** The pack is refused by load, by `validate` (exit 1, words) and by install (words), and nothing else changes. */
  async function refusedEverywhere(name: string, expected: RegExp, dir: string): Promise<void> {
    const archive = path.join(tmp, `${name}.lessonpack`);
    await fs.writeFile(archive, await archiveOfFolder(dir));
    const before = await snapshot(tmp);
    // Loaded as validate and install load it: listing a pack skips the pattern analysis (its patterns are
    // matched under a time bound in the editor), so a slow pattern is refused where a pack is accepted.
    await timed(name, 'load', () => assert.rejects(loadPack(dir, 'folder', { checkPatterns: true }), PackError));
    const io = fakeIo(tmp);
    const code = await timed(name, 'validate (CLI)', () => main(['validate', dir], io));
    assert.equal(code, 1, io.stdout + io.stderr);
    assertWords(io.stdout, expected);
    await timed(name, 'install', () =>
      assert.rejects(installPack(archive, { packsRoot }), (error: unknown) => {
        assert.ok(error instanceof InstallError && error.reason === 'invalid', String(error));
        assertWords(error.message, expected);
        return true;
      }),
    );
    assert.deepEqual(
      changes(before, await snapshot(tmp)).filter((c) => c !== '+ packs'),
      [],
      'nothing but the (empty) packs folder was made',
    );
    assert.deepEqual(await fs.readdir(packsRoot), []);
  }

  it('a read-order pattern with exponential backtracking, (a+)+$', async () => {
    await refusedEverywhere(
      'catastrophic-pattern',
      /step 3: "pattern" \/\(a\+\)\+\$\/ can take exponential time/,
      await makeCase(tmp, 'catastrophic-pattern'),
    );
  });

  it('a run command with a second command after a line break, and one with a right-to-left override', async () => {
    const dir = await makeCase(tmp, 'run-with-newline');
    await refusedEverywhere(
      'run-with-newline',
      /readOrder\.1\.run: must be one line of plain text: no line break, control, bidi or invisible character \(it holds a line break\)/,
      dir,
    );
    const io = fakeIo(tmp);
    await main(['validate', dir], io);
    assert.match(io.stdout, /readOrder\.3\.run\.javascript: must be one line of plain text.*\(it holds U\+202E\)/);
  });

  it('an answer pasted from a coloured terminal (ESC codes in a transcript)', async () => {
    await refusedEverywhere(
      'pasted-colours-transcript',
      /hidden\.txt:8:1: the line holds a control character \(U\+001B\) at column 1; transcripts are plain text/,
      await makeCase(tmp, 'pasted-colours-transcript'),
    );
  });

  it('one mutant repeated 5,000 times (every pair of candidates would be built)', async () => {
    const dir = await makeCase(
      tmp,
      'repeated-mutants',
      (m) => void (m.mistakes[0]!.mutants = Array(5000).fill('no-increment')),
    );
    await refusedEverywhere(
      'repeated-mutants',
      /mistakes\.0\.mutants: has 5000 items; a lesson pack may have at most 16 here/,
      dir,
    );
  });

  it('the same mutant listed twice in one mistake', async () => {
    const dir = await makeCase(
      tmp,
      'duplicate-mutant',
      (m) => void (m.mistakes[1]!.mutants = ['no-increment', 'no-increment']),
    );
    await refusedEverywhere('duplicate-mutant', /mistakes\.1\.mutants: lists "no-increment" more than once/, dir);
  });

  it('7,000 mistakes', async () => {
    // Written without indentation, so that it stays under lesson.json's size bound and reaches the schema.
    const mistake = {
      title: 'Tie',
      explanation: 'Pool order.',
      function: 'pick',
      hint: 'First.',
      mutants: ['tiebreak-name'],
    };
    const dir = await makeCase(
      tmp,
      'many-mistakes',
      (m) => void (m.mistakes = Array.from({ length: 7000 }, (_, i) => ({ id: `m${i}`, ...mistake }))),
      true,
    );
    await refusedEverywhere('many-mistakes', /mistakes: has 7000 items; a lesson pack may have at most 64 here/, dir);
  });

  it('1,500 quiz questions, and two mistakes with one id', async () => {
    const question = { id: 'q', prompt: 'Which backend does the next PICK choose?', kind: 'short', hint: 'Count.' };
    const dir = await makeCase(
      tmp,
      'many-questions',
      (m) => void (m.quiz = Array.from({ length: 1500 }, (_, i) => ({ ...question, id: `q-${i}` }))),
    );
    await refusedEverywhere('many-questions', /quiz: has 1500 items; a lesson pack may have at most 100 here/, dir);
    const twice = await makeCase(tmp, 'duplicate-mistake-id', (m) => void (m.mistakes[1]!.id = m.mistakes[0]!.id));
    await refusedEverywhere(
      'duplicate-mistake-id',
      /mistakes\.1\.id: mistake id "tiebreak" is used twice \(first at mistakes\.0\); ids must be unique/,
      twice,
    );
  });

  it('lesson.json nested 100,000 deep (a stack overflow for a recursive parser)', async () => {
    const dir = await makeCase(tmp, 'deep-json');
    await fs.writeFile(
      path.join(dir, 'lesson.json'),
      `{"id": "demo", "outcomes": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    );
    await refusedEverywhere(
      'deep-json',
      /lesson\.json:1:\d+.*nests lists and objects more than 32 levels deep here/,
      dir,
    );
  });

  it('a 250,000-name POOL line', async () => {
    const dir = await makeCase(tmp, 'huge-pool');
    const names = Array.from({ length: 250_000 }, (_, i) => `b${i}`).join(' ');
    await fs.appendFile(
      path.join(dir, 'transcripts/hidden.txt'),
      `\n=== huge-pool: every backend at once\n> POOL ${names}\nOK\n> PICK\nb0\n`,
    );
    await refusedEverywhere(
      'huge-pool',
      /hidden\.txt:\d+:1: the line is \d+ characters long; a transcript line may be at most 1000/,
      dir,
    );
  });

  it('answers larger than the output limit: validate refuses (and so bundle); load alone does not judge it', async () => {
    const name = 'answers-over-limit';
    const dir = await makeCase(tmp, name, (m) => void (m.transcripts as string[]).push('transcripts/stress.txt'));
    const pool = Array.from({ length: 198 }, (_, i) => `b${String(i).padStart(3, '0')}`);
    const status = `> STATUS\n${pool.map((b) => `${b}:0`).join('\n')}\n`;
    await fs.writeFile(
      path.join(dir, 'transcripts/stress.txt'),
      `=== big-status: a big pool, looked at again and again\n> POOL ${pool.join(' ')}\nOK\n${status.repeat(800)}`,
    );
    const expected =
      /the hidden transcripts' expected answers add up to 1\.\d\d MiB, more than the 1\.00 MiB a program may print in one check/;
    await timed(name, 'load', async () => assert.ok(await loadPack(dir)));
    const io = fakeIo(tmp);
    assert.equal(await timed(name, 'validate (CLI)', () => main(['validate', dir], io)), 1);
    assertWords(io.stdout, expected);
  });

  it('archives: a zip bomb, duplicate paths in the manifest, a file and a folder with one name', async () => {
    const dir = await makeCase(tmp, 'archives');
    const files = new Map<string, Buffer>();
    for (const f of ['lesson.json', 'model/model.js', 'transcripts/hidden.txt'])
      files.set(f, await fs.readFile(path.join(dir, f)));
    const cases: [string, Buffer, InstallError['reason'], RegExp][] = [
      [
        'zip-bomb',
        craftZip([{ name: 'transcripts/hidden.txt', data: Buffer.alloc(4 * 1024 * 1024), method: 8 }]),
        'too-large',
        /"transcripts\/hidden\.txt" is compressed \d+ to 1, which only a zip bomb does/,
      ],
      [
        'duplicate-paths',
        archiveOf(files, 'demo', '0.1.0', [...archiveListing(files), ...archiveListing(files).slice(0, 1)]),
        'unsafe',
        /cannot be installed as it is: "lesson\.json" is listed twice/,
      ],
      [
        'file-and-folder',
        archiveOf(new Map([...files, ['model', Buffer.from('not a folder\n')]])),
        'unsafe',
        /"model" is a file, but "model\/model\.js" needs a folder of that name/,
      ],
    ];
    for (const [name, bytes, reason, expected] of cases) {
      const file = path.join(tmp, `${name}.lessonpack`);
      await fs.writeFile(file, bytes);
      const before = await snapshot(tmp);
      const io = fakeIo(tmp);
      assert.equal(
        await timed(name, 'install (CLI)', () => main(['install', file, '--packs-dir', packsRoot], io)),
        1,
        `${name}: ${io.stderr}`,
      );
      assertWords(io.stderr, expected);
      await assert.rejects(
        installPack(file, { packsRoot }),
        (e: unknown) => e instanceof InstallError && e.reason === reason,
      );
      assert.deepEqual(
        changes(before, await snapshot(tmp)).filter((c) => c !== '+ packs'),
        [],
        `${name}: nothing written`,
      );
    }
  });

  it('a transcript saved with a byte order mark, and one with CR-only line ends, read like the plain one', async () => {
    const plain = await loadPack(await makeCase(tmp, 'plain'));
    for (const name of ['bom-transcript', 'cr-only-transcript']) {
      const dir = await makeCase(tmp, name);
      const pack = await timed(name, 'load', () => loadPack(dir));
      assert.deepEqual(pack.transcripts, plain.transcripts, name);
    }
  });

  it('command:, vscode:// and file: links in lesson text stay text in the panel; https: links work', async () => {
    const pack = await timed('command-links', 'load and render', async () =>
      loadPack(await makeCase(tmp, 'command-links')),
    );
    const view = lessonView(
      { lessonId: 'demo', language: 'python', mainFile: 'balancer.py', folder: 'file:///w' },
      pack,
      { stepsRead: [], answers: {}, answersShown: [], lastReport: null, lastAnchors: {}, lastCheckAt: null },
    );
    const html = [view.coreQuestionHtml, view.protocolHtml, view.steps[0]!.detailHtml ?? ''].join('\n');
    assert.doesNotMatch(html, /href="(command|vscode|file):/i, html);
    assert.match(html, /<a href="https:\/\/example\.org\/protocol"[^>]*>the docs<\/a>/);
    assert.match(
      html,
      /\[Open a terminal\]\(command:workbench\.action\.terminal\.new\)/,
      'the link is shown as the text it is',
    );
    assert.equal(renderMarkdown('<vscode://x>').includes('href'), false);
  });

  it('an old copy of a built-in lesson: install asks, and the CLI refuses without --yes', async () => {
    const dir = await makeCase(tmp, 'shadows-built-in');
    const file = path.join(tmp, 'least-connections-0.0.1.lessonpack');
    await fs.writeFile(file, await archiveOfFolder(dir, 'least-connections', '0.0.1'));
    const io = fakeIo(tmp);
    assert.equal(
      await timed('shadows-built-in', 'install (CLI) without --yes', () =>
        main(['install', file, '--packs-dir', packsRoot], io),
      ),
      1,
    );
    assertWords(
      io.stderr,
      /has the id of a built-in lesson \(version \d+\.\d+\.\d+\).*re-run with --yes[^]*kept the built-in lesson least-connections \d+\.\d+\.\d+, which is newer than this pack's 0\.0\.1/,
    );
    assert.deepEqual(await fs.readdir(packsRoot), []);
    const builtInDir = path.join(ROOT, 'lessons');
    const builtIn = (await loadPack(path.join(builtInDir, 'least-connections'))).manifest.version;
    const asked: string[][] = [];
    const confirmShadow = async (a: string, b: string): Promise<boolean> => (asked.push([a, b]), false);
    await assert.rejects(
      installPack(file, { packsRoot, builtInDir, confirmShadow }),
      (e: unknown) => e instanceof InstallError && e.reason === 'declined',
    );
    assert.deepEqual(asked, [[builtIn, '0.0.1']], 'asked once, with both versions');
    const yes = fakeIo(tmp);
    assert.equal(await main(['install', file, '--packs-dir', packsRoot, '--yes'], yes), 0, yes.stderr);
    assert.match(yes.stdout, /Installed least-connections 0\.0\.1/);
    await installPack(file, { packsRoot, force: true, builtInDir, confirmShadow });
    assert.equal(asked.length, 1, 'replacing an installed copy does not ask about the built-in again');
  });

  it("a legitimate 1 MB repetitive transcript is bundled, then installed (bundle applies install's archive rules)", async function () {
    this.timeout(120_000);
    const name = 'repetitive-transcript';
    const dir = await makeCase(tmp, name, (m) => void (m.transcripts as string[]).push('transcripts/stress.txt'));
    // A big pool set up again and again: long lines, few commands, so validating it stays affordable.
    const pool = Array.from({ length: 198 }, (_, i) => `b${String(i).padStart(3, '0')}`).join(' ');
    const round = `> POOL ${pool}\nOK\n> PICK\nb000\n`;
    const stress = Array.from(
      { length: 2 },
      (_, k) => `=== big-pool-${k}: a fresh pool of 198 backends, picked once, again and again\n${round.repeat(550)}`,
    ).join('\n');
    await fs.writeFile(path.join(dir, 'transcripts/stress.txt'), stress);
    assert.ok(
      stress.length > 1024 * 1024,
      `${stress.length} bytes: more than the size from which install checks the compression ratio`,
    );
    const bundled = await timed(name, 'bundle', () => bundlePack(dir, path.join(tmp, 'stress.lessonpack'), quick));
    const result = await timed(name, 'install', () => installPack(bundled.file, { packsRoot }));
    assert.equal(result.id, 'demo');
    const zip = await yauzl.openPromise(bundled.file, { autoClose: false });
    const sizes = new Map<string, [number, number]>();
    for await (const entry of zip.eachEntry())
      sizes.set(entry.fileName, [entry.uncompressedSize, entry.compressedSize]);
    zip.close();
    const [size, compressed] = sizes.get('transcripts/stress.txt')!;
    assert.equal(compressed, size, 'stored as it is, since deflate would compress it like a zip bomb');
    assert.ok(sizes.get('lesson.json')![1] < sizes.get('lesson.json')![0], 'other files are still compressed');
    assert.ok(sizes.has(ARCHIVE_MANIFEST));
  });
});

function archiveListing(files: Map<string, Buffer>): { path: string; sha256: string; size: number }[] {
  return [...files].map(([p, data]) => ({
    path: p,
    sha256: createHash('sha256').update(data).digest('hex'),
    size: data.length,
  }));
}
