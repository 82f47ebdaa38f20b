/**
 * The Test Explorer view of a lesson: one item per session, one child per hidden transcript, labelled
 * with its description. One check runs every transcript, so running any item runs the check and reports
 * all of them; checks started elsewhere (panel, CodeLens, save) show up here too, as a run that lasts as
 * long as the check.
 *
 * The numbers are the panel's: only the transcripts get a result, so the header's "passed/total" is the
 * panel's "N of M hidden transcripts pass" and the badge counts the failing transcripts. The root item
 * gets no result of its own (its state is its children's), and no item gets a duration: one check runs
 * them all, and the run's own time in the header is the one duration.
 */
import * as vscode from 'vscode';
import {
  counterexampleSource,
  inlineMessage,
  isLikely,
  inlineMessageFits,
  inlineMessageLine,
  mistakeHeadline,
  mistakeWhere,
} from '../../core/report/findings';
import { editorMistake, editorReport } from '../../core/report/editorRung';
import { checkSummary, failureFocus, mistakeFocus, notRunReason, verdictSentence } from '../../core/report/progress';
import type { CheckReport, Counterexample, NamedMistake } from '../../core/report/report';
import { safeText } from '../../core/text/text';
import { countsNote, traceCells, traceLength, traceTextLines } from '../../core/report/traceView';
import type { CheckRunner } from '../check/checkRunner';
import type { Log } from '../workbench/log';
import type { PackService } from '../lesson/packs';
import type { SessionStore } from '../lesson/session';
import { mistakeRange } from './diagnostics';
import { functionLine } from './symbols';

/** The longest stretch the Test Explorer's report holds the extension host before it lets other work run. */
const REPORT_SLICE_MS = 8;

export type ItemState = 'passed' | 'failed' | 'errored' | 'skipped';

export interface TestTreeSnapshot {
  readonly id: string;
  readonly label: string;
  readonly state?: ItemState;
  readonly message?: string;
  readonly children: readonly {
    readonly id: string;
    readonly label: string;
    readonly state?: ItemState;
    readonly message?: string;
    readonly inline?: string;
    readonly inlineLine?: number;
  }[];
}

interface ItemResult {
  readonly state: ItemState;
  readonly message?: string;
  /** The located message the editor shows after the line, and its 0-based line. */
  readonly inline?: string;
  readonly inlineLine?: number;
}

/** Carriage returns too: the Test Results output is a terminal. */
const terminalText = (lines: readonly string[]): string => `${lines.join('\r\n')}\r\n`;

export class LessonTests implements vscode.Disposable {
  private readonly controller = vscode.tests.createTestController('lessonCompanion', 'Lesson Companion');
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The last outcome per item: the Testing API has no way to read results back. */
  private readonly results = new Map<string, ItemResult>();
  private inTestRun = false;
  /** The run that shows a check started outside the Test Explorer, open while it runs. */
  private mirrorRun: vscode.TestRun | undefined;

  constructor(
    private readonly store: SessionStore,
    private readonly packs: PackService,
    private readonly runner: CheckRunner,
    private readonly log: Log,
  ) {
    this.controller.createRunProfile(
      'Check',
      vscode.TestRunProfileKind.Run,
      (request, token) => this.runTests(request, token),
      true,
    );
    this.controller.refreshHandler = async () => this.refresh();
    this.subscriptions.push(
      store.onDidChange(() => void this.refresh()),
      packs.onDidChange(() => void this.refresh()),
      runner.onDidStart(() => {
        if (!this.inTestRun) void this.startMirror();
      }),
      runner.onDidFinish((e) => {
        if (!this.inTestRun) void this.finishMirror(e.report);
      }),
      runner.onDidSettle(() => {
        // Refused or failed before a report: the run ends without results.
        const run = this.mirrorRun;
        this.mirrorRun = undefined;
        run?.end();
      }),
    );
  }

  /** What the shown items were built from: version, label and transcript names. */
  private shownSignature = '';

