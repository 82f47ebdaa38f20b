/**
 * A class graded in shards (`grade --shard i/N --run-id <id>`) and merged (`grade --merge`) is the same class
 * report as one grade of the whole class: 30 real programs, real processes, through the CLI's entry point.
 * Merge takes only the shards of one run.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ClassReport } from '../../src/core/grade/classReport';
import { runCli, type CliRun } from './inProcessCli';

const ROOT = path.join(__dirname, '..', '..');
const LESSON = path.join(ROOT, 'lessons', 'least-connections');

const cli = (args: string[], cwd: string): Promise<CliRun> => runCli(args, cwd);

const read = (file: string): ClassReport => JSON.parse(fs.readFileSync(file, 'utf8')) as ClassReport;

/** The report without what differs between two grades of the same code: times, the run's shard. */
function verdicts(report: ClassReport): unknown {
  const { generatedAt: _g, run, slowest: _s, rows, ...rest } = report;
  return { ...rest, run: { id: run.id, grader: run.grader }, rows: rows.map(({ durationMs: _d, ...r }) => r) };
}

describe('grade --shard and --merge (real processes)', function () {
  this.timeout(600_000);
  let tmp: string;
  let savedCache: string | undefined;
  /** Each grade with a store of its own: no shard takes a result the whole grade kept. */
  const freshStore = (name: string): void => {
    process.env.LESSON_COMPANION_CACHE_DIR = path.join(tmp, `cache-${name}`);
  };
  const grade = ['class', '--lesson', LESSON, '--fuzz', '8', '--format', 'json', '--run-id', 'run-7'];

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-shard-'));
    savedCache = process.env.LESSON_COMPANION_CACHE_DIR;
    const generator = (await import(path.join(ROOT, 'scripts', 'grade-class.mjs'))) as {
      makeClass: (dir: string, sizes: object) => unknown[];
    };
    generator.makeClass(path.join(tmp, 'class'), { correct: 13, mistaken: 17, hostile: 0, special: false });
  });
  after(() => {
    if (savedCache === undefined) delete process.env.LESSON_COMPANION_CACHE_DIR;
    else process.env.LESSON_COMPANION_CACHE_DIR = savedCache;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('3 shards of a class of 30, merged, equal one grade of the class', async () => {
    freshStore('whole');
    const whole = await cli(['grade', ...grade, '--out', 'whole'], tmp);
    assert.equal(whole.code, 0, whole.err);
    const shards: string[] = [];
    for (const i of [1, 2, 3]) {
      freshStore(`shard-${i}`);
      const shard = await cli(['grade', ...grade, '--shard', `${i}/3`, '--out', `shard-${i}`], tmp);
      assert.equal(shard.code, 0, shard.err);
      shards.push(path.join('shard-' + i, 'class-report.json'));
    }
    const sizes = shards.map((f) => read(path.join(tmp, f)).students);
    assert.ok(
      sizes.every((n) => n > 0),
      `every shard has students: ${sizes.join(', ')}`,
    );
    const merged = await cli(['grade', '--merge', ...shards, '--run-id', 'run-7', '--out', 'merged'], tmp);
    assert.equal(merged.code, 0, merged.err);
    const one = read(path.join(tmp, 'whole', 'class-report.json'));
    assert.equal(one.students, 30);
    assert.deepEqual(verdicts(read(path.join(tmp, 'merged', 'class-report.json'))), verdicts(one));
  });

  it('merges only every shard of one run, once', async () => {
    const shards = [1, 2, 3].map((i) => path.join('shard-' + i, 'class-report.json'));
    const other = read(path.join(tmp, shards[0]!));
    fs.writeFileSync(path.join(tmp, 'other.json'), JSON.stringify({ ...other, run: { ...other.run, id: 'run-8' } }));
    const refused = async (files: string[], runId: string, why: RegExp): Promise<void> => {
      const result = await cli(['grade', '--merge', ...files, '--run-id', runId, '--out', 'refused'], tmp);
      assert.equal(result.code, 2, result.out);
      assert.match(result.err, why);
      assert.match(result.err, /Nothing was merged/);
    };
    await refused(shards, 'run-8', /is of run "run-7", not "run-8"/);
    await refused([shards[0]!, shards[1]!], 'run-7', /shard 3\/3 is missing/);
    await refused([shards[0]!, shards[0]!, shards[1]!], 'run-7', /are both shard/);
    await refused(['other.json', shards[1]!, shards[2]!], 'run-7', /of run "run-8"/);
    assert.ok(!fs.existsSync(path.join(tmp, 'refused')));
  });
});
