/**
 * The lesson panel (one per window), after the webview-sample pattern: `createOrShow` for the command,
 * `revive` for the serializer after a reload. The webview starts empty, says `ready`, and gets the whole
 * state in `init`; later changes arrive as `state`/`checkStarted`/`checkResult`/`answerResult`.
 */
import * as vscode from 'vscode';
import { SHOW_FIX_COMMAND, type FixActions } from '../editor/fixActions';
import type { CheckRunner } from '../check/checkRunner';
import { checkAnswer, revealedAnswer } from '../lesson/answers';
import { markCardRead } from '../workbench/contextKeys';
import type { Log } from '../workbench/log';
import type { PackService } from '../lesson/packs';
import type { SimulationRunner } from '../check/simulationRunner';
import type { SessionStore } from '../lesson/session';
import type { StepNavigator } from '../editor/stepNavigator';
import { debugSupport, type TraceActions } from '../editor/traceActions';
import {
  parseFromWebview,
  PROTOCOL_VERSION,
  type FromWebview,
  type PanelState,
  type RevealTarget,
  type ToWebview,
} from '../../shared/messages';
import { panelHtml, panelOptions } from './panelHtml';
import { panelState } from './panelState';
import { courseView } from './courseState';
import type { CourseView } from '../../shared/courseView';
import { safeStrings } from '../../core/text/text';

export const PANEL_VIEW_TYPE = 'lessonCompanion.lessonPanel';

export interface PanelDeps {
  readonly extensionUri: vscode.Uri;
  readonly store: SessionStore;
  readonly packs: PackService;
  readonly runner: CheckRunner;
  readonly simulations: SimulationRunner;
  readonly navigator: StepNavigator;
  readonly traces: TraceActions;
  readonly log: Log;
  /** Rung 4 of the hint ladder: "Show a fix" (absent in tests that build a panel without it). */
  readonly fixes?: Pick<FixActions, 'offersFor'>;
}

export class LessonPanel implements vscode.Disposable {
  private static current: LessonPanel | undefined;

  private readonly subscriptions: vscode.Disposable[] = [];
  private ready = false;
  /** Reveals asked for before the webview said `ready`. */
  private pendingReveal: RevealTarget | undefined;

  static createOrShow(deps: PanelDeps, column: vscode.ViewColumn = vscode.ViewColumn.Beside): LessonPanel {
    if (LessonPanel.current) {
      // Where the learner put it is where it stays.
      LessonPanel.current.panel.reveal(undefined, true);
      return LessonPanel.current;
    }
    const panel = vscode.window.createWebviewPanel(
      PANEL_VIEW_TYPE,
      'Lesson',
      { viewColumn: column, preserveFocus: true },
      panelOptions(deps.extensionUri),
    );
    LessonPanel.current = new LessonPanel(panel, deps);
    return LessonPanel.current;
  }

  /** A panel VS Code restored after a reload (WebviewPanelSerializer). */
  static revive(panel: vscode.WebviewPanel, deps: PanelDeps): LessonPanel {
    LessonPanel.current?.dispose();
    LessonPanel.current = new LessonPanel(panel, deps);
    return LessonPanel.current;
  }

