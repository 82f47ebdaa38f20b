/**
 * Quick fixes on a named-mistake diagnostic that lead back into the lesson: read the step that teaches
 * the mistake, or see its card (trace, question) in the panel. They change no code: the learner fixes it.
 */
import * as vscode from 'vscode';
import { mistakeTitle } from '../../core/report/findings';
import { COMMANDS } from '../workbench/commands';
import { DIAGNOSTIC_SOURCE, type MistakeDiagnostics } from './diagnostics';
import type { SessionStore } from '../lesson/session';

export class LessonCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(
    private readonly store: SessionStore,
    private readonly diagnostics: Pick<MistakeDiagnostics, 'mistakeFor'>,
  ) {}

  provideCodeActions(
    doc: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    if (!this.store.isMainFile(doc.uri)) return [];
    const report = this.store.progress().lastReport;
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      if (diagnostic.source !== DIAGNOSTIC_SOURCE) continue;
      const id = this.diagnostics.mistakeFor(diagnostic);
      const mistake = report?.mistakes.find((m) => m.id === id);
      if (!mistake) continue;
      const show = new vscode.CodeAction(
        `Lesson: show "${mistakeTitle(mistake)}" in the lesson panel`,
        vscode.CodeActionKind.QuickFix,
      );
      show.command = {
        title: show.title,
        command: COMMANDS.openPanel,
        arguments: [{ reveal: { kind: 'mistake', id: mistake.id } }],
      };
      show.diagnostics = [diagnostic];
      actions.push(show);
      if (mistake.step !== undefined) {
        const read = new vscode.CodeAction(`Lesson: read step ${mistake.step} again`, vscode.CodeActionKind.QuickFix);
        read.command = { title: read.title, command: COMMANDS.openStep, arguments: [mistake.step] };
        read.diagnostics = [diagnostic];
        actions.push(read);
      }
    }
    return actions;
  }
}
