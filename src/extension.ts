/**
 * Composition root: builds the extension's long-lived objects, wires them together and registers them.
 * No behaviour lives here; every registration goes through src/ext/lesson/registry.ts.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activation } from './ext/workbench/activation';
import { LessonCodeActions } from './ext/editor/codeActions';
import { FixActions, registerFixActions } from './ext/editor/fixActions';
import { CheckCodeLensProvider } from './ext/editor/codeLens';
import { CheckOnSave } from './ext/check/checkOnSave';
import { CheckRunner } from './ext/check/checkRunner';
import { registerCommands } from './ext/workbench/commands';
import { updateContextKeys } from './ext/workbench/contextKeys';
import { MistakeDiagnostics } from './ext/editor/diagnostics';
import { registerInstallPackCommand } from './ext/lesson/installPack';
import { registerGradeFolderCommand } from './ext/grade/gradeFolder';
import { createLog } from './ext/workbench/log';
import { PackService } from './ext/lesson/packs';
import { LessonPanel, PANEL_VIEW_TYPE } from './ext/panel/lessonPanel';
import {
  on,
  own,
  registerCodeActionsProvider,
  registerCodeLensProvider,
  registerWebviewPanelSerializer,
} from './ext/lesson/registry';
import { SessionStore } from './ext/lesson/session';
import { SimulationRunner } from './ext/check/simulationRunner';
import { ServiceHost } from './ext/check/serviceHost';
import { StepNavigator } from './ext/editor/stepNavigator';
import { LessonTests } from './ext/editor/testing';
import { TraceActions } from './ext/editor/traceActions';

export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  const log = own(context, createLog());
  const packs = own(context, new PackService(context.extensionPath, context.globalStorageUri, log));
  const store = own(context, new SessionStore(context.workspaceState));
  const service = own(
    context,
    new ServiceHost(path.join(context.extensionPath, 'dist', 'service.js'), store, packs, log),
  );
  stopping = () => service.dispose();
  const runner = own(context, new CheckRunner(store, packs, log, service));
  const simulations = own(context, new SimulationRunner(store, packs, log, service));
  const navigator = own(context, new StepNavigator(store, packs, log));
  const tests = own(context, new LessonTests(store, packs, runner, log));
  const diagnostics = own(context, new MistakeDiagnostics(store, runner, packs));
  own(context, new CheckOnSave(store, runner));
  const traces = own(context, new TraceActions(store, packs, log, context.extensionPath));
  const fixes = new FixActions(store, packs, service, runner, log);
  const services = {
    extensionUri: context.extensionUri,
    fixes,
    store,
    packs,
    runner,
    service,
    simulations,
    navigator,
    tests,
    traces,
    log,
  };

  registerCommands(context, services);
  // A newly installed pack shows up in Start Lesson at once, and replaces an open lesson's older version.
  registerInstallPackCommand(context, () => packs.refresh());
  // Grading a folder is the CLI's `grade` in a child process: many checks at once, with its own progress.
  registerGradeFolderCommand(context, path.join(context.extensionPath, 'dist', 'cli.js'));
  const learnerFiles: vscode.DocumentSelector = [{ scheme: 'file' }, { scheme: 'vscode-remote' }];
  registerCodeLensProvider(context, learnerFiles, own(context, new CheckCodeLensProvider(store, packs, runner)));
  registerCodeActionsProvider(context, learnerFiles, new LessonCodeActions(store, diagnostics), {
    providedCodeActionKinds: LessonCodeActions.kinds,
  });
  // Rung 4: "Show a fix" (a diff of the learner's file beside a verified fix) and the Quick Fix that applies it.
  registerFixActions(context, fixes, learnerFiles);
  registerWebviewPanelSerializer(context, PANEL_VIEW_TYPE, {
    deserializeWebviewPanel: async (panel) => {
      LessonPanel.revive(panel, services);
    },
  });
  own(context, { dispose: () => LessonPanel.instance?.dispose() });

  on(context, store.onDidChange, () => updateContextKeys(store));
  updateContextKeys(store);
  // After a reload: the session's diagnostics and Test Explorer items come back from workspaceState.
  void diagnostics.update();
  void tests.refresh();
  activation.ms = performance.now() - started;
  log.info(
    `activated in ${activation.ms.toFixed(1)} ms (workspace ${vscode.workspace.isTrusted ? 'trusted' : 'in Restricted Mode'})`,
  );
}

/** Set by activate: ends the check service (shutdown, then kill), awaited so the window does not close under it. */
let stopping: (() => Promise<void>) | undefined;

export function deactivate(): Promise<void> | undefined {
  return stopping?.();
}
