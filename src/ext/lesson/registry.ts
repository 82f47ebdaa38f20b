/**
 * Every registration goes through here, so that everything the extension hooks into VS Code is disposed
 * with it (context.subscriptions) and nothing is registered from scattered places.
 */
import * as vscode from 'vscode';

export type Disposer = Pick<vscode.ExtensionContext, 'subscriptions'>;

/** Keeps a long-lived object alive exactly as long as the extension. */
export function own<T extends vscode.Disposable>(ctx: Disposer, disposable: T): T {
  ctx.subscriptions.push(disposable);
  return disposable;
}

export function registerCommand(ctx: Disposer, id: string, fn: (...args: any[]) => unknown): void {
  own(ctx, vscode.commands.registerCommand(id, fn));
}

export function registerCodeLensProvider(
  ctx: Disposer,
  selector: vscode.DocumentSelector,
  provider: vscode.CodeLensProvider,
): void {
  own(ctx, vscode.languages.registerCodeLensProvider(selector, provider));
}

export function registerCodeActionsProvider(
  ctx: Disposer,
  selector: vscode.DocumentSelector,
  provider: vscode.CodeActionProvider,
  metadata?: vscode.CodeActionProviderMetadata,
): void {
  own(ctx, vscode.languages.registerCodeActionsProvider(selector, provider, metadata));
}

export function registerWebviewPanelSerializer(
  ctx: Disposer,
  viewType: string,
  serializer: vscode.WebviewPanelSerializer,
): void {
  own(ctx, vscode.window.registerWebviewPanelSerializer(viewType, serializer));
}

/** Subscribes to an event for the extension's lifetime. */
export function on<T>(ctx: Disposer, event: vscode.Event<T>, listener: (e: T) => unknown): void {
  own(ctx, event(listener));
}
