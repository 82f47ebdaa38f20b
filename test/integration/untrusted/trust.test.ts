// Runs in a workspace the harness opens in Restricted Mode (workspace trust enabled, startup prompt off,
// folder never trusted), to check how the extension behaves without trust.
import * as assert from 'assert';
import * as vscode from 'vscode';

const EXT_ID = 'lesson-companion.lesson-companion';

suite('untrusted workspace (Restricted Mode)', () => {
  test('vscode.workspace.isTrusted is false', () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
  });

  test('the harness opened the expected folder', () => {
    const expected = process.env.LC_TEST_WORKSPACE;
    assert.ok(expected, 'LC_TEST_WORKSPACE should be set by the harness');
    assert.strictEqual(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, expected);
  });

  test('report whether the extension is enabled in Restricted Mode', async () => {
    const ext = vscode.extensions.getExtension(EXT_ID);
    let act = 'n/a';
    try { if (ext) { await ext.activate(); act = `activated=${ext.isActive}`; } } catch (e) { act = `activate threw: ${e}`; }
    console.log(`    ${EXT_ID}: ${ext ? `loaded (${act})` : 'not loaded (disabled by workspace trust)'}`);
    console.log(`    all: ${vscode.extensions.all.filter((e) => !e.id.startsWith('vscode.')).map((e) => e.id).join(',')}`);
  });
});

if (process.env.LC_SELFCHECK_FAIL) {
  suite('harness self-check (LC_SELFCHECK_FAIL=1)', () => {
    test('fails on purpose', () => {
      assert.strictEqual(1 + 1, 3, 'deliberate failure');
    });
  });
}
