/**
 * Every sentence the panel shows is drawn from the report it stands on: for real checks of a representative
 * set of the real-style corpus (test/fixtures/real-style/: several mistakes, a helper, an unnamed
 * difference, both lessons with a protocol of their own), each number a card or line states is one the
 * report holds, each quoted name is a transcript's description or a mistake's title, the evidence's counts
 * say where they come from and add up, and a location note quotes an answer its own table shows.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import type { CheckReport } from '../../src/core/report/report';
import { checkFile } from '../../src/node/check/checker';
import { loadPack, type LoadedPack } from '../../src/node/packs/packs';
import { checkView } from '../../src/ext/panel/panelState';
import type { CheckView } from '../../src/shared/messages';

const ROOT = path.join(__dirname, '..', '..');
const CORPUS = path.join(ROOT, 'test', 'fixtures', 'real-style');
const PYTHON =
  execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim() || 'python3';
const PROGRAMS: readonly (readonly [lesson: string, file: string])[] = [
  ['least-connections', 'python/caddy_reservoir.py'],
  ['least-connections', 'python/namedtuple_replace.py'],
  ['least-connections', 'python/counter_arithmetic.py'],
  ['least-connections', 'javascript/reduce_last_empty.js'],
  ['health-checks', 'python/go_port_fallback.py'],
  ['health-checks', 'python/drain_keyerror.py'],
];

/** Every number the report holds, in the forms a sentence may state them. */
function reportNumbers(report: CheckReport): Set<number> {
  const n = new Set<number>([
    report.checks.total,
    report.checks.passed,
    report.checks.failed,
    report.checks.notRun,
    report.fuzz.transcripts,
    report.fuzz.failed,
    report.fuzz.seed,
    report.fuzz.settling ?? 0,
    report.mistakes.length,
  ]);
  n.add(report.checks.total - report.checks.passed);
  n.add(report.fuzz.transcripts - (report.fuzz.notRun ?? 0));
  for (const m of report.mistakes) {
    n.add(m.evidence.steps)
      .add(m.evidence.transcripts)
      .add(m.revealedBy.length)
      .add(m.evidence.transcripts - m.revealedBy.length);
    if (m.evidence.first) n.add(m.evidence.first.index + 1);
    if (m.line) n.add(m.line);
    for (const l of m.location?.lines ?? []) n.add(l);
  }
  for (const example of [report.counterexample, ...report.mistakes.map((m) => m.counterexample)]) {
    if (!example) continue;
    n.add(example.commands.length)
      .add(example.shrunkFrom)
      .add(example.divergesAt + 1);
    example.trace.forEach((_, i) => n.add(i + 1));
  }
  for (const p of report.problems) if (typeof p.line === 'number') n.add(p.line);
  return n;
}

/** The names a sentence may quote: transcripts' descriptions, mistakes' titles. */
function reportNames(report: CheckReport): Set<string> {
  return new Set([
    ...report.transcripts.map((t) => t.description),
    ...report.mistakes.map((m) => m.title),
    ...report.mistakes.flatMap((m) => (m.variant?.title ? [m.variant.title] : [])),
  ]);
}

/** The sentences of a check view, by where they show. */
function sentences(view: CheckView): [string, string][] {
  return [
    ['summary', view.summary],
    ['verdict sentence', view.sentence],
    ['details line', view.details],
    ['counts legend', view.countsLegend],
    ...view.mistakes.flatMap((m): [string, string][] => [
      [`${m.id} where`, m.where.text],
      [`${m.id} reason`, m.where.reason ?? ''],
      [`${m.id} evidence`, m.evidence],
      [`${m.id} trace caption`, m.trace?.caption ?? ''],
      [`${m.id} trace note`, m.trace?.note ?? ''],
    ]),
  ];
}

const QUOTED = /“([^”]*)”/g;

