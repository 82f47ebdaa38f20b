// Hostile packs in a real VS Code, trusted workspace: a catastrophic read-order pattern is refused at
// install with words; a slow pattern that gets past the analyser is matched off the extension host's
// thread, so the editor stays responsive while it runs and it is stopped after its time bound; an
// installed pack changed on disk is refused before a check until it is reinstalled; a pack that would
// hide a built-in lesson is installed only when confirmed. The teardown leaves the workspace empty.
import * as assert from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import yazl from 'yazl';
import { ARCHIVE_MANIFEST, integrityInput } from '../../../src/core/pack/archive';
import type { CheckReport } from '../../../src/core/report/report';
import { activate, extensionPath, fixture, internalState, LESSON, waitFor, workspaceDir } from '../lib/helpers';

type InstallResult = { id: string; version: string; dir: string };
type Manifest = { id: string; version: string; title: string; readOrder: Record<string, unknown>[] };

const install = (file: string, args?: { replace?: boolean; shadow?: boolean }): Thenable<InstallResult | undefined> =>
  vscode.commands.executeCommand<InstallResult | undefined>('lessonCompanion.installPack', vscode.Uri.file(file), {
    trustCode: true,
    ...args,
  });
const start = (lessonId: string): Thenable<{ lessonId: string } | undefined> =>
  vscode.commands.executeCommand('lessonCompanion.startLesson', { lessonId, language: 'python' });
const check = (): Thenable<CheckReport | undefined> =>
  vscode.commands.executeCommand<CheckReport | undefined>('lessonCompanion.check');
const sha = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

