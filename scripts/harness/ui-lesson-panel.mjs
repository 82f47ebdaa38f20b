#!/usr/bin/env node
// Browser test of the lesson panel in the real VS Code web workbench (code-server + headless Chromium, via
// ui-driver.mjs), at 1440×900: start a lesson from the palette (Check is in view, and stays in view when the
// panel scrolls), click a read-order step and see the editor reveal the symbol, answer a question wrong and
// see feedback that does not give the answer away (then Show answer), press Check on a file whose pick()
// delegates to a helper and that has two mistakes, and see: the mistake cards with two count columns and
// the differing cell marked, the tiebreak's squiggle on the helper's lines and the warning squiggle of the
// likely finding (a count below zero) with its words right above it, one count in
// the panel, the Test Explorer header and the activity-bar badge, no internal name in any visible text;
// screenshots in the dark, light and high-contrast themes; a learner's printed HTML shown as text; then
// the panel in Restricted Mode.
//
//   node scripts/harness/ui-lesson-panel.mjs        (npm run test:ui builds first)
// Screenshots: test-output/screenshots/*.png. Exit 0 pass, 1 failure (failure.png in .test-logs-ui/).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, ms } from './lib.mjs';
import {
  runCommand,
  screenshot,
  setColorTheme,
  waitForWorkbench,
  webviewElement,
  webviewFrame,
  withWorkbench,
} from './ui-driver.mjs';
import {
  axeAudit,
  axeReport,
  axeSource,
  cardsAgree,
  contrastRatio,
  firstScreen,
  focusRings,
} from './ui-panel-checks.mjs';

const LESSON_TITLE = 'Least Connections Is a Counter';
const PANEL_TITLE = `Lesson: ${LESSON_TITLE}`;
const MAIN = 'src/lb/least_conn.py';
const FIXTURES = path.join(REPO_ROOT, 'test', 'integration', 'fixtures', 'conn-counts', 'python');
const SHOTS = path.join(REPO_ROOT, 'test-output', 'screenshots');
const LESSON_DIR = path.join(REPO_ROOT, 'lessons', 'conn-counts');
const say = (s) => process.stderr.write(`[ui-lesson-panel] ${s}\n`);
const t0 = Date.now();
const step = (s) => say(`${ms(Date.now() - t0)} ${s}`);

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Picks the row labelled exactly `label` in the open quick pick. */
async function pickQuickItem(page, label) {
  const row = page
    .locator('.quick-input-widget .monaco-list-row')
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

/** Internal names a learner must never see: the hidden transcripts' names (the ones with a dash), generated ones. */
function internalNames() {
  const dir = path.join(LESSON_DIR, 'transcripts');
  const names = fs
    .readdirSync(dir)
    .flatMap((f) => [...fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/^=== ([^:\s]+):/gm)].map((m) => m[1]));
  return names.filter((n) => n.includes('-'));
}

function assertNoInternalNames(text, where) {
  for (const name of internalNames())
    assert.ok(!new RegExp(`\\b${escapeRegExp(name)}\\b`).test(text), `${where} shows the internal name "${name}"`);
  assert.doesNotMatch(text, /generated-\d|Revealed by/, `${where} shows an internal name`);
}

/** #check is inside the panel's viewport (not scrolled away, not under anything). */
async function checkInView(wv) {
  return wv.locator('#check').evaluate((el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    return r.top >= 0 && r.bottom <= window.innerHeight && document.elementFromPoint(x, y) === el;
  });
}

