// Shared harness helpers: start code-server (VS Code 1.100.3 server + web workbench) headless on 127.0.0.1
// with throw-away dirs, launch the system Chromium through playwright-core, build workbench URLs.
// Adapted from the team recipe in /work/shared/vscode-offline (see its README for the why of each flag).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

/** The extension's root (package.json with publisher/name), two levels above scripts/harness/. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where code-server lives. Override with CODE_SERVER_DIR=/path/to/node_modules/code-server. */
export function codeServerDir() {
  const candidates = [
    process.env.CODE_SERVER_DIR,
    // scripts/install-code-server.sh installs into <repo>/.code-server by default
    path.join(REPO_ROOT, '.code-server', 'node_modules', 'code-server'),
  ].filter(Boolean);
  for (const c of candidates) {
    if (fs.existsSync(path.join(c, 'out', 'node', 'entry.js'))) return path.resolve(c);
  }
  throw new Error(
    `code-server not found (tried ${candidates.join(', ')}); run scripts/install-code-server.sh or set CODE_SERVER_DIR`,
  );
}

export function chromiumPath() {
  const p = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!fs.existsSync(p))
    throw new Error(`Chromium not found at ${p} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  return p;
}

/** Settings every run gets: no walkthrough tab, no gallery/update/telemetry traffic (there is no internet). */
export const BASE_SETTINGS = Object.freeze({
  'workbench.startupEditor': 'none', // otherwise a "Walkthrough: Setup VS Code Web" tab opens
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
});

/**
 * Trust settings. Trusted runs switch the feature off (plus --disable-workspace-trust on the server), which
 * is what @vscode/test-electron does too. Untrusted runs keep it on and make the workbench open the folder
 * in Restricted Mode *without* the modal "Do you trust the authors…" dialog (startupPrompt 'never'), which
 * would otherwise sit on top of the workbench until someone clicks it. Empty windows are untrusted too, so a
 * suite without a folder is still restricted.
 */
export function trustSettings(trusted) {
  return trusted
    ? { 'security.workspace.trust.enabled': false }
    : {
        'security.workspace.trust.enabled': true,
        'security.workspace.trust.startupPrompt': 'never',
        'security.workspace.trust.untrustedFiles': 'open', // no "open file from outside" prompt either
        'security.workspace.trust.emptyWindow': false,
      };
}

/**
 * A fresh temp root holding user-data, extensions, workspace folder, config and logs.
 *   trusted   (default true)  false = Restricted Mode (see trustSettings / startCodeServer)
 *   settings  extra user settings, merged over BASE_SETTINGS + trust settings (so a caller can override)
 *   workspace use this folder as is (tests may write into it)
 *   fixture   copy this folder into <root>/workspace first (keeps checked-in fixtures clean)
 */
export function makeTempRoot({ prefix = 'lc-it-', trusted = true, settings = {}, workspace, fixture } = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const dirs = {
    root,
    trusted,
    userData: path.join(root, 'user-data'),
    extensions: path.join(root, 'extensions'),
    workspace: path.join(root, 'workspace'),
    config: path.join(root, 'config.yaml'),
    serverLog: path.join(root, 'server.log'),
    // Redirect XDG dirs so nothing lands in $HOME: code-server writes ~/.local/share/code-server/{coder-logs,
    // heartbeat} and ~/.cache/Microsoft/DeveloperTools/deviceid; Chromium writes ~/.config/chromium/Crash
    // Reports and ~/.cache/dconf - even with --user-data-dir / a temp profile.
    xdgConfig: path.join(root, 'xdg', 'config'),
    xdgData: path.join(root, 'xdg', 'data'),
    xdgCache: path.join(root, 'xdg', 'cache'),
  };
  for (const d of [dirs.userData, dirs.extensions, dirs.xdgConfig, dirs.xdgData, dirs.xdgCache]) {
    fs.mkdirSync(d, { recursive: true });
  }
  if (workspace) dirs.workspace = path.resolve(workspace);
  else if (fixture) fs.cpSync(path.resolve(fixture), dirs.workspace, { recursive: true });
  else fs.mkdirSync(dirs.workspace, { recursive: true });
  // Our own config file: otherwise code-server writes ~/.config/code-server/config.yaml with a password.
  fs.writeFileSync(dirs.config, 'auth: none\nbind-addr: 127.0.0.1:0\ncert: false\n');
  writeUserSettings(dirs, { ...BASE_SETTINGS, ...trustSettings(trusted), ...settings }, { replace: true });
  return dirs;
}

/** User settings live server-side in code-server: <user-data-dir>/User/settings.json. */
export function userSettingsPath(dirs) {
  return path.join(dirs.userData, 'User', 'settings.json');
}

export function readUserSettings(dirs) {
  try {
    return JSON.parse(fs.readFileSync(userSettingsPath(dirs), 'utf8'));
  } catch {
    return {};
  }
}

/**
 * Merge `settings` into settings.json (or replace it). A value of `undefined` removes the key. The running
 * workbench watches this file, so changes made while a page is open apply live (e.g. workbench.colorTheme).
 */
export function writeUserSettings(dirs, settings, { replace = false } = {}) {
  const next = { ...(replace ? {} : readUserSettings(dirs)), ...settings };
  for (const [k, v] of Object.entries(next)) if (v === undefined) delete next[k];
  fs.mkdirSync(path.dirname(userSettingsPath(dirs)), { recursive: true });
  fs.writeFileSync(userSettingsPath(dirs), JSON.stringify(next, null, 2));
  return next;
}

export function xdgEnv(dirs) {
  return {
    ...process.env,
    XDG_CONFIG_HOME: dirs.xdgConfig,
    XDG_DATA_HOME: dirs.xdgData,
    XDG_CACHE_HOME: dirs.xdgCache,
  };
}

/**
 * EXTENSIONS_GALLERY='{}' disables the marketplace (default: open-vsx.org) so nothing tries to reach the
 * internet. The extension host inherits this environment, which is how `env` (e.g. LC_TEST_WORKSPACE) reaches
 * the tests.
 */
function serverEnv(dirs, env = {}) {
  return { ...xdgEnv(dirs), EXTENSIONS_GALLERY: process.env.EXTENSIONS_GALLERY ?? '{}', ...env };
}

/** Run `code-server <args>` to completion (e.g. --install-extension x.vsix). Resolves {code, output}. */
export function runCodeServerCli(args, dirs) {
  const entry = path.join(codeServerDir(), 'out', 'node', 'entry.js');
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [entry, '--config', dirs.config, '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions, ...args],
      { stdio: ['ignore', 'pipe', 'pipe'], env: serverEnv(dirs) },
    );
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/**
 * Start code-server bound to 127.0.0.1 on a free port (port 0: the OS picks, code-server logs the real one).
 * Resolves when "HTTP server listening on http://127.0.0.1:PORT/" is printed.
 * trusted (default dirs.trusted): false omits --disable-workspace-trust, which the server turns into the web
 * workbench's `enableWorkspaceTrust` option; with it the workbench ignores every trust setting.
 */
export async function startCodeServer(
  dirs,
  { timeoutMs = 60000, extraArgs = [], env = {}, trusted = dirs.trusted !== false } = {},
) {
  const entry = path.join(codeServerDir(), 'out', 'node', 'entry.js');
  const args = [
    entry,
    '--config',
    dirs.config,
    '--auth',
    'none',
    '--bind-addr',
    '127.0.0.1:0',
    '--user-data-dir',
    dirs.userData,
    '--extensions-dir',
    dirs.extensions,
    '--disable-telemetry',
    '--disable-update-check',
    ...(trusted ? ['--disable-workspace-trust'] : []),
    '--disable-getting-started-override',
    ...extraArgs,
    dirs.workspace,
  ];
  const log = fs.createWriteStream(dirs.serverLog);
  const t0 = Date.now();
  // detached => own process group, so stop() can signal code-server *and* its children
  // (code-server forks a child entry.js, which forks extension hosts, pty host, file watcher).
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: serverEnv(dirs, env),
  });
  let exited = null;
  const exitPromise = new Promise((r) =>
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      r(exited);
    }),
  );
  const stop = async () => {
    if (exited) return exited;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    const killTimer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 5000);
    const e = await exitPromise;
    clearTimeout(killTimer);
    // The group may outlive the leader for a moment (extension host shutting down): make sure it is gone.
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
    log.end();
    return e;
  };
  try {
    const url = await new Promise((resolve, reject) => {
      let buf = '';
      const timer = setTimeout(
        () => reject(new Error(`code-server did not start within ${timeoutMs} ms; see ${dirs.serverLog}`)),
        timeoutMs,
      );
      const onData = (d) => {
        log.write(d);
        buf += d.toString();
        const m = buf.match(/HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\//);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      exitPromise.then((e) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited early (${JSON.stringify(e)}); see ${dirs.serverLog}`));
      });
    });
    return { url, port: Number(new URL(url).port), pid: child.pid, startedMs: Date.now() - t0, stop };
  } catch (e) {
    await stop(); // don't leave a half-started server behind (e.g. on the start timeout)
    throw e;
  }
}

