/** `lessonCompanion.checkOnSave`: check the learner's file after they save it, debounced. */
import * as vscode from 'vscode';
import type { CheckRunner } from './checkRunner';
import type { SessionStore } from '../lesson/session';
import { readSettings } from '../workbench/settings';

const DEBOUNCE_MS = 600;

export class CheckOnSave implements vscode.Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(store: SessionStore, runner: CheckRunner) {
    this.subscription = vscode.workspace.onDidSaveTextDocument((doc) => {
      // A check saves a dirty file before it runs; that save must not queue another check.
      if (runner.running || !store.isMainFile(doc.uri) || !readSettings(doc.uri).checkOnSave) return;
      clearTimeout(this.timer);
      // "Save All" and format-on-save can save twice in a row: one check is enough.
      this.timer = setTimeout(() => void runner.run('save'), DEBOUNCE_MS);
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscription.dispose();
  }
}
