/**
 * The extension's commands. Each returns something useful to a caller (the started session, the check
 * report, where a step landed), which is what the integration tests assert on.
 */
import * as vscode from 'vscode';
import { activation } from './activation';
import type { CheckReport } from '../../core/report/report';
import type { CheckReason, CheckRunner } from '../check/checkRunner';
import { lastInstallRefusal } from '../lesson/installPack';
import type { Log } from './log';
import type { PackService } from '../lesson/packs';
import { LessonPanel, type PanelDeps } from '../panel/lessonPanel';
import { registerCommand, type Disposer } from '../lesson/registry';
import type { Session, SessionStore } from '../lesson/session';
import { startLesson } from '../lesson/startLesson';
import type { StepNavigator } from '../editor/stepNavigator';
import type { RevealTarget } from '../../shared/messages';
import type { LessonTests } from '../editor/testing';
import type { TraceActions } from '../editor/traceActions';
import type { ServiceHost } from '../check/serviceHost';

export const COMMANDS = {
  startLesson: 'lessonCompanion.startLesson',
  openPanel: 'lessonCompanion.openPanel',
  check: 'lessonCompanion.check',
  openStep: 'lessonCompanion.openStep',
  /** Not in the palette: the panel's trace buttons, and the integration tests. */
  runTrace: 'lessonCompanion.runTrace',
  debugTrace: 'lessonCompanion.debugTrace',
  internalState: 'lessonCompanion.internal.state',
  restartService: 'lessonCompanion.internal.restartService',
  panel: 'lessonCompanion.internal.panel',
} as const;

export interface Services extends PanelDeps {
  readonly store: SessionStore;
  readonly packs: PackService;
  readonly runner: CheckRunner;
  readonly service: ServiceHost;
  readonly navigator: StepNavigator;
  readonly tests: LessonTests;
  readonly traces: TraceActions;
  readonly log: Log;
}

const REASONS: readonly CheckReason[] = ['command', 'panel', 'save', 'test', 'lens'];

/** `{ reveal: { kind: 'mistake', id } }` from a quick fix: what to scroll the panel to. */
function revealOf(arg: unknown): RevealTarget | undefined {
  const reveal = typeof arg === 'object' && arg !== null ? (arg as { reveal?: unknown }).reveal : undefined;
  if (typeof reveal !== 'object' || reveal === null) return undefined;
  const r = reveal as Record<string, unknown>;
  if ((r.kind === 'mistake' || r.kind === 'question') && typeof r.id === 'string') return { kind: r.kind, id: r.id };
  if (r.kind === 'step' && typeof r.index === 'number') return { kind: 'step', index: r.index };
  return r.kind === 'results' ? { kind: 'results' } : undefined;
}

/** `{ mistakeId: "tiebreak" }` names a mistake's trace; `{ mistakeId: null }` or nothing, the report's own. */
function mistakeIdOf(arg: unknown): string | null {
  const id = typeof arg === 'object' && arg !== null ? (arg as { mistakeId?: unknown }).mistakeId : undefined;
  return typeof id === 'string' ? id : null;
}

function reasonOf(arg: unknown): CheckReason {
  const r = typeof arg === 'object' && arg !== null ? (arg as { reason?: unknown }).reason : undefined;
  return REASONS.find((x) => x === r) ?? 'command';
}

export function registerCommands(ctx: Disposer, s: Services): void {
  const showPanel = async (args?: unknown): Promise<void> => {
    const panel = LessonPanel.createOrShow(s, vscode.ViewColumn.Beside);
    const reveal = revealOf(args);
    if (reveal) panel.reveal(reveal);
  };
  registerCommand(ctx, COMMANDS.startLesson, (args?: unknown): Promise<Session | undefined> =>
    startLesson(args, { packs: s.packs, store: s.store, log: s.log, showPanel: () => showPanel() }),
  );
  registerCommand(ctx, COMMANDS.openPanel, showPanel);
  registerCommand(ctx, COMMANDS.check, (args?: unknown): Promise<CheckReport | undefined> =>
    s.runner.run(reasonOf(args)),
  );
  registerCommand(ctx, COMMANDS.openStep, async (index?: unknown) => {
    if (typeof index !== 'number' || !Number.isInteger(index)) return undefined;
    const located = await s.navigator.open(index);
    return located ? { line: located.selection.start.line + 1, how: located.how } : undefined;
  });
  registerCommand(ctx, COMMANDS.runTrace, (arg?: unknown) => s.traces.runInTerminal(mistakeIdOf(arg)));
  registerCommand(ctx, COMMANDS.debugTrace, (arg?: unknown) => s.traces.debug(mistakeIdOf(arg)));
  // Not in package.json (so not in the palette): what the integration tests cannot read through public API,
  // i.e. Test Explorer results, the stored progress and why the last check was refused.
  // Not in the palette: tests restart the service after changing the environment it inherits.
  registerCommand(ctx, COMMANDS.restartService, () => s.service.client.restart());
  // Not in the palette: a panel message as the webview sends it ("Next lesson"), and the course outline after it.
  registerCommand(ctx, COMMANDS.panel, (raw?: unknown) => LessonPanel.instance?.asIfFromWebview(raw) ?? null);
  registerCommand(ctx, COMMANDS.internalState, () => {
    const session = s.store.session;
    const progress = s.store.progress(session);
    return {
      session,
      stepsRead: progress.stepsRead,
      answers: progress.answers,
      lastStatus: progress.lastReport?.status ?? null,
      lastRefusal: s.runner.lastRefusal ?? null,
      lastRefusalMessage: s.runner.lastRefusalMessage ?? null,
      service: { pid: s.service.client.pid ?? null, starts: s.service.client.starts },
      lastInstallRefusal: lastInstallRefusal() ?? null,
      panelOpen: LessonPanel.instance !== undefined,
      tests: s.tests.snapshot(),
      activationMs: activation.ms ?? null,
    };
  });
}