  private rootId(): string | undefined {
    const s = this.store.session;
    return s ? `${s.lessonId}/${s.language}` : undefined;
  }

  async refresh(): Promise<void> {
    const session = this.store.session;
    const pack = session ? await this.packs.find(session.lessonId) : undefined;
    const rootId = this.rootId();
    if (!session || !pack || !rootId) {
      this.controller.items.replace([]);
      return;
    }
    // Rebuilding items drops their last results, so only rebuild when the pack itself changed.
    const label = `${pack.manifest.title} (${session.language})`;
    const signature = [
      pack.manifest.version,
      label,
      ...pack.transcripts.map((t) => `${t.name}\t${t.description}`),
    ].join('\n');
    if (this.controller.items.get(rootId) && this.shownSignature === signature) return;
    this.shownSignature = signature;
    const uri = this.store.mainUri(session);
    const root = this.controller.createTestItem(rootId, label, uri);
    root.description = session.mainFile;
    root.children.replace(
      pack.transcripts.map((t) => {
        // Learners see the description; the transcript's name stays an id.
        const item = this.controller.createTestItem(`${rootId}/${t.name}`, t.description || t.name, uri);
        item.description = 'hidden transcript';
        return item;
      }),
    );
    this.controller.items.replace([root]);
  }

  private async runTests(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    await this.refresh();
    const run = this.controller.createTestRun(request, 'Check');
    const items = this.transcriptItems();
    items.forEach((i) => run.started(i));
    this.inTestRun = true;
    try {
      const report = token.isCancellationRequested ? undefined : await this.runner.run('test');
      if (!report) {
        const why =
          this.runner.lastRefusal === 'untrusted'
            ? 'Not run: this workspace is in Restricted Mode.'
            : 'Not run: the check could not start.';
        run.appendOutput(`${why}\r\n`);
        items.forEach((i) => {
          run.skipped(i);
          this.results.set(i.id, { state: 'skipped', message: why });
        });
        return;
      }
      await this.report(run, report);
    } finally {
      this.inTestRun = false;
      run.end();
    }
  }

  /** The hidden transcripts' items: one check runs them all, whichever item was asked for. */
  private transcriptItems(): vscode.TestItem[] {
    const out: vscode.TestItem[] = [];
    this.controller.items.forEach((root) => root.children.forEach((c) => out.push(c)));
    return out;
  }

  /** A check started outside the Test Explorer: a run that lasts as long as the check. */
  private async startMirror(): Promise<void> {
    await this.refresh();
    this.mirrorRun?.end();
    const run = this.controller.createTestRun(new vscode.TestRunRequest(), 'Check', false);
    this.mirrorRun = run;
    this.transcriptItems().forEach((i) => run.started(i));
  }

  private async finishMirror(report: CheckReport): Promise<void> {
    let run = this.mirrorRun;
    this.mirrorRun = undefined;
    try {
      if (!run) {
        await this.refresh();
        run = this.controller.createTestRun(new vscode.TestRunRequest(), 'Check', false);
      }
      await this.report(run, report);
    } catch (error) {
      this.log.error('could not show the check in the Test Explorer', error);
    } finally {
      run?.end();
    }
  }

  /** A place in the learner's file (0-based line): a mistake's lines or function, else where the failure points. */
  private async locate(focus: { function: string | null; line: number | null }): Promise<vscode.Location | undefined> {
    const session = this.store.session;
    const uri = this.store.mainUri(session);
    if (!session || !uri) return undefined;
    let line = focus.line ? focus.line - 1 : 0;
    if (focus.function && !focus.line) {
      try {
        line =
          (await functionLine(await vscode.workspace.openTextDocument(uri), focus.function, session.language)) ?? line;
      } catch {
        // The file is gone: line 1 of it is still the best place to point at.
      }
    }
    return new vscode.Location(uri, new vscode.Position(line, 0));
  }

