/**
 * Context keys for when-clauses in package.json menus (is a lesson on, and which file is the learner's) and
 * for the first-run walkthrough, whose steps complete on the learner's own progress: a step read, a check
 * finished, a question answered (and a card's lines opened, set by the panel: `markCardRead`).
 */
import * as vscode from 'vscode';
import type { SessionStore } from '../lesson/session';

export function updateContextKeys(store: SessionStore): void {
  const main = store.mainUri();
  void vscode.commands.executeCommand('setContext', 'lessonCompanion.active', main !== undefined);
  // `resourcePath in lessonCompanion.mainFiles` puts the Check button on the learner's editor only.
  void vscode.commands.executeCommand(
    'setContext',
    'lessonCompanion.mainFiles',
    main ? [...new Set([main.fsPath, main.path])] : [],
  );
  const progress = store.session ? store.progress() : undefined;
  void vscode.commands.executeCommand('setContext', 'lessonCompanion.stepRead', (progress?.stepsRead.length ?? 0) > 0);
  void vscode.commands.executeCommand('setContext', 'lessonCompanion.checked', Boolean(progress?.lastReport));
  void vscode.commands.executeCommand(
    'setContext',
    'lessonCompanion.answered',
    Object.keys(progress?.answers ?? {}).length > 0,
  );
}

/** The walkthrough's "read a mistake's card" step: the learner opened a card's lines. */
export function markCardRead(): void {
  void vscode.commands.executeCommand('setContext', 'lessonCompanion.cardRead', true);
}
