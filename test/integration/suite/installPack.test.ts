// The instructor's path in a real VS Code, trusted workspace: bundle a pack with the CLI, "Install Lesson
// Pack…" it into global storage, start it beside the built-in lessons, check a solution, replace it with a
// newer version, and refuse a hostile archive. Tests run in order and share the workspace; the teardown
// leaves the workspace empty again for lesson.test.ts.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import yazl from 'yazl';
import type { CheckReport } from '../../../src/core/report/report';
import {
  activate,
  extensionPath,
  fixture,
  internalState,
  LESSON,
  lessonCompanionCli,
  setLearnerText,
  waitFor,
  workspaceDir,
} from '../lib/helpers';

const ID = 'lc-installed-test';
const EXTRA = 'added-in-1-1'; // a transcript only version 1.1.0 has
type InstallResult = { id: string; version: string; dir: string; replaced?: string };

const install = (file: string, args?: { replace: boolean }): Thenable<InstallResult | undefined> =>
  vscode.commands.executeCommand<InstallResult | undefined>('lessonCompanion.installPack', vscode.Uri.file(file), {
    trustCode: true,
    ...args,
  });
const start = (lessonId: string): Thenable<{ lessonId: string; mainFile: string } | undefined> =>
  vscode.commands.executeCommand('lessonCompanion.startLesson', { lessonId, language: 'python' });
const check = async (): Promise<CheckReport> => {
  const report = await vscode.commands.executeCommand<CheckReport | undefined>('lessonCompanion.check');
  assert.ok(
    report,
    `the check runs in a trusted workspace: ${(await internalState()).lastRefusalMessage ?? 'no refusal recorded'}`,
  );
  return report;
};
const versionIn = (dir: string): string => JSON.parse(fs.readFileSync(path.join(dir, 'lesson.json'), 'utf8')).version;

