/**
 * Where in the code, measured: for every real-style program of the three lessons whose header states the line
 * each mistake is on (`expect-lines: tiebreak=15`), the share of its named mistakes whose squiggle (squiggleBlock,
 * what the editor underlines) covers that line. A mistake with no traced lines has only its function's name
 * underlined, which covers the wrong line only when that is the `def` line itself. The figure is printed and
 * stated in the README; the test holds it from falling (MIN_SHARE), and each program's verdict from changing.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { locateFunction } from '../../src/core/text/source';
import { mistakeFunction, squiggleBlock } from '../../src/core/report/findings';
import { checkFile } from '../../src/node/check/checker';
import { loadPack, type LoadedPack } from '../../src/node/packs/packs';
import { discoverFixtures, type Fixture } from './realStyleCorpus';

const ROOT = path.join(__dirname, '..', '..');
const PYTHON =
  execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim() || 'python3';
/**
 * The target (issue 30), under the share measured (see the README), over programs that answer the same on every
 * fresh run: 86 of 93 (76 of 83 before stop 42's programs) in every run on record, quiet or beside two busy loops,
 * the same seven misses. A change that loses three more (83) fails. A program that draws at random is told something different in each run (its
 * counterexample, the traced run that answers as it did): its squiggles are printed and counted apart, and held
 * only to RANDOM_MIN_SHARE (measured 12–13 of 13; one run in CI missed 3, which failed the whole share then).
 */
const MIN_SHARE = 0.9;
const RANDOM_MIN_SHARE = 0.6;
const MODULES = {
  'conn-counts': { python: 'least_conn.py', javascript: 'least_conn.js', typescript: 'least_conn.ts' },
};

describe('where in the code: the squiggle covers the line that is wrong (real-style corpus)', function () {
  this.timeout(900000);
  const fixtures: Fixture[] = discoverFixtures(MODULES).filter((f) => Object.keys(f.expect.lines).length > 0);
  const packs = new Map<string, LoadedPack>();
  const results: { id: string; mistake: string; line: number; covered: string; hit: boolean; varies: boolean }[] = [];
  before(async () => {
    for (const lesson of new Set(fixtures.map((f) => f.lesson)))
      packs.set(lesson, await loadPack(path.join(ROOT, 'lessons', lesson), 'built-in'));
  });

  for (const fixture of fixtures) {
    it(fixture.id, async () => {
      const report = await checkFile(packs.get(fixture.lesson)!, fixture.file, fixture.language, {
        interpreters: { python: PYTHON },
        fuzzTranscripts: 8,
      });
      const source = fs.readFileSync(fixture.file, 'utf8');
      // What the probe saw (two fresh runs answering differently) or the header says: this program draws at random.
      const varies = report.determinism?.fresh === 'different' || fixture.expect.behaviour === 'random';
      for (const [id, line] of Object.entries(fixture.expect.lines)) {
        const m = report.mistakes.find((x) => x.id === id);
        if (!m && varies) {
          // A program that draws at random is checked here at a random seed, and its own draws differ in each run:
          // grpc_least_request.py's stale-counts went unnamed at about 1 seed in 20 (realStyle.test.ts holds its
          // verdict at seed 1). Counted as a miss among the random ones, not as a failure.
          results.push({ id: fixture.id, mistake: id, line, covered: 'not named in this run', hit: false, varies });
          continue;
        }
        assert.ok(m, `${fixture.id} names ${id}`);
        const block = squiggleBlock(m, source, fixture.language, undefined);
        const def = locateFunction(source, fixture.language, mistakeFunction(m));
        const hit = block ? block.first <= line && line <= block.last : def === line;
        const covered = block ? `${block.first}–${block.last}` : `the name on line ${def ?? '?'}`;
        results.push({ id: fixture.id, mistake: id, line, covered, hit, varies });
      }
    });
  }

  after(() => {
    if (results.length === 0) return;
    for (const r of results)
      console.log(
        `  ${r.hit ? 'covers' : 'misses'}  ${r.id} ${r.mistake}: line ${r.line}, squiggle ${r.covered}${r.varies ? ' (draws at random)' : ''}`,
      );
    const share = (of: typeof results) => ({ hits: of.filter((r) => r.hit).length, of: of.length });
    const all = share(results);
    const same = share(results.filter((r) => !r.varies));
    const random = share(results.filter((r) => r.varies));
    const percent = (s: { hits: number; of: number }) => `${s.hits} of ${s.of} (${Math.round((s.hits / s.of) * 100)}%)`;
    console.log(`  where in the code: ${percent(all)} named mistakes`);
    console.log(`    programs that answer the same on every run: ${percent(same)}`);
    if (random.of > 0) console.log(`    programs that draw at random: ${percent(random)}`);
    const missed = results
      .filter((r) => !r.hit)
      .map((r) => `${r.id} ${r.mistake} (line ${r.line}, squiggle ${r.covered})`)
      .join('; ');
    assert.ok(
      same.hits / same.of >= MIN_SHARE,
      `the squiggle covers the line that is wrong for only ${percent(same)} of the mistakes of programs that answer the same on every run; missed: ${missed}`,
    );
    assert.ok(
      random.of === 0 || random.hits / random.of >= RANDOM_MIN_SHARE,
      `the squiggle covers the line that is wrong for only ${percent(random)} of the mistakes of programs that draw at random; missed: ${missed}`,
    );
  });
});