/** The Test Explorer header's "passed/total" and the Testing activity-bar badge. */
async function testingNumbers(page) {
  await runCommand(page, 'Testing: Focus on Test Explorer View');
  const header = page
    .locator('.result-summary > div')
    .filter({ hasText: /^\d+\/\d+$/ })
    .first();
  await header.waitFor({ timeout: 15000 });
  const [passed, total] = (await header.innerText()).split('/').map(Number);
  const badge = page
    .locator('.activitybar .action-item')
    .filter({ has: page.locator('.action-label[aria-label^="Testing"]') })
    .locator('.badge-content')
    .first();
  const badgeText = (await badge.count()) ? (await badge.innerText()).trim() : '';
  const rows = await page.locator('.test-explorer .monaco-list-row').allInnerTexts();
  return { passed, total, badge: badgeText ? Number(badgeText) : 0, rows };
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
    const pickLine =
      fs
        .readFileSync(mainPath, 'utf8')
        .split('\n')
        .findIndex((l) => /^def pick\(/.test(l)) + 1;
    assert.ok(pickLine > 0);
    await wv.locator('#step-3 button.step-open').click();
    await waitForCursorLine(page, pickLine);
    // The revealed line is on screen, and it is the definition.
    await page.locator('.monaco-editor .view-line', { hasText: 'def pick(' }).first().waitFor({ state: 'visible' });
    await wv.locator('#step-3.read').waitFor({ timeout: 5000 });
    step(`editor revealed def pick at line ${pickLine}; step 3 is ticked`);

    step('answering a failure question wrong: the feedback guides and does not give the answer away');
    wv = await webviewFrame(page, PANEL_TITLE);
    const accepted = JSON.parse(
      fs.readFileSync(path.join(REPO_ROOT, 'authoring', 'conn-counts.answers.json'), 'utf8'),
    ).questions;
    const short = wv.locator('#question-fq1-pick-empty-counts');
    await short.scrollIntoViewIfNeeded();
    await short.locator('input[type=text]').fill('s3');
    await short.locator('input[type=text]').press('Enter');
    const wrong = short.locator('.feedback.wrong');
    await wrong.waitFor({ timeout: 10000 });
    const wrongText = await wrong.locator('.feedback-text').innerText();
    for (const answer of accepted['fq1-pick-empty-counts'].accept) {
      assert.ok(
        !new RegExp(`\\b${escapeRegExp(answer)}\\b`, 'i').test(wrongText),
        `the feedback on a wrong answer gives the answer "${answer}" away: ${wrongText}`,
      );
    }
    assert.equal(await wrong.locator('.explanation').count(), 0, 'no explanation with a wrong answer');
    await wrong.locator('.step-link', { hasText: 'Read step 3 again' }).waitFor();
    await screenshot(page, path.join(SHOTS, 'questions-dark.png'), { locator: webviewElement(page, PANEL_TITLE) });
    await wrong.locator('.show-answer').click();
    await short.locator('.feedback.revealed', { hasText: 's1' }).waitFor({ timeout: 10000 });
    step('Show answer gives the worked answer');
    const q = wv.locator('#question-fq1-order-independent');
    await q.scrollIntoViewIfNeeded();
    await q.locator('label.choice').nth(0).click();
    await q.locator('button[type=submit]').click();
    await q.locator('.feedback.wrong').waitFor({ timeout: 10000 });
    await q.locator('label.choice').nth(1).click();
    await q.locator('button[type=submit]').click();
    await q.locator('.feedback.correct', { hasText: 'Right.' }).waitFor({ timeout: 10000 });
    await wv.locator('#progress', { hasText: /1 of \d+ answered/ }).waitFor({ timeout: 5000 });
    await wv.locator('#read').scrollIntoViewIfNeeded();
    await screenshot(page, path.join(SHOTS, 'steps-dark.png'), { locator: webviewElement(page, PANEL_TITLE) });

    step('Check is in view at 1440×900, and stays there when the panel scrolls');
    assert.ok(await checkInView(wv), 'Check is visible without scrolling');
    await wv.locator('body').evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    assert.ok(await checkInView(wv), 'Check is still visible at the bottom of the panel');

    step('Check on a file whose pick() delegates to a helper, with two mistakes');
    const helperText = fs.readFileSync(path.join(FIXTURES, 'helper-two-mistakes.py'), 'utf8');
    fs.writeFileSync(mainPath, helperText);
    // The editor reloads a file changed on disk on the file watcher's schedule, which on a busy fresh machine came
    // later than any wait here (the lenses and squiggles then sat on the old text): after a short wait, revert the
    // editor to the disk's text, which reloads it at once. The check must be of the text the learner sees.
    const helperShown = page.locator('.monaco-editor .view-line', { hasText: 'def _least_busy(' }).first();
    for (let attempt = 0; ; attempt++) {
      if (
        await helperShown.waitFor({ state: 'attached', timeout: 5000 }).then(
          () => true,
          () => false,
        )
      )
        break;
      if (attempt === 3)
        throw new Error(
          'the editor never showed the new text of least_conn.py (def _least_busy), written on disk and reverted 3 times',
        );
      say('the editor has not reloaded least_conn.py from disk yet: File: Revert File');
      await runCommand(page, 'View: Focus First Editor Group');
      await runCommand(page, 'File: Revert File');
    }
    await wv.locator('#check').click();
    // The helper's tie rule (the first name when all are equal, else the first in the list) is a fixed rule of
    // its own, named for sure; the count below zero is the likely finding.
    const card = wv.locator('#mistake-tiebreak');
    await card.waitFor({ timeout: 90000 });
    const tieTitle = (await wv.locator('#mistake-tiebreak-title').innerText())
      .replace(/\s+/g, ' ')
      .replace(/^[✗⚠]\s*/, '')
      .replace(/\s*likely$/, '')
      .trim();
    say(`tiebreak card: "${tieTitle}"`);
    say(`tiebreak card points at: ${await card.locator('p.where').innerText()}`);
    assert.equal(await wv.locator('.card.mistake').count(), 2, 'two mistake cards');

    step("the first screen after a failing check: the verdict and the first card's title, the sticky bar on one row");
    await page.waitForTimeout(1200); // the smooth scroll to the results
    const wide = await firstScreen(wv);
    say(
      `first screen at 1440×900 (panel ${wide.width}×${wide.height}): verdict ${wide.verdict}, first title ${wide.title} ("${wide.titleText}"), bar ${wide.barHeight} px, one row ${wide.oneRow}`,
    );
    assert.ok(
      wide.verdict && wide.title,
      `at 1440×900 the verdict and the first card's title are in view: ${JSON.stringify(wide)}`,
    );
    assert.ok(wide.oneRow, `the sticky bar holds one row: ${JSON.stringify(wide)}`);
    say(`progress on the bar at 1440×900: ${JSON.stringify(wide.progressShown)}`);
    assert.ok(
      wide.progressShown.length > 0 && !wide.progressCut,
      `the bar shows whole progress parts, none cut: ${JSON.stringify(wide)}`,
    );
    const agreeWide = await cardsAgree(wv);
    say(`cards at 1440×900: ${agreeWide.cards} cards, ${agreeWide.refs} "command N (X)" checked`);
    assert.deepEqual(agreeWide.problems, [], 'every card says only what it shows, the bar clips nothing');
    await screenshot(page, path.join(SHOTS, 'first-screen-1440-dark.png'), {
      locator: webviewElement(page, PANEL_TITLE),
    });
    // A narrow panel: the editor group beside it shrinks by half of what the window does.
    const narrowWindow = Math.max(900, 1440 - 2 * (wide.width - 500));
    await page.setViewportSize({ width: narrowWindow, height: 900 });
    await page.waitForTimeout(600);
    await wv.locator('.topbar .last-verdict').click();
    await page.waitForTimeout(1200);
    const narrow = await firstScreen(wv);
    say(
      `first screen at a ${narrow.width} px panel: verdict ${narrow.verdict}, first title ${narrow.title}, bar ${narrow.barHeight} px, one row ${narrow.oneRow}`,
    );
    assert.ok(narrow.width <= 540, `the narrow panel is about 500 px wide: ${narrow.width}`);
    assert.ok(
      narrow.verdict && narrow.title,
      `at a ${narrow.width} px panel the verdict and the first card's title are in view: ${JSON.stringify(narrow)}`,
    );
    assert.ok(narrow.oneRow, `the sticky bar holds one row at ${narrow.width} px: ${JSON.stringify(narrow)}`);
    const agreeNarrow = await cardsAgree(wv);
    say(`cards at a ${agreeNarrow.width} px panel: ${agreeNarrow.refs} "command N (X)" checked`);
    assert.deepEqual(agreeNarrow.problems, [], `at a ${agreeNarrow.width} px panel too`);
    await screenshot(page, path.join(SHOTS, 'first-screen-500-dark.png'), {
      locator: webviewElement(page, PANEL_TITLE),
    });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.waitForTimeout(600);
    await card.locator('.step-link', { hasText: 'Step 3' }).waitFor();
    // The diagnosis → question loop: the card links to the question that teaches the mistake.
    await card.locator('.question-link').click();
    await wv.locator('#question-fq1-order-independent.flash').waitFor({ timeout: 5000 });

    step('one count: the panel, the Test Explorer header and the badge');
    const summary = await wv.locator('#results .verdict .summary').innerText();
    const [, shownPassed, shownTotal] = /(\d+) of (\d+) hidden transcripts pass/.exec(summary) ?? [];
    assert.ok(shownPassed, `the verdict states the count: ${summary}`);
    assert.equal(
      await wv.locator('.topbar .last-verdict .summary').innerText(),
      summary,
      'the sticky bar says the same',
    );
    // One timing per check: the Test Explorer's header has it, the panel does not say another.
    assert.doesNotMatch(
      await wv.locator('#results .details-line').innerText(),
      /\d+(\.\d+)?\s?(ms|s)\b/,
      'the panel states no second duration',
    );
    const testing = await testingNumbers(page);
    assert.deepEqual(
      [testing.passed, testing.total],
      [Number(shownPassed), Number(shownTotal)],
      `Test Explorer header ${testing.passed}/${testing.total}, panel "${summary}"`,
    );
    assert.equal(testing.badge, Number(shownTotal) - Number(shownPassed), 'the badge counts the failing transcripts');
    assertNoInternalNames(testing.rows.join('\n'), 'the Test Explorer');
    for (const row of testing.rows)
      assert.doesNotMatch(row, /\d+(\.\d+)?\s?(ms|s)\b/, `a test item shows a duration of its own: ${row}`);

    step('the likely finding is a warning that says "likely" (squiggle, CodeLens, Problems)');
    await page.locator('.tabs-container .tab', { hasText: 'least_conn.py' }).first().click();
    // Reach the likely finding the way a learner does, from its row in Problems: that reveals its squiggle, and
    // the lens sits right above the squiggled lines. (Going to a line computed here once missed: with the Test
    // Results panel open the editor shows few lines.)
    await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
    const problemRow = page
      .locator('.markers-panel .monaco-list-row', { hasText: /A count goes below zero \(likely\)/ })
      .first();
    const rowShown = await problemRow.waitFor({ timeout: 10000 }).then(
      () => true,
      () => false,
    );
    if (rowShown) await problemRow.dblclick();
    else {
      // The row was not drawn in time (seen once on a fresh machine): go to the squiggled line instead.
      say('no count-below-zero row in Problems within 10 s; going to the squiggled line of connection_closed');
      await runCommand(page, 'Go to Line/Column...');
      await page.keyboard.type(
        String(helperText.split('\n').findIndex((l) => /^\s+counts\.active\[backend\] = .* - 1$/.test(l)) + 1),
      );
      await page.keyboard.press('Enter');
    }
    await page.locator('.monaco-editor .squiggly-warning').first().waitFor({ timeout: 15000 });
    const likelyLens = page
      .locator('.monaco-editor .codelens-decoration', { hasText: /⚠ A count goes below zero/ })
      .first();
    await likelyLens.waitFor({ timeout: 15000 }).catch(async (error) => {
      const shown = await page.locator('.monaco-editor .codelens-decoration').allInnerTexts();
      const lines = await page.locator('.monaco-editor .line-numbers').allInnerTexts();
      await screenshot(page, path.join(SHOTS, 'lens-missing-dark.png'));
      throw new Error(
        `no "⚠ A count goes below zero" lens; the lenses on screen: ${JSON.stringify(shown)}, cursor at line ${await cursorLine(page).catch(() => '?')}, line numbers on screen ${lines.filter(Boolean).join(',')} (${error.message})`,
      );
    });
    await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
    await page
      .locator('.markers-panel .monaco-list-row', { hasText: /\(likely\)/ })
      .first()
      .waitFor({ timeout: 10000 });
    await runCommand(page, 'View: Hide Panel');

    step('the trace: your counts and should be, the differing count marked');
    wv = await webviewFrame(page, PANEL_TITLE);
    const negative = wv.locator('#mistake-negative-count');
    await negative.scrollIntoViewIfNeeded();
    const heads = await negative.locator('table.trace th').allInnerTexts();
    assert.deepEqual(heads.slice(-2), ['your counts', 'should be'], `trace columns: ${heads.join(' | ')}`);
    const differs = negative.locator('table.trace .count.differs').first();
    await differs.waitFor();
    assert.match(await differs.innerText(), /^s\d+:-1/, "the learner's own -1 is in the table, marked");
    await negative.locator('button.run-trace').waitFor();
    await negative.locator('button.debug-trace', { hasText: /Python Debugger/ }).waitFor();
    await negative.locator('.replay-line', { hasText: /python3?/ }).waitFor();
    const likelyTitle = await negative.locator('h3').evaluate((h) => h.textContent);
    assert.match(likelyTitle, /zero likely$/, `a space before the badge: "${likelyTitle}"`);
    assertNoInternalNames(await wv.locator('body').innerText(), 'the panel');
    await negative.locator('table.trace').scrollIntoViewIfNeeded();
    await screenshot(page, path.join(SHOTS, 'counts-dark.png'), { locator: webviewElement(page, PANEL_TITLE) });
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, path.join(SHOTS, 'mistake-dark.png'));
    await screenshot(page, path.join(SHOTS, 'panel-dark.png'), { locator: webviewElement(page, PANEL_TITLE) });
    const axe = axeSource();
    const audits = [['dark', await axeAudit(wv, axe)]];
    step('a visible focus ring on every control a keyboard reaches');
    const rings = await focusRings(page, wv, 40);
    const faint = rings.filter((r) => r.style === 'none' || r.width < 1 || contrastRatio(r.color, r.background) < 3);
    say(
      `focus rings: ${rings.length} stops, ${faint.length} without a visible ring${faint.length ? `: ${faint.map((r) => `${r.label} (${r.style} ${r.width}px ${r.color})`).join(', ')}` : ''}`,
    );
    assert.ok(rings.length >= 20, `the keyboard reaches the panel's controls: ${rings.length}`);
    assert.equal(faint.length, 0, 'every focused control shows a ring at 3:1 against the background');

    for (const theme of ['light', 'hc']) {
      step(`theme ${theme}`);
      await setColorTheme(s, theme);
      wv = await webviewFrame(page, PANEL_TITLE);
      await wv.locator('.card.mistake').first().scrollIntoViewIfNeeded();
      await page.waitForTimeout(400); // the webview re-applies theme variables asynchronously
      await screenshot(page, path.join(SHOTS, `mistake-${theme}.png`));
      await screenshot(page, path.join(SHOTS, `panel-${theme}.png`), { locator: webviewElement(page, PANEL_TITLE) });
      await wv
        .locator('.card.mistake', { hasText: 'A count goes below zero' })
        .locator('table.trace')
        .scrollIntoViewIfNeeded();
      await screenshot(page, path.join(SHOTS, `counts-${theme}.png`), { locator: webviewElement(page, PANEL_TITLE) });
      audits.push([theme, await axeAudit(wv, axe)]);
      await wv.locator('.topbar .last-verdict').click();
      await page.waitForTimeout(1200);
      await screenshot(page, path.join(SHOTS, `first-screen-1440-${theme}.png`), {
        locator: webviewElement(page, PANEL_TITLE),
      });
    }
    for (const [theme, violations] of audits) for (const line of axeReport(theme, violations)) say(line);
    for (const [theme, violations] of audits) {
      const grave = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.equal(
        grave.length,
        0,
        `axe finds serious or critical violations in the ${theme} theme: ${grave.map((v) => v.id).join(', ')}`,
      );
    }
    await setColorTheme(s, 'dark');
    wv = await webviewFrame(page, PANEL_TITLE);

    // Where the finding points: the lines that ran when the program went wrong, in the learner's own helper.
    step("the squiggle sits on the helper's lines");
    await page.locator('.tabs-container .tab', { hasText: 'least_conn.py' }).first().click();
    const lines = helperText.split('\n');
    const helperStart = lines.findIndex((l) => /^def _least_busy\(/.test(l)) + 1;
    const helperEnd = lines.findIndex((l) => /^def connection_opened\(/.test(l)) + 1;
    await runCommand(page, 'Go to Line/Column...');
    await page.keyboard.type('1');
    await page.keyboard.press('Enter');
    await runCommand(page, 'Go to Next Problem (Error, Warning, Info)');
    const marker = page.locator('.marker-widget').first();
    await marker.waitFor({ timeout: 10000 });
    const markerText = await marker.innerText();
    assert.ok(markerText.includes(tieTitle), `the first problem is the tiebreak ("${tieTitle}"): ${markerText}`);
    const squiggleLine = await cursorLine(page);
    assert.ok(
      squiggleLine > helperStart && squiggleLine < helperEnd,
      `the tiebreak squiggle (line ${squiggleLine}) is in the helper _least_busy() (lines ${helperStart}–${helperEnd})`,
    );
    await page.keyboard.press('Escape');
    step("the likely finding's words sit right above its squiggle, and fit beside the Explorer and the panel");
    await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
    await page.keyboard.press('Control+Shift+E');
    await page.locator('.explorer-folders-view').first().waitFor({ timeout: 10000 });
    // The Testing view draws a located test message (.test-error-content-widget) always red: a likely finding
    // (a yellow squiggle) gets none. Its words are the CodeLens right above its squiggled lines, on a row of its own.
    const lens = page.locator('.monaco-editor .codelens-decoration', { hasText: /⚠ A count goes below zero/ }).first();
    await lens.scrollIntoViewIfNeeded();
    await lens.waitFor({ timeout: 15000 });
    assert.equal(
      await page.locator('.monaco-editor .codelens-decoration', { hasText: /A count goes below zero/ }).count(),
      1,
      'one lens names the finding',
    );
    const placed = await lens.evaluate((l) => {
      const editor = l.closest('.monaco-editor');
      const bottom = l.getBoundingClientRect().bottom;
      // The code row right under the lens, and the squiggles on it.
      const row = [...editor.querySelectorAll('.view-line')]
        .filter((r) => r.getBoundingClientRect().top >= bottom - 2)
        .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0];
      const top = row.getBoundingClientRect().top;
      const squiggles = [...editor.querySelectorAll('.squiggly-error, .squiggly-warning')].filter(
        (q) => Math.abs(q.getBoundingClientRect().top - top) < 4,
      );
      const guard = editor.querySelector('.overflow-guard').getBoundingClientRect();
      const minimap = editor.querySelector('.minimap');
      const minimapLeft =
        minimap && minimap.getBoundingClientRect().width > 0 ? minimap.getBoundingClientRect().left : Infinity;
      const text = [...l.querySelectorAll('a, span')].find((e) => /A count goes below/.test(e.textContent)) ?? l;
      const badges = [...editor.querySelectorAll('.test-error-content-widget')].filter(
        (b) => Math.abs(b.getBoundingClientRect().top - top) < 4,
      );
      return {
        badges: badges.length,
        squiggle: squiggles.map((q) => (q.classList.contains('squiggly-error') ? 'error' : 'warning')),
        code: row.textContent.replace(/\u00a0/g, ' ').trim(),
        right: text.getBoundingClientRect().right,
        visibleRight: Math.min(guard.right, minimapLeft),
        text: l.textContent.replace(/\u00a0/g, ' '),
      };
    });
    say(
      `lens "${placed.text}" above "${placed.code}": ends at ${Math.round(placed.right)} px, the visible edge at ${Math.round(placed.visibleRight)} px; squiggle under it: ${placed.squiggle.join(', ') || 'none'}`,
    );
    const inlineLine = lines.findIndex((l) => l.trim() === placed.code) + 1;
    const closedStart = lines.findIndex((l) => /^def connection_closed\(/.test(l)) + 1;
    assert.ok(
      inlineLine > closedStart,
      `the finding's lens sits above line ${inlineLine} ("${placed.code}"), in connection_closed() (from line ${closedStart})`,
    );
    assert.equal(placed.badges, 0, "no red Testing badge beside a likely finding's yellow squiggle");
    assert.deepEqual(
      [...new Set(placed.squiggle)],
      ['warning'],
      `the likely finding's lens sits on its yellow squiggle: ${JSON.stringify(placed)}`,
    );
    assert.ok(
      placed.right <= placed.visibleRight,
      `the finding's words "${placed.text}" run past the visible edge (end at ${Math.round(placed.right)} px, the edge at ${Math.round(placed.visibleRight)} px)`,
    );
    await screenshot(page, path.join(SHOTS, 'editor-inline-dark.png'));

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
    await wv.locator('#question-fq1-pick-empty-counts .feedback.revealed').waitFor();
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
