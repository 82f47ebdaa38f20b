#!/usr/bin/env node
// Browser test of the panel's "Under load" chart in the real VS Code web workbench (code-server + headless
// Chromium, via ui-driver.mjs), at 1440×900, lesson least-connections in Python: run a correct program through
// `slow-server` from the section's own button and see the seed's figures in the sentence, nine small charts on
// one scale and the numbers as tables; the chart in the dark, light and high-contrast themes (screenshots);
// a world scenario (`sticky-sessions`) with its own series, baselines and sentence;
// then Check a program whose count goes below zero and see the simulation that follows name the mistake and
// pick `duplicate-done`; then a program that hangs under load: a partial chart and the message.
//
//   node scripts/harness/ui-under-load.mjs        (npm run test:ui builds first)
// Screenshots: test-output/screenshots/under-load-*.png. Exit 0 pass, 1 failure (failure.png in .test-logs-ui/).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, ms } from './lib.mjs';
import { runCommand, screenshot, setColorTheme, webviewElement, webviewFrame, withWorkbench } from './ui-driver.mjs';
import { contrastRatio } from './ui-panel-checks.mjs';

const LESSON_TITLE = 'Least Connections: Balance by What Is Still Open';
const PANEL_TITLE = `Lesson: ${LESSON_TITLE}`;
const MAIN = 'balancer.py';
const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'least-connections', 'python');
const SHOTS = path.join(REPO_ROOT, 'test-output', 'screenshots');
const say = (s) => process.stderr.write(`[ui-under-load] ${s}\n`);
const t0 = Date.now();
const step = (s) => say(`${ms(Date.now() - t0)} ${s}`);
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function pickQuickItem(page, label) {
  const row = page
    .locator('.quick-input-widget .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) })
    .first();
  await row.waitFor({ state: 'visible', timeout: 15000 });
  await row.click();
}

/** The chart's colours as the theme gives them: every line drawn, and distinct from the background. */
async function chartColours(wv) {
  return wv.locator('figure.simulation').evaluate((figure) => {
    const background = getComputedStyle(document.body).backgroundColor;
    const lines = [...figure.querySelectorAll('svg.chart .line')].map((l) => getComputedStyle(l).stroke);
    return { background, lines: [...new Set(lines)] };
  });
}

async function shoot(page, wv, theme) {
  // Its heading at the top, clear of the sticky bar (scroll-margin-top).
  await wv.locator('figure.simulation').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(400); // the webview re-applies theme variables asynchronously
  await screenshot(page, path.join(SHOTS, `under-load-${theme}.png`), { locator: webviewElement(page, PANEL_TITLE) });
  const colours = await chartColours(wv);
  assert.equal(colours.lines.length, 3, `one colour per balancer in ${theme}: ${colours.lines.join(', ')}`);
  for (const c of colours.lines)
    assert.ok(
      c !== 'none' && c !== colours.background && !/rgba\(.*, 0\)$/.test(c),
      `a line is drawn in ${theme}: ${c} on ${colours.background}`,
    );
  // WCAG 2.1 non-text contrast: a chart line at 3:1 against its background at least.
  const ratios = colours.lines.map((c) => [c, contrastRatio(c, colours.background)]);
  say(
    `chart lines in ${theme} on ${colours.background}: ${ratios.map(([c, r]) => `${c} ${r.toFixed(2)}:1`).join(', ')}`,
  );
  for (const [c, r] of ratios)
    assert.ok(
      r >= 3,
      `a chart line in ${theme} is ${r.toFixed(2)}:1 against the background (${c} on ${colours.background}); 3:1 at least`,
    );
}

try {
  fs.mkdirSync(SHOTS, { recursive: true });
  await withWorkbench({ theme: 'dark', viewport: { width: 1440, height: 900 } }, async (s) => {
    const { page, dirs } = s;
    await setColorTheme(s, 'dark');
    step('starting least-connections in Python');
    await runCommand(page, 'Lesson Companion: Start Lesson…');
    await pickQuickItem(page, LESSON_TITLE);
    await pickQuickItem(page, 'Python');
    let wv = await webviewFrame(page, PANEL_TITLE);
    await wv.locator('h1', { hasText: LESSON_TITLE }).waitFor({ timeout: 20000 });
    const mainPath = path.join(dirs.workspace, MAIN);
    assert.ok(fs.existsSync(mainPath));

    step("a correct program through slow-server, from the section's own button");
    fs.writeFileSync(mainPath, fs.readFileSync(path.join(FIXTURES, 'correct.py'), 'utf8'));
    const section = wv.locator('#under-load');
    await section.scrollIntoViewIfNeeded();
    await section.locator('#under-load-status').waitFor({ state: 'attached' });
    await wv.locator('#scenario-select').selectOption('slow-server');
    await wv.locator('#run-simulation').click();
    const sentence = wv.locator('#simulation-sentence');
    await sentence.filter({ hasText: "round robin's reached 40" }).waitFor({ timeout: 60000 });
    assert.equal(
      await sentence.innerText(),
      "With your balancer the queue on a (2 per tick, the slowest) peaked at 3; round robin's reached 40 and was still growing; the reference's peaked at 3.",
    );
    assert.equal(await wv.locator('figure.simulation svg.chart').count(), 9, 'three servers × three balancers');
    assert.equal(
      await wv.locator('figure.simulation svg.chart[role="img"][aria-label]').count(),
      9,
      'every chart has a name',
    );
    assert.match(await wv.locator('figure.simulation .scale-note').innerText(), /0 at the bottom, 40 at the top/);
    const rrSlow = wv.locator('table.simulation-summary tr', { hasText: 'Round robin' }).locator('td').first();
    // Requests sent, then the peak and the last queue (issue 30: the sentence's numbers are in this table).
    assert.equal((await rrSlow.innerText()).replace(/\u00a0/g, ' '), '80 sent · 40 / 40 ↑');
    assert.equal(await wv.locator('table.simulation-ticks tbody tr').count(), 20, 'every tick as numbers');
    await shoot(page, wv, 'dark');

    for (const theme of ['light', 'hc']) {
      step(`theme ${theme}`);
      await setColorTheme(s, theme);
      wv = await webviewFrame(page, PANEL_TITLE);
      await shoot(page, wv, theme);
    }
    await setColorTheme(s, 'dark');
    wv = await webviewFrame(page, PANEL_TITLE);

    step(
      'a world scenario (sticky-sessions, in the queue world): its sentence, a chart per series line and program, the figures beside it',
    );
    await wv.locator('#scenario-select').selectOption('sticky-sessions');
    await wv.locator('#run-simulation').click();
    await sentence.filter({ hasText: 'sticky sessions sent 60, 65 and 25' }).waitFor({ timeout: 60000 });
    const worldSentence = await sentence.innerText();
    assert.equal(
      worldSentence,
      'Your balancer sent 50 requests to a, 50 to b and 50 to c; sticky sessions sent 60, 65 and 25; round robin 50, 50 and 50.',
    );
    // Two series per lane (sent, held) × three lanes, for four programs: yours, the reference and two baselines.
    assert.equal(await wv.locator('figure.simulation svg.chart').count(), 24, 'six series lines × four programs');
    assert.equal(
      await wv.locator('figure.simulation svg.chart[role="img"][aria-label]').count(),
      24,
      'every chart has a name',
    );
    // The grid has a column per program beside the row titles: every column head on the first row, every row
    // title in the first column (once, with three columns for four programs, they wrapped into the charts).
    const layout = await wv.locator('figure.simulation .multiples').evaluate((grid) => ({
      columns: getComputedStyle(grid).gridTemplateColumns.split(' ').length,
      headsAbove:
        Math.max(...[...grid.querySelectorAll('.column-head')].map((e) => e.getBoundingClientRect().bottom)) <=
        Math.min(...[...grid.querySelectorAll('.row-head, .cell')].map((e) => e.getBoundingClientRect().top)),
      rowLefts: [
        ...new Set([...grid.querySelectorAll('.row-head')].map((e) => Math.round(e.getBoundingClientRect().left))),
      ],
    }));
    assert.deepEqual(
      [layout.columns, layout.headsAbove, layout.rowLefts.length],
      [5, true, 1],
      `the grid: ${JSON.stringify(layout)}`,
    );
    const figures = await wv.locator('table.simulation-summary').innerText();
    for (const n of worldSentence.match(/\d+/g))
      assert.match(figures, new RegExp(`\\b${n}\\b`), `${n} of the sentence is in the figures beside it:\n${figures}`);
    assert.match(figures, /Sticky sessions/);
    await wv.locator('figure.simulation').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(400);
    await screenshot(page, path.join(SHOTS, 'under-load-world-dark.png'), {
      locator: webviewElement(page, PANEL_TITLE),
    });

    step('Check a count that goes below zero: the simulation that follows shows what it does');
    fs.writeFileSync(mainPath, fs.readFileSync(path.join(FIXTURES, 'negative-count.py'), 'utf8'));
    await wv.locator('#check').click();
    await wv.locator('.card.mistake', { hasText: 'A count goes below zero' }).waitFor({ timeout: 90000 });
    await sentence.filter({ hasText: 'Your check found “A count goes below zero”' }).waitFor({ timeout: 60000 });
    assert.match(
      await sentence.innerText(),
      /Under load that means b got \d+ of 240 requests and its queue reached \d+ and was still growing; with the reference b got 99 and its queue stayed empty\.$/,
    );
    assert.equal(await wv.locator('#scenario-select').inputValue(), 'duplicate-done');
    await shoot(page, wv, 'mistake-dark');

    step('a program that hangs under load: the part it reached, and why it stopped');
    fs.writeFileSync(mainPath, fs.readFileSync(path.join(FIXTURES, 'waits-for-room.py'), 'utf8'));
    await wv.locator('#scenario-select').selectOption('slow-server');
    await wv.locator('#run-simulation').click();
    await sentence.filter({ hasText: 'Your program stopped at tick 2 of 20' }).waitFor({ timeout: 60000 });
    assert.match(await sentence.innerText(), /it stopped answering: no answer to "PICK"/);
    await wv.locator('.column-head.column-yours', { hasText: 'stopped at tick 2' }).waitFor();
    assert.equal(
      await wv.locator('svg.chart-yours rect.missing').count(),
      3,
      'the ticks it did not reach are marked in each of its charts',
    );
    await shoot(page, wv, 'stopped-dark');
  });
  await withWorkbench({ theme: 'dark', trusted: false, viewport: { width: 1440, height: 900 } }, async (s) => {
    step('Restricted Mode: the section is there, its button is off (it runs the program)');
    await runCommand(s.page, 'Lesson Companion: Start Lesson…');
    await pickQuickItem(s.page, LESSON_TITLE);
    await pickQuickItem(s.page, 'Python');
    const wv = await webviewFrame(s.page, PANEL_TITLE);
    const run = wv.locator('#run-simulation');
    await run.waitFor({ timeout: 20000 });
    assert.equal(await run.isDisabled(), true, 'Run under load is disabled without trust');
    assert.match(await run.getAttribute('title'), /trust this folder first/);
  });
  say(`PASS in ${ms(Date.now() - t0)}; screenshots in ${path.relative(REPO_ROOT, SHOTS)}/under-load-*.png`);
  process.exit(0);
} catch (e) {
  say(`FAIL: ${e.stack || e}`);
  process.exit(1);
}