describe('every sentence the panel shows is drawn from its report (real-style corpus)', function () {
  this.timeout(240000);
  const packs = new Map<string, LoadedPack>();
  before(async () => {
    for (const lesson of new Set(PROGRAMS.map(([l]) => l)))
      packs.set(lesson, await loadPack(path.join(ROOT, 'lessons', lesson), 'built-in'));
  });

  for (const [lesson, file] of PROGRAMS) {
    it(`${lesson}/${file}`, async () => {
      const pack = packs.get(lesson)!;
      const language = file.endsWith('.py') ? 'python' : 'javascript';
      const report = await checkFile(pack, path.join(CORPUS, lesson, file), language, {
        interpreters: { python: PYTHON },
        fuzzTranscripts: 8,
      });
      const view = checkView(report, pack.manifest, '2026-01-01T00:00:00.000Z');
      const numbers = reportNumbers(report);
      const names = reportNames(report);
      for (const [where, text] of sentences(view)) {
        if (!text) continue;
        const quoted = [...text.matchAll(QUOTED)].map((q) => q[1]!);
        for (const name of quoted)
          assert.ok(
            names.has(name),
            `${where} quotes “${name}”, which is no transcript or mistake of the report: ${text}`,
          );
        // Numbers outside quotes, standing alone (not part of a name such as web10 or s3). A location note's
        // "at only 3 of the other 5 PICK commands" counts the commands of the run it names (its `at`), which
        // the report does not carry command by command: those two are left out.
        const unquoted = text
          .replace(QUOTED, '')
          .replace(/\b\d+ of the other \d+ \S+ commands|the other \d+ \S+ commands/g, '')
          .replace(/\bat the \d+ \S+ commands that went wrong/g, '');
        for (const match of unquoted.matchAll(/(?<![\w.#:-])(\d+)(?![\w.:])/g)) {
          assert.ok(
            numbers.has(Number(match[1])),
            `${where} states ${match[1]}, which the report does not hold: ${text}`,
          );
        }
      }
      for (const [m, card] of report.mistakes.map((m, i) => [m, view.mistakes[i]!] as const)) {
        // "in 4 of 18 hidden transcripts and 7 of 40 random tests": the scope is the report's own.
        const hidden = /(\d+) of (\d+) hidden transcripts?/.exec(card.evidence);
        // A random program's: "17 random tests (of the 40 and 80 more drawn because your program chooses at random)".
        const settled = /(\d+) random tests? \(of the (\d+) and (\d+) more drawn/.exec(card.evidence);
        const random = settled
          ? ([settled[0], settled[1], settled[2]] as const)
          : /(\d+) of (\d+) random tests?/.exec(card.evidence);
        if (settled) assert.equal(Number(settled[3]), report.fuzz.settling, card.evidence);
        assert.ok(hidden || random, `the evidence says where its count comes from: ${card.evidence}`);
        if (hidden)
          assert.deepEqual(
            [Number(hidden[1]), Number(hidden[2])],
            [m.revealedBy.length, report.transcripts.length],
            card.evidence,
          );
        if (random)
          assert.deepEqual(
            [Number(random[1]), Number(random[2])],
            [m.evidence.transcripts - m.revealedBy.length, report.fuzz.transcripts],
            card.evidence,
          );
        assert.equal(
          (hidden ? Number(hidden[1]) : 0) + (random ? Number(random[1]) : 0),
          m.evidence.transcripts,
          card.evidence,
        );
        // A location note's "when PICK answered b" names its run: a row of its own table, which shows that
        // answer there, or another transcript, said so.
        const at = m.location?.at;
        const answered = /when (\S+) answered (.+?)(?:, and|, so| \(|$)/.exec(card.where.reason ?? '');
        // A random draw's line is read from the source, its note about the fresh runs that answered differently.
        const fromSource = /draws at random|walks a set/.test(m.location?.reason ?? '');
        if (m.location && !fromSource)
          assert.ok(at, `a location says which run its note is about: ${card.where.reason}`);
        if (at?.table && answered) {
          const row = m.counterexample?.trace[at.row - 1];
          assert.ok(row, `the note points at row ${at.row} of a table of ${m.counterexample?.trace.length ?? 0}`);
          assert.equal(row.command.split(/\s+/)[0], answered[1], card.where.reason);
          assert.equal(
            (row.actual ?? []).join(' / '),
            answered[2],
            `the note says ${answered[1]} answered ${answered[2]}; row ${at.row} of its table shows ${(row.actual ?? []).join(' / ')}`,
          );
          assert.match(card.where.reason ?? '', new RegExp(`^at command ${at.row} \\(`));
        }
        if (at && !at.table) assert.match(card.where.reason ?? '', /not the (shortened )?table below, /);
      }
      assert.doesNotMatch(JSON.stringify(view), /\bN of N\b|0\.0 s/);
    });
  }
});
