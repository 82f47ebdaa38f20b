/**
 * A "Check" lens above each function the lesson's mistakes can live in (`pick`, `done`), labelled with
 * what the last check said about that function, so the verdict sits where the fix goes: above the squiggled
 * lines when the check traced them, else above the function. One lens per line.
 */
import * as vscode from 'vscode';
import { squiggleBlock } from '../../core/report/findings';
import { editorMistake } from '../../core/report/editorRung';
import { lensTitle, lensTooltip, mistakesIn, pointedFunctions } from '../../core/report/progress';
import { locateFunction } from '../../core/text/source';
import type { CheckRunner } from '../check/checkRunner';
import type { PackService } from '../lesson/packs';
import type { SessionStore } from '../lesson/session';

export const CHECK_COMMAND = 'lessonCompanion.check';

export class CheckCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly store: SessionStore,
    private readonly packs: PackService,
    private readonly runner: CheckRunner,
  ) {
    const refresh = (): void => this.changed.fire();
    this.subscriptions = [
      store.onDidChange(refresh),
      runner.onDidStart(refresh),
      runner.onDidSettle(refresh),
      packs.onDidChange(refresh),
      vscode.workspace.onDidGrantWorkspaceTrust(refresh),
    ];
  }

  async provideCodeLenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const session = this.store.session;
    if (!session || !this.store.isMainFile(doc.uri)) return [];
    const pack = await this.packs.find(session.lessonId);
    if (!pack) return [];
    const report = this.store.progress(session).lastReport;
    // The lesson's functions, and the learner's own helpers a finding points into.
    const functions = [...new Set([...pack.manifest.mistakes.map((m) => m.function), ...pointedFunctions(report)])];
    // Text search, not the symbol provider: lenses are asked for on every edit and must be instant.
    const text = doc.getText();
    const lenses: vscode.CodeLens[] = [];
    // Two names can find one line (the catalogue's `pick` and a traced `pick`): one lens per line.
    const lensLines = new Set<number>();
    const anchors = this.store.progress(session).lastAnchors;
    for (const fn of functions) {
      // A function whose mistake was traced gets its lens right above the squiggled lines, the lines that ran
      // at the failing command: the verdict reads where the fix goes, on its own row, never past the edge.
      const traced = vscode.workspace.isTrusted ? mistakesIn(report, fn)[0] : undefined;
      const shown = traced && editorMistake(traced, pack.manifest.hints?.maxRung);
      const block = shown ? squiggleBlock(shown, text, session.language, anchors) : null;
      const line = block?.first ?? locateFunction(text, session.language, fn);
      if (!line || lensLines.has(line)) continue;
      lensLines.add(line);
      const range = doc.lineAt(line - 1).range;
      if (!vscode.workspace.isTrusted) {
        // Say why there is no check here, and offer the way to turn it on, instead of a button that refuses.
        lenses.push(
          new vscode.CodeLens(range, {
            title: '$(shield) Check needs a trusted folder',
            command: 'workbench.trust.manage',
            tooltip: 'Checking runs your program; Restricted Mode does not allow that.',
          }),
        );
        continue;
      }
      lenses.push(
        new vscode.CodeLens(range, {
          title: lensTitle(report, fn, this.runner.running),
          tooltip: lensTooltip(report, fn, session.mainFile),
          command: CHECK_COMMAND,
          arguments: [{ reason: 'lens' }],
        }),
      );
    }
    return lenses;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
