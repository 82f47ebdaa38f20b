/**
 * Rung 4 of the hint ladder in the editor: "Show a fix" opens VS Code's diff view of the learner's file
 * beside a fixed copy, and a Quick Fix applies it; the next check runs as usual. The fix comes from the check
 * service (lessonCompanion/repair), which shows one only once it passes every hidden transcript and the
 * generated ones at two seeds in the sandbox. It is offered for a mistake only after an earlier check already
 * showed that mistake's smallest transcript (rung 3), and never when the lesson caps the ladder lower.
 */
import * as vscode from 'vscode';
import { applyPatch } from 'diff';
import type { CheckReport } from '../../core/report/report';
import { isFound, repairSentence, verifiedText, type RepairFound, type RepairResult } from '../../core/repair/result';
import { fixOffered, rungThreeSeen } from '../../core/repair/ladder';
import type { CheckRunner } from '../check/checkRunner';
import type { ServiceHost } from '../check/serviceHost';
import type { Log } from '../workbench/log';
import type { PackService } from '../lesson/packs';
import type { SessionStore } from '../lesson/session';

export const SHOW_FIX_COMMAND = 'lessonCompanion.showFix';
const SCHEME = 'lesson-fix';

interface KeptFix {
  readonly file: vscode.Uri;
  /** The file's text the fix was found for: the Quick Fix applies only to that text. */
  readonly before: string;
  readonly after: string;
  readonly result: RepairFound;
}

export class FixActions implements vscode.CodeActionProvider, vscode.TextDocumentContentProvider, vscode.Disposable {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];
  /** Mistakes whose smallest transcript a check has shown, this session ("lesson/mistake"). */
  private readonly seen = new Set<string>();
  /** Mistakes of the last check a fix may be offered for. */
  private offered: readonly string[] = [];
  private fix: KeptFix | undefined;
  private readonly maxRung = new Map<string, number | undefined>();
  private processed: CheckReport | undefined;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly store: SessionStore,
    private readonly packs: PackService,
    private readonly service: ServiceHost,
    runner: CheckRunner,
    private readonly log: Log,
  ) {
    this.subscriptions.push(runner.onDidFinish(({ report }) => this.checked(report)));
  }

  /** After each check: which mistakes reach rung 4 now, then this check's rung 3s count for the next. */
  private checked(report: CheckReport): void {
    const session = this.store.session;
    if (!session) return;
    const lesson = session.lessonId;
    const seenBefore = new Set(
      [...this.seen].filter((k) => k.startsWith(`${lesson}/`)).map((k) => k.slice(lesson.length + 1)),
    );
    // The lesson's cap is asked of the service too (repairFile); here it only hides the button.
    this.offered = fixOffered(report, seenBefore, this.maxRung.get(lesson));
    for (const id of rungThreeSeen(report)) this.seen.add(`${lesson}/${id}`);
    this.fix = undefined;
    if (!this.maxRung.has(lesson))
      void this.packs.find(lesson).then((pack) => {
        this.maxRung.set(lesson, pack?.manifest.hints?.maxRung);
        if (pack?.manifest.hints?.maxRung !== undefined && pack.manifest.hints.maxRung < 4) this.offered = [];
      });
  }

  /** True when the last check's card may show "Show a fix" for this mistake. */
  offers(mistakeId: string): boolean {
    return this.offered.includes(mistakeId);
  }

  /**
   * The same for a report the panel is about to show: the last one processed, or a newer one the panel shows
   * before this object heard of its check (then every mistake seen so far was seen in an earlier check).
   */
  offersFor(report: CheckReport | null | undefined, mistakeId: string): boolean {
    if (!report) return false;
    if (this.processed && sameCheck(report, this.processed)) return this.offers(mistakeId);
    const lesson = this.store.session?.lessonId ?? '';
    return fixOffered(report, this.seenIn(lesson), this.maxRung.get(lesson)).includes(mistakeId);
  }

  private seenIn(lesson: string): Set<string> {
    return new Set([...this.seen].filter((k) => k.startsWith(`${lesson}/`)).map((k) => k.slice(lesson.length + 1)));
  }

  async showFix(mistakeId?: string): Promise<RepairFound | undefined> {
    const report = this.store.progress().lastReport;
    const session = this.store.session;
    const file = this.store.mainUri(session);
    if (!report || !session || !file) return undefined;
    if (mistakeId ? !this.offers(mistakeId) : this.offered.length === 0) {
      void vscode.window.showInformationMessage(
        'A fix is shown once a check has already shown you the smallest transcript for this mistake, and not when the lesson keeps its hints shorter.',
      );
      return undefined;
    }
    const target = await this.service.target();
    if (!target) return undefined;
    const before = (await vscode.workspace.openTextDocument(file)).getText();
    let result: RepairResult;
    try {
      result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Looking for a fix that passes every test…' },
        () => this.service.client.repair({ ...target, file: file.fsPath, report }),
      );
    } catch (error) {
      this.log.error('repair failed', error);
      void vscode.window.showWarningMessage(`No fix could be looked for: ${(error as Error).message ?? String(error)}`);
      return undefined;
    }
    this.log.info(
      `repair: ${isFound(result) ? result.edit : result.reason} (${result.candidates} tried, ${result.searchMs} ms)`,
    );
    if (!isFound(result)) {
      void vscode.window.showInformationMessage(repairSentence(result));
      return undefined;
    }
    const after = applyPatch(before, result.patch);
    if (after === false) return undefined;
    this.fix = { file, before, after, result };
    const fixed = vscode.Uri.from({ scheme: SCHEME, path: file.path, query: String(Date.now()) });
    this.changed.fire(fixed);
    await vscode.commands.executeCommand(
      'vscode.diff',
      file,
      fixed,
      `Your file ↔ a fix that ${verifiedText(result.verified)}`,
    );
    return result;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.fix && this.fix.file.path === uri.path ? this.fix.after : '';
  }

  provideCodeActions(doc: vscode.TextDocument): vscode.CodeAction[] {
    if (!this.store.isMainFile(doc.uri)) return [];
    if (this.fix && this.fix.file.toString() === doc.uri.toString() && doc.getText() === this.fix.before) {
      const apply = new vscode.CodeAction('Lesson: apply the verified fix', vscode.CodeActionKind.QuickFix);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), this.fix.after);
      apply.edit = edit;
      apply.isPreferred = false;
      return [apply];
    }
    if (this.offered.length === 0) return [];
    const show = new vscode.CodeAction('Lesson: show a fix (a diff of your file)', vscode.CodeActionKind.QuickFix);
    show.command = { title: show.title, command: SHOW_FIX_COMMAND, arguments: [this.offered[0]] };
    return [show];
  }

  dispose(): void {
    this.changed.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

/** The same check's report, though one may be a copy (the session keeps reports in workspaceState). */
function sameCheck(a: CheckReport, b: CheckReport): boolean {
  return a.file === b.file && a.durationMs === b.durationMs && a.processRuns === b.processRuns;
}

export function registerFixActions(
  context: vscode.ExtensionContext,
  actions: FixActions,
  files: vscode.DocumentSelector,
): void {
  context.subscriptions.push(
    actions,
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, actions),
    vscode.commands.registerCommand(SHOW_FIX_COMMAND, (mistakeId?: string) => actions.showFix(mistakeId)),
    vscode.languages.registerCodeActionsProvider(files, actions, { providedCodeActionKinds: FixActions.kinds }),
  );
}
