// Reusable driver for browser-level UI tests of the extension in the real VS Code web workbench
// (code-server + headless Chromium, offline). A UI test script looks like:
//
//   import { withWorkbench, runCommand, webviewFrame, setColorTheme, screenshot } from './harness/ui-driver.mjs';
//   await withWorkbench({ theme: 'dark' }, async (s) => {       // s = { page, dirs, server, ... }
//     await runCommand(s.page, 'Lesson Companion: Start Lesson…');
//     // ...answer the quick picks with s.page.locator('.quick-input-widget .monaco-list-row', { hasText })
//     const wv = await webviewFrame(s.page, 'Lesson');        // FrameLocator inside the panel's content
//     await wv.locator('h1').waitFor();
//     await screenshot(s.page, 'test-output/lesson-dark.png');
//     await setColorTheme(s, 'hc');                           // live switch through the theme picker
//   });
// Headless, offline; about 1 GB of RAM per session. Exceptions propagate (use the script's exit code).
//
// Everything here leans on VS Code's internal DOM (class names of 1.100.x: .monaco-workbench,
// .quick-input-widget, .tabs-container .tab, iframe.webview.ready > #active-frame, .notifications-toasts);
// recheck them when the VS Code version changes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  REPO_ROOT,
  launchBrowser,
  makeTempRoot,
  ms,
  removeTempRoot,
  runCodeServerCli,
  startCodeServer,
  workbenchUrl,
} from './lib.mjs';

/** Short names for the built-in themes (any full theme label works too). */
export const THEMES = Object.freeze({
  dark: 'Default Dark Modern',
  light: 'Default Light Modern',
  hc: 'Default High Contrast',
  'hc-light': 'Default High Contrast Light',
});
const themeLabel = (t) => THEMES[t] ?? t;
// CSS class suffix each built-in theme puts on .monaco-workbench (vscode-theme-defaults-themes-<x>-json).
const THEME_CLASS = {
  'Default Dark Modern': 'dark_modern',
  'Default Light Modern': 'light_modern',
  'Default High Contrast': 'hc_black',
  'Default High Contrast Light': 'hc_light',
};

const EXT_ID = 'lesson-companion.lesson-companion';
const say = (s) => process.stderr.write(`[ui] ${s}\n`);

/**
 * Start code-server + Chromium and open the workbench with the extension loaded. Resolves a session
 * { page, browser, server, dirs, url, logDir, close() }. Options:
 *   extensionDevelopmentPath  default the repo root (the extension from source, built into dist/)
 *   vsix                      install this .vsix instead (no development extension)
 *   trusted                   default true; false = Restricted Mode without the trust dialog
 *   theme                     'dark' | 'light' | 'hc' | 'hc-light' | a theme label (seeded in settings;
 *                             re-picked in the UI when the development-window theme override wins)
 *   settings                  extra user settings
 *   workspace / fixture       open a folder as is / a temp copy of it (default: empty temp folder)
 *   viewport                  default 1280x800
 *   logDir                    default <repo>/.test-logs-ui (browser console, server log, failure.png)
 *   env                       extra environment for code-server and so the extension host
 */
