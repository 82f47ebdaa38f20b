// Measurements of the lesson panel shared by the browser tests: what the first screen after a failing check
// shows (the verdict and the first card's title, with the sticky bar on one row), and an axe-core audit of
// the panel's document. Each returns plain data for the test to assert and print.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { panelProblems, readPanel } from './ui-screen-checks.mjs';

/**
 * The verdict line and the first card's title: are both inside the panel's viewport and not under the sticky
 * bar? And does the sticky bar hold one row?
 */
export async function firstScreen(wv) {
  return wv.locator('body').evaluate(() => {
    const bar = document.querySelector('.topbar');
    const barBottom = bar ? bar.getBoundingClientRect().bottom : 0;
    const inView = (el) => {
      if (!el) return false;
      const r = el.getBoundingClientRect();
      return r.height > 0 && r.top >= barBottom - 1 && r.bottom <= window.innerHeight + 1;
    };
    const verdict = document.querySelector('#results .verdict');
    const title = document.querySelector('#results .card h3');
    const rows = bar
      ? new Set(
          [...bar.children].map((c) =>
            Math.round(c.getBoundingClientRect().top + c.getBoundingClientRect().height / 2),
          ),
        )
      : new Set();
    // One row: every item's middle within a few pixels of the others'.
    const middles = [...rows];
    const oneRow = middles.length > 0 && Math.max(...middles) - Math.min(...middles) <= 4;
    // The progress parts on screen: each either shown whole or not at all (none cut into "1 of 1…").
    const progress = document.querySelector('.topbar .progress');
    const box = progress ? progress.getBoundingClientRect() : null;
    const parts = progress ? [...progress.querySelectorAll('.progress-part')] : [];
    const shown = parts.filter((p) => box && box.height > 0 && p.getBoundingClientRect().top < box.bottom - 1);
    const progressCut = shown.some(
      (p) => p.scrollWidth > p.clientWidth + 1 || p.getBoundingClientRect().right > box.right + 1,
    );
    return {
      progressShown: shown.map((p) => p.textContent),
      progressCut,
      width: window.innerWidth,
      height: window.innerHeight,
      verdict: inView(verdict),
      title: inView(title),
      titleText: title ? title.textContent : null,
      barHeight: bar ? Math.round(bar.getBoundingClientRect().height) : 0,
      oneRow,
    };
  });
}

/** axe.min.js from the axe-core devDependency (or AXE_CORE_JS, a path to it). */
export function axeSource() {
  const file = process.env.AXE_CORE_JS || createRequire(import.meta.url).resolve('axe-core/axe.min.js');
  return fs.readFileSync(file, 'utf8');
}

/**
 * Runs axe-core (WCAG 2 A/AA rules) in the webview's document. The script goes in by evaluation, not a
 * <script> tag: the panel's CSP allows only its own nonce'd script. Returns every violation, impact first.
 */
export async function axeAudit(wv, source) {
  // The frame itself (a FrameLocator cannot evaluate a script): a string goes through the debugger protocol,
  // which the page's CSP does not govern, where an eval() inside the page would be refused.
  const frame = await (await wv.locator('body').elementHandle()).ownerFrame();
  await frame.evaluate(`${source}\n;void 0`);
  return frame.evaluate(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.length,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
  });
}

/** The axe report as lines for the test output. */
export function axeReport(theme, violations) {
  if (violations.length === 0) return [`axe ${theme}: 0 violations`];
  return [
    `axe ${theme}: ${violations.length} violation(s)`,
    ...violations.map((v) => `  ${v.impact} ${v.id} (${v.nodes}): ${v.help} — ${v.targets.join(', ')}`),
  ];
}

/** WCAG contrast ratio of two CSS colours given as rgb()/rgba() (alpha ignored: lines are drawn opaque). */
export function contrastRatio(a, b) {
  const luminance = (css) => {
    const [r, g, bl] = (css.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * Tabs through the panel `stops` times from its first control and reads each focused control's outline: a
 * keyboard user must see where they are on every stop.
 */
export async function focusRings(page, wv, stops) {
  await wv.locator('#check').focus();
  const seen = [];
  for (let i = 0; i < stops; i++) {
    await page.keyboard.press('Tab');
    seen.push(
      await wv.locator('body').evaluate(() => {
        const el = document.activeElement;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        const label = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''}`;
        return {
          label,
          style: style.outlineStyle,
          width: parseFloat(style.outlineWidth),
          color: style.outlineColor,
          background: getComputedStyle(document.body).backgroundColor,
        };
      }),
    );
  }
  return seen.filter(Boolean);
}

/**
 * What each card says against what it shows, and nothing in the top bar clipped (ui-screen-checks.mjs): the
 * problems found, as sentences, and what was looked at.
 */
export async function cardsAgree(wv) {
  return panelProblems(await readPanel(wv));
}
