// Smoke test: proves the harness really runs inside a VS Code 1.100 extension host with our extension
// loaded from source (extensionDevelopmentPath) in a trusted workspace.
import * as assert from 'assert';
import * as vscode from 'vscode';

const EXT_ID = 'lesson-companion.lesson-companion'; // <publisher>.<name> from package.json

suite('smoke: real extension host', () => {
  test('runs in VS Code 1.100.x', () => {
    assert.ok(vscode.version.startsWith('1.100'), `vscode.version is ${vscode.version}`);
    console.log(
      `    vscode ${vscode.version}, appName=${vscode.env.appName}, uiKind=${vscode.UIKind[vscode.env.uiKind]}, remoteName=${vscode.env.remoteName}`,
    );
  });

  test(`extension ${EXT_ID} is present and activates`, async () => {
    const ext = vscode.extensions.getExtension(EXT_ID);
    assert.ok(ext, `extension ${EXT_ID} should be loaded from extensionDevelopmentPath`);
    await ext.activate();
    assert.strictEqual(ext.isActive, true);
  });

  test('activation is logged with its duration (the README figure comes from this run)', async () => {
    await vscode.extensions.getExtension(EXT_ID)?.activate();
    const state = await vscode.commands.executeCommand<{ activationMs: number | null }>(
      'lessonCompanion.internal.state',
    );
    assert.ok(
      state && typeof state.activationMs === 'number' && state.activationMs > 0,
      JSON.stringify(state?.activationMs),
    );
    console.log(`    activation took ${state.activationMs.toFixed(1)} ms`);
  });

  test('workspace is trusted and is the folder the harness opened', () => {
    assert.strictEqual(vscode.workspace.isTrusted, true);
    const expected = process.env.LC_TEST_WORKSPACE;
    if (expected) {
      assert.strictEqual(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, expected);
    }
  });
});

// Harness self-check: LC_SELFCHECK_FAIL=1 must turn the run into exit code 1.
if (process.env.LC_SELFCHECK_FAIL) {
  suite('harness self-check (LC_SELFCHECK_FAIL=1)', () => {
    test('fails on purpose', () => {
      assert.strictEqual(1 + 1, 3, 'deliberate failure');
    });
  });
}
