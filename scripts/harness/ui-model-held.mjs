#!/usr/bin/env node
// Browser test of the editor's question before a pack's model runs where no sandbox can hold it (issue 29), in the
// real VS Code web workbench (code-server + headless Chromium, via ui-driver.mjs) on a machine played as one with
// neither bubblewrap nor unshare (LESSON_COMPANION_SANDBOX_TOOL=none, the sandbox finder's own test switch):
//   - a pack with its own model (health-checks under another id and title, bundled by the real CLI) is installed
//     through "Install Lesson Pack…" (the file typed into the workbench's own open dialog, the install's question
//     answered by clicking "Install") and started in Python;
//   - Check asks, in a modal dialog that names the pack, before anything of the pack runs; Cancel runs nothing
//     (no result, a notification saying why) and the next Check asks again;
//   - "Run It as Me" runs the check (a correct program passes), and the next Check in the same window does not
//     ask again.
// The extension is the packaged VSIX (scripts/package-vsix.mjs, what `npm run package` makes from the built dist/),
// installed into code-server as a learner installs it: so the package holds what a check needs, and installs.
// Only the sandbox finder is told what to find; the install, the dialogs and the check are the real ones.
//
//   node scripts/harness/ui-model-held.mjs        (npm run test:ui builds first)
// Screenshot: test-output/screenshots/model-held-question-dark.png. Exit 0 pass, 1 failure (failure.png in
// .test-logs-ui/).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT, ms } from './lib.mjs';
import {
  pickQuickItem,
  runCommand,
  screenshot,
  waitForNotification,
  webviewFrame,
  withWorkbench,
} from './ui-driver.mjs';

const ID = 'health-checks-unheld';
const TITLE = 'Health Checks, Installed Without a Sandbox';
const PANEL_TITLE = `Lesson: ${TITLE}`;
const CORRECT = path.join(
  REPO_ROOT,
  'test',
  'fixtures',
  'real-style',
  'health-checks',
  'python',
  'min_over_candidates.py',
);
const SHOTS = path.join(REPO_ROOT, 'test-output', 'screenshots');
const say = (s) => process.stderr.write(`[ui-model-held] ${s}\n`);
const t0 = Date.now();
const step = (s) => say(`${ms(Date.now() - t0)} ${s}`);
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** health-checks under another id and title, bundled by the real CLI: a pack whose model is not built in. */
function bundlePack(tmp) {
  const dir = path.join(tmp, ID);
  fs.cpSync(path.join(REPO_ROOT, 'lessons', 'health-checks'), dir, { recursive: true });
  const manifestFile = path.join(dir, 'lesson.json');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  delete manifest.$schema;
  Object.assign(manifest, { id: ID, title: TITLE });
  fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
  const file = path.join(tmp, `${ID}.lessonpack`);
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'dist', 'cli.js'), 'bundle', dir, '-o', file], {
    stdio: 'pipe',
  });
  return file;
}

/** The workbench's modal dialog, once it shows: its whole text and its buttons. */
async function modalDialog(page, timeout = 60000) {
  const box = page.locator('.monaco-dialog-box').first();
  await box.waitFor({ state: 'visible', timeout });
  const text = (await box.innerText()).replace(/\s+/g, ' ');
  const buttons = await box.locator('.dialog-buttons .monaco-button').allInnerTexts();
  return { box, text, buttons: buttons.map((b) => b.trim()) };
}

async function clickDialogButton(page, dialog, label) {
  assert.ok(dialog.buttons.includes(label), `the dialog offers "${label}": ${dialog.buttons.join(' | ')}`);
  await dialog.box.locator('.dialog-buttons .monaco-button', { hasText: label }).first().click();
  await dialog.box.waitFor({ state: 'hidden', timeout: 10000 });
}

/** "Install Lesson Pack…" with the file typed into the workbench's open dialog, and its question answered. */
async function installThroughDialog(page, file) {
  await runCommand(page, 'Lesson Companion: Install Lesson Pack…');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: 15000 });
  // The dialog puts its starting folder into the box once it has read it: typed before that, the path was replaced
  // by the folder, and Enter opened the folder (a fresh clone under load). So wait for the folder, type, and look.
  await page.waitForFunction(() => document.querySelector('.quick-input-widget input.input')?.value, null, {
    timeout: 15000,
  });
  for (let attempt = 0; ; attempt++) {
    await input.fill(file);
    await page.waitForTimeout(300); // the dialog validates the typed path before it accepts Enter
    if ((await input.inputValue()) === file) break;
    assert.ok(attempt < 10, `the open dialog keeps the typed path: it shows ${await input.inputValue()}`);
  }
  await input.press('Enter');
  const question = await modalDialog(page, 30000);
  assert.match(question.text, new RegExp(`Install lesson ${escapeRegExp(ID)}`), question.text);
  await clickDialogButton(page, question, 'Install');
}

