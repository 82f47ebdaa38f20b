#!/usr/bin/env node
// Runs mocha suites inside code-server's real (Node) VS Code extension host, driven by headless Chromium.
// Offline: nothing is downloaded. For desktop VS Code via @vscode/test-electron use LC_VSCODE=electron
// (delegates to run-electron.mjs with the same arguments).
//
//   node scripts/harness/run-integration-tests.mjs                         suite "trusted"
//   node scripts/harness/run-integration-tests.mjs --suite trusted --suite untrusted
//   node scripts/harness/run-integration-tests.mjs --tests out/test/x/index.js [--untrusted]
//
// Options (all suites): --workspace DIR (open DIR as is; env TEST_WORKSPACE), --fixture DIR (copy DIR to a
// temp workspace first), --setting key=JSON (extra user setting, repeatable), --vsix FILE (install FILE with
// `code-server --install-extension` and load the extension from there instead of from source: an extension
// under development is never disabled by workspace trust, an installed one is; see the README pitfalls).
// Exit code: 0 all passed, 1 test failures (or the runner threw), 2 harness error (no result, timeout...).
// Env: CODE_SERVER_DIR, CHROMIUM_PATH, TEST_TIMEOUT_MS (per suite, default 180000), KEEP_TMP=1, VERBOSE=1
//      (browser console + workbench chatter too), TEST_LOG_DIR (default <repo>/.test-logs), SCREENSHOT=1
//      (final.png per suite), NO_COLOR / FORCE_COLOR, EXTENSION_TESTS_PATH (= --tests).
// The tests get LC_TEST_WORKSPACE (folder path), LC_TEST_SUITE and LC_TEST_TRUSTED (1/0) in process.env:
// the extension host inherits code-server's environment.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import { fileURLToPath } from 'node:url';
import {
  REPO_ROOT,
  codeServerDir,
  launchBrowser,
  makeTempRoot,
  ms,
  removeTempRoot,
  runCodeServerCli,
  startCodeServer,
  workbenchUrl,
} from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Known suites. Any other name N maps to out/test/integration/N/index.js, untrusted iff N starts with "untrusted". */
export const SUITES = {
  trusted: { tests: 'out/test/integration/suite/index.js', trusted: true },
  untrusted: { tests: 'out/test/integration/untrusted/index.js', trusted: false },
};

export function parseCli(argv) {
  const { values } = util.parseArgs({
    args: argv,
    options: {
      suite: { type: 'string', multiple: true },
      tests: { type: 'string' },
      untrusted: { type: 'boolean', default: false },
      workspace: { type: 'string' },
      fixture: { type: 'string' },
      setting: { type: 'string', multiple: true },
      vsix: { type: 'string' },
    },
  });
  const settings = {};
  for (const s of values.setting ?? []) {
    const i = s.indexOf('=');
    if (i < 1) throw new Error(`--setting expects key=JSON, got ${s}`);
    const raw = s.slice(i + 1);
    try {
      settings[s.slice(0, i)] = JSON.parse(raw);
    } catch {
      settings[s.slice(0, i)] = raw;
    } // bare strings are fine
  }
  const common = {
    workspace: values.workspace ?? process.env.TEST_WORKSPACE ?? undefined,
    fixture: values.fixture,
    settings,
    vsix: values.vsix ? path.resolve(values.vsix) : undefined,
  };
  const tests = values.tests ?? process.env.EXTENSION_TESTS_PATH;
  let suites;
  if (tests) {
    if (values.suite?.length) throw new Error('use either --tests or --suite, not both');
    suites = [{ name: values.untrusted ? 'untrusted-custom' : 'custom', tests, trusted: !values.untrusted }];
  } else {
    suites = (values.suite?.length ? values.suite : ['trusted']).map((name) => {
      if (!/^[\w.-]+$/.test(name)) throw new Error(`bad suite name ${name}`);
      const known = SUITES[name] ?? {
        tests: `out/test/integration/${name}/index.js`,
        trusted: !name.startsWith('untrusted'),
      };
      return { name, ...known, trusted: values.untrusted ? false : known.trusted };
    });
  }
  return suites.map((s) => ({
    ...common,
    ...s,
    fixture: s.fixture ?? common.fixture,
    settings: { ...(s.settings ?? {}), ...common.settings },
    tests: path.resolve(REPO_ROOT, s.tests),
  }));
}