export async function openWorkbench(opts = {}) {
  const {
    extensionDevelopmentPath = REPO_ROOT,
    vsix,
    trusted = true,
    theme,
    settings = {},
    workspace,
    fixture,
    viewport = { width: 1280, height: 800 },
    logDir = path.join(REPO_ROOT, '.test-logs-ui'),
    env = {},
  } = opts;
  const t0 = Date.now();
  fs.mkdirSync(logDir, { recursive: true });
  fs.rmSync(path.join(logDir, 'failure.png'), { force: true }); // never leave a stale one from an earlier run
  const dirs = makeTempRoot({
    prefix: 'lc-ui-',
    trusted,
    workspace,
    fixture,
    settings: { ...(theme ? { 'workbench.colorTheme': themeLabel(theme) } : {}), ...settings },
  });
  const session = { dirs, logDir, server: undefined, browser: undefined, page: undefined, url: undefined };
  const consoleLog = fs.createWriteStream(path.join(logDir, 'browser-console.log'));
  session.close = async () => {
    await session.browser?.close().catch(() => {});
    await session.server?.stop();
    consoleLog.end();
    if (fs.existsSync(dirs.serverLog)) fs.copyFileSync(dirs.serverLog, path.join(logDir, 'server.log'));
    removeTempRoot(dirs, say);
  };
  try {
    if (vsix) {
      const r = await runCodeServerCli(['--install-extension', path.resolve(vsix)], dirs);
      if (r.code !== 0) throw new Error(`code-server --install-extension ${vsix} failed:\n${r.output}`);
    } else if (!fs.existsSync(path.join(extensionDevelopmentPath, 'package.json'))) {
      throw new Error(`no extension at ${extensionDevelopmentPath}`);
    }
    session.server = await startCodeServer(dirs, { env: { LC_TEST_WORKSPACE: dirs.workspace, ...env } });
    session.browser = await launchBrowser(dirs);
    session.page = await session.browser.newPage({ viewport });
    session.page.on('console', (m) => consoleLog.write(`[${m.type()}] ${m.text()}\n`));
    session.page.on('pageerror', (e) => consoleLog.write(`[pageerror] ${e.stack || e}\n`));
    session.url = workbenchUrl(session.server.url, {
      folder: dirs.workspace,
      extensionDevelopmentPath: vsix ? undefined : extensionDevelopmentPath,
    });
    await session.page.goto(session.url);
    await waitForWorkbench(session.page);
    // In an extension-development window VS Code switches to a theme "provided by the extension under
    // development", i.e. any theme whose folder lies inside extensionDevelopmentPath - and code-server's
    // built-in themes do (<repo>/.code-server/...), so the seeded theme loses to Light+/Dark+. Pick it again.
    const label = theme && themeLabel(theme);
    if (THEME_CLASS[label] && !(await themeOf(session.page)).id?.includes(`-${THEME_CLASS[label]}-`)) {
      await setColorTheme(session, label);
    }
    say(`workbench ready in ${ms(Date.now() - t0)} (${session.server.url})`);
    return session;
  } catch (e) {
    if (session.page) await session.page.screenshot({ path: path.join(logDir, 'failure.png') }).catch(() => {});
    await session.close();
    throw e;
  }
}

/**
 * openWorkbench + fn(session) + close, with failure.png in logDir when fn throws (the error is rethrown, so a
 * script's exit code follows). Use this rather than openWorkbench so no code-server outlives a failed test.
 */
export async function withWorkbench(opts, fn) {
  const session = await openWorkbench(opts);
  try {
    return await fn(session);
  } catch (e) {
    await session.page.screenshot({ path: path.join(session.logDir, 'failure.png') }).catch(() => {});
    say(`failed; screenshot in ${path.join(session.logDir, 'failure.png')}`);
    throw e;
  } finally {
    await session.close();
  }
}

/** The workbench has restored its parts once the status bar exists and its colour theme is applied. */
export async function waitForWorkbench(page, { timeout = 60000 } = {}) {
  await page.waitForSelector('.monaco-workbench', { timeout });
  await page.waitForSelector('.statusbar', { timeout });
  // The theme class is added a moment after first paint (the seeded theme is read asynchronously).
  await page.waitForSelector('.monaco-workbench[class*="vscode-theme-"]', { timeout });
}

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Run a command by its palette title (e.g. 'Lesson Companion: Open Lesson'): F1, type, pick the row whose
 * label is exactly the title. Retried, because contributed commands only appear once the server has
 * scanned the extensions (a few seconds after the workbench renders).
 */
export async function runCommand(page, title, { retries = 8, rowTimeout = 5000 } = {}) {
  const input = page.locator('.quick-input-widget input.input');
  const row = page
    .locator('.quick-input-widget .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }) })
    .first();
  for (let attempt = 1; ; attempt++) {
    // Move focus back to the workbench document: keys go to a webview iframe while it has focus (e.g.
    // right after it opened). Not a click: most free spots open something (remote menu, command center...).
    await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
    try {
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 10000 });
      // The palette closes when something else takes focus between F1 and typing (seen on a CI machine:
      // the input stayed attached but hidden for 30 s), so a fill that cannot start soon is a retry.
      await input.fill(`>${title}`, { timeout: 5000 });
      await row.waitFor({ state: 'visible', timeout: rowTimeout });
      await row.click();
      // Done when the palette closed or turned into the command's own quick pick (value changed).
      await page
        .waitForFunction(
          (typed) => {
            const i = document.querySelector('.quick-input-widget input.input');
            return !i || !i.checkVisibility() || i.value !== typed;
          },
          `>${title}`,
          { timeout: 10000 },
        )
        .catch(() => {});
      return;
    } catch (e) {
      await page.keyboard.press('Escape');
      // Said every time: a retry that hides a flake is a flake never mended (the log shows how often it happens).
      console.error(
        `[ui-driver] RETRY command "${title}", try ${attempt} of ${retries}: ${String(e.message).split('\n')[0]}`,
      );
      if (attempt >= retries)
        throw new Error(
          `command "${title}" could not be run from the palette (${attempt} tries; a contributed command shows up a few seconds after the workbench, and the palette closes if something takes focus): ${e.message}`,
        );
    }
  }
}

