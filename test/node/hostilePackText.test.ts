/**
 * One escape for every string from a pack, on every surface (issue 19, "Pack text reaches the terminal
 * raw"). The case `every-text-field` (test/fixtures/hostile/packs/every-text-field) is the built-in
 * least-connections lesson with a payload of OSC 52 (writes the clipboard), `ESC[2J` (clears the screen), a
 * one-byte C1 CSI and a right-to-left override appended to every text field of lesson.json: title, summary,
 * core question, outcomes, protocol, done-when, step titles and details, mistakes (title, explanation,
 * hint, variants), questions (prompt, choices, hint, explanation, feedback) and scenarios (title,
 * description). Each command runs as a real process (the built CLI, dist/cli.js); its output must show
 * the payload written out (`\u001b]52;…`) and hold no raw control or bidi character.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT } from './hostileKit';
import { panelState } from '../../src/ext/panel/panelState';
import { checkAnswer, revealedAnswer } from '../../src/ext/lesson/answers';
import { loadPack } from '../../src/node/packs/packs';
import type { CheckReport } from '../../src/core/report/report';

const CLI = path.join(ROOT, 'dist', 'cli.js');
/** OSC 52 (clipboard), ESC[2J (clear), C1 CSI 2J, RLO: each written out by the surfaces, never raw. */
export const PAYLOAD = '\u001b]52;c;cHduZWQ=\u0007\u001b[2J\u009b2J\u202e';
const ESCAPED = /\\u001b\]52;c;cHduZWQ=\\u0007\\u001b\[2J\\u009b2J\\u202e/;
/** Raw: C0 but line feed (tab included: no surface prints one), DEL, C1, bidi embeddings, overrides and isolates. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The JSON keys whose string values (or string arrays) are prose a learner reads. */
const TEXT_KEYS = new Set([
  'title',
  'summary',
  'coreQuestion',
  'outcomes',
  'protocol',
  'doneWhen',
  'detail',
  'explanation',
  'hint',
  'prompt',
  'choices',
  'text',
  'description',
]);

/** Appends the payload to every text field of a manifest; returns the JSON pointers it changed. */
export function poisonTextFields(manifest: unknown): string[] {
  const changed: string[] = [];
  const walk = (value: unknown, pointer: string): void => {
    if (Array.isArray(value)) return value.forEach((item, i) => walk(item, `${pointer}/${i}`));
    if (!value || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    for (const [key, item] of Object.entries(record)) {
      const at = `${pointer}/${key}`;
      // A world scenario's series titles are one line of plain text by the schema (a control character there
      // is refused when the pack loads: test/unit/worldScenario.test.ts), and its params are the world's own JSON.
      if (/\/scenarios\/\d+\/(series|params)$/.test(at)) continue;
      if (TEXT_KEYS.has(key) && typeof item === 'string') {
        record[key] = `${item}${PAYLOAD}`;
        changed.push(at);
      } else if (TEXT_KEYS.has(key) && Array.isArray(item) && item.every((s) => typeof s === 'string')) {
        record[key] = item.map((s: string) => `${s}${PAYLOAD}`);
        item.forEach((_, i) => changed.push(`${at}/${i}`));
      } else walk(item, at);
    }
  };
  walk(manifest, '');
  return changed;
}

/** Every string in a value (the panel's messages), with where it is. */
export function stringsIn(value: unknown, pointer = ''): { pointer: string; text: string }[] {
  if (typeof value === 'string') return [{ pointer, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringsIn(item, `${pointer}/${i}`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => stringsIn(v, `${pointer}/${k}`));
  return [];
}

interface Run {
  readonly code: number | null;
  readonly text: string;
}

function assertInert(run: Run, what: string, shown = true): void {
  if (shown)
    assert.match(run.text, ESCAPED, `${what}: the pack's text is shown, written out:\n${run.text.slice(0, 3000)}`);
  const raw = RAW.exec(run.text);
  assert.equal(
    raw,
    null,
    `${what}: a raw U+${raw?.[0].codePointAt(0)!.toString(16).padStart(4, '0')} reached the output near ${JSON.stringify(run.text.slice(Math.max(0, (raw?.index ?? 0) - 60), (raw?.index ?? 0) + 20))}`,
  );
}

describe('pack text reaches no surface raw: every text field (every-text-field)', function () {
  this.timeout(180_000);
  let tmp: string;
  let pack: string;
  let packs: string;
  let poisoned: string[];
  const env = (): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    HOME: path.join(tmp, 'home'),
    TMPDIR: path.join(tmp, 'tmpdir'),
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    LESSON_COMPANION_PACKS: packs,
    LESSON_COMPANION_CACHE_DIR: path.join(tmp, 'cache'),
    LESSON_COMPANION_SANDBOX: 'off',
  });
  const cli = (args: string[], input?: string): Promise<Run> =>
    new Promise((resolve) => {
      const child = execFile(
        process.execPath,
        [CLI, ...args],
        { cwd: tmp, env: env(), timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, text: stdout + stderr });
        },
      );
      child.stdin?.end(input ?? '');
    });

  before(() => {
    assert.ok(fs.existsSync(CLI), 'run `npm run build` first');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-every-text-'));
    for (const dir of ['home', 'tmpdir', 'packs']) fs.mkdirSync(path.join(tmp, dir));
    packs = path.join(tmp, 'packs');
    pack = path.join(tmp, 'every-text-field', 'least-connections');
    fs.cpSync(path.join(ROOT, 'lessons', 'least-connections'), pack, { recursive: true });
    const file = path.join(pack, 'lesson.json');
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    poisoned = poisonTextFields(manifest);
    fs.writeFileSync(file, JSON.stringify(manifest, null, 2));
    // The case covers every kind of field the issue names.
    for (const field of [
      /^\/title$/,
      /^\/summary$/,
      /^\/readOrder\/\d+\/title$/,
      /^\/mistakes\/\d+\/title$/,
      /^\/failureQuestions\/\d+\/prompt$/,
      /^\/failureQuestions\/\d+\/feedback\/\d+\/text$/,
      /^\/scenarios\/\d+\/title$/,
      /^\/scenarios\/\d+\/description$/,
      /^\/quiz\/\d+\/choices\/\d+$/,
    ]) {
      assert.ok(
        poisoned.some((p) => field.test(p)),
        `the case poisons ${field.source}`,
      );
    }
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('validate: warns at every poisoned field (none left out), and prints them written out', async () => {
    const run = await cli(['validate', pack, '--json']);
    const report = JSON.parse(run.text.slice(0, run.text.lastIndexOf('}') + 1)) as {
      problems: { severity: string; message: string }[];
    };
    const warned = report.problems.filter((p) => /holds the control character/.test(p.message)).map((p) => p.message);
    const missing = poisoned.filter(
      (pointer) => !warned.some((m) => m.startsWith(`${pointer} holds`) || m.includes(`${pointer} holds`)),
    );
    const summarised = report.problems.find((p) => /more text fields hold control characters/.test(p.message));
    assert.ok(
      missing.length === 0 || summarised,
      `no warning for ${missing.slice(0, 5).join(', ')} (and ${Math.max(0, missing.length - 5)} more)`,
    );
    assert.equal(
      report.problems.filter((p) => p.severity === 'error').length,
      0,
      JSON.stringify(report.problems.filter((p) => p.severity === 'error')),
    );
    // The text report names each field and the character (U+001B), not the field's text.
    const text = await cli(['validate', pack]);
    assert.match(text.text, /\/title holds the control character U\+001B/);
    assertInert(text, 'validate', false);
  });

  it('lessons: the title is written out', async () => {
    fs.cpSync(pack, path.join(packs, 'least-connections'), { recursive: true });
    try {
      assertInert(await cli(['lessons']), 'lessons');
      assertInert(await cli(['lessons', '--json']), 'lessons --json');
    } finally {
      fs.rmSync(path.join(packs, 'least-connections'), { recursive: true, force: true });
    }
  });

  it('answer: --list (prompts, choices, step titles), a wrong answer (feedback, step title), a right one and --show (explanation)', async () => {
    assertInert(await cli(['answer', '--lesson', pack, '--list']), 'answer --list');
    const wrong = await cli(['answer', '--lesson', pack, '--question', 'fq-tie-pool-order', 'zzz']);
    assert.equal(wrong.code, 1, wrong.text);
    assertInert(wrong, 'answer (wrong)');
    assertInert(await cli(['answer', '--lesson', pack, '--question', 'quiz-trace-count-a', '2']), 'answer (right)');
    assertInert(await cli(['answer', '--lesson', pack, '--question', 'fq-tie-pool-order', '--show']), 'answer --show');
    assertInert(
      await cli(['answer', '--lesson', pack, '--question', 'fq-tie-pool-order', 'zzz', '--json']),
      'answer --json',
    );
  });

  it("simulate: the scenario title and description (and a mistake's title) are written out", async () => {
    const learner = path.join(tmp, 'sim', 'balancer.py');
    fs.mkdirSync(path.dirname(learner), { recursive: true });
    fs.copyFileSync(
      path.join(ROOT, 'test', 'fixtures', 'real-style', 'least-connections', 'python', 'least_loaded_by_name.py'),
      learner,
    );
    const run = await cli(['simulate', learner, '--lesson', pack]);
    assertInert(run, 'simulate');
    const manifest = JSON.parse(fs.readFileSync(path.join(pack, 'lesson.json'), 'utf8')) as {
      scenarios: { id: string }[];
      mistakes: { id: string }[];
    };
    assertInert(
      await cli([
        'simulate',
        learner,
        '--lesson',
        pack,
        '--scenario',
        manifest.scenarios[0]!.id,
        '--mistake',
        manifest.mistakes[0]!.id,
      ]),
      'simulate --mistake',
    );
  });

  it("check: a mistaken program's report (mistake title, explanation, hint, step, question) is written out", async () => {
    const learner = path.join(tmp, 'check', 'balancer.py');
    fs.mkdirSync(path.dirname(learner), { recursive: true });
    fs.copyFileSync(
      path.join(ROOT, 'test', 'fixtures', 'real-style', 'least-connections', 'python', 'least_loaded_by_name.py'),
      learner,
    );
    const run = await cli(['check', learner, '--lesson', pack]);
    assert.equal(run.code, 1, run.text);
    assertInert(run, 'check');
    assertInert(await cli(['check', learner, '--lesson', pack, '--json']), 'check --json');
  });

  it('bundle, then install: the refusal without a terminal and the prompt on one are written out', async () => {
    // Under an id of its own, so install asks about the pack itself, not about hiding the built-in lesson.
    const own = path.join(tmp, 'own-id', 'every-text-field');
    fs.cpSync(pack, own, { recursive: true });
    const manifest = JSON.parse(fs.readFileSync(path.join(own, 'lesson.json'), 'utf8')) as { id: string };
    manifest.id = 'every-text-field';
    fs.writeFileSync(path.join(own, 'lesson.json'), JSON.stringify(manifest, null, 2));
    const archive = path.join(tmp, 'every-text-field.lessonpack');
    const bundled = await cli(['bundle', own, '-o', archive]);
    assert.equal(bundled.code, 0, bundled.text);
    const noTerminal = await cli(['install', archive, '--packs-dir', path.join(tmp, 'installed')]);
    // install names the pack by its id and version (patterns with no room for a control character), not its title.
    assert.match(noTerminal.text, /every-text-field 1\.0\.0 contains code/);
    assertInert(noTerminal, 'install (no terminal)', false);
    // On a terminal (util-linux `script` gives it one), the question itself: answered "n".
    const onTerminal = await new Promise<Run>((resolve) => {
      const command = [process.execPath, CLI, 'install', archive, '--packs-dir', path.join(tmp, 'installed')]
        .map((a) => `'${a.replaceAll("'", "'\\''")}'`)
        .join(' ');
      const child = execFile(
        'script',
        ['-qec', command, '/dev/null'],
        { cwd: tmp, env: env(), timeout: 60_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, text: stdout + stderr }),
      );
      setTimeout(() => child.stdin?.end('n\n'), 1500);
    });
    // The terminal echoes "n" with a carriage return, and readline moves the cursor (ESC[1G, ESC[0J,
    // ESC[<n>G): those are the terminal's and readline's, not the pack's (whose ESC[2J is not among them).
    const printed = onTerminal.text
      .replace(/\r\n/g, '\n')
      .replace(/\r/g, '')
      .replace(/\u001b\[(\d+G|0J)/g, '');
    assertInert({ ...onTerminal, text: printed }, 'install (prompt)', false);
    assert.match(onTerminal.text, /\[y\/N\]/, 'the question was asked');
    const yes = await cli(['install', archive, '--yes', '--packs-dir', path.join(tmp, 'installed')]);
    assertInert(yes, 'install --yes', false);
    assert.equal(yes.code, 0, yes.text);
    // Installed, its title is listed: written out.
    const listed = await new Promise<Run>((resolve) =>
      execFile(
        process.execPath,
        [CLI, 'lessons'],
        { cwd: tmp, env: { ...env(), LESSON_COMPANION_PACKS: path.join(tmp, 'installed') } },
        (error, stdout, stderr) => resolve({ code: error ? 1 : 0, text: stdout + stderr }),
      ),
    );
    assertInert(listed, 'lessons (installed)');
  });

  it('grade: the class summary on the terminal is written out, and the HTML report holds the payload only as text', async () => {
    const submissions = path.join(tmp, 'class');
    fs.mkdirSync(submissions);
    fs.copyFileSync(
      path.join(ROOT, 'test', 'fixtures', 'real-style', 'least-connections', 'python', 'least_loaded_by_name.py'),
      path.join(submissions, 'ann.py'),
    );
    const out = path.join(tmp, 'grade-out');
    const run = await cli([
      'grade',
      submissions,
      '--lesson',
      pack,
      '--sandbox',
      'off',
      '--out',
      out,
      '--format',
      'json,html,csv',
    ]);
    assertInert(run, 'grade');
    const html = fs.readFileSync(
      path.join(
        out,
        fs.readdirSync(out).find((f) => f.endsWith('.html'))!,
      ),
      'utf8',
    );
    assert.doesNotMatch(html, /<script/i);
    assert.match(html, ESCAPED, 'the mistake title is in the report, written out');
    for (const file of fs.readdirSync(out).filter((f) => /\.(html|json|csv|xml)$/.test(f))) {
      // CSV's line ends are CRLF by its standard: those are the file's own.
      const text = fs.readFileSync(path.join(out, file), 'utf8').replace(/\r\n/g, '\n');
      assert.equal(RAW.exec(text), null, `no raw control or bidi character in ${file}`);
    }
  });

  it('the lesson panel: every string of its state (lesson, questions, answers, mistake cards, scenarios) is inert', async () => {
    const learner = path.join(tmp, 'panel', 'balancer.py');
    fs.mkdirSync(path.dirname(learner), { recursive: true });
    fs.copyFileSync(
      path.join(ROOT, 'test', 'fixtures', 'real-style', 'least-connections', 'python', 'least_loaded_by_name.py'),
      learner,
    );
    const checked = await cli(['check', learner, '--lesson', pack, '--json']);
    const report = JSON.parse(checked.text.slice(0, checked.text.lastIndexOf('}') + 1)) as CheckReport;
    assert.ok(
      report.mistakes.length > 0 && RAW.test(report.mistakes[0]!.title),
      'the report (parsed back) holds the raw payload, as the service hands it over',
    );
    const loaded = await loadPack(pack, 'installed');
    const wrong = await checkAnswer(loaded, 'fq-tie-pool-order', 'zzz');
    const shown = revealedAnswer(loaded, 'quiz-trace-count-a', undefined);
    assert.ok(wrong && shown);
    const session = {
      lessonId: 'least-connections',
      language: 'python' as const,
      mainFile: 'balancer.py',
      folder: 'file:///w',
    };
    const progress = {
      stepsRead: [1],
      answers: { 'fq-tie-pool-order': wrong, 'quiz-trace-count-a': shown },
      answersShown: ['quiz-trace-count-a'],
      lastReport: report,
      lastAnchors: {},
      lastCheckAt: '2026-01-01T00:00:00Z',
    };
    const state = panelState({ session, pack: loaded, progress, trusted: true, checking: false });
    const strings = stringsIn(state);
    const raw = strings.filter((s) => RAW.test(s.text));
    assert.deepEqual(
      raw.map((s) => s.pointer).slice(0, 10),
      [],
      'no string of the panel state holds a raw control or bidi character',
    );
    const shownAt = strings.filter((s) => ESCAPED.test(s.text)).map((s) => s.pointer);
    for (const where of [
      /^\/lesson\/title$/,
      /^\/lesson\/steps\/\d+\/title$/,
      /^\/lesson\/failureQuestions\/\d+\/promptHtml$/,
      /^\/lesson\/failureQuestions\/\d+\/choices\/\d+$|^\/lesson\/quiz\/\d+\/choices\/\d+$/,
      /\/last\/feedback$/,
      /\/last\/explanation$/,
      /^\/check\/mistakes\/0\/title$/,
      /^\/check\/mistakes\/0\/hintHtml$/,
      /scenarios\/\d+\/title$/,
      /scenarios\/\d+\/description$/,
    ]) {
      assert.ok(
        shownAt.some((p) => where.test(p)),
        `the panel shows ${where.source}, written out (seen at: ${shownAt.slice(0, 40).join(', ')})`,
      );
    }
  });

  it("the webview puts no text into HTML but the markdown renderer's `…Html` fields (raw HTML off)", () => {
    const dir = path.join(ROOT, 'src', 'webview');
    const found: string[] = [];
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      for (const m of text.matchAll(
        /\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|DOMParser|createContextualFragment/g,
      ))
        found.push(`${file}: ${m[0]}`);
      for (const m of text.matchAll(/trustedHtml\(\s*'[a-z]+',\s*([^,)]+)/g))
        if (!/(Html|\.html|^html)$/.test(m[1]!.trim())) found.push(`${file}: trustedHtml(${m[1]})`);
    }
    assert.deepEqual(found, ['dom.ts: .innerHTML ='], 'the one innerHTML is trustedHtml, fed only ...Html fields');
  });
});