suite('install lesson pack (trusted workspace)', () => {
  let tmp: string;
  let main: vscode.Uri;
  let installedDir: string;

  /** The built-in lesson under another id, bundled by the real CLI (which validates it with python3). */
  async function makePack(version: string, title: string, extraTranscript = false): Promise<string> {
    const dir = path.join(tmp, `pack-${version}`);
    fs.cpSync(path.join(extensionPath(), 'lessons', LESSON), dir, { recursive: true });
    const manifestFile = path.join(dir, 'lesson.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
    delete manifest.$schema;
    Object.assign(manifest, { id: ID, version, title });
    fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
    if (extraTranscript)
      fs.appendFileSync(
        path.join(dir, 'transcripts', 'done.txt'),
        `\n=== ${EXTRA}: a transcript new in 1.1.0\n> POOL solo\nOK\n> PICK\nsolo\n`,
      );
    const file = path.join(tmp, `${ID}-${version}.lessonpack`);
    await lessonCompanionCli('bundle', dir, '-o', file);
    assert.ok(fs.statSync(file).size > 0, `bundled ${file}`);
    return file;
  }

  suiteSetup(async () => {
    await activate();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-install-test-'));
    main = vscode.Uri.file(path.join(workspaceDir(), 'balancer.py'));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(main.fsPath, { force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('a bundled pack installs into global storage and starts beside the built-in lessons', async function () {
    this.timeout(60000);
    const file = await makePack('1.0.0', 'Installed Test');
    assert.strictEqual(await start(ID), undefined, 'not a lesson before it is installed');
    const result = await install(file);
    assert.ok(result, 'the install command returns what it installed');
    assert.deepStrictEqual(
      { id: result.id, version: result.version, replaced: result.replaced },
      { id: ID, version: '1.0.0', replaced: undefined },
    );
    installedDir = result.dir;
    assert.strictEqual(path.basename(path.dirname(installedDir)), 'packs');
    assert.ok(
      !installedDir.startsWith(extensionPath() + path.sep),
      `installed in global storage, not in the extension: ${installedDir}`,
    );
    assert.strictEqual(versionIn(installedDir), '1.0.0');

    const session = await start(ID);
    assert.deepStrictEqual(session && { lessonId: session.lessonId, mainFile: session.mainFile }, {
      lessonId: ID,
      mainFile: 'balancer.py',
    });
    const starter = fs.readFileSync(
      path.join(extensionPath(), 'lessons', LESSON, 'starter', 'python', 'balancer.py'),
      'utf8',
    );
    assert.strictEqual(fs.readFileSync(main.fsPath, 'utf8'), starter, 'the installed starter is in the workspace');
    // The built-in lesson is still offered (same starter bytes, so no replace dialog), then back to ours.
    assert.strictEqual((await start(LESSON))?.lessonId, LESSON);
    assert.strictEqual((await start(ID))?.lessonId, ID);
    const tree = await waitFor('the installed lesson in the Test Explorer', async () => {
      const t = (await internalState()).tests;
      return t[0]?.id === `${ID}/python` ? t : undefined;
    });
    assert.strictEqual(tree[0]!.label, 'Installed Test (python)');
  });

  test('a correct solution passes the installed lesson', async function () {
    this.timeout(90000);
    await setLearnerText(main, fixture(LESSON, 'python', 'correct.py'));
    const report = await check();
    assert.strictEqual(report.lesson, ID);
    assert.strictEqual(report.status, 'pass', JSON.stringify(report.problems));
    assert.ok(report.checks.total > 0 && report.checks.passed === report.checks.total, JSON.stringify(report.checks));
    assert.ok(!report.transcripts.some((t) => t.name === EXTRA), '1.0.0 has no 1.1.0 transcript');
    assert.strictEqual((await internalState()).session?.lessonId, ID);
  });

  test('a newer version replaces it only when confirmed, and the open lesson picks it up', async function () {
    this.timeout(90000);
    const file = await makePack('1.1.0', 'Installed Test v1.1', true);
    assert.strictEqual(await install(file, { replace: false }), undefined, 'declined: nothing installed');
    assert.strictEqual(versionIn(installedDir), '1.0.0', 'declining keeps 1.0.0');

    const result = await install(file, { replace: true });
    assert.deepStrictEqual(result && { version: result.version, replaced: result.replaced, dir: result.dir }, {
      version: '1.1.0',
      replaced: '1.0.0',
      dir: installedDir,
    });
    assert.strictEqual(versionIn(installedDir), '1.1.0');
    const tree = await waitFor('the Test Explorer to show 1.1.0', async () => {
      const t = (await internalState()).tests;
      return t[0]?.children.some((c) => c.label === 'a transcript new in 1.1.0') ? t : undefined;
    });
    assert.strictEqual(tree[0]!.label, 'Installed Test v1.1 (python)');
    const report = await check();
    assert.strictEqual(report.status, 'pass', JSON.stringify(report.problems));
    assert.ok(
      report.transcripts.some((t) => t.name === EXTRA && t.passed),
      'the check runs the 1.1.0 transcripts',
    );
    assert.strictEqual(
      await install(file, { replace: false }),
      undefined,
      'the same version is not reinstalled without a yes',
    );
  });

  test('an archive with a ../evil entry is refused and the installed pack stays', async function () {
    this.timeout(60000);
    // yazl itself refuses "../evil", so write a same-length name and patch it in (names are not in the CRC).
    const zip = new yazl.ZipFile();
    zip.addBuffer(fs.readFileSync(path.join(installedDir, 'lesson.json')), 'lesson.json');
    zip.addBuffer(Buffer.from('pwned\n'), 'xx/evil');
    zip.end();
    const chunks: Buffer[] = [];
    for await (const c of zip.outputStream as AsyncIterable<Buffer>) chunks.push(c);
    const bytes = Buffer.from(Buffer.concat(chunks).toString('latin1').split('xx/evil').join('../evil'), 'latin1');
    assert.strictEqual(
      bytes.toString('latin1').split('../evil').length - 1,
      2,
      'local header and central directory both say ../evil',
    );
    const evil = path.join(tmp, 'sub', 'evil.lessonpack');
    fs.mkdirSync(path.dirname(evil));
    fs.writeFileSync(evil, bytes);

    assert.strictEqual(await install(evil, { replace: true }), undefined, 'refused');
    const packsRoot = path.dirname(installedDir);
    assert.strictEqual(versionIn(installedDir), '1.1.0', 'the installed pack is untouched');
    assert.deepStrictEqual(fs.readdirSync(packsRoot), [ID], 'no staging folder or stray file is left in packs/');
    for (const dir of [installedDir, packsRoot, path.dirname(packsRoot), path.dirname(evil), tmp]) {
      assert.ok(!fs.existsSync(path.join(dir, 'evil')), `nothing written to ${dir}/evil`);
    }
    const report = await check(); // the open lesson still checks against the installed 1.1.0
    assert.deepStrictEqual(
      [report.lesson, report.status, report.transcripts.some((t) => t.name === EXTRA)],
      [ID, 'pass', true],
    );
    // The same refusal (src/node/packs/installPack.ts) in the words an instructor reads, via the CLI.
    const refusal = await lessonCompanionCli('install', evil, '--yes', '--packs-dir', path.join(tmp, 'cli-packs')).then(
      () => assert.fail('the CLI should refuse it too'),
      (error: { stderr?: string }) => String(error.stderr),
    );
    assert.match(refusal, /"\.\.\/evil" climbs out of the pack folder/);
  });
});