/** Number of results the panel has shown so far (its last verdict's text, or empty). */
const verdictText = async (wv) => (await wv.locator('#results .details-line').allInnerTexts()).join('\n');

async function waitForVerdict(page, wv, before) {
  const deadline = Date.now() + 120000;
  for (;;) {
    const now = await verdictText(wv);
    if (now && now !== before && (await wv.locator('#check').innerText()) === 'Check') return now;
    if (Date.now() > deadline) throw new Error('no new check result within 120 s');
    await page.waitForTimeout(250);
  }
}

/** Presses Check and expects the question about the model (answered by the caller). */
async function checkAndQuestion(page, wv) {
  await wv.locator('#check').click();
  const question = await modalDialog(page);
  step(`the question: "${question.text}" [${question.buttons.join(' | ')}]`);
  assert.match(question.text, new RegExp(escapeRegExp(TITLE)), 'the question names the pack by its title');
  assert.match(question.text, new RegExp(escapeRegExp(ID)), 'and by its id');
  assert.match(question.text, /run as you/i, 'it says the model would run as the user');
  assert.match(question.text, /no sandbox/i, 'it says why: no sandbox');
  return question;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-ui-model-held-'));
try {
  fs.mkdirSync(SHOTS, { recursive: true });
  const pack = bundlePack(tmp);
  step(`bundled ${path.basename(pack)}`);
  const vsix = path.join(tmp, 'lesson-companion.vsix');
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'package-vsix.mjs'), '--out', vsix], {
    stdio: 'pipe',
  });
  step(`packaged ${path.basename(vsix)} (${(fs.statSync(vsix).size / 1048576).toFixed(2)} MiB)`);
  await withWorkbench(
    { vsix, theme: 'dark', viewport: { width: 1440, height: 900 }, env: { LESSON_COMPANION_SANDBOX_TOOL: 'none' } },
    async (s) => {
      const { page, dirs } = s;
      step('installing through Install Lesson Pack…');
      await installThroughDialog(page, pack);
      await waitForNotification(page, new RegExp(escapeRegExp(ID)), { timeout: 30000 });
      step('starting the installed lesson in Python');
      await runCommand(page, 'Lesson Companion: Start Lesson…');
      await pickQuickItem(page, TITLE);
      await pickQuickItem(page, 'Python');
      const wv = await webviewFrame(page, PANEL_TITLE);
      await wv.locator('#check').waitFor({ state: 'visible', timeout: 30000 });
      fs.writeFileSync(path.join(dirs.workspace, 'balancer.py'), fs.readFileSync(CORRECT, 'utf8'));
      await page.waitForTimeout(1500); // the editor picks the file up from disk; the check saves what it shows

      step('Check: the question; Cancel runs nothing');
      const before = await verdictText(wv);
      const first = await checkAndQuestion(page, wv);
      await screenshot(page, path.join(SHOTS, 'model-held-question-dark.png'), { fullPage: false });
      await clickDialogButton(page, first, 'Cancel');
      const refusal = await waitForNotification(page, /no sandbox can hold it/, { timeout: 30000 });
      step(`after Cancel: "${(await refusal.innerText()).replace(/\s+/g, ' ')}"`);
      await page.waitForTimeout(1500);
      assert.equal(await verdictText(wv), before, 'after Cancel no check result is shown');

      step('Check again: asked again; Run It as Me runs the check');
      await clickDialogButton(page, await checkAndQuestion(page, wv), 'Run It as Me');
      const verdict = await waitForVerdict(page, wv, before);
      step(`verdict: ${verdict.replace(/\s+/g, ' ')}`);
      assert.match(await wv.locator('#results .verdict').innerText(), /pass/i, 'the correct program passes');

      step('Check a third time: not asked again in this window');
      await wv.locator('#check').click();
      const asked = await page
        .locator('.monaco-dialog-box')
        .first()
        .waitFor({ state: 'visible', timeout: 4000 })
        .then(
          () => true,
          () => false,
        );
      assert.equal(asked, false, 'the lesson allowed once is not asked about again in the same window');
      await page.waitForTimeout(3000);
    },
  );
  say(`PASS in ${ms(Date.now() - t0)}`);
} catch (e) {
  say(`FAIL: ${e.stack || e}`);
  process.exitCode = 1;
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
