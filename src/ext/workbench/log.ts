/** One output channel for the extension: what was checked, what was ignored, and why. */
import * as vscode from 'vscode';

export interface Log {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

export function createLog(): Log & vscode.Disposable {
  const channel = vscode.window.createOutputChannel('Lesson Companion', { log: true });
  return {
    info: (m) => channel.info(m),
    warn: (m) => channel.warn(m),
    error: (m, e) =>
      channel.error(e === undefined ? m : `${m}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
    dispose: () => channel.dispose(),
  };
}
