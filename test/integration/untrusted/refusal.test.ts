// Restricted Mode: a learner may start and read a lesson, but no check may run their program. The stand-in
// interpreter leaves a mark when started, so "no process ran" is observed, not assumed; the trusted suite
// shows the same interpreter does leave the mark when a check runs.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  activate,
  fixture,
  internalState,
  LESSON,
  setLearnerText,
  workspaceDir,
  writeMarkingInterpreter,
} from '../lib/helpers';

suite('lesson companion in Restricted Mode', () => {
  let marker: string;
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('lessonCompanion');

  suiteSetup(async () => {
    assert.strictEqual(vscode.workspace.isTrusted, false, 'the harness opened this folder in Restricted Mode');
    await activate();
    const interpreter = writeMarkingInterpreter(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-interp-')));
    marker = interpreter.marker;
    // A user setting: Restricted Mode ignores only workspace values of the interpreter paths.
    await config().update('pythonPath', interpreter.script, vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(async () => {
    await config().update('pythonPath', undefined, vscode.ConfigurationTarget.Global);
  });

  test('starting a lesson (reading) works without trust', async () => {
    const session = await vscode.commands.executeCommand<{ mainFile: string } | undefined>(
      'lessonCompanion.startLesson',
      { lessonId: LESSON, language: 'python' },
    );
    assert.strictEqual(session?.mainFile, 'balancer.py');
    assert.ok(fs.existsSync(path.join(workspaceDir(), 'balancer.py')));
    const located = await vscode.commands.executeCommand<{ line: number } | undefined>('lessonCompanion.openStep', 3);
    assert.ok(located && located.line > 1, 'a step still reveals its symbol');
    const main = vscode.Uri.file(path.join(workspaceDir(), 'balancer.py'));
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', main);
    assert.ok(lenses.length > 0, 'lenses above the lesson functions');
    for (const lens of lenses) {
      assert.strictEqual(
        lens.command?.command,
        'workbench.trust.manage',
        `${lens.command?.title} leads to trust, not to a check`,
      );
      assert.match(lens.command.title, /trusted folder/);
    }
  });

  test('the check command refuses, says why, and starts no process', async () => {
    const main = vscode.Uri.file(path.join(workspaceDir(), 'balancer.py'));
    await setLearnerText(main, fixture(LESSON, 'python', 'correct.py'));
    const report = await vscode.commands.executeCommand('lessonCompanion.check');
    assert.strictEqual(report, undefined, 'no report: nothing was checked');
    const state = await internalState();
    assert.strictEqual(state.lastRefusal, 'untrusted', 'refused because of trust (the learner is shown the warning)');
    assert.strictEqual(state.lastStatus, null, 'no report was stored');
    await new Promise((r) => setTimeout(r, 500));
    assert.ok(!fs.existsSync(marker), 'the interpreter was never started');
  });

  test('a Test Explorer run starts no process either', async () => {
    // In Restricted Mode the workbench itself asks for trust before it runs tests, and that prompt never
    // resolves here (dialogs are refused in tests), so the command is not awaited; the profile's handler
    // refuses on its own as well (it goes through the same trust-gated check runner).
    void vscode.commands.executeCommand('testing.runAll').then(undefined, () => undefined);
    await new Promise((r) => setTimeout(r, 3000));
    const tree = (await internalState()).tests;
    assert.ok(tree[0], 'the lesson still has its Test Explorer item');
    assert.ok(!['passed', 'failed', 'errored'].includes(tree[0].state ?? ''), `no result: ${tree[0].state}`);
    assert.ok(!fs.existsSync(marker), 'the interpreter was never started');
  });

  test('Run in terminal and Debug this transcript refuse too: no terminal, no debug session, no process', async () => {
    const terminals = vscode.window.terminals.length;
    const ran = await vscode.commands.executeCommand('lessonCompanion.runTrace', { mistakeId: null });
    assert.strictEqual(ran, undefined, 'nothing was sent to a terminal');
    assert.strictEqual(vscode.window.terminals.length, terminals, 'no terminal was opened');
    const debug = await vscode.commands.executeCommand<{ started: boolean; reason?: string }>(
      'lessonCompanion.debugTrace',
      { mistakeId: null },
    );
    assert.deepStrictEqual([debug.started, debug.reason], [false, 'untrusted']);
    assert.strictEqual(vscode.debug.activeDebugSession, undefined);
    assert.ok(!fs.existsSync(marker), 'the interpreter was never started');
  });

  test('no check service is started in Restricted Mode', async () => {
    const { service } = await internalState();
    assert.strictEqual(service.pid, null, 'no service process');
    assert.strictEqual(service.starts, 0, 'none was ever started in this window');
  });
});
