/**
 * Runs a check of the learner's file: the one place in the extension that starts learner processes, so
 * the Workspace Trust gate lives here and nowhere else can forget it. Checks run one at a time; requests
 * that arrive while one runs are folded into a single follow-up check of the newest text.
 */
import * as vscode from 'vscode';
import { functionAnchors } from '../../core/report/findings';
import type { CheckReport } from '../../core/report/report';
import { ServiceError } from '../../node/service/client';
import { PackIntegrityError, verifyInstalledPack } from '../../node/packs/packIntegrity';
import type { Log } from '../workbench/log';
import type { PackService } from '../lesson/packs';
import type { Session, SessionStore } from '../lesson/session';
import { readSettings } from '../workbench/settings';
import type { ServiceHost } from './serviceHost';

export type CheckReason = 'command' | 'panel' | 'save' | 'test' | 'lens';

export interface CheckFinished {
  readonly session: Session;
  readonly report: CheckReport;
  readonly reason: CheckReason;
}

/** Why a check did not run, for the panel and for tests (notifications cannot be read back). */
export type Refusal = 'untrusted' | 'no-session' | 'no-pack' | 'changed-pack' | 'no-file' | 'failed';

export const UNTRUSTED_MESSAGE =
  'Lesson Companion does not run your code in Restricted Mode. Trust this folder (Manage Workspace Trust) to check your program; reading the lesson works without it.';

export class CheckRunner implements vscode.Disposable {
  private readonly started = new vscode.EventEmitter<Session>();
  private readonly finished = new vscode.EventEmitter<CheckFinished>();
  private readonly settled = new vscode.EventEmitter<void>();
  readonly onDidStart = this.started.event;
  /** A report exists (pass, fail or a program that could not run). */
  readonly onDidFinish = this.finished.event;
  /** Any run ended, with a report or refused: `running` is false again. */
  readonly onDidSettle = this.settled.event;

  private current: Promise<CheckReport | undefined> | undefined;
  private next: Promise<CheckReport | undefined> | undefined;
  /** Ends the running check's process (and everything it started). */
  private abort: AbortController | undefined;
  private _lastRefusal: Refusal | undefined;
  private _lastRefusalMessage: string | undefined;

  constructor(
    private readonly store: SessionStore,
    private readonly packs: PackService,
    private readonly log: Log,
    /** The window's check service: checks run there, through the same check path as the command line's. */
    private readonly service: ServiceHost,
  ) {}

