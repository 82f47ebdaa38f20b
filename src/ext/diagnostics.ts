/**
 * Named mistakes and located problems of the last check, as diagnostics in the learner's file. Lines
 * are found again in the current text (the learner may have edited since the check), so the squiggle
 * stays on `def pick` even after lines were added above it.
 */
import * as vscode from 'vscode';
import { problemTitle } from '../core/progress';
import type { CheckReport } from '../core/report';
import { safeText } from '../core/text';
import type { CheckRunner } from './checkRunner';
import type { SessionStore } from './session';
import { functionLine } from './symbols';

export const DIAGNOSTIC_SOURCE = 'Lesson Companion';
const RELOCATE_DELAY_MS = 400;

function lineRange(doc: vscode.TextDocument, line: number): vscode.Range {
  const text = doc.lineAt(Math.max(0, Math.min(line, doc.lineCount - 1)));
  return new vscode.Range(text.range.start.translate(0, text.firstNonWhitespaceCharacterIndex), text.range.end);
}

export class MistakeDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('lessonCompanion');
  private readonly subscriptions: vscode.Disposable[] = [];
  private relocateTimer: ReturnType<typeof setTimeout> | undefined;
  /** Each update supersedes the ones still finding symbols. */
  private generation = 0;
  private sessionKey: string | undefined;

  constructor(
    private readonly store: SessionStore,
    runner: CheckRunner,
  ) {
    this.subscriptions.push(
      runner.onDidFinish(() => void this.update()),
      // A new lesson (or none) replaces what the old one said; progress changes (a step read) do not.
      store.onDidChange(() => {
        const s = store.session;
        const key = s ? `${s.folder}|${s.mainFile}|${s.lessonId}|${s.language}` : undefined;
        if (key === this.sessionKey) return;
        this.sessionKey = key;
        void this.update();
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length === 0 || !this.store.isMainFile(e.document.uri)) return;
        clearTimeout(this.relocateTimer);
        this.relocateTimer = setTimeout(() => void this.update(), RELOCATE_DELAY_MS);
      }),
    );
  }

  /** Rebuilds the diagnostics from the stored last report (also after a reload or a new session). */
  async update(): Promise<void> {
    const generation = ++this.generation;
    const session = this.store.session;
    const uri = this.store.mainUri(session);
    const report = this.store.progress(session).lastReport;
    if (!session || !uri || !report) {
      this.collection.clear();
      return;
    }
    let doc: vscode.TextDocument;
    try {
      doc = await vscode.workspace.openTextDocument(uri);
    } catch {
      this.collection.clear();
      return;
    }
    const diagnostics = await buildDiagnostics(doc, report, session.language);
    if (generation !== this.generation) return;
    this.collection.clear();
    this.collection.set(uri, diagnostics);
  }

  dispose(): void {
    clearTimeout(this.relocateTimer);
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
  }
}

export async function buildDiagnostics(doc: vscode.TextDocument, report: CheckReport, language: CheckReport['language']): Promise<vscode.Diagnostic[]> {
  const out: vscode.Diagnostic[] = [];
  for (const mistake of report.mistakes) {
    const line = (await functionLine(doc, mistake.function, language)) ?? (mistake.line ? mistake.line - 1 : 0);
    const d = new vscode.Diagnostic(lineRange(doc, line), safeText(`${mistake.title}: ${mistake.hint}`, { multiline: true }), vscode.DiagnosticSeverity.Error);
    d.source = DIAGNOSTIC_SOURCE;
    d.code = mistake.id;
    out.push(d);
  }
  for (const problem of report.problems) {
    if (typeof problem.line !== 'number' || problem.line < 1) continue;
    const severity = problem.kind === 'unimplemented' ? vscode.DiagnosticSeverity.Information : vscode.DiagnosticSeverity.Error;
    const d = new vscode.Diagnostic(lineRange(doc, problem.line - 1), safeText(`${problemTitle(problem.kind)}: ${problem.message}${problem.advice ? ` ${problem.advice}` : ''}`, { multiline: true }), severity);
    d.source = DIAGNOSTIC_SOURCE;
    d.code = problem.kind;
    out.push(d);
  }
  return out;
}
