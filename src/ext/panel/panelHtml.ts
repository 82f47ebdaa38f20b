/**
 * The lesson panel's HTML shell: a strict CSP, the stylesheet from media/ and the script bundle from
 * dist/, both by webview URI. The content itself is built by the script from the `init` message.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** A fresh nonce per page load: only our own script tag may run. */
export function makeNonce(): string {
  return randomBytes(18)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}

export function panelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    // State comes back through the ready → init handshake, so a hidden panel need not stay in memory.
    retainContextWhenHidden: false,
    enableFindWidget: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist')],
  };
}

export function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = makeNonce();
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'panel.css'));
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `font-src ${webview.cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>Lesson</title>
</head>
<body>
<main id="app" aria-busy="true"><p class="muted">Loading the lesson…</p></main>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