/** Picks the row labelled exactly `label` in the open quick pick (e.g. a lesson, then a language). */
export async function pickQuickItem(page, label) {
  const row = page
    .locator('.quick-input-widget .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) })
    .first();
  await row.waitFor({ state: 'visible', timeout: 15000 });
  await row.click();
}

// Webview titles: a RegExp, or a string matched exactly (case-insensitive) or else as a prefix, so
// 'Lesson' finds a panel retitled "Lesson: Least Connections Is a Counter".
const titleSpec = (t) => (t instanceof RegExp ? { source: t.source, flags: t.flags } : { text: String(t) });
const titleTag = (t, extensionId) => String(t ?? extensionId).replace(/[^\w.:-]/g, '_');

/**
 * FrameLocator for the content of a webview (outer iframe.webview.ready > inner #active-frame).
 * title: the editor tab title of a webview panel (the tab is clicked to make it visible), or the name of a
 * webview view (pane header or side bar/panel title); see titleSpec. Without a title: the single visible
 * webview of `extensionId`. The outer iframes are not nested under their tab in the DOM (they float over
 * it), so the matching iframe is the visible one laid out over that tab's editor group or view, and it gets
 * a data-lc-webview attribute the FrameLocator selects on. Call again after the webview was re-created (a
 * hidden webview without retainContextWhenHidden is destroyed and rebuilt when shown again).
 */
export async function webviewFrame(page, title, { extensionId = EXT_ID, timeout = 30000 } = {}) {
  const tag = titleTag(title, extensionId);
  const spec = title === undefined ? null : titleSpec(title);
  const deadline = Date.now() + timeout;
  for (let clicked = false; ;) {
    const found = await page.evaluate(
      ({ spec, extensionId, tag }) => {
        const norm = (s) => (s ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
        const score = (text) => {
          if (spec.source !== undefined) return new RegExp(spec.source, spec.flags).test(text ?? '') ? 2 : 0;
          return norm(text) === norm(spec.text) ? 2 : norm(text).startsWith(norm(spec.text)) ? 1 : 0;
        };
        const best = (els, textOf) => {
          const scored = els
            .map((e) => [score(textOf(e)), e])
            .filter(([n]) => n > 0)
            .sort((a, b) => b[0] - a[0]);
          return scored[0]?.[1];
        };
        const visible = (el) => {
          const r = el.getBoundingClientRect();
          return r.width > 0 && r.height > 0;
        };
        let area = null;
        if (spec) {
          const tab = best(
            [...document.querySelectorAll('.tabs-container .tab')],
            (t) => t.querySelector('.label-name')?.textContent,
          );
          if (tab) {
            for (const t of document.querySelectorAll(`[data-lc-tab="${tag}"]`)) t.removeAttribute('data-lc-tab');
            tab.setAttribute('data-lc-tab', tag);
            if (!tab.classList.contains('active')) return 'click-tab';
            area = tab.closest('.editor-group-container')?.querySelector('.editor-container');
          }
          if (!area) {
            const header = best(
              [...document.querySelectorAll('.pane-header')].filter(visible),
              (h) => h.querySelector('.title')?.textContent,
            );
            if (header) area = header.parentElement?.querySelector('.pane-body');
          }
          if (!area) {
            // A container with a single view hides the pane header; the part title reads "CONTAINER: VIEW".
            const t = [...document.querySelectorAll('.part .composite.title')].find(
              (h) => visible(h) && (spec.text ? norm(h.textContent).includes(norm(spec.text)) : score(h.textContent)),
            );
            if (t) area = t.closest('.part')?.querySelector('.content');
          }
          if (!area) return null;
        }
        const a = area?.getBoundingClientRect();
        const frames = [...document.querySelectorAll('iframe.webview.ready')].filter((f) => {
          if (!f.src.includes(`extensionId=${extensionId}`)) return false;
          if (getComputedStyle(f.parentElement).visibility === 'hidden' || !visible(f)) return false;
          if (!a) return true;
          const r = f.getBoundingClientRect();
          const cx = r.left + r.width / 2;
          const cy = r.top + r.height / 2;
          return cx >= a.left && cx <= a.right && cy >= a.top && cy <= a.bottom;
        });
        if (frames.length !== 1) return frames.length ? `ambiguous: ${frames.length} visible webviews` : null;
        for (const f of document.querySelectorAll(`iframe[data-lc-webview="${tag}"]`))
          f.removeAttribute('data-lc-webview');
        frames[0].setAttribute('data-lc-webview', tag);
        return 'ok';
      },
      { spec, extensionId, tag },
    );
    if (found === 'ok') break;
    if (found === 'click-tab' && !clicked) {
      // A real click (VS Code tabs react to mouse down, not to a DOM click()), once.
      await page.locator(`[data-lc-tab="${tag}"]`).click();
      clicked = true;
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `no visible webview ${title ? `"${title}"` : ''} of ${extensionId} within ${timeout} ms${found ? ` (${found})` : ''}`,
      );
    }
    await page.waitForTimeout(200);
  }
  return page.frameLocator(`iframe.webview.ready[data-lc-webview="${tag}"]`).frameLocator('#active-frame');
}

/** Locator of the outer webview iframe found by webviewFrame (for element screenshots); same arguments. */
export function webviewElement(page, title, { extensionId = EXT_ID } = {}) {
  return page.locator(`iframe.webview.ready[data-lc-webview="${titleTag(title, extensionId)}"]`);
}

/**
 * Screenshot of the page (default) or of `locator` (e.g. webviewElement(page, 'Lesson')) to `file`.
 * Waits for notification toasts to finish sliding in so they are not captured half-transparent.
 */
export async function screenshot(page, file, { locator, fullPage = true } = {}) {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  await page
    .locator('.notification-toast:not(.notification-fade-in-done)')
    .first()
    .waitFor({ state: 'detached', timeout: 2000 })
    .catch(() => {});
  if (locator) await locator.screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage });
  return path.resolve(file);
}