suite('hostile lesson packs (trusted workspace)', () => {
  let tmp: string;
  let main: vscode.Uri;
  let slowPack: string;
  let installedDir: string | undefined;

  /**
   * The built-in lesson under another id, with `edit` applied to its lesson.json, zipped with a correct
   * archive manifest, as a hostile author's own tool would (`bundle` validates, and refuses such packs).
   */
  async function packArchive(id: string, version: string, edit: (m: Manifest) => void): Promise<string> {
    const source = path.join(extensionPath(), 'lessons', LESSON);
    const files = new Map<string, Buffer>();
    const walk = (rel: string): void => {
      for (const entry of fs.readdirSync(path.join(source, rel), { withFileTypes: true })) {
        const child = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) walk(child);
        else files.set(child, fs.readFileSync(path.join(source, child)));
      }
    };
    walk('');
    const manifest = JSON.parse(files.get('lesson.json')!.toString('utf8')) as Manifest;
    Object.assign(manifest, { id, version });
    edit(manifest);
    files.set('lesson.json', Buffer.from(JSON.stringify(manifest, null, 2)));
    const listed = [...files].map(([p, data]) => ({ path: p, sha256: sha(data), size: data.length }));
    const zip = new yazl.ZipFile();
    zip.addBuffer(
      Buffer.from(JSON.stringify({ format: 1, id, version, files: listed, integrity: sha(integrityInput(listed)) })),
      ARCHIVE_MANIFEST,
    );
    for (const [p, data] of files) zip.addBuffer(data, p);
    zip.end();
    const chunks: Buffer[] = [];
    for await (const c of zip.outputStream as AsyncIterable<Buffer>) chunks.push(c);
    const file = path.join(tmp, `${id}-${version}.lessonpack`);
    fs.writeFileSync(file, Buffer.concat(chunks));
    return file;
  }

  suiteSetup(async () => {
    await activate();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-hostile-it-'));
    main = vscode.Uri.file(path.join(workspaceDir(), 'balancer.py'));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(main.fsPath, { force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
    // The install suite expects a packs folder with only its own pack.
    if (installedDir) fs.rmSync(installedDir, { recursive: true, force: true });
  });

  test('a pack whose read-order pattern backtracks exponentially is refused at install, with words', async function () {
    this.timeout(30000);
    const file = await packArchive('lc-catastrophic', '1.0.0', (m) => void (m.readOrder[1]!.pattern = '(a+)+$'));
    assert.strictEqual(await install(file), undefined, 'not installed');
    const refusal = (await internalState()).lastInstallRefusal ?? '';
    assert.match(refusal, /refused lc-catastrophic-1\.0\.0\.lessonpack: the lesson pack inside is not valid/);
    assert.match(
      refusal,
      /lesson\.json:\d+:\d+: readOrder\.1\.pattern: step 2: "pattern" \/\(a\+\)\+\$\/ can take exponential time/,
    );
    assert.strictEqual(await start('lc-catastrophic'), undefined, 'no such lesson');
  });

  test('opening a step whose pattern is slow leaves the extension host responsive, and the match is stopped', async function () {
    this.timeout(60000);
    // scslre does not flag overlapping alternatives like (a|aa)+: on a run of 40 a's that ends in "!",
    // V8 tries every way to split the run (minutes of work; a sixth of a second on a run of 20).
    slowPack = await packArchive(
      'lc-slow-pattern',
      '1.0.0',
      (m) => void (m.readOrder[1] = { title: 'A slow anchor', pattern: '(a|aa)+$' }),
    );
    const result = await install(slowPack);
    assert.ok(result, (await internalState()).lastInstallRefusal ?? 'installed');
    installedDir = result.dir;
    assert.strictEqual((await start('lc-slow-pattern'))?.lessonId, 'lc-slow-pattern');
    // Written on disk rather than edited: the editor may still be settling the file Start Lesson just wrote.
    // On a line of code, not a comment: read-order patterns skip comment lines.
    const text = `PADDING = "${'a'.repeat(40)}!"\n${fixture(LESSON, 'python', 'correct.py')}`;
    fs.writeFileSync(main.fsPath, text);
    await waitFor(
      'the editor to show the learner text',
      async () => (await vscode.workspace.openTextDocument(main)).getText() === text,
    );

    const began = Date.now();
    let openedAt = 0;
    const opening = Promise.resolve(
      vscode.commands.executeCommand<{ line: number; how: string } | undefined>('lessonCompanion.openStep', 2),
    ).then((r) => {
      openedAt = Date.now();
      return r;
    });
    await new Promise((r) => setTimeout(r, 200)); // the worker is matching by now
    const state = await internalState();
    const answeredAt = Date.now();
    assert.ok(state.session, 'the round trip answered');
    const located = await opening;
    assert.ok(
      openedAt > 0 && answeredAt < openedAt,
      `a command answered (after ${answeredAt - began} ms) while the match still ran (it ended after ${openedAt - began} ms)`,
    );
    assert.deepStrictEqual(
      located && { line: located.line, how: located.how },
      { line: 1, how: 'top' },
      'the match was stopped, and the step fell back to the top of the file',
    );
    assert.ok((await internalState()).stepsRead.includes(2), 'the step is ticked all the same');
  });

  test('an installed pack changed on disk is refused before a check; reinstalling repairs it', async function () {
    this.timeout(90000);
    const first = await check();
    assert.strictEqual(first?.status, 'pass', 'the untouched pack checks the correct solution');
    fs.appendFileSync(
      path.join(installedDir!, 'transcripts', 'basics.txt'),
      '\n=== easy: always passes\n> POOL a\nOK\n',
    );
    assert.strictEqual(await check(), undefined, 'no check against a changed pack');
    assert.strictEqual((await internalState()).lastRefusal, 'changed-pack');
    const reinstalled = await install(slowPack, { replace: true });
    assert.ok(reinstalled, 'the same version is reinstalled on "Reinstall"');
    const again = await check();
    assert.strictEqual(again?.status, 'pass');
    assert.strictEqual((await internalState()).lastRefusal, null);
  });

  test('a pack with the id of a built-in lesson is installed only when confirmed', async function () {
    this.timeout(30000);
    const file = await packArchive(LESSON, '0.0.1', (m) => void (m.title = 'An old copy'));
    assert.strictEqual(await install(file, { shadow: false }), undefined);
    assert.match(
      (await internalState()).lastInstallRefusal ?? '',
      new RegExp(`kept the built-in lesson ${LESSON} \\d+\\.\\d+\\.\\d+, which is newer than this pack's 0\\.0\\.1`),
    );
    const packsRoot = path.dirname(installedDir!);
    assert.ok(!fs.existsSync(path.join(packsRoot, LESSON)), 'nothing installed over the built-in lesson');
  });
});