  /** Where a mistake's one-line message goes: a short line of its traced code or its function, with room beside it. */
  private async mistakeLocation(found: NamedMistake): Promise<vscode.Location | undefined> {
    const session = this.store.session;
    const pack = session ? await this.packs.find(session.lessonId) : undefined;
    const m = editorMistake(found, pack?.manifest.hints?.maxRung);
    const uri = this.store.mainUri(session);
    if (!session || !uri) return undefined;
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      const line = inlineMessageLine(m, doc.getText(), session.language, this.store.progress(session).lastAnchors);
      const at = line
        ? new vscode.Position(line - 1, 0)
        : (await mistakeRange(doc, m, session.language, this.store.progress(session).lastAnchors)).start;
      // No badge where it would be cut at the editor's edge: the squiggle, its lens and its hover still say it.
      if (!inlineMessageFits(doc.lineAt(at.line).text, inlineMessage(m))) return undefined;
      return new vscode.Location(uri, at);
    } catch {
      return this.locate(mistakeFocus(m));
    }
  }

  private async report(run: vscode.TestRun, whole: CheckReport): Promise<void> {
    const session = this.store.session;
    const pack = session ? await this.packs.find(session.lessonId) : undefined;
    const report = editorReport(whole, pack?.manifest.hints?.maxRung);
    const rootId = this.rootId();
    const root = rootId ? this.controller.items.get(rootId) : undefined;
    if (!root) return;
    const fallback = await this.locate(failureFocus(report));
    const located = new Map<string, vscode.Location | undefined>();
    for (const m of report.mistakes) located.set(m.id, await this.mistakeLocation(m));
    const set = (item: vscode.TestItem, state: ItemState, messages: vscode.TestMessage[] = []): void => {
      const inline = messages.find((m) => m.location);
      this.results.set(item.id, {
        state,
        ...(messages.length
          ? { message: messages.map((m) => (typeof m.message === 'string' ? m.message : m.message.value)).join('\n') }
          : {}),
        ...(inline ? { inline: String(inline.message), inlineLine: inline.location!.range.start.line } : {}),
      });
      if (state === 'passed') run.passed(item);
      else if (state === 'failed') run.failed(item, messages);
      else if (state === 'errored') run.errored(item, messages);
      else run.skipped(item);
    };
    const problem = report.problems[0];
    const items: vscode.TestItem[] = [];
    root.children.forEach((item) => void items.push(item));
    // VS Code turns every message into markdown in this process (its lexer runs on each one): a check with
    // many failing transcripts would hold the extension host for tens of milliseconds. Yield between slices.
    let sliceStarted = performance.now();
    for (const item of items) {
      if (performance.now() - sliceStarted > REPORT_SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
      const verdict = report.transcripts.find((t) => item.id === `${root.id}/${t.name}`);
      if (report.status === 'error' || !verdict) {
        const msg = new vscode.TestMessage(
          problem
            ? safeText(`${problem.message}${problem.advice ? `\n${problem.advice}` : ''}`, { multiline: true })
            : 'The program could not be checked.',
        );
        if (fallback) msg.location = fallback;
        set(item, 'errored', [msg]);
      } else if (verdict.passed) {
        set(item, 'passed');
      } else if (verdict.notRun) {
        // Not evidence either way, and about no line of the program: said in the Test Results, not beside the code.
        // Why it did not run is the header's reason (a hang, a flood, or too many crashes).
        set(item, 'errored', [new vscode.TestMessage(`Not run: ${notRunReason(report)}.`)]);
      } else {
        set(item, 'failed', this.failureMessages(report, verdict, located));
      }
    }
    const failing = report.transcripts.filter((t) => !t.passed).length;
    this.results.set(root.id, {
      state:
        report.status === 'pass'
          ? 'passed'
          : report.status === 'error'
            ? 'errored'
            : failing > 0 || report.status === 'fail'
              ? 'failed'
              : 'passed',
      message: `${checkSummary(report)}. ${verdictSentence(report)}`,
    });
    run.appendOutput(terminalText(this.outputLines(report)));
  }

  /**
   * A failing transcript's messages: a short one on the line its mistake points at (the editor shows it
   * after that line), the answers side by side, and the smallest trace when it came from this transcript.
   */
  private failureMessages(
    report: CheckReport,
    verdict: CheckReport['transcripts'][number],
    located: Map<string, vscode.Location | undefined>,
  ): vscode.TestMessage[] {
    const mistake = report.mistakes.find((m) => m.revealedBy.includes(verdict.name));
    const at = verdict.divergesAt !== undefined ? ` at command ${verdict.divergesAt + 1}` : '';
    const messages: vscode.TestMessage[] = [];
    // Only a message that names a mistake goes beside the code; a bare difference has no line to stand on.
    const short = new vscode.TestMessage(mistake ? inlineMessage(mistake) : `✗ The answers differ${at}`);
    // The Testing view draws every located message red: a likely mistake (a yellow squiggle) gets none beside the code.
    const where = mistake && !isLikely(mistake) ? located.get(mistake.id) : undefined;
    if (where) short.location = where;
    messages.push(short);
    messages.push(
      vscode.TestMessage.diff(
        `${verdict.description || 'This transcript'}: the answers differ${at}`,
        (verdict.expected ?? []).join('\n'),
        (verdict.actual ?? []).join('\n'),
      ),
    );
    const example = mistake?.counterexample ?? (report.mistakes.length === 0 ? report.counterexample : null);
    if (example && example.transcript === verdict.name)
      messages.push(new vscode.TestMessage(this.traceMessage(report, example, mistake)));
    return messages;
  }

  /**
   * The smallest trace as the command line prints it: aligned text, which the Test Results peek shows in an
   * editor's fixed-width font. (A MarkdownString would be lexed in this process by VS Code, cold on a
   * window's first check, for longer than a check may hold the extension host.)
   */
  private traceMessage(report: CheckReport, example: Counterexample, mistake: NamedMistake | undefined): string {
    const cells = traceCells(example);
    const lines: string[] = [];
    if (mistake) lines.push(`${mistakeHeadline(mistake)}. ${mistakeWhere(mistake).text}`, '');
    lines.push(
      `Smallest transcript that shows it (${traceLength(cells)}, from ${counterexampleSource(example, report)}):`,
      '',
    );
    lines.push(...traceTextLines(cells), '', countsNote(cells));
    if (example.replay) lines.push('', "Replay it yourself, from your file's folder:", safeText(example.replay.shell));
    return lines.join('\n');
  }

  /** The Test Results output: the verdict, then each mistake with its trace as aligned text. */
  private outputLines(report: CheckReport): string[] {
    const out = [checkSummary(report), verdictSentence(report)];
    for (const m of report.mistakes) {
      out.push('', `${mistakeHeadline(m)}. ${mistakeWhere(m).text}`);
      if (m.counterexample) {
        out.push(
          `Smallest transcript that shows it (${traceLength(traceCells(m.counterexample))}, from ${counterexampleSource(m.counterexample, report)}):`,
        );
        out.push(...traceTextLines(traceCells(m.counterexample)));
        if (m.counterexample.replay) out.push(`Replay it yourself: ${safeText(m.counterexample.replay.shell)}`);
      }
    }
    return out;
  }

  /** For the integration tests (lessonCompanion.internal.state): the tree and each item's last state. */
  snapshot(): TestTreeSnapshot[] {
    const out: TestTreeSnapshot[] = [];
    this.controller.items.forEach((root) => {
      const children: TestTreeSnapshot['children'][number][] = [];
      root.children.forEach((c) => children.push({ id: c.id, label: c.label, ...this.results.get(c.id) }));
      out.push({ id: root.id, label: root.label, ...this.results.get(root.id), children });
    });
    return out;
  }

  dispose(): void {
    this.mirrorRun?.end();
    for (const s of this.subscriptions) s.dispose();
    this.controller.dispose();
  }
}
