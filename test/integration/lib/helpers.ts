// Helpers shared by the integration suites (trusted and untrusted). They talk to the extension only through
// VS Code's public API and the extension's commands.
import * as assert from 'assert';
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { promisify } from 'util';
import * as vscode from 'vscode';

export const EXT_ID = 'lesson-companion.lesson-companion';
export const LESSON = 'least-connections';

export function extensionPath(): string {
  const ext = vscode.extensions.getExtension(EXT_ID);
  assert.ok(ext, `${EXT_ID} is not loaded`);
  return ext.extensionPath;
}

/** The repository (out/test/integration/lib -> repo), not the extension: a .vsix run has no test fixtures. */
const REPO = path.resolve(__dirname, '..', '..', '..', '..');

export function fixture(...parts: string[]): string {
  return fs.readFileSync(path.join(REPO, 'test', 'integration', 'fixtures', ...parts), 'utf8');
}

export function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the harness should open a folder');
  return folder.uri.fsPath;
}

export async function activate(): Promise<void> {
  const ext = vscode.extensions.getExtension(EXT_ID);
  assert.ok(ext, `${EXT_ID} is not loaded`);
  await ext.activate();
}

/** Polls until `probe` returns a truthy value (VS Code updates tabs, diagnostics and files asynchronously). */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10000,
): Promise<T> {
  const started = Date.now();
  let last: unknown;
  while (Date.now() - started < timeoutMs) {
    try {
      const value = await probe();
      if (value) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${String(last)})`);
}

export function lessonPanelTab(): vscode.Tab | undefined {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('lessonCompanion.lessonPanel'));
}

/** Replaces the learner file's text the way a learner would: an edit in the editor, then save. */
export async function setLearnerText(uri: vscode.Uri, text: string): Promise<vscode.TextDocument> {
  const tried: string[] = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    const doc = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
    assert.ok(await vscode.workspace.applyEdit(edit), 'edit applied');
    if (await doc.save()) {
      assert.strictEqual(doc.getText(), text);
      return doc;
    }
    // A save the workbench refuses (CI once saw one for a starter written a moment before, in code-server: a
    // file it thinks changed on disk since it was read) is not what the tests are about: read the file again
    // from disk (revert) and type the text once more, saying so if it never takes.
    tried.push(
      `attempt ${attempt}: dirty=${doc.isDirty}, text ${doc.getText() === text ? 'as typed' : 'other'}, on disk ${fs.readFileSync(uri.fsPath, 'utf8') === text ? 'as typed' : 'other'}`,
    );
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
  }
  assert.fail(`the editor did not save ${uri.fsPath}: ${tried.join('; ')}`);
}

/** 0-based line of the first line matching `pattern` in `text`. */
export function lineOf(text: string, pattern: RegExp): number {
  const i = text.split('\n').findIndex((l) => pattern.test(l));
  assert.ok(i >= 0, `no line matches ${pattern}`);
  return i;
}

export function ourDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Lesson Companion');
}

export interface InternalState {
  session?: { lessonId: string; language: string; mainFile: string };
  stepsRead: number[];
  answers: Record<string, { correct: boolean }>;
  lastStatus: string | null;
  lastRefusal: string | null;
  lastRefusalMessage: string | null;
  service: { pid: number | null; starts: number };
  lastInstallRefusal: string | null;
  panelOpen: boolean;
  tests: {
    id: string;
    label: string;
    state?: string;
    message?: string;
    children: { id: string; label: string; state?: string; message?: string; inline?: string; inlineLine?: number }[];
  }[];
}

export async function internalState(): Promise<InternalState> {
  return (await vscode.commands.executeCommand('lessonCompanion.internal.state')) as InternalState;
}

/**
 * A stand-in interpreter that leaves a mark each time it is started, then runs the real python3: proves
 * whether a check ran the learner's program at all.
 */
export function writeMarkingInterpreter(dir: string): { script: string; marker: string } {
  const script = path.join(dir, 'marking-python.sh');
  const marker = path.join(dir, 'interpreter-ran.txt');
  fs.writeFileSync(script, `#!/bin/sh\necho ran >> '${marker}'\nexec python3 "$@"\n`, { mode: 0o755 });
  return { script, marker };
}

/**
 * The extension's own CLI (`bin/lesson-companion.js`) as an author would run it; its stdout. Asynchronous:
 * bundling validates a pack (its model and mutants run), and a synchronous call would block the extension
 * host long enough for the workbench to call it unresponsive.
 */
export async function lessonCompanionCli(...args: string[]): Promise<string> {
  const bin = path.join(extensionPath(), 'bin', 'lesson-companion.js');
  const { stdout } = await promisify(execFile)(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  return stdout;
}