const timeoutMs = Number(process.env.TEST_TIMEOUT_MS || 180000);
const verbose = !!process.env.VERBOSE;
const logRoot = path.resolve(process.env.TEST_LOG_DIR || path.join(REPO_ROOT, '.test-logs'));
// Workbench (not extension host) info chatter that codeAutomationLog also receives; hidden unless VERBOSE=1.
// ("DialogService: refused to show dialog in tests" is kept on purpose: modal dialogs throw in test runs.)
const NOISE =
  /^(Resolving connection token|Resolved connection token|Creating a socket|Updating additional builtin extensions cache|Ignoring fetching additional builtin extensions|ChatSessionStore: Migrating|\[Service Worker\] registered|Creation of workbench contribution '[^']*' took \d+ms|Unable to resolve nonexistent file '[^']*\/workspaceStorage\/)/;
const say = (s) => process.stderr.write(`[harness] ${s}\n`);

/** A do-nothing extension (no `main`) to carry extensionTestsPath when the real one is installed from a .vsix. */
function makeStubExtension(dirs) {
  const dir = path.join(dirs.root, 'stub-extension');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'test-carrier',
      publisher: 'lc-harness',
      version: '0.0.0',
      engines: { vscode: '*' },
    }),
  );
  return dir;
}

/** One suite = one code-server (trust is a server flag) + one browser page. Resolves 0 / 1 / 2. */
async function runSuite(suite) {
  const logDir = path.join(logRoot, suite.name);
  fs.rmSync(logDir, { recursive: true, force: true });
  fs.mkdirSync(logDir, { recursive: true });
  const browserConsole = fs.createWriteStream(path.join(logDir, 'browser-console.log'));
  const automationLog = fs.createWriteStream(path.join(logDir, 'automation.log')); // unfiltered codeAutomationLog
  const t0 = Date.now();
  let dirs;
  let server;
  let browser;
  let exitCode = 2;
  try {
    for (const f of [suite.vsix ?? path.join(REPO_ROOT, 'dist', 'extension.js'), suite.tests]) {
      if (!fs.existsSync(f)) throw new Error(`missing ${f} - build first (bash scripts/test-integration.sh builds)`);
    }
    dirs = makeTempRoot({
      prefix: `lc-it-${suite.name}-`,
      trusted: suite.trusted,
      settings: suite.settings,
      workspace: suite.workspace,
      fixture: suite.fixture,
    });
    if (suite.vsix) {
      const r = await runCodeServerCli(['--install-extension', suite.vsix], dirs);
      if (r.code !== 0) throw new Error(`code-server --install-extension ${suite.vsix} failed:\n${r.output}`);
      say(`installed ${path.basename(suite.vsix)}: ${r.output.trim().split('\n').pop()}`);
    }
    const env = {
      LC_TEST_WORKSPACE: dirs.workspace,
      LC_TEST_SUITE: suite.name,
      LC_TEST_TRUSTED: suite.trusted ? '1' : '0',
      // The extension host's stdout is no TTY; mocha colours only make CI logs unreadable.
      ...(!process.stdout.isTTY && !process.env.FORCE_COLOR ? { NO_COLOR: '1' } : {}),
    };
    server = await startCodeServer(dirs, { env });
    say(`code-server up at ${server.url} (pid ${server.pid}) in ${ms(server.startedMs)} [${codeServerDir()}]`);

    browser = await launchBrowser(dirs);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('console', (m) => {
      browserConsole.write(`[${m.type()}] ${m.text()}\n`);
      if (verbose) say(`[browser ${m.type()}] ${m.text()}`);
    });
    page.on('pageerror', (e) => browserConsole.write(`[pageerror] ${e.stack || e}\n`));

    let resolveExit;
    const exited = new Promise((r) => (resolveExit = r));
    // With extensionTestsPath set, the workbench forwards all extension-host console/stdout output to
    // window.codeAutomationLog(type, args) and calls window.codeAutomationExit(code, logs) once run()
    // settles. This is the only place the result shows up (the server log always says exit code 0).
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      // args are printf-style arrays (['  %d passing', 4]) - format them like console.log would.
      const text = Array.isArray(args) ? util.format(...args) : String(args);
      automationLog.write(`[${type}] ${text}\n`);
      if (!verbose && NOISE.test(text)) return;
      (type === 'error' ? process.stderr : process.stdout).write(text + '\n');
    });
    await page.exposeFunction('codeAutomationExit', (code, logs) => {
      for (const l of logs || []) {
        // l = { relativePath, contents } - the workbench's log files (window, exthost, remote agent ...)
        const dest = path.join(logDir, 'vscode-logs', l.relativePath || 'unknown.log');
        if (!dest.startsWith(logDir + path.sep)) continue;
        fs.mkdirSync(path.dirname(dest), { recursive: true });
        fs.writeFileSync(dest, l.contents ?? '');
      }
      resolveExit(code);
    });

    const url = workbenchUrl(server.url, {
      folder: dirs.workspace,
      // The web workbench only runs extensionTestsPath in an extension-development window, so --vsix runs
      // get a stub development extension (manifest only) and our extension comes from the extensions dir.
      extensionDevelopmentPath: suite.vsix ? makeStubExtension(dirs) : REPO_ROOT,
      extensionTestsPath: suite.tests,
    });
    if (verbose) say(`opening ${url}`);
    const tNav = Date.now();
    await page.goto(url);
    await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
    say(`workbench DOM ready in ${ms(Date.now() - tNav)}`);

    let timer;
    const result = await Promise.race([
      exited,
      new Promise((r) => {
        timer = setTimeout(() => r('timeout'), timeoutMs);
      }),
      new Promise((r) => page.on('crash', () => r('crash'))),
    ]);
    clearTimeout(timer);
    if (result === 'timeout' || result === 'crash') {
      say(`ERROR: no test result (${result}) after ${ms(Date.now() - tNav)}; see ${logDir}`);
      await page.screenshot({ path: path.join(logDir, 'failure.png') }).catch(() => {});
      exitCode = 2;
    } else {
      exitCode = result === 0 ? 0 : 1;
      if (process.env.SCREENSHOT) await page.screenshot({ path: path.join(logDir, 'final.png') }).catch(() => {});
      say(
        `suite ${suite.name}: run() settled with code ${result} ${ms(Date.now() - tNav)} after page load (total ${ms(Date.now() - t0)})`,
      );
    }
  } catch (e) {
    say(`ERROR: ${e.stack || e}`);
    exitCode = 2;
  } finally {
    await browser?.close().catch(() => {});
    await server?.stop();
    browserConsole.end();
    automationLog.end();
    if (dirs) {
      if (fs.existsSync(dirs.serverLog)) fs.copyFileSync(dirs.serverLog, path.join(logDir, 'server.log'));
      removeTempRoot(dirs, say);
    }
  }
  return exitCode;
}