export const CHROMIUM_ARGS = [
  '--no-sandbox', // running as root in a container
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Launch the system Chromium (playwright-core ships no browser; `npx playwright install` needs internet). */
export async function launchBrowser(dirs) {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_ARGS,
    env: dirs ? xdgEnv(dirs) : process.env,
  });
}

/**
 * Workbench URL. code-server's CLI rejects --extensionDevelopmentPath/--extensionTestsPath ("Unknown
 * option") and VS Code's server ignores them ("not supported for server"). The web workbench reads them from
 * the `payload` query parameter (JSON array of [key, value] pairs), as @vscode/test-web does. Paths must be
 * vscode-remote:// URIs so the *remote* (Node) extension host on the server loads them.
 */
export function workbenchUrl(baseUrl, { folder, extensionDevelopmentPath, extensionTestsPath } = {}) {
  const authority = new URL(baseUrl).host; // e.g. 127.0.0.1:41234 - what the workbench uses as remote authority
  const remote = (p) => `vscode-remote://${authority}${path.resolve(p)}`;
  const payload = [];
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  const q = new URLSearchParams();
  if (folder) q.set('folder', path.resolve(folder));
  if (payload.length) q.set('payload', JSON.stringify(payload));
  return `${baseUrl}/?${q.toString()}`;
}

/** Delete a temp root (unless KEEP_TMP=1). A caller-supplied workspace outside the root is left alone. */
export function removeTempRoot(dirs, say = () => {}) {
  if (process.env.KEEP_TMP) say(`kept temp dir ${dirs.root}`);
  else fs.rmSync(dirs.root, { recursive: true, force: true });
}

export function ms(n) {
  return `${(n / 1000).toFixed(1)}s`;
}