  static get instance(): LessonPanel | undefined {
    return LessonPanel.current;
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly deps: PanelDeps,
  ) {
    // Restored panels come with the options of the old session; set ours (resource roots) again.
    panel.webview.options = panelOptions(deps.extensionUri);
    panel.webview.html = panelHtml(panel.webview, deps.extensionUri);
    // The tab title should name the lesson at once, not only after the webview has loaded.
    void this.state();
    const update = (): void => void this.postState();
    this.subscriptions.push(
      // Closing the panel stops a running check: its process, and everything it started, ends.
      panel.onDidDispose(() => {
        deps.runner.cancel();
        deps.simulations.cancel();
        this.dispose();
      }),
      panel.webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw)),
      // A hidden panel's webview is discarded (retainContextWhenHidden: false); it says `ready` again when shown.
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.ready = false;
      }),
      deps.store.onDidChange(update),
      deps.packs.onDidChange(update),
      deps.runner.onDidStart(() => {
        // The file is about to change under it: a running simulation would show the old program.
        deps.simulations.cancel();
        void this.post({ type: 'checkStarted' });
      }),
      deps.runner.onDidFinish(({ report, reason }) => {
        void this.postCheck();
        // A check from the panel goes on to show what its finding does under load.
        if (reason === 'panel') void deps.simulations.afterCheck(report);
        else deps.simulations.forgetUnfound(report);
      }),
      deps.simulations.onDidStart(() => void this.post({ type: 'simulationStarted' })),
      deps.simulations.onDidFinish(() => void this.postSimulation()),
      deps.simulations.onDidChange(update),
      deps.runner.onDidSettle(update),
      vscode.workspace.onDidGrantWorkspaceTrust(update),
      // A Python debugger installed meanwhile turns "install it first" into "Debug this transcript".
      vscode.extensions.onDidChange(update),
    );
  }

  /**
   * For lessonCompanion.internal.panel (the integration tests, which cannot click inside a webview): a message
   * handled exactly as one the panel's webview posts (parsed, then routed), and the course outline it shows after.
   */
  async asIfFromWebview(raw: unknown): Promise<CourseView | null> {
    if (raw !== undefined) await this.receive(raw);
    return (await this.state()).course ?? null;
  }

  /** Scrolls the panel to a step, question or mistake, showing it first. */
  reveal(target: RevealTarget): void {
    this.panel.reveal(undefined, true);
    if (this.ready) void this.post({ type: 'reveal', target });
    else this.pendingReveal = target;
  }

  private async state(): Promise<PanelState> {
    const { store, packs, runner } = this.deps;
    const session = store.session;
    const pack = session ? await packs.find(session.lessonId) : undefined;
    const state = panelState({
      session,
      pack,
      progress: store.progress(session),
      trusted: vscode.workspace.isTrusted,
      checking: runner.running,
      debug: debugSupport(session?.language),
      ...(session ? { simulation: this.deps.simulations.snapshot(session.lessonId, session.language) } : {}),
      ...(this.deps.fixes
        ? { fixOffered: (id: string) => this.deps.fixes!.offersFor(store.progress(session).lastReport, id) }
        : {}),
    });
    this.panel.title = state.lesson ? `Lesson: ${state.lesson.title}` : 'Lesson';
    const course = courseView(
      await packs.courses(),
      (await packs.all()).packs,
      (id) => store.passed(id),
      state.lesson ? session?.lessonId : undefined,
    );
    // Made safe as the rest of the state is: a course's title and its lessons' titles are pack text.
    return course ? { ...state, course: safeStrings(course) } : state;
  }

  /** "Next lesson": only the one the outline offers, in the learner's language, opened at its first step. */
  private async startNextLesson(lesson: string): Promise<void> {
    const state = await this.state();
    if (!state.course?.currentDone || state.course.next?.lesson !== lesson) {
      this.deps.log.warn(`lesson panel: "Next lesson" asked for ${lesson}, which the course does not offer now`);
      return;
    }
    const language = this.deps.store.session?.language;
    const started = await vscode.commands.executeCommand<unknown>('lessonCompanion.startLesson', {
      lessonId: lesson,
      ...(language ? { language } : {}),
    });
    if (started && this.deps.store.session?.lessonId === lesson) {
      await this.deps.navigator.open(1);
      await this.postState();
    }
  }

  private async post(message: ToWebview): Promise<void> {
    if (!this.ready) return;
    try {
      // The state is made safe where it is built (panelState); an answer's feedback and the rest here.
      await this.panel.webview.postMessage(safeStrings(message));
    } catch (error) {
      this.deps.log.warn(`could not post ${message.type} to the lesson panel: ${String(error)}`);
    }
  }

  private async postState(): Promise<void> {
    if (this.ready) await this.post({ type: 'state', state: await this.state() });
  }

  private async postCheck(): Promise<void> {
    const state = await this.state();
    await this.post({ type: 'checkResult', check: state.check, state });
  }

  private async postSimulation(): Promise<void> {
    await this.post({ type: 'simulationResult', state: await this.state() });
  }

  private async receive(raw: unknown): Promise<void> {
    const message = parseFromWebview(raw);
    if (!message) {
      this.deps.log.warn(`lesson panel: ignored an invalid message ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    try {
      await this.handle(message);
    } catch (error) {
      this.deps.log.error(`lesson panel: ${message.type} failed`, error);
    }
  }

  /** One message from the panel, dispatched: the longer answers are the steps below. */
  private async handle(message: FromWebview): Promise<void> {
    const { navigator, runner } = this.deps;
    switch (message.type) {
      case 'ready':
        await this.greet(message.protocol);
        return;
      case 'openStep':
        await navigator.open(message.index);
        return;
      case 'runStep':
        await navigator.run(message.index);
        return;
      case 'runCheck':
        await runner.run('panel');
        return;
      case 'answer':
        await this.answer(message.questionId, message.answer);
        return;
      case 'openMistake':
        await this.openMistake(message.id);
        return;
      case 'runTrace':
        await this.deps.traces.runInTerminal(message.mistakeId);
        return;
      case 'debugTrace':
        await this.deps.traces.debug(message.mistakeId);
        return;
      case 'showFix':
        await vscode.commands.executeCommand(SHOW_FIX_COMMAND, message.mistakeId);
        return;
      case 'showAnswer':
        await this.showAnswer(message.questionId);
        return;
      case 'nextLesson':
        await this.startNextLesson(message.lesson);
        return;
      case 'startLesson':
        await vscode.commands.executeCommand('lessonCompanion.startLesson');
        return;
      case 'manageTrust':
        await vscode.commands.executeCommand('workbench.trust.manage');
        return;
      case 'runSimulation':
        await this.deps.simulations.run(message.scenario, undefined, true);
        return;
    }
  }

  /** The panel has loaded: its first state, then a reveal asked for before it could take one. */
  private async greet(protocol: number): Promise<void> {
    if (protocol !== PROTOCOL_VERSION)
      this.deps.log.warn(`lesson panel speaks protocol ${protocol}, the extension ${PROTOCOL_VERSION}`);
    this.ready = true;
    await this.post({ type: 'init', protocol: PROTOCOL_VERSION, state: await this.state() });
    if (this.pendingReveal) {
      await this.post({ type: 'reveal', target: this.pendingReveal });
      this.pendingReveal = undefined;
    }
  }

  /** Checks an answer against the session's pack, keeps it, and sends the panel the verdict. */
  private async answer(questionId: string, answer: string): Promise<void> {
    const { store, packs } = this.deps;
    const session = store.session;
    const pack = session ? await packs.find(session.lessonId) : undefined;
    if (!pack) return;
    const result = await checkAnswer(pack, questionId, answer);
    if (!result) {
      this.deps.log.warn(`lesson panel: no question "${questionId}" in ${pack.manifest.id}`);
      return;
    }
    await store.recordAnswer(questionId, result);
    await this.post({ type: 'answerResult', questionId, result, state: await this.state() });
  }

  /** Opens the code where the last report's mistake points (and counts its card as read). */
  private async openMistake(id: string): Promise<void> {
    const report = this.deps.store.progress().lastReport;
    const mistake = report?.mistakes.find((m) => m.id === id);
    if (mistake) {
      markCardRead();
      await this.deps.navigator.revealMistake(mistake);
    }
  }

  /** "Show answer": the worked answer, kept as shown, sent to the panel as the question's result. */
  private async showAnswer(questionId: string): Promise<void> {
    const { store, packs } = this.deps;
    const session = store.session;
    const pack = session ? await packs.find(session.lessonId) : undefined;
    if (!pack) return;
    const shown = revealedAnswer(pack, questionId, store.progress().answers[questionId]?.answer);
    if (!shown) return;
    await store.recordAnswerShown(questionId, shown);
    await this.post({ type: 'answerResult', questionId, result: shown, state: await this.state() });
  }

  dispose(): void {
    if (LessonPanel.current === this) LessonPanel.current = undefined;
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.panel.dispose();
  }
}
