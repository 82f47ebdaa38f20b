/**
 * The Test Explorer view of a lesson: one item per session, one child per hidden transcript. One check
 * runs every transcript, so running any item runs the check and reports all of them; checks started
 * elsewhere (panel, CodeLens, save) show up here too.
 */
import * as vscode from 'vscode';
import { checkSummary, failureFocus } from '../core/progress';
import type { CheckReport } from '../core/report';
import { safeText } from '../core/text';
import type { CheckRunner } from './checkRunner';
import type { Log } from './log';
import type { PackService } from './packs';
import type { SessionStore } from './session';
import { functionLine } from './symbols';

export type ItemState = 'passed' | 'failed' | 'errored' | 'skipped';

export interface TestTreeSnapshot {
  readonly id: string;
  readonly label: string;
  readonly state?: ItemState;
  readonly message?: string;
  readonly children: readonly { readonly id: string; readonly label: string; readonly state?: ItemState; readonly message?: string }[];
}

export class LessonTests implements vscode.Disposable {
  private readonly controller = vscode.tests.createTestController('lessonCompanion', 'Lesson Companion');
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The last outcome per item: the Testing API has no way to read results back. */
  private readonly results = new Map<string, { state: ItemState; message?: string }>();
  private inTestRun = false;

  constructor(
    private readonly store: SessionStore,
    private readonly packs: PackService,
    private readonly runner: CheckRunner,
    private readonly log: Log,
  ) {
    this.controller.createRunProfile('Check', vscode.TestRunProfileKind.Run, (request, token) => this.runTests(request, token), true);
    this.controller.refreshHandler = async () => this.refresh();
    this.subscriptions.push(
      store.onDidChange(() => void this.refresh()),
      packs.onDidChange(() => void this.refresh()),
      runner.onDidFinish((e) => {
        if (!this.inTestRun) void this.mirror(e.report);
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
    const signature = [pack.manifest.version, label, ...pack.transcripts.map((t) => t.name)].join('\n');
    if (this.controller.items.get(rootId) && this.shownSignature === signature) return;
    this.shownSignature = signature;
    const uri = this.store.mainUri(session);
    const root = this.controller.createTestItem(rootId, label, uri);
    root.description = session.mainFile;
    root.children.replace(
      pack.transcripts.map((t) => {
        const item = this.controller.createTestItem(`${rootId}/${t.name}`, t.name, uri);
        item.description = t.description;
        return item;
      }),
    );
    this.controller.items.replace([root]);
  }

  private async runTests(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    await this.refresh();
    const run = this.controller.createTestRun(request, 'Check');
    const items = this.itemsFor(request);
    items.forEach((i) => run.started(i));
    this.inTestRun = true;
    try {
      const report = token.isCancellationRequested ? undefined : await this.runner.run('test');
      if (!report) {
        const why = this.runner.lastRefusal === 'untrusted' ? 'Not run: this workspace is in Restricted Mode.' : 'Not run: the check could not start.';
        run.appendOutput(`${why}\r\n`);
        items.forEach((i) => {
          run.skipped(i);
          this.results.set(i.id, { state: 'skipped', message: why });
        });
        return;
      }
      await this.report(run, report, new Set(items.map((i) => i.id)));
    } finally {
      this.inTestRun = false;
      run.end();
    }
  }

  /** Every requested item and its children (all items when the request names none), minus exclusions. */
  private itemsFor(request: vscode.TestRunRequest): vscode.TestItem[] {
    const excluded = new Set((request.exclude ?? []).map((i) => i.id));
    const out: vscode.TestItem[] = [];
    const visit = (item: vscode.TestItem): void => {
      if (excluded.has(item.id)) return;
      out.push(item);
      item.children.forEach(visit);
    };
    if (request.include?.length) request.include.forEach(visit);
    else this.controller.items.forEach(visit);
    return out;
  }

  /** A check started outside the Test Explorer: show its verdicts there as well. */
  private async mirror(report: CheckReport): Promise<void> {
    await this.refresh();
    const run = this.controller.createTestRun(new vscode.TestRunRequest(), 'Check', false);
    try {
      await this.report(run, report, undefined);
    } catch (error) {
      this.log.error('could not show the check in the Test Explorer', error);
    } finally {
      run.end();
    }
  }

  private async failureLocation(report: CheckReport): Promise<vscode.Location | undefined> {
    const session = this.store.session;
    const uri = this.store.mainUri(session);
    if (!session || !uri) return undefined;
    const focus = failureFocus(report);
    let line = focus.line ? focus.line - 1 : 0;
    if (focus.function) {
      try {
        line = (await functionLine(await vscode.workspace.openTextDocument(uri), focus.function, session.language)) ?? line;
      } catch {
        // The file is gone: line 1 of it is still the best place to point at.
      }
    }
    return new vscode.Location(uri, new vscode.Position(line, 0));
  }

  private async report(run: vscode.TestRun, report: CheckReport, only: Set<string> | undefined): Promise<void> {
    const rootId = this.rootId();
    const root = rootId ? this.controller.items.get(rootId) : undefined;
    if (!root) return;
    const wanted = (item: vscode.TestItem): boolean => !only || only.has(item.id);
    const location = await this.failureLocation(report);
    const set = (item: vscode.TestItem, state: ItemState, message?: vscode.TestMessage): void => {
      if (!wanted(item)) return;
      this.results.set(item.id, { state, ...(message ? { message: String(message.message) } : {}) });
      if (state === 'passed') run.passed(item, report.durationMs);
      else if (state === 'failed') run.failed(item, message ?? new vscode.TestMessage('failed'));
      else if (state === 'errored') run.errored(item, message ?? new vscode.TestMessage('could not run'));
      else run.skipped(item);
    };
    const problem = report.problems[0];
    root.children.forEach((item) => {
      const verdict = report.transcripts.find((t) => item.id === `${root.id}/${t.name}`);
      if (report.status === 'error' || !verdict) {
        const msg = new vscode.TestMessage(problem ? safeText(`${problem.message}${problem.advice ? `\n${problem.advice}` : ''}`, { multiline: true }) : 'The program could not be checked.');
        if (location) msg.location = location;
        set(item, 'errored', msg);
      } else if (verdict.passed) {
        set(item, 'passed');
      } else if (verdict.notRun) {
        // Not evidence either way: an earlier transcript hung and the rest of the batch never ran.
        const msg = new vscode.TestMessage('Not run: an earlier transcript made the program hang. Fix the timeout first.');
        if (location) msg.location = location;
        set(item, 'errored', msg);
      } else {
        const at = verdict.divergesAt !== undefined ? ` at command ${verdict.divergesAt + 1}` : '';
        const msg = vscode.TestMessage.diff(`${verdict.name}: the answers differ${at}`, (verdict.expected ?? []).map((l) => safeText(l)).join('\n'), (verdict.actual ?? []).map((l) => safeText(l)).join('\n'));
        if (location) msg.location = location;
        set(item, 'failed', msg);
      }
    });
    const summary = new vscode.TestMessage(safeText(`${checkSummary(report)}${report.mistakes.length ? `: ${report.mistakes.map((m) => m.title).join('; ')}` : ''}`));
    if (location) summary.location = location;
    set(root, report.status === 'pass' ? 'passed' : report.status === 'error' ? 'errored' : 'failed', summary);
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
    for (const s of this.subscriptions) s.dispose();
    this.controller.dispose();
  }
}
