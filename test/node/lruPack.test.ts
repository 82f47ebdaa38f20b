/**
 * Issue 31: a pack that is not a balancer (test/fixtures/packs/lru-cache, an LRU cache made with `new --blank`),
 * whose observe command, KEYS, is an order. A program that lists its keys in an order the pack has no name for
 * (sorted by key; in the order keys were first put) must not be told a named mistake, and no card may point
 * to a trace "below" (the CLI prints the table above the cards; issue 31 saw a card point at one that was not
 * there). Every program is checked as a real process through `checkFile`, at seeds 1-5 and by the built CLI's
 * `validate --programs` at the pack's own seed, and every surface the learner reads (the CLI's text, the JSON,
 * the panel's view model) is read for what it must not say.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatReport } from '../../src/cli/format';
import type { Language } from '../../src/core/pack/schema';
import type { CheckReport } from '../../src/core/report/report';
import { checkView } from '../../src/ext/panel/panelState';
import { checkFile } from '../../src/node/check/checker';
import { loadPack, type LoadedPack } from '../../src/node/packs/packs';
import { validatePack } from '../../src/node/authoring/validatePack';

const ROOT = path.join(__dirname, '..', '..');
const PACK = path.join(ROOT, 'test', 'fixtures', 'packs', 'lru-cache');
const PROGRAMS = path.join(ROOT, 'test', 'fixtures', 'packs', 'lru-cache-programs');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const PYTHON =
  execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim() || 'python3';
const SEEDS = [1, 2, 3, 4, 5];

/** Each sample program with the mistakes its header expects ([] for "(unnamed)"), and whether it is correct. */
const programs = fs
  .readdirSync(PROGRAMS)
  .sort()
  .map((name) => {
    const text = fs.readFileSync(path.join(PROGRAMS, name), 'utf8');
    const expected = /expect-mistakes:\s*(.+)/.exec(text)![1]!.trim();
    const language: Language = name.endsWith('.py') ? 'python' : 'javascript';
    const mistakes = expected === 'none' || expected === '(unnamed)' ? [] : expected.split(/,\s*/);
    return { name, language, correct: expected === 'none', mistakes };
  });

/** What a failing report must never say, on any surface. */
function assertSurfacesHonest(r: CheckReport, pack: LoadedPack, said: string): void {
  const surfaces = {
    text: formatReport(r, false),
    json: JSON.stringify(r),
    panel: JSON.stringify(checkView(r, pack.manifest, null)),
  };
  for (const [surface, text] of Object.entries(surfaces)) {
    assert.doesNotMatch(text, /\bAll \d+ hidden transcripts pass|every transcript passes/i, `${said}: its ${surface}`);
    assert.doesNotMatch(text, /trace below/, `${said}: its ${surface} points at a trace "below"`);
  }
}

describe('a pack that is not a balancer: an LRU cache whose observe command is an order', function () {
  this.timeout(240_000);
  let pack: LoadedPack;

  before(async () => {
    pack = await loadPack(PACK, 'folder', { model: true });
  });

  it('validates, every mistake caught and every pair told apart', async () => {
    const validation = await validatePack(PACK, { runStarters: false });
    assert.equal(validation.valid, true, validation.problems.map((p) => p.message).join('\n'));
  });

  it("validate --programs (the pack's own seed): every sample program gets the verdict its header expects", () => {
    // At this seed KEYS sorted by key was told "KEYS lists the oldest first (likely)": no KEYS in its transcripts
    // contradicted that where the reference agrees, and it claimed an order of its own where it did not.
    const out = execFileSync(process.execPath, [CLI, 'validate', PACK, '--programs', PROGRAMS], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    assert.match(out, new RegExp(`Programs: ${programs.length} of ${programs.length} matched their expected verdict`));
  });

  it('has correct programs, named mistakes and KEYS orders the pack has no name for', () => {
    assert.ok(programs.some((p) => p.correct));
    assert.ok(programs.some((p) => p.mistakes.length > 0));
    assert.ok(programs.filter((p) => !p.correct && p.mistakes.length === 0).length >= 2);
  });

  for (const program of programs) {
    it(`${program.name}: ${program.correct ? 'passes' : program.mistakes.join(', ') || 'nothing named, said as a difference'} at seeds ${SEEDS.join(', ')}`, async () => {
      for (const seed of SEEDS) {
        const r = await checkFile(pack, path.join(PROGRAMS, program.name), program.language, {
          interpreters: { python: PYTHON },
          seed,
        });
        const got = `${r.status} [${r.mistakes.map((m) => `${m.id}/${m.confidence}`).join(', ')}] ${r.problems.map((p) => p.kind).join(', ')}`;
        const said = `${program.name} at seed ${seed} got ${got}`;
        assert.equal(r.status, program.correct ? 'pass' : 'fail', said);
        assert.deepEqual(
          r.mistakes.map((m) => m.id),
          program.mistakes,
          said,
        );
        if (!program.correct && program.mistakes.length === 0)
          assert.ok(
            r.problems.some((p) => p.kind === 'unrecognised-difference'),
            said,
          );
        if (r.status === 'fail') assertSurfacesHonest(r, pack, said);
      }
    });
  }
});
