// Opens a class report's HTML (grade --format html) in headless Chromium, light and dark, and takes a
// screenshot of each into test-output/ to be looked at. Fails when the page asks for anything from anywhere
// (it must be self-contained), has no chart, or does not change colours with prefers-color-scheme.
//
//   node scripts/harness/grade-report-screens.mjs <class-report.html> [out-prefix]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumPath, REPO_ROOT } from './lib.mjs';

const [file, prefix = path.join(REPO_ROOT, 'test-output', 'grade-report')] = process.argv.slice(2);
if (!file) throw new Error('usage: grade-report-screens.mjs <class-report.html> [out-prefix]');
const html = fs.readFileSync(file, 'utf8');
fs.mkdirSync(path.dirname(prefix), { recursive: true });

const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
const failures = [];
const backgrounds = {};
try {
  for (const scheme of ['light', 'dark']) {
    const page = await browser.newPage({ colorScheme: scheme, viewport: { width: 1200, height: 900 } });
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.setContent(html, { waitUntil: 'load' });
    const charts = await page.evaluate(() => ({
      svgs: document.querySelectorAll('svg').length,
      bars: [...document.querySelectorAll('svg rect')].filter((r) => r.classList.contains('bar')).length,
      rows: document.querySelectorAll('table tbody tr').length,
      background: getComputedStyle(document.body).backgroundColor,
      barColour: (() => {
        const bar = [...document.querySelectorAll('svg rect')].find((r) => r.classList.contains('bar'));
        return bar ? getComputedStyle(bar).fill : null;
      })(),
    }));
    backgrounds[scheme] = charts.background;
    if (requests.length) failures.push(`${scheme}: the page asked for ${requests.join(', ')}`);
    if (charts.svgs < 1) failures.push(`${scheme}: no chart`);
    const out = `${prefix}-${scheme}.png`;
    await page.screenshot({ path: out, fullPage: true });
    console.log(
      `${scheme}: ${charts.svgs} charts, ${charts.bars} mistake bars (fill ${charts.barColour}), ${charts.rows} table rows, background ${charts.background} → ${path.relative(process.cwd(), out)}`,
    );
    await page.close();
  }
} finally {
  await browser.close();
}
if (backgrounds.light === backgrounds.dark) failures.push('light and dark have the same background');
if (failures.length) {
  console.error(failures.join('\n'));
  process.exit(1);
}
