/**
 * The read order, acted out: a step opens its file, reveals its symbol and briefly highlights it; a step
 * with a `run` command runs it in a terminal at the workspace root. Either ticks the step.
 */
import * as vscode from 'vscode';
import { mistakeFunction } from '../../core/report/findings';
import { editorMistake } from '../../core/report/editorRung';
import { stepCommand } from '../../core/report/progress';
import type { NamedMistake } from '../../core/report/report';
import type { ReadStep } from '../../core/pack/schema';
import { UNTRUSTED_MESSAGE } from '../check/checkRunner';
import { mistakeRange } from './diagnostics';
import type { Log } from '../workbench/log';
import type { PackService } from '../lesson/packs';
import type { Session, SessionStore } from '../lesson/session';
import { locateSymbol, type Located } from './symbols';

const HIGHLIGHT_MS = 1800;
const TERMINAL_NAME = 'Lesson Companion';

export class StepNavigator implements vscode.Disposable {
  private readonly highlight = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('editor.findMatchHighlightBackground'),
    border: '1px solid',
    borderColor: new vscode.ThemeColor('editor.findMatchHighlightBorder'),
    isWholeLine: true,
  });
  private clearTimer: ReturnType<typeof setTimeout> | undefined;
  private terminal: vscode.Terminal | undefined;

  constructor(
    private readonly store: SessionStore,
    private readonly packs: PackService,
    private readonly log: Log,
  ) {}

  private async step(index: number): Promise<{ session: Session; step: ReadStep } | undefined> {
    const session = this.store.session;
    const pack = session ? await this.packs.find(session.lessonId) : undefined;
    const step = pack?.manifest.readOrder[index - 1];
    if (!session || !step) {
      this.log.warn(`no read-order step ${index} in the active lesson`);
      return undefined;
    }
    return { session, step };
  }

  /** Opens step `index` (1-based) and ticks it; returns where it landed, for tests and the panel. */
  async open(index: number): Promise<Located | undefined> {
    const found = await this.step(index);
    if (!found) return undefined;
    const { session, step } = found;
    // Pack paths are validated relative paths (no "..", no drive), so this stays inside the workspace folder.
    const uri = vscode.Uri.joinPath(this.store.folderUri(session)!, ...(step.file ?? session.mainFile).split('/'));
    // A step with neither symbol nor pattern is about the file as a whole: its top.
    const located = await this.show(
      uri,
      step.symbol ?? (step.pattern ? undefined : '#top'),
      session.language,
      step.pattern,
    );
    await this.store.markStepRead(index);
    return located;
  }

  /** Shows a function of the learner's file, e.g. the one a mistake card names. */
  async revealFunction(name: string): Promise<Located | undefined> {
    const session = this.store.session;
    const uri = this.store.mainUri(session);
    return session && uri ? this.show(uri, name, session.language) : undefined;
  }

  /** Shows where a mistake points: the lines that ran when the program went wrong, else its function. */
  async revealMistake(found: NamedMistake): Promise<vscode.Range | undefined> {
    const session = this.store.session;
    const pack = session ? await this.packs.find(session.lessonId) : undefined;
    const mistake = editorMistake(found, pack?.manifest.hints?.maxRung);
    const uri = this.store.mainUri(session);
    if (!session || !uri || !mistake.location?.lines.length) {
      const located = await this.revealFunction(mistakeFunction(mistake));
      return located?.range;
    }
    let doc: vscode.TextDocument;
    try {
      doc = await vscode.workspace.openTextDocument(uri);
    } catch {
      return undefined;
    }
    const range = await mistakeRange(doc, mistake, session.language, this.store.progress(session).lastAnchors);
    const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    const editor = await vscode.window.showTextDocument(doc, {
      viewColumn: visible?.viewColumn ?? vscode.ViewColumn.One,
      preserveFocus: false,
      preview: false,
    });
    editor.selection = new vscode.Selection(range.start, range.start);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    this.flash(editor, range);
    return range;
  }

  private async show(
    uri: vscode.Uri,
    symbol: string | undefined,
    language: Session['language'],
    pattern?: string,
  ): Promise<Located | undefined> {
    let doc: vscode.TextDocument;
    try {
      doc = await vscode.workspace.openTextDocument(uri);
    } catch {
      void vscode.window.showWarningMessage(`${vscode.workspace.asRelativePath(uri)} does not exist (yet).`);
      return undefined;
    }
    const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    const editor = await vscode.window.showTextDocument(doc, {
      viewColumn: visible?.viewColumn ?? vscode.window.visibleTextEditors[0]?.viewColumn ?? vscode.ViewColumn.One,
      preserveFocus: false,
      preview: false,
    });
    let located = await locateSymbol(doc, symbol, language, pattern);
    if (!located) {
      void vscode.window.showInformationMessage(
        `Could not find "${symbol ?? pattern}" in ${vscode.workspace.asRelativePath(uri)}; it may have been renamed.`,
      );
      located = await locateSymbol(doc, '#top', language);
    }
    if (located) {
      editor.selection = new vscode.Selection(located.selection.start, located.selection.end);
      editor.revealRange(located.range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      this.flash(editor, located.range);
    }
    return located;
  }

  /** A short highlight of the whole symbol, so the eye finds it; the selection stays. */
  private flash(editor: vscode.TextEditor, range: vscode.Range): void {
    clearTimeout(this.clearTimer);
    for (const e of vscode.window.visibleTextEditors) e.setDecorations(this.highlight, []);
    editor.setDecorations(this.highlight, [range]);
    this.clearTimer = setTimeout(() => editor.setDecorations(this.highlight, []), HIGHLIGHT_MS);
  }

  /** Runs step `index`'s command in a terminal at the workspace root: that runs learner code, so trust first. */
  async run(index: number): Promise<boolean> {
    const found = await this.step(index);
    if (!found) return false;
    const { session, step } = found;
    const command = stepCommand(step, session.language);
    if (!command) {
      void vscode.window.showInformationMessage(`Step ${index} has no command for ${session.language}.`);
      return false;
    }
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(UNTRUSTED_MESSAGE);
      return false;
    }
    if (!this.terminal || this.terminal.exitStatus !== undefined) {
      this.terminal = vscode.window.createTerminal({ name: TERMINAL_NAME, cwd: this.store.folderUri(session) });
    }
    this.terminal.show();
    this.terminal.sendText(command, true);
    await this.store.markStepRead(index);
    return true;
  }

  dispose(): void {
    clearTimeout(this.clearTimer);
    this.highlight.dispose();
    this.terminal?.dispose();
  }
}
