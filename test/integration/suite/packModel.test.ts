// A pack that brings its own exercise, in a real VS Code: lesson health-checks (whose protocol and model the
// engine has never heard of) under another id, bundled by the real CLI, installed through "Install Lesson
// Pack…", started, and checked with a correct and a mistaken program. The check runs in a child process
// (the CLI's own), whose engine worker loads the pack's model: nothing of the pack runs in this process.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { CheckReport } from '../../../src/core/report/report';
import {
  activate,
  extensionPath,
  internalState,
  lessonCompanionCli,
  setLearnerText,
  workspaceDir,
} from '../lib/helpers';

const ID = 'health-checks-installed';
const SOURCE = 'health-checks';

suite('a pack with its own model (trusted workspace)', () => {
  let tmp: string;
  let main: vscode.Uri;
  let installedDir: string | undefined;

  suiteSetup(async () => {
    await activate();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-pack-model-'));
    main = vscode.Uri.file(path.join(workspaceDir(), 'balancer.py'));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(main.fsPath, { force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
    // Other suites expect the packs folder without this pack.
    if (installedDir) fs.rmSync(installedDir, { recursive: true, force: true });
  });

  test('bundled with the CLI, installed, started, and a correct and a mistaken program checked', async function () {
    this.timeout(240000);
    const dir = path.join(tmp, ID);
    fs.cpSync(path.join(extensionPath(), 'lessons', SOURCE), dir, { recursive: true });
    const manifestFile = path.join(dir, 'lesson.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
    delete manifest.$schema;
    Object.assign(manifest, { id: ID, title: 'Health checks (installed)' });
    fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
    const file = path.join(tmp, `${ID}.lessonpack`);
    await lessonCompanionCli('bundle', dir, '-o', file);

    const installed = await vscode.commands.executeCommand<{ id: string; dir: string } | undefined>(
      'lessonCompanion.installPack',
      vscode.Uri.file(file),
      { trustCode: true },
    );
    assert.strictEqual(installed?.id, ID, (await internalState()).lastInstallRefusal ?? 'no refusal recorded');
    installedDir = installed?.dir;
    // Earlier suites leave their own balancer.py; starting over other content would ask (a modal, which tests
    // cannot answer), so the file is first given the starter's own text, as a learner who kept it would have.
    if (fs.existsSync(main.fsPath))
      await setLearnerText(main, fs.readFileSync(path.join(dir, manifest.starters.python.dir, 'balancer.py'), 'utf8'));
    const session = await vscode.commands.executeCommand<{ lessonId: string } | undefined>(
      'lessonCompanion.startLesson',
      { lessonId: ID, language: 'python' },
    );
    assert.strictEqual(session?.lessonId, ID);

    const fixtures = path.join(extensionPath(), 'test', 'fixtures', 'real-style', SOURCE, 'python');
    await setLearnerText(main, fs.readFileSync(path.join(fixtures, 'min_over_candidates.py'), 'utf8'));
    const pass = await vscode.commands.executeCommand<CheckReport | undefined>('lessonCompanion.check');
    assert.strictEqual(pass?.lesson, ID);
    assert.strictEqual(pass?.status, 'pass', JSON.stringify(pass?.problems));

    await setLearnerText(main, fs.readFileSync(path.join(fixtures, 'counter_skip_down.py'), 'utf8'));
    const fail = await vscode.commands.executeCommand<CheckReport | undefined>('lessonCompanion.check');
    assert.strictEqual(fail?.status, 'fail');
    assert.deepStrictEqual(
      fail?.mistakes.map((m) => m.id),
      ['done-skips-down'],
    );
    console.log(`    named ${fail?.mistakes[0]?.title} in ${fail?.durationMs} ms, ${fail?.processRuns} runs`);
  });
});
