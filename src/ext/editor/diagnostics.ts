/**
 * Named mistakes and located problems of the last check, as diagnostics in the learner's file. A mistake
 * sits on the lines that ran when the program went wrong (a helper's, if that is where they are), else on
 * its function; a likely one is a warning that says "likely". Lines are found again in the current text
 * (the learner may have edited since the check), so the squiggle follows its code when lines are added
 * above it. No internal ids show: the quick fixes find a diagnostic's mistake through `mistakeFor`. A pack whose
 * `hints.maxRung` is 1 gets only the function's name underlined, as its card (core/report/editorRung.ts decides).
 */
import * as vscode from 'vscode';
import { mistakeFunction, mistakeSeverity, squiggleBlock, type FunctionAnchors } from '../../core/report/findings';
import { editorMessage, editorMistake } from '../../core/report/editorRung';
import { problemTitle } from '../../core/report/progress';
import type { CheckReport } from '../../core/report/report';
import { safeText } from '../../core/text/text';
import type { CheckRunner } from '../check/checkRunner';
import type { PackService } from '../lesson/packs';
import type { SessionStore } from '../lesson/session';
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
  /** `line:message` → mistake id, for the quick fixes. */
  private mistakeIds = new Map<string, string>();

  constructor(
    private readonly store: SessionStore,
    runner: CheckRunner,
    /** The lesson's pack, for its `hints.maxRung`: what the squiggle may show is the card's (core/report/editorRung). */
    private readonly packs: Pick<PackService, 'find'>,
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
    const maxRung = (await this.packs.find(session.lessonId))?.manifest.hints?.maxRung;
    const anchors = this.store.progress(session).lastAnchors;
    const built = await buildDiagnostics(doc, report, session.language, anchors, maxRung);
    if (generation !== this.generation) return;
    this.mistakeIds = new Map(built.filter((b) => b.mistakeId).map((b) => [diagnosticKey(b.diagnostic), b.mistakeId!]));
    this.collection.clear();
    this.collection.set(
      uri,
      built.map((b) => b.diagnostic),
    );
  }

  /** The mistake a diagnostic of ours stands for (diagnostics come back to code actions as copies). */
  mistakeFor(diagnostic: vscode.Diagnostic): string | undefined {
    return this.mistakeIds.get(diagnosticKey(diagnostic));
  }

  dispose(): void {
    clearTimeout(this.relocateTimer);
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
  }
}

const diagnosticKey = (d: vscode.Diagnostic): string => `${d.range.start.line}:${d.message}`;

export interface BuiltDiagnostic {
  readonly diagnostic: vscode.Diagnostic;
  readonly mistakeId?: string;
}

/** Where a mistake's squiggle goes: its traced lines (the leading block of them), else its function's line. */
export async function mistakeRange(
  doc: vscode.TextDocument,
  mistake: CheckReport['mistakes'][number],
  language: CheckReport['language'],
  anchors?: FunctionAnchors,
): Promise<vscode.Range> {
  const block = squiggleBlock(mistake, doc.getText(), language, anchors);
  if (block) {
    const first = lineRange(doc, block.first - 1);
    return new vscode.Range(first.start, lineRange(doc, block.last - 1).end);
  }
  const name = mistakeFunction(mistake);
  const line = (await functionLine(doc, name, language)) ?? (mistake.line ? mistake.line - 1 : 0);
  return nameRange(doc, line, name);
}

/**
 * The function's name on its `def` line, not the whole line: the def is not where the mistake is, and a
 * squiggle under all of it would say it is. The whole line when the name is not on it.
 */
function nameRange(doc: vscode.TextDocument, line: number, name: string): vscode.Range {
  const whole = lineRange(doc, line);
  const text = doc.lineAt(whole.start.line).text;
  const at = new RegExp(`(?<![\\w$])${name.replace(/[$]/g, '\\$&')}(?![\\w$])`).exec(text);
  return at ? new vscode.Range(whole.start.line, at.index, whole.start.line, at.index + name.length) : whole;
}

/** `maxRung`: the pack's `hints.maxRung`; at 1 a squiggle is only its function's name, as the card (editorRung.ts). */
export async function buildDiagnostics(
  doc: vscode.TextDocument,
  report: CheckReport,
  language: CheckReport['language'],
  anchors?: FunctionAnchors,
  maxRung?: number,
): Promise<BuiltDiagnostic[]> {
  const out: BuiltDiagnostic[] = [];
  for (const mistake of report.mistakes) {
    const severity =
      mistakeSeverity(mistake) === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error;
    const d = new vscode.Diagnostic(
      await mistakeRange(doc, editorMistake(mistake, maxRung), language, anchors),
      safeText(editorMessage(mistake, maxRung), { multiline: true }),
      severity,
    );
    d.source = DIAGNOSTIC_SOURCE;
    out.push({ diagnostic: d, mistakeId: mistake.id });
  }
  for (const problem of report.problems) {
    if (typeof problem.line !== 'number' || problem.line < 1) continue;
    const severity =
      problem.kind === 'unimplemented' ? vscode.DiagnosticSeverity.Information : vscode.DiagnosticSeverity.Error;
    const d = new vscode.Diagnostic(
      lineRange(doc, problem.line - 1),
      safeText(`${problemTitle(problem.kind)}: ${problem.message}${problem.advice ? ` ${problem.advice}` : ''}`, {
        multiline: true,
      }),
      severity,
    );
    d.source = DIAGNOSTIC_SOURCE;
    out.push({ diagnostic: d });
  }
  return out;
}
