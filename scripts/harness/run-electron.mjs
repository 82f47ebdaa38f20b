#!/usr/bin/env node
// The standard path: the same suites in desktop VS Code via @vscode/test-electron, for machines that can
// download VS Code (not this offline one; the default harness is run-integration-tests.mjs + code-server).
//
//   LC_VSCODE=electron node scripts/harness/run-integration-tests.mjs --suite trusted --suite untrusted
//   node scripts/harness/run-electron.mjs --suite trusted --suite untrusted        (same thing)
//
// Same CLI and exit codes as run-integration-tests.mjs (0 pass, 1 test failures, 2 harness error); --vsix is
// not supported here. Env: LC_VSCODE_VERSION (default 1.100.3, the version code-server 4.100.3 ships, so the
// smoke test's version check holds; "stable" works too but then that check fails), LC_VSCODE_EXECUTABLE (use
// an existing VS Code instead of downloading), KEEP_TMP=1. On Linux without a display run it under
// `xvfb-run -a`: Electron needs an X server even for tests.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { downloadAndUnzipVSCode, runTests, TestRunFailedError } from '@vscode/test-electron';
import { REPO_ROOT, makeTempRoot, ms, removeTempRoot } from './lib.mjs';
import { parseCli } from './run-integration-tests.mjs';

const say = (s) => process.stderr.write(`[electron] ${s}\n`);
const version = process.env.LC_VSCODE_VERSION || '1.100.3';

/**
 * Untrusted suites can't use runTests(): it always appends --disable-workspace-trust (test-electron 3.x),
 * which wins over any setting. So spawn VS Code with the same arguments minus that flag. The trust settings
 * seeded by makeTempRoot (startupPrompt 'never') keep the desktop trust dialog from opening.
 */
function runWithoutTrustOverride(executable, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, { env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function runSuite(suite, executable) {
  if (suite.vsix) throw new Error('--vsix is only supported by the code-server harness');
  // Fresh user-data/extensions dirs with the same seeded settings.json as the code-server runs (the
  // settings file lives in <user-data-dir>/User/settings.json for desktop VS Code too).
  const dirs = makeTempRoot({
    prefix: `lc-el-${suite.name}-`,
    trusted: suite.trusted,
    settings: suite.settings,
    workspace: suite.workspace,
    fixture: suite.fixture,
  });
  const env = {
    LC_TEST_WORKSPACE: dirs.workspace,
    LC_TEST_SUITE: suite.name,
    LC_TEST_TRUSTED: suite.trusted ? '1' : '0',
  };
  // "=" form on purpose: test-electron only recognises --user-data-dir=… when deciding not to add its own.
  const profileArgs = [`--user-data-dir=${dirs.userData}`, `--extensions-dir=${dirs.extensions}`];
  try {
    if (suite.trusted) {
      await runTests({
        vscodeExecutablePath: executable,
        extensionDevelopmentPath: REPO_ROOT,
        extensionTestsPath: suite.tests,
        extensionTestsEnv: env,
        // First launch arg = the folder to open.
        launchArgs: [dirs.workspace, ...profileArgs],
      });
      return 0;
    }
    const args = [
      dirs.workspace,
      ...profileArgs,
      // runTests' own defaults, except --disable-workspace-trust (see runWithoutTrustOverride).
      '--no-sandbox',
      '--disable-gpu-sandbox',
      '--disable-updates',
      '--skip-welcome',
      '--skip-release-notes',
      '--no-cached-data',
      `--extensionTestsPath=${suite.tests}`,
      `--extensionDevelopmentPath=${REPO_ROOT}`,
    ];
    const code = await runWithoutTrustOverride(executable, args, env);
    return code === 0 ? 0 : 1;
  } catch (e) {
    // runTests rejects with TestRunFailedError when VS Code exits non-zero, i.e. run() rejected.
    if (e instanceof TestRunFailedError) return 1;
    say(`ERROR: ${e.stack || e}`);
    return 2;
  } finally {
    removeTempRoot(dirs, say);
  }
}

async function main() {
  let suites;
  let executable;
  try {
    suites = parseCli(process.argv.slice(2));
    executable = process.env.LC_VSCODE_EXECUTABLE || (await downloadAndUnzipVSCode(version));
  } catch (e) {
    say(`ERROR: ${e.stack || e}`);
    return 2;
  }
  const results = [];
  for (const suite of suites) {
    say(
      `=== suite ${suite.name}: ${path.relative(REPO_ROOT, suite.tests)} (${suite.trusted ? 'trusted' : 'UNTRUSTED'}) in VS Code ${version}`,
    );
    const t = Date.now();
    let code;
    try {
      code = await runSuite(suite, executable);
    } catch (e) {
      say(`ERROR: ${e.message}`);
      code = 2;
    }
    results.push({ name: suite.name, code, time: Date.now() - t });
  }
  for (const r of results)
    say(`${['PASS', 'FAIL (tests)', 'ERROR (harness)'][r.code].padEnd(15)} ${r.name} (${ms(r.time)})`);
  return results.some((r) => r.code === 2) ? 2 : results.some((r) => r.code === 1) ? 1 : 0;
}

process.exit(await main());
