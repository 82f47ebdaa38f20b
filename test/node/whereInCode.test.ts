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
 * The target (issue 30), under the share measured (see the README): 88–89 of 96 (92–93%) in five runs over the
 * three lessons' programs with `expect-lines:`, seven misses in every run and in four runs one of a program that
 * draws at random (what such a program is told varies between runs). A change that loses two more (86) fails.
 */
const MIN_SHARE = 0.9;
const MODULES = {
  'conn-counts': { python: 'least_conn.py', javascript: 'least_conn.js', typescript: 'least_conn.ts' },
};

describe('where in the code: the squiggle covers the line that is wrong (real-style corpus)', function () {
  this.timeout(900000);
  const fixtures: Fixture[] = discoverFixtures(MODULES).filter((f) => Object.keys(f.expect.lines).length > 0);
  const packs = new Map<string, LoadedPack>();
  const results: { id: string; mistake: string; line: number; covered: string; hit: boolean }[] = [];
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
      for (const [id, line] of Object.entries(fixture.expect.lines)) {
        const m = report.mistakes.find((x) => x.id === id);
        assert.ok(m, `${fixture.id} names ${id}`);
        const block = squiggleBlock(m, source, fixture.language, undefined);
        const def = locateFunction(source, fixture.language, mistakeFunction(m));
        const hit = block ? block.first <= line && line <= block.last : def === line;
        const covered = block ? `${block.first}–${block.last}` : `the name on line ${def ?? '?'}`;
        results.push({ id: fixture.id, mistake: id, line, covered, hit });
      }
    });
  }

  after(() => {
    if (results.length === 0) return;
    const hits = results.filter((r) => r.hit).length;
    for (const r of results)
      console.log(`  ${r.hit ? 'covers' : 'misses'}  ${r.id} ${r.mistake}: line ${r.line}, squiggle ${r.covered}`);
    const share = hits / results.length;
    console.log(`  where in the code: ${hits} of ${results.length} named mistakes (${Math.round(share * 100)}%)`);
    assert.ok(share >= MIN_SHARE, `the squiggle covers the wrong line for ${hits} of ${results.length}`);
  });
});
