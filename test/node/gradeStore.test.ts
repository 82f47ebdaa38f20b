/**
 * Kept results cannot lie. The store is the grader's own folder (the cache folder, hidden from every sandbox
 * view), each record signed under a key only the grader can read. A real program graded with --sandbox=off
 * (it runs as the grader, so it can read the key) rewrites every record as a failure, correctly signed: the
 * next grade must equal a clean one. Real processes, through the CLI's entry point.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ClassReport } from '../../src/core/grade/classReport';
import type { GradeRow } from '../../src/core/grade/row';
import { ResultStore } from '../../src/node/grade/resultStore';
import { runCli, type CliRun } from './inProcessCli';

const ROOT = path.join(__dirname, '..', '..');
const LESSON = path.join(ROOT, 'lessons', 'least-connections');

const cli = (args: string[], cwd: string): Promise<CliRun> => runCli(args, cwd);

/** A program that implements nothing: it rewrites the grader's store, each record signed with the key it reads. */
function attacker(storeDir: string, marker: string): string {
  return `import os, json, hmac, hashlib
D = ${JSON.stringify(storeDir)}
n = 0
key = open(os.path.join(D, 'key'), 'rb').read()
for name in os.listdir(os.path.join(D, 'results')):
    f = os.path.join(D, 'results', name)
    rec = json.load(open(f))
    res = json.loads(rec['result'])
    res.update(status='fail', reason='forged', mistakes=[], checks={'passed': 0, 'total': res['checks']['total']})
    rec['result'] = json.dumps(res)
    msg = ('%d\\0%s\\0%s' % (rec['format'], rec['key'], rec['result'])).encode()
    rec['mac'] = hmac.new(key, msg, hashlib.sha256).hexdigest()
    json.dump(rec, open(f, 'w'))
    n += 1
open(${JSON.stringify(marker)}, 'w').write(str(n))
`;
}

const verdicts = (report: ClassReport): Omit<GradeRow, 'durationMs'>[] =>
  report.rows.map(({ durationMs: _d, ...rest }) => rest);

describe('grade: kept results cannot lie (real processes)', function () {
  this.timeout(240_000);
  let tmp: string;
  let savedCache: string | undefined;

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-grade-store-'));
    savedCache = process.env.LESSON_COMPANION_CACHE_DIR;
    process.env.LESSON_COMPANION_CACHE_DIR = path.join(tmp, 'cache');
  });
  after(() => {
    if (savedCache === undefined) delete process.env.LESSON_COMPANION_CACHE_DIR;
    else process.env.LESSON_COMPANION_CACHE_DIR = savedCache;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a --sandbox=off program that rewrites the store leaves the next grade equal to a clean one', async () => {
    const generator = (await import(path.join(ROOT, 'scripts', 'grade-class.mjs'))) as {
      makeClass: (dir: string, sizes: object) => unknown[];
    };
    generator.makeClass(path.join(tmp, 'class'), { correct: 2, mistaken: 2, hostile: 0, special: false });
    const grade = ['grade', 'class', '--lesson', LESSON, '--fuzz', '8', '--format', 'json', '--out'];
    const clean = await cli([...grade, 'clean'], tmp);
    assert.equal(clean.code, 0, clean.err);
    const cleanReport = JSON.parse(
      fs.readFileSync(path.join(tmp, 'clean', 'class-report.json'), 'utf8'),
    ) as ClassReport;
    assert.ok(cleanReport.rows.some((r) => r.status === 'pass'));

    const storeDir = path.join(tmp, 'cache', 'grade');
    const marker = path.join(tmp, 'attacked');
    fs.mkdirSync(path.join(tmp, 'mallory'));
    fs.writeFileSync(path.join(tmp, 'mallory', 'balancer.py'), attacker(storeDir, marker));
    const off = await cli(['grade', 'mallory', '--lesson', LESSON, '--sandbox=off', '--out', 'off'], tmp);
    assert.equal(off.code, 0, off.err);
    assert.equal(Number(fs.readFileSync(marker, 'utf8')), cleanReport.rows.length, 'the program rewrote every record');
    assert.match(off.out, /No result was kept or resumed: without a sandbox each program ran as you/);

    const next = await cli([...grade, 'next'], tmp);
    assert.equal(next.code, 0, next.err);
    const nextReport = JSON.parse(fs.readFileSync(path.join(tmp, 'next', 'class-report.json'), 'utf8')) as ClassReport;
    assert.deepEqual(verdicts(nextReport), verdicts(cleanReport));
  });

  it('does not believe a record whose result was changed, or one signed with another key', () => {
    const dir = path.join(tmp, 'unit-store');
    const store = new ResultStore(dir);
    const row: GradeRow = {
      student: 's',
      file: 'f.py',
      status: 'fail',
      reason: 'x',
      mistakes: [],
      checks: { passed: 1, total: 2 },
      problems: [],
      unrecognised: null,
      random: false,
      stoppedAnswering: false,
      quiz: null,
      durationMs: 5,
    };
    store.write('k1', row);
    store.write('k2', row);
    assert.equal(new ResultStore(dir).read('k1')?.status, 'fail', 'a record verifies under its own key');
    assert.equal((fs.statSync(path.join(dir, 'key')).mode & 0o777).toString(8), '600');
    const file = path.join(dir, 'results', 'k1.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('\\"fail\\"', '\\"pass\\"'));
    fs.renameSync(path.join(dir, 'results', 'k2.json'), path.join(dir, 'results', 'k3.json'));
    const again = new ResultStore(dir);
    assert.equal(again.read('k1'), undefined, 'a changed result does not verify');
    assert.equal(again.read('k3'), undefined, 'a record moved to another key does not verify');
    fs.rmSync(path.join(dir, 'key'));
    store.write('k4', row);
    assert.equal(new ResultStore(dir).read('k4'), undefined, 'a record signed with a key since thrown away');
    assert.equal(again.rejected, 2);
  });
});
