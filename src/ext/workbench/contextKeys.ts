/** Context keys for when-clauses in package.json menus: is a lesson on, and which file is the learner's. */
import * as vscode from 'vscode';
import type { SessionStore } from '../lesson/session';

export function updateContextKeys(store: SessionStore): void {
  const main = store.mainUri();
  void vscode.commands.executeCommand('setContext', 'lessonCompanion.active', main !== undefined);
  // `resourcePath in lessonCompanion.mainFiles` puts the Check button on the learner's editor only.
  void vscode.commands.executeCommand('setContext', 'lessonCompanion.mainFiles', main ? [...new Set([main.fsPath, main.path])] : []);
}
