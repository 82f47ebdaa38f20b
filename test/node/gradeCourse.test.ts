/**
 * `lesson-companion grade <class> --course load-balancing`: a class of three students laid out the ways
 * docs/grading.md allows (files found by their lesson header anywhere in the folder; a sub-folder per lesson;
 * a file found by a starter's name no other lesson of the course shares), real-style programs checked by real
 * processes in the sandbox. Each lesson's class report holds every student; the course report says per
 * student and lesson what the lesson's own report says.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ClassReport } from '../../src/core/grade/classReport';
import type { CourseReport } from '../../src/core/grade/courseReport';
import { runCli, type CliRun } from './inProcessCli';

const ROOT = path.join(__dirname, '..', '..');
const REAL = path.join(ROOT, 'test', 'fixtures', 'real-style');

const cli = (args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliRun> =>
  // dist/ beside the built-in lessons, so the course and its packs are found as the shipped CLI finds them.
  runCli(args, cwd, { env, bundleDir: path.join(ROOT, 'dist') });

function put(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

const read = (rel: string): string => fs.readFileSync(path.join(REAL, rel), 'utf8');
const withoutHeader = (text: string): string => text.replace(/^# lesson-companion: .*\n/, '');

/** alice: every lesson by its header; bob: a folder per lesson, one lesson missing; carol: files by name only. */
function makeCourseClass(dir: string): void {
  put(path.join(dir, 'alice', 'lc.py'), read('least-connections/python/stable_sort.py'));
  put(path.join(dir, 'alice', 'src', 'lb', 'least_conn.py'), read('conn-counts/python/counter_items/least_conn.py'));
  put(path.join(dir, 'alice', 'health.py'), read('health-checks/python/counter_skip_down.py'));
  put(
    path.join(dir, 'bob', 'least-connections', 'balancer.py'),
    read('least-connections/python/least_loaded_by_name.py'),
  );
  put(
    path.join(dir, 'bob', 'conn-counts', 'least_conn.py'),
    read('conn-counts/python/close_skips_unseen/least_conn.py'),
  );
  put(path.join(dir, 'carol', 'least_conn.py'), withoutHeader(read('conn-counts/python/counter_items/least_conn.py')));
  // balancer.py is the starter's name of two lessons of the course: without a header it belongs to neither.
  put(path.join(dir, 'carol', 'balancer.py'), withoutHeader(read('least-connections/python/stable_sort.py')));
}

describe('grade --course: a class across the lessons of a course (real processes)', function () {
  this.timeout(300_000);
  let tmp: string;
  let run: { code: number; out: string; err: string };
  let course: CourseReport;
  const lesson = (id: string): ClassReport =>
    JSON.parse(fs.readFileSync(path.join(tmp, 'out', id, 'class-report.json'), 'utf8')) as ClassReport;

  before(async function () {
    this.timeout(300_000);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-grade-course-'));
    makeCourseClass(path.join(tmp, 'class'));
    const env = {
      LESSON_COMPANION_PACKS: path.join(tmp, 'packs'),
      LESSON_COMPANION_CACHE_DIR: path.join(tmp, 'cache'),
    };
    run = await cli(['grade', 'class', '--course', 'load-balancing', '--out', 'out', '--jobs', '2'], tmp, env);
    course = JSON.parse(fs.readFileSync(path.join(tmp, 'out', 'course-report.json'), 'utf8')) as CourseReport;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('grades each student for every lesson, and the course report says the same as each lesson report', () => {
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(
      course.lessons.map((l) => l.id),
      ['least-connections', 'conn-counts', 'health-checks'],
    );
    const statuses = Object.fromEntries(course.students.map((s) => [s.student, s.lessons]));
    assert.deepEqual(statuses, {
      alice: { 'least-connections': 'pass', 'conn-counts': 'pass', 'health-checks': 'fail' },
      bob: { 'least-connections': 'fail', 'conn-counts': 'fail', 'health-checks': 'missing' },
      carol: { 'least-connections': 'missing', 'conn-counts': 'pass', 'health-checks': 'missing' },
    });
    for (const entry of course.lessons) {
      const report = lesson(entry.id);
      assert.equal(report.lesson.id, entry.id);
      assert.deepEqual(
        report.rows.map((r) => r.student),
        ['alice', 'bob', 'carol'],
      );
      for (const row of report.rows) assert.equal(statuses[row.student]![entry.id], row.status);
    }
    assert.match(run.out, /least-connections: 3 submissions, 33% pass/);
    assert.match(run.out, /load-balancing .*: 3 students, 0 passed every lesson/);
  });

  it('finds the file by header, by lesson folder, and by a starter name no other lesson shares', () => {
    const rows = (id: string) => Object.fromEntries(lesson(id).rows.map((r) => [r.student, r]));
    assert.equal(rows('least-connections').alice!.file, path.join('alice', 'lc.py'));
    assert.equal(rows('conn-counts').alice!.file, path.join('alice', 'src', 'lb', 'least_conn.py'));
    assert.equal(rows('least-connections').bob!.file, path.join('bob', 'least-connections', 'balancer.py'));
    assert.equal(rows('conn-counts').carol!.file, path.join('carol', 'least_conn.py'));
    assert.deepEqual(
      rows('least-connections').bob!.mistakes.map((m) => m.id),
      ['tiebreak'],
    );
    assert.deepEqual(
      rows('conn-counts').bob!.mistakes.map((m) => m.id),
      ['unseen-close'],
    );
    assert.deepEqual(
      rows('health-checks').alice!.mistakes.map((m) => m.id),
      ['done-skips-down'],
    );
    // carol's balancer.py could be either balancer lesson's: it is neither, and the row says what was looked for.
    assert.match(rows('least-connections').carol!.reason!, /lesson-companion: least-connections/);
    assert.doesNotMatch(rows('least-connections').carol!.reason!, /balancer\.py/);
  });

  it('writes the course table as CSV, one row per student', () => {
    const csv = fs.readFileSync(path.join(tmp, 'out', 'course-report.csv'), 'utf8').split('\r\n');
    assert.equal(csv[0], 'student,least-connections,conn-counts,health-checks,passed');
    assert.equal(csv[1], 'alice,pass,pass,fail,2');
    assert.equal(csv[3], 'carol,missing,pass,missing,1');
  });
});
