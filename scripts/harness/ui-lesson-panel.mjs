#!/usr/bin/env node
// Browser test of the lesson panel in the real VS Code web workbench (code-server + headless Chromium, via
// ui-driver.mjs): start a lesson from the palette, click a read-order step and see the editor reveal the
// symbol, answer a question and see the feedback, press Check on a mistaken file and see the mistake card
// (and the squiggle + CodeLens in the editor), show a learner's printed HTML as text, and take screenshots
// in the dark, light and high-contrast themes; then the panel in Restricted Mode.
//
//   node scripts/harness/ui-lesson-panel.mjs        (npm run test:ui builds first)
// Screenshots: test-output/screenshots/*.png. Exit 0 pass, 1 failure (failure.png in .test-logs-ui/).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, ms } from './lib.mjs';
import { runCommand, screenshot, setColorTheme, waitForWorkbench, webviewElement, webviewFrame, withWorkbench } from './ui-driver.mjs';

const LESSON_TITLE = 'Least Connections Is a Counter';
const PANEL_TITLE = `Lesson: ${LESSON_TITLE}`;
const MAIN = 'src/lb/least_conn.py';
const FIXTURES = path.join(REPO_ROOT, 'test', 'integration', 'fixtures', 'conn-counts', 'python');
const SHOTS = path.join(REPO_ROOT, 'test-output', 'screenshots');
const say = (s) => process.stderr.write(`[ui-lesson-panel] ${s}\n`);
const t0 = Date.now();
const step = (s) => say(`${ms(Date.now() - t0)} ${s}`);

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Picks the row labelled exactly `label` in the open quick pick. */
async function pickQuickItem(page, label) {
  const row = page.locator('.quick-input-widget .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) })
    .first();
  await row.waitFor({ state: 'visible', timeout: 15000 });
  await row.click();
}

async function startLesson(page) {
  await runCommand(page, 'Lesson Companion: Start Lesson…');
  await pickQuickItem(page, LESSON_TITLE);
  await pickQuickItem(page, 'Python');
  const wv = await webviewFrame(page, PANEL_TITLE);
  await wv.locator('h1', { hasText: LESSON_TITLE }).waitFor({ timeout: 20000 });
  return wv;
}

/** The editor's "Ln N, Col M" status bar entry. */
async function cursorLine(page) {
  const text = await page.locator('[id="status.editor.selection"]').first().innerText();
  const m = /Ln (\d+)/.exec(text);
  return m ? Number(m[1]) : undefined;
}

async function waitForCursorLine(page, line, timeout = 10000) {
  const deadline = Date.now() + timeout;
  let last;
  while (Date.now() < deadline) {
    last = await cursorLine(page).catch(() => undefined);
    if (last === line) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`the editor cursor should be on line ${line}, status bar says ${last}`);
}

async function trustedRun() {
  await withWorkbench({ theme: 'dark', viewport: { width: 1440, height: 900 } }, async (s) => {
    const { page, dirs } = s;
    // The seeded theme is not always the one showing (code-server 4.100.3 came up light once); make sure.
    await setColorTheme(s, 'dark');
    step('workbench up; starting the lesson from the palette');
    let wv = await startLesson(page);
    const mainPath = path.join(dirs.workspace, MAIN);
    assert.ok(fs.existsSync(mainPath), 'the starter was copied into the workspace');
    await page.locator('.tabs-container .tab', { hasText: 'least_conn.py' }).first().waitFor();
    await screenshot(page, path.join(SHOTS, 'start-dark.png'));

    step('clicking read-order step 3 (pick)');
    const pickLine = fs.readFileSync(mainPath, 'utf8').split('\n').findIndex((l) => /^def pick\(/.test(l)) + 1;
    assert.ok(pickLine > 0);
    await wv.locator('#step-3 button.step-open').click();
    await waitForCursorLine(page, pickLine);
    // The revealed line is on screen, and it is the definition.
    await page.locator('.monaco-editor .view-line', { hasText: 'def pick(' }).first().waitFor({ state: 'visible' });
    await wv.locator('#step-3.read').waitFor({ timeout: 5000 });
    step(`editor revealed def pick at line ${pickLine}; step 3 is ticked`);

    step('answering a failure question, wrong then right');
    wv = await webviewFrame(page, PANEL_TITLE);
    const q = wv.locator('#question-fq1-order-independent');
    await q.scrollIntoViewIfNeeded();
    await q.locator('label.choice').nth(0).click();
    await q.locator('button[type=submit]').click();
    await q.locator('.feedback.wrong', { hasText: 'empty tuple' }).waitFor({ timeout: 10000 });
    await q.locator('.feedback.wrong .step-link', { hasText: 'Read step 3 again' }).waitFor();
    await q.locator('label.choice').nth(1).click();
    await q.locator('button[type=submit]').click();
    await q.locator('.feedback.correct', { hasText: 'Right.' }).waitFor({ timeout: 10000 });
    const short = wv.locator('#question-fq1-pick-empty-counts');
    await short.locator('input[type=text]').fill('s3');
    await short.locator('input[type=text]').press('Enter');
    await short.locator('.feedback.wrong', { hasText: 'tuple order' }).waitFor({ timeout: 10000 });
    step('feedback shown for both');
    await short.scrollIntoViewIfNeeded();
    await screenshot(page, path.join(SHOTS, 'questions-dark.png'), { locator: webviewElement(page, PANEL_TITLE) });
    await wv.locator('#read').scrollIntoViewIfNeeded();
    await screenshot(page, path.join(SHOTS, 'steps-dark.png'), { locator: webviewElement(page, PANEL_TITLE) });

    step('Check on a file with the tiebreak mistake');
    fs.writeFileSync(mainPath, fs.readFileSync(path.join(FIXTURES, 'tiebreak-by-order.py'), 'utf8'));
    await wv.locator('#check').click();
    const card = wv.locator('.card.mistake', { hasText: 'Ties are not broken by name' });
    await card.waitFor({ timeout: 60000 });
    await card.locator('table.trace tr.diverges').waitFor();
    await card.locator('.step-link', { hasText: 'Step 3' }).waitFor();
    await wv.locator('.verdict-fail', { hasText: 'of 17 hidden transcripts pass' }).waitFor();
    // The diagnosis → question loop: the card links to the question that teaches the mistake.
    await card.locator('.question-link').click();
    await wv.locator('#question-fq1-order-independent.flash').waitFor({ timeout: 5000 });
    // In the editor: a squiggle on the function and the CodeLens verdict above it.
    await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 15000 });
    await page.locator('.monaco-editor .codelens-decoration', { hasText: '✗ Ties are not broken by name' }).first().waitFor({ timeout: 15000 });
    step('mistake card, trace, squiggle and CodeLens are there');
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, path.join(SHOTS, 'mistake-dark.png'));
    await screenshot(page, path.join(SHOTS, 'panel-dark.png'), { locator: webviewElement(page, PANEL_TITLE) });

    for (const theme of ['light', 'hc']) {
      step(`theme ${theme}`);
      await setColorTheme(s, theme);
      wv = await webviewFrame(page, PANEL_TITLE);
      await wv.locator('.card.mistake').first().scrollIntoViewIfNeeded();
      await page.waitForTimeout(400); // the webview re-applies theme variables asynchronously
      await screenshot(page, path.join(SHOTS, `mistake-${theme}.png`));
      await screenshot(page, path.join(SHOTS, `panel-${theme}.png`), { locator: webviewElement(page, PANEL_TITLE) });
    }
    await setColorTheme(s, 'dark');
    wv = await webviewFrame(page, PANEL_TITLE);

    step('a learner who prints HTML sees it as text');
    fs.writeFileSync(mainPath, fs.readFileSync(path.join(FIXTURES, 'prints-html.py'), 'utf8'));
    await wv.locator('#check').click();
    const stray = wv.locator('.card.problem', { hasText: '<img src=x onerror=alert(1)>' });
    await stray.waitFor({ timeout: 90000 });
    assert.equal(await wv.locator('#results img').count(), 0, 'no <img> element was created from learner output');
    await stray.scrollIntoViewIfNeeded();
    await screenshot(page, path.join(SHOTS, 'printed-html-dark.png'), { locator: webviewElement(page, PANEL_TITLE) });

    step('closing and reopening the panel restores its state (ready → init)');
    const panelTab = page.locator('.tabs-container .tab', { hasText: PANEL_TITLE }).first();
    await panelTab.hover();
    await panelTab.locator('.tab-actions .action-label').first().click();
    await panelTab.waitFor({ state: 'detached', timeout: 10000 });
    await runCommand(page, 'Lesson Companion: Open Lesson Panel');
    wv = await webviewFrame(page, PANEL_TITLE);
    await wv.locator('#step-3.read').waitFor({ timeout: 10000 });
    await wv.locator('#question-fq1-order-independent .feedback.correct').waitFor();
    await wv.locator('.card.problem', { hasText: '<img src=x onerror=alert(1)>' }).waitFor();

    step('reloading the window brings the panel back with its progress (WebviewPanelSerializer)');
    // The workbench's own reload runs its shutdown, which flushes the editor state the serializer needs;
    // a bare page.reload() can race that flush and come back without the panel.
    const reloaded = page.waitForEvent('load', { timeout: 60000 });
    await runCommand(page, 'Developer: Reload Window');
    await reloaded;
    await waitForWorkbench(page);
    wv = await webviewFrame(page, PANEL_TITLE, { timeout: 60000 });
    await wv.locator('#step-3.read').waitFor({ timeout: 20000 });
    await wv.locator('#question-fq1-order-independent .feedback.correct').waitFor();
    await wv.locator('.card.problem', { hasText: '<img src=x onerror=alert(1)>' }).waitFor();
  });
}

async function restrictedRun() {
  await withWorkbench({ theme: 'dark', trusted: false, viewport: { width: 1440, height: 900 } }, async (s) => {
    const { page } = s;
    step('Restricted Mode: starting the lesson');
    const wv = await startLesson(page);
    const check = wv.locator('#check');
    await check.waitFor();
    assert.equal(await check.isDisabled(), true, 'Check is disabled without trust');
    await wv.locator('#trust-note', { hasText: 'Restricted Mode' }).waitFor();
    await wv.locator('#trust-note button', { hasText: 'Manage Workspace Trust' }).waitFor();
    await wv.locator('#trust-note').scrollIntoViewIfNeeded();
    await screenshot(page, path.join(SHOTS, 'restricted-dark.png'));
  });
}

try {
  fs.mkdirSync(SHOTS, { recursive: true });
  await trustedRun();
  await restrictedRun();
  say(`PASS in ${ms(Date.now() - t0)}; screenshots in ${path.relative(REPO_ROOT, SHOTS)}/`);
  process.exit(0);
} catch (e) {
  say(`FAIL: ${e.stack || e}`);
  process.exit(1);
}
