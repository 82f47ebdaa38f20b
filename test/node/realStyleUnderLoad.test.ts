/**
 * A verdict does not depend on the machine's load (issue 31): a sample of the real-style corpus gets its
 * header's verdict with two busy loops on every core, as on a quiet machine (realStyle.test.ts runs the whole
 * corpus there). The sample: the programs whose verdict once changed with the seed or the load (random ties,
 * a crash on an empty pool that gained a time-out under load, a flood, a program that thinks between answers),
 * a correct program of each language and lesson. Each loop runs in a session of its own: with the kernel's
 * autogroup scheduling a session shares the CPU as one, so loops in this test's session would leave the checks
 * a whole core. Run on its own (scripts/test.sh), never beside another file: it loads the machine on purpose.
 * Real processes: `checkFile` and the learner programs.
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkFile } from '../../src/node/check/checker';
import { loadPack, type LoadedPack } from '../../src/node/packs/packs';
import { discoverFixtures, expectedVerdict, namedVerdict } from './realStyleCorpus';

const ROOT = path.join(__dirname, '..', '..');
const PYTHON =
  execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim() || 'python3';
const LOOPS_PER_CORE = 2;

const PROGRAMS = [
  'health-checks/python/min_of_nothing',
  'least-connections/python/flood_waits_for_name',
  'least-connections/typescript/caddy_least_conn',
  'least-connections/javascript/p2c_negative',
  'least-connections/python/envoy_least_request',
  'least-connections/python/set_iteration',
  'least-connections/javascript/haproxy_leastconn',
  'least-connections/python/served_on_done',
  'conn-counts/javascript/rotating_cursor',
  'health-checks/python/reload_in_place',
];

describe('real-style corpus: the same verdict with two busy loops on every core', function () {
  this.timeout(600_000);
  const fixtures = discoverFixtures({
    'conn-counts': { python: 'least_conn.py', javascript: 'least_conn.js', typescript: 'least_conn.ts' },
  });
  const sample = [
    ...fixtures.filter((f) => PROGRAMS.includes(f.id)),
    // A correct program of each lesson and language the corpus has.
    ...[...new Map(fixtures.filter((f) => f.expect.correct).map((f) => [`${f.lesson}/${f.language}`, f])).values()],
  ];
  const packs = new Map<string, LoadedPack>();
  const loops: ChildProcess[] = [];

  before(async () => {
    for (const lesson of new Set(sample.map((f) => f.lesson)))
      packs.set(lesson, await loadPack(path.join(ROOT, 'lessons', lesson)));
    for (let i = 0; i < os.cpus().length * LOOPS_PER_CORE; i++) {
      // Each ends by itself after five minutes, should this process die without its `after`.
      const loop = spawn(process.execPath, ['-e', 'setTimeout(() => process.exit(0), 300000); for (;;) {}'], {
        stdio: 'ignore',
        detached: true,
      });
      loops.push(loop);
    }
  });
  after(() => {
    for (const loop of loops) loop.kill('SIGKILL');
  });

  it('samples the programs it names', () => {
    assert.deepEqual(
      PROGRAMS.filter((id) => !sample.some((f) => f.id === id)),
      [],
    );
  });

  it("every sampled program gets its header's verdict while both cores are busy", async () => {
    const wrong: string[] = [];
    // Two checks at a time, as a learner's editor and a grader would on two cores.
    for (let i = 0; i < sample.length; i += 2) {
      const pair = sample.slice(i, i + 2);
      const reports = await Promise.all(
        pair.map((f) => checkFile(packs.get(f.lesson)!, f.file, f.language, { interpreters: { python: PYTHON } })),
      );
      pair.forEach((f, j) => {
        // The header's verdict names only the problems it expects: a time-out the load added would not show.
        const slow = reports[j]!.problems.filter((p) => p.kind === 'timeout' && !f.expect.problems.includes('timeout'));
        const got = namedVerdict(reports[j]!, f) + (slow.length ? ' + a time-out' : '');
        if (got !== expectedVerdict(f)) wrong.push(`${f.id}: ${got}, its header says ${expectedVerdict(f)}`);
      });
    }
    assert.deepEqual(wrong, [], `${wrong.length} of ${sample.length} verdicts changed under load`);
  });
});