/** The workbench's theme classes, e.g. { kind: 'vs-dark', id: 'vscode-theme-defaults-themes-dark_modern-json' }. */
export async function themeOf(page) {
  const cls = (await page.locator('.monaco-workbench').first().getAttribute('class')) ?? '';
  const list = cls.split(/\s+/);
  return {
    kind: ['hc-black', 'hc-light', 'vs-dark', 'vs'].find((k) => list.includes(k)),
    id: list.find((c) => c.startsWith('vscode-theme-')),
  };
}

/**
 * Switch the colour theme of a running session through the UI ("Preferences: Color Theme" quick pick),
 * which also writes workbench.colorTheme to the session's settings.json. (Rewriting settings.json on disk
 * is NOT picked up live by code-server's workbench, checked with 4.100.3: seed the first theme with
 * openWorkbench({ theme }) and use this to switch.) Resolves the new themeOf().
 */
export async function setColorTheme(session, theme, { timeout = 15000 } = {}) {
  const page = session.page ?? session;
  const label = themeLabel(theme);
  const before = (await themeOf(page)).id;
  // Already showing it (e.g. the unseeded default)? Then the class will not change: nothing to do.
  if (THEME_CLASS[label] && before?.includes(`-${THEME_CLASS[label]}-`)) return themeOf(page);
  const input = page.locator('.quick-input-widget input.input');
  // The theme picker closes like the palette does when something takes focus before typing: open it again.
  for (let attempt = 1; ; attempt++) {
    await runCommand(page, 'Preferences: Color Theme');
    try {
      await input.fill(label, { timeout: 5000 });
      break;
    } catch (error) {
      console.error(`[ui-driver] RETRY the theme picker, try ${attempt} of 3: ${String(error.message).split('\n')[0]}`);
      if (attempt >= 3) throw error;
    }
  }
  // Rows read "Light Modern  Default Light Modern": the short name, then the settings value as description.
  const exact = new RegExp(`^${escapeRegExp(label)}$`);
  const row = page
    .locator('.quick-input-widget .monaco-list-row')
    .filter({ has: page.locator('.label-name, .label-description', { hasText: exact }) })
    .first();
  await row.waitFor({ state: 'visible', timeout });
  await row.click();
  const deadline = Date.now() + timeout;
  for (;;) {
    const now = await themeOf(page);
    if (now.id !== before) return now;
    if (Date.now() > deadline)
      throw new Error(`theme did not change to "${label}" within ${timeout} ms (still ${before})`);
    await page.waitForTimeout(100);
  }
}

/** Wait for a notification toast containing `text` (string or RegExp); resolves its Locator. */
export async function waitForNotification(page, text, { timeout = 15000 } = {}) {
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
  await toast.waitFor({ state: 'visible', timeout });
  return toast;
}
