/**
 * The window's check service (src/node/service): one long-lived process that checks and simulates, kept warm
 * for the lesson in use. This file only decides *when*, from the editor's events: it starts the service when
 * a lesson session is open in a trusted workspace (so the first Check finds it ready), warms it again when the
 * session or the interpreter settings change, and stops it with the window. In Restricted Mode it never starts.
 */
import * as vscode from 'vscode';
import { CheckServiceClient } from '../../node/service/client';
import type { LessonTarget } from '../../node/service/protocol';
import type { PackService } from '../lesson/packs';
import type { SessionStore } from '../lesson/session';
import type { Log } from '../workbench/log';
import { resolveInterpreters, SECTION } from '../workbench/settings';

export class ServiceHost implements vscode.Disposable {
  readonly client: CheckServiceClient;
  private readonly subscriptions: vscode.Disposable[] = [];
  private warmedFor: string | undefined;

  constructor(
    /** dist/service.js */
    script: string,
    private readonly store: SessionStore,
    private readonly packs: PackService,
    private readonly log: Log,
  ) {
    this.client = new CheckServiceClient({ script, node: process.execPath, log: (line) => this.log.info(line) });
    this.subscriptions.push(
      store.onDidChange(() => void this.warm()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.warm()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SECTION)) {
          this.warmedFor = undefined;
          void this.warm();
        }
      }),
    );
    void this.warm();
  }

  /** What a check or simulation of the active session is about, or undefined when it cannot run here. */
  async target(): Promise<LessonTarget | undefined> {
    const session = this.store.session;
    const uri = this.store.mainUri(session);
    if (!session || !uri || !vscode.workspace.isTrusted) return undefined;
    const pack = await this.packs.find(session.lessonId);
    if (!pack) return undefined;
    const interpreters = await resolveInterpreters(uri, this.log);
    return {
      packDir: pack.dir,
      origin: pack.origin,
      language: session.language,
      interpreters: session.language === 'python' ? { python: interpreters.python } : { node: interpreters.node },
    };
  }

  /** Starts the service (if need be) and has it make the session's lesson ready; never throws. */
  private async warm(): Promise<void> {
    try {
      const target = await this.target();
      if (!target) return;
      const key = JSON.stringify(target);
      if (key === this.warmedFor && this.client.pid !== undefined) return;
      this.warmedFor = key;
      await this.client.warm(target);
    } catch (error) {
      this.log.warn(`check service warm-up: ${(error as Error).message}`);
    }
  }

  dispose(): Promise<void> {
    for (const subscription of this.subscriptions) subscription.dispose();
    return this.client.dispose();
  }
}
