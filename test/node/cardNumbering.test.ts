/**
 * One numbering per card, on real checks of real-style programs (test/fixtures/real-style/): every
 * "command N" a mistake card says is row N of the table on that card and names the command that row holds,
 * in the panel's view and in the CLI's text report alike; an answer the where-note quotes for a row of its
 * table is that row's answer; a card without a table says no "command N" at all. The programs include the
 * ones the issue quotes (a Caddy port whose first sighting was in another transcript than its shrunk table, a
 * health-checks fallback whose note quoted an answer its table did not show).
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import type { Language } from '../../src/core/pack/schema';
import type { CheckReport } from '../../src/core/report/report';
import { commandNumbersIn, commandRefsIn } from '../../src/core/report/card';
import { checkFile } from '../../src/node/check/checker';
import { loadPack, type LoadedPack } from '../../src/node/packs/packs';
import { checkView } from '../../src/ext/panel/panelState';
import { formatReport } from '../../src/cli/format';

const ROOT = path.join(__dirname, '..', '..');
const CORPUS = path.join(ROOT, 'test', 'fixtures', 'real-style');
const PYTHON =
  execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim() || 'python3';
const PROGRAMS: readonly (readonly [lesson: string, file: string])[] = [
  ['least-connections', 'python/caddy_reservoir.py'],
  ['least-connections', 'python/class_sorted_key.py'],
  ['least-connections', 'javascript/reduce_last_empty.js'],
  ['least-connections', 'typescript/caddy_least_conn.ts'],
  ['health-checks', 'python/go_port_fallback.py'],
  ['health-checks', 'python/fallback_counted.py'],
  ['health-checks', 'javascript/forgets_health.js'],
  ['conn-counts', 'python/counter_subtract/least_conn.py'],
  ['conn-counts', 'javascript/close_skips_unseen/least_conn.js'],
];
const LANGUAGE: Record<string, Language> = { py: 'python', js: 'javascript', ts: 'typescript' };

/** A card as the test reads it: its sentences, and its table's rows as commands and answers. */
interface ReadCard {
  readonly name: string;
  readonly sentences: readonly string[];
  readonly rows: readonly { readonly command: string; readonly actual: string }[] | null;
}

/** Every "command N" is a row of the card's table and names that row's command; a quoted answer is the row's. */
function assertOneNumbering(card: ReadCard): void {
  for (const sentence of card.sentences) {
    const numbers = commandNumbersIn(sentence);
    const refs = commandRefsIn(sentence);
    if (!card.rows) {
      assert.deepEqual(numbers, [], `${card.name}: a card with no table says "command N": ${sentence}`);
      continue;
    }
    assert.equal(refs.length, numbers.length, `${card.name}: a "command N" without its command: ${sentence}`);
    for (const { row, command } of refs) {
      const shown: { command: string; actual: string } | undefined = card.rows[row - 1];
      assert.ok(shown, `${card.name}: "command ${row}" but the table has ${card.rows.length} rows: ${sentence}`);
      assert.equal(
        command,
        shown.command,
        `${card.name}: "command ${row} (${command})", row ${row} holds ${shown.command}`,
      );
    }
    // "at command 3 (PICK) in the table below, these lines ran when PICK answered b": row 3's answer is b.
    const at = /^at command (\d+) \(.*?\) in the table below, .*?when \S+ answered (.+?)(?:, and|, so|$)/.exec(
      sentence.replace(/^[^:]*: /, ''),
    );
    if (at) {
      const actual = card.rows[Number(at[1]) - 1]!.actual;
      const quoted = at[2]!.endsWith('…') ? at[2]!.slice(0, -1) : at[2]!;
      assert.ok(actual.startsWith(quoted), `${card.name}: the note quotes "${at[2]}", row ${at[1]} shows "${actual}"`);
    }
  }
}

/** The panel's cards, from the view the webview renders. */
function panelCards(report: CheckReport, lesson: LoadedPack): ReadCard[] {
  const view = checkView(report, lesson.manifest, '2026-01-01T00:00:00.000Z');
  return view.mistakes.map((m) => ({
    name: `panel ${m.id}`,
    sentences: [`${m.where.text}: ${m.where.reason ?? ''}`, m.evidence, m.behaviour ?? '', m.trace?.note ?? ''],
    rows: m.trace ? m.trace.rows.map((r) => ({ command: r.command, actual: r.actual })) : null,
  }));
}

/**
 * The CLI's cards, read back from the text: a "Mistake:" block's lines before its table are its sentences;
 * the table's rows are split on the runs of two spaces that align its columns.
 */
function textCards(text: string): ReadCard[] {
  const blocks = text.split(/\n(?=Mistake: )/).slice(1);
  return blocks.map((block) => {
    const lines = block.split('\n');
    const head = lines.findIndex((l) => /^\s+# {2,}command {2,}expected/.test(l));
    const sentences = (head < 0 ? lines : lines.slice(0, head)).slice(1).map((l) => l.trim());
    let rows: { command: string; actual: string }[] | null = null;
    if (head >= 0) {
      rows = [];
      let i = head + 1;
      for (; i < lines.length; i++) {
        const cols = lines[i]!.replace(/^\s*→?\s*/, '')
          .replace(/\s+← first difference$/, '')
          .split(/ {2,}/);
        if (!/^\d+$/.test(cols[0] ?? '')) break;
        if (cols[0] !== '0') rows.push({ command: cols[1] ?? '', actual: cols[3] ?? '' });
      }
      // The note and the replay line, up to the blank line that ends the card (problems follow it).
      for (; i < lines.length && lines[i]!.trim() !== ''; i++) sentences.push(lines[i]!.trim());
    }
    return { name: `text ${lines[0]}`, sentences, rows };
  });
}

describe('one numbering per card: every "command N" is row N of its own table (real-style corpus)', function () {
  this.timeout(600000);
  const packs = new Map<string, LoadedPack>();
  before(async () => {
    for (const lesson of new Set(PROGRAMS.map(([l]) => l)))
      packs.set(lesson, await loadPack(path.join(ROOT, 'lessons', lesson), 'built-in'));
  });

  for (const [lesson, file] of PROGRAMS) {
    it(`${lesson}/${file}`, async () => {
      const pack = packs.get(lesson)!;
      const report = await checkFile(pack, path.join(CORPUS, lesson, file), LANGUAGE[path.extname(file).slice(1)]!, {
        interpreters: { python: PYTHON },
        fuzzTranscripts: 8,
      });
      assert.ok(report.mistakes.length > 0, `${file} names a mistake`);
      const panel = panelCards(report, pack);
      const text = textCards(formatReport(report, false));
      assert.equal(text.length, panel.length, 'the CLI shows a card per mistake, as the panel does');
      for (const card of [...panel, ...text]) assertOneNumbering(card);
      // A problem card has no table of its own: it names the command and its transcript, never a row number.
      for (const problem of report.problems)
        assert.doesNotMatch(
          problem.message,
          /\bcommand \d+\b/,
          `${file}: a problem card numbers a row it does not show`,
        );
      // The text table is the panel's table.
      panel.forEach((card, i) =>
        assert.deepEqual(
          text[i]!.rows?.map((r) => r.command),
          card.rows?.map((r) => r.command),
        ),
      );
    });
  }
});