async function main() {
  let suites;
  try {
    suites = parseCli(process.argv.slice(2));
  } catch (e) {
    say(`ERROR: ${e.message}`);
    return 2;
  }
  const results = [];
  const t0 = Date.now();
  for (const suite of suites) {
    const where = suite.workspace ? suite.workspace : suite.fixture ? `copy of ${suite.fixture}` : 'empty temp folder';
    say(
      `=== suite ${suite.name}: ${path.relative(REPO_ROOT, suite.tests)} in a ${suite.trusted ? 'trusted' : 'UNTRUSTED (Restricted Mode)'} workspace (${where})`,
    );
    const t = Date.now();
    results.push({ name: suite.name, code: await runSuite(suite), time: Date.now() - t });
  }
  const label = { 0: 'PASS', 1: 'FAIL (tests)', 2: 'ERROR (harness)' };
  for (const r of results) say(`${label[r.code].padEnd(15)} ${r.name} (${ms(r.time)})`);
  const code = results.some((r) => r.code === 2) ? 2 : results.some((r) => r.code === 1) ? 1 : 0;
  say(
    `${code === 0 ? 'PASS' : `FAIL (exit ${code}); logs in ${logRoot}`} - ${results.length} suite(s) in ${ms(Date.now() - t0)}`,
  );
  return code;
}

// Importable (for parseCli/SUITES) without running.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.env.LC_VSCODE === 'electron') {
    // Same CLI, desktop VS Code via @vscode/test-electron (needs a download, so not the default here).
    const r = spawnSync(process.execPath, [path.join(HERE, 'run-electron.mjs'), ...process.argv.slice(2)], {
      stdio: 'inherit',
    });
    process.exit(r.status ?? 2);
  }
  process.exit(await main());
}
