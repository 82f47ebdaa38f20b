/**
 * `grade --collect` rests on code: a folder per student as the teacher downloaded it, graded from the source
 * each artifact carries (or the cloned repository), checked by the grader itself in real processes. Forged
 * artifacts (a hand-written pass, a classmate's artifact renamed) count as no pass; a malformed artifact
 * is a row with its reason and the grade goes on; the student is the folder's name.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ClassReport } from '../../src/core/grade/classReport';
import { runCli, type CliRun } from './inProcessCli';

const ROOT = path.join(__dirname, '..', '..');
const LESSON = path.join(ROOT, 'lessons', 'least-connections');
const CORRECT = fs.readFileSync(path.join(ROOT, 'test/fixtures/least-connections/python/correct.py'), 'utf8');
const WRONG = fs.readFileSync(
  path.join(ROOT, 'test/fixtures/real-style/least-connections/python/least_loaded_by_name.py'),
  'utf8',
);

const cli = (args: string[], cwd: string): Promise<CliRun> => runCli(args, cwd);

/** An artifact as `classroom run` writes it, with what a student may have changed in it. */
function artifact(repository: unknown, source: string | null, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    format: 1,
    repository,
    commit: 'a'.repeat(40),
    source: source === null ? null : { file: 'balancer.py', text: source },
    report: { lesson: 'least-connections', status: 'pass', checks: { passed: 16, failed: 0, total: 16 } },
    reason: null,
    points: 1,
    ...extra,
  });
}

describe('grade --collect: the grade rests on code, never on an artifact (real processes)', function () {
  this.timeout(240_000);
  let tmp: string;
  let report: ClassReport;
  let result: { code: number; out: string; err: string };
  const row = (student: string) => report.rows.find((r) => r.student === student)!;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-collect-'));
    const downloads = path.join(tmp, 'downloads');
    const put = (folder: string, file: string, text: string): void => {
      fs.mkdirSync(path.join(downloads, folder), { recursive: true });
      fs.writeFileSync(path.join(downloads, folder, file), text);
    };
    const aliceArtifact = artifact('org/lb-alice', CORRECT);
    put('lb-alice', 'lesson-companion-report.json', aliceArtifact);
    put('lb-bob', 'lesson-companion-report.json', aliceArtifact); // a classmate's artifact, renamed
    put('lb-carol', 'lesson-companion-report.json', artifact('org/lb-carol', null)); // a pass written by hand
    put('lb-dave', 'lesson-companion-report.json', artifact('org/lb-dave', WRONG)); // a pass beside wrong code
    put('lb-erin', 'lesson-companion-report.json', artifact(12, CORRECT)); // malformed
    put('lb-frank', 'balancer.py', CORRECT); // a cloned repository
    put('lb-gina', 'lesson-companion-report.json', '{ not json');
    fs.writeFileSync(path.join(downloads, 'notes.txt'), 'not a student');
    result = await cli(['grade', '--collect', 'downloads', '--lesson', LESSON, '--fuzz', '8', '--out', 'out'], tmp);
    report = JSON.parse(fs.readFileSync(path.join(tmp, 'out', 'class-report.json'), 'utf8')) as ClassReport;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('checks the code each artifact carries, and the cloned repository', () => {
    assert.equal(result.code, 0, result.err);
    assert.equal(row('lb-alice').status, 'pass', row('lb-alice').reason ?? '');
    assert.equal(row('lb-alice').file, 'balancer.py');
    assert.equal(row('lb-alice').commit, 'a'.repeat(40));
    assert.equal(row('lb-frank').status, 'pass', row('lb-frank').reason ?? '');
    assert.equal(row('lb-dave').status, 'fail', 'wrong code fails whatever its artifact reports');
    assert.deepEqual(row('lb-dave').reported, { status: 'pass', passed: 16, total: 16 });
  });

  it('counts neither forged artifact as a pass, and names the classmate', () => {
    assert.equal(row('lb-bob').status, 'refused');
    assert.match(row('lb-bob').reason!, /comes from org\/lb-alice, not from this folder's repository \(lb-bob\)/);
    assert.equal(row('lb-carol').status, 'missing');
    assert.match(row('lb-carol').reason!, /carries no source code to check/);
    assert.equal(row('lb-carol').reported?.status, 'pass', 'the claim is shown beside the grade');
    assert.deepEqual(
      report.rows.filter((r) => r.status === 'pass').map((r) => r.student),
      ['lb-alice', 'lb-frank'],
    );
    assert.equal(report.statuses.pass, 2);
  });

  it('gives each malformed artifact and stray file a row with its reason', () => {
    assert.equal(row('lb-erin').status, 'refused');
    assert.match(row('lb-erin').reason!, /"repository" is 12/);
    assert.match(row('lb-gina').reason!, /not JSON/);
    assert.match(row('notes.txt').reason!, /a file, not a student's folder/);
    assert.equal(report.students, 8);
  });
});