  /** Stops the running check, if any: its process ends, and so does everything it started. */
  cancel(): void {
    this.abort?.abort();
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  get lastRefusal(): Refusal | undefined {
    return this._lastRefusal;
  }

  /** The words the learner was shown with the last refusal. */
  get lastRefusalMessage(): string | undefined {
    return this._lastRefusalMessage;
  }

  /** Checks the active session's file; undefined when it could not (the learner was told why). */
  run(reason: CheckReason): Promise<CheckReport | undefined> {
    if (!this.current) {
      this.current = this.runOnce(reason).finally(() => {
        this.current = undefined;
        this.settled.fire();
      });
      return this.current;
    }
    // A save makes the running check's text old: stop it rather than wait for it.
    if (reason === 'save') this.cancel();
    // One check is running on possibly older text: queue exactly one more, shared by every caller meanwhile.
    this.next ??= this.current.then(
      () => {
        this.next = undefined;
        return this.run(reason);
      },
      () => {
        this.next = undefined;
        return this.run(reason);
      },
    );
    return this.next;
  }

  private refuse(why: Refusal, message: string, ...actions: { title: string; run: () => unknown }[]): undefined {
    this._lastRefusal = why;
    this._lastRefusalMessage = message;
    this.log.warn(`check refused (${why}): ${message}`);
    void vscode.window
      .showWarningMessage(message, ...actions.map((a) => a.title))
      .then((picked) => actions.find((a) => a.title === picked)?.run());
    return undefined;
  }

  /** Lessons whose model the learner let run without a sandbox, for this window's life only (issue 29). */
  private readonly trustedModels = new Set<string>();

  /** The modal question that names the pack; yes lets its model run as the learner until the window closes. */
  private async askToRunModel(lessonId: string): Promise<boolean> {
    const run = 'Run It as Me';
    const picked = await vscode.window.showWarningMessage(
      `Run the model of "${await this.packTitle(lessonId)}" (${lessonId}) without a sandbox?`,
      {
        modal: true,
        detail: `This lesson pack's reference model is code of the pack, not built into Lesson Companion, and no sandbox can hold it on this machine (it needs Linux with bubblewrap, or unshare with user namespaces). It would run as you, with your files and network. Choose "${run}" only if you trust the pack's author; it is allowed for this lesson until the window closes.`,
      },
      run,
    );
    if (picked !== run) return false;
    this.trustedModels.add(lessonId);
    return true;
  }

  /** The pack's title as the learner picked it, else its id. */
  private async packTitle(lessonId: string): Promise<string> {
    const pack = await this.packs.find(lessonId).catch(() => undefined);
    return pack?.manifest.title ?? lessonId;
  }

  /** One check: refused unless everything it needs is there, else run in the service; refused if it fails. */
  private async runOnce(reason: CheckReason): Promise<CheckReport | undefined> {
    const ready = await this.readyToCheck();
    if (!ready) return undefined;
    const { session, uri } = ready;
    this._lastRefusal = undefined;
    this.started.fire(session);
    const settings = readSettings(uri);
    try {
      return await this.checkInService(session, uri, settings.timeLimitMs, reason);
    } catch (error) {
      const outcome = await this.checkFailed(error, session, reason);
      return outcome === 'again' ? this.runOnce(reason) : outcome;
    } finally {
      this.abort = undefined;
    }
  }

  /**
   * The session's file, saved, once nothing stands in the way of checking it: trust first (nothing may run, or
   * even prepare, learner code in Restricted Mode), a session, its pack (unchanged, if installed), the file.
   * Undefined: refused, and the learner was told why.
   */
  private async readyToCheck(): Promise<{ readonly session: Session; readonly uri: vscode.Uri } | undefined> {
    if (!vscode.workspace.isTrusted) {
      return this.refuse('untrusted', UNTRUSTED_MESSAGE, {
        title: 'Manage Workspace Trust',
        run: () => vscode.commands.executeCommand('workbench.trust.manage'),
      });
    }
    const session = this.store.session;
    const uri = this.store.mainUri(session);
    if (!session || !uri) {
      return this.refuse('no-session', 'Start a lesson first (Lesson Companion: Start Lesson…).', {
        title: 'Start Lesson…',
        run: () => vscode.commands.executeCommand('lessonCompanion.startLesson'),
      });
    }
    const pack = await this.packs.find(session.lessonId);
    if (!pack) return this.refuse('no-pack', `The lesson "${session.lessonId}" is not installed any more.`);
    if (pack.origin === 'installed') {
      // The program being graded runs as this user and could have rewritten the pack that grades it.
      const changed = await verifyInstalledPack(pack).then(
        () => undefined,
        (error: unknown) => {
          if (error instanceof PackIntegrityError) return error;
          throw error;
        },
      );
      if (changed) {
        return this.refuse('changed-pack', `${changed.summary} Reinstall it from its .lessonpack file.`, {
          title: 'Reinstall…',
          run: () => vscode.commands.executeCommand('lessonCompanion.installPack'),
        });
      }
    }
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    // The learner checks what they see: unsaved edits count.
    if (open?.isDirty) await open.save();
    try {
      await vscode.workspace.fs.stat(uri);
    } catch {
      return this.refuse(
        'no-file',
        `${session.mainFile} is missing. Start the lesson again to get a fresh copy of the starter.`,
      );
    }
    return { session, uri };
  }

  /** Runs the check in the window's check service and keeps its report (with where the traced functions were). */
  private async checkInService(
    session: Session,
    uri: vscode.Uri,
    timeLimitMs: number,
    reason: CheckReason,
  ): Promise<CheckReport | undefined> {
    const target = await this.service.target();
    if (!target) return this.refuse('no-pack', `The lesson "${session.lessonId}" is not installed any more.`);
    this.log.info(
      `check (${reason}) ${session.lessonId}/${session.language} ${uri.fsPath} with ${target.interpreters?.python ?? target.interpreters?.node}`,
    );
    this.abort = new AbortController();
    const trusted = this.trustedModels.has(session.lessonId) ? { trustModel: session.lessonId } : {};
    const report = await this.service.client.check(
      { ...target, ...trusted, file: uri.fsPath, timeLimitMs },
      (phase) => this.log.info(`check: ${phase}`),
      this.abort.signal,
    );
    this.log.info(
      `check done: ${report.status} ${report.checks.passed}/${report.checks.total}, ${report.mistakes.map((m) => m.id).join(', ') || 'no named mistakes'}, ${report.durationMs} ms, ${report.processRuns} runs`,
    );
    // The file on disk is what was checked: remember where the traced functions were in it.
    const checked = await vscode.workspace.openTextDocument(uri).then(
      (d) => d.getText(),
      () => '',
    );
    await this.store.setReport(report, functionAnchors(report, checked, session.language));
    this.finished.fire({ session, report, reason });
    return report;
  }

  /**
   * A check that threw: cancelled (nothing to say), a pack's model no sandbox can hold (asked once whether to
   * run it as the learner: yes is `again`, check once more), or a failure, said as a refusal.
   */
  private async checkFailed(error: unknown, session: Session, reason: CheckReason): Promise<'again' | undefined> {
    if (error instanceof ServiceError && error.cancelled) {
      this.log.info(`check (${reason}) cancelled`);
      return undefined;
    }
    if (error instanceof ServiceError && error.modelNotHeld !== undefined) {
      const lessonId = error.modelNotHeld || session.lessonId;
      if (!this.trustedModels.has(lessonId) && (await this.askToRunModel(lessonId))) return 'again';
      return this.refuse(
        'failed',
        `Nothing was run: the model of "${await this.packTitle(lessonId)}" (${lessonId}) needs a sandbox, and no sandbox can hold it on this machine. Install bubblewrap, or, if you trust this pack, check again and choose "Run It as Me".`,
      );
    }
    this.log.error('check failed', error);
    return this.refuse('failed', `The check could not run: ${(error as Error).message ?? String(error)}`);
  }

  dispose(): void {
    this.cancel();
    this.started.dispose();
    this.finished.dispose();
    this.settled.dispose();
  }
}
