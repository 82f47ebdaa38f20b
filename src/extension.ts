// TEMPORARY placeholder (integration-harness author) so the build and the harness can run; the lead replaces it.
import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {}

export function deactivate(): void {}
