/**
 * `lesson-companion grade` on a generated class folder (scripts/grade-class.mjs: real-style programs, the
 * hostile fixtures, and files that are not checked), through the CLI's own entry point, real processes, the
 * diagnosis in-process (no engine bundle beside the test). Every row present with the status and mistakes its
 * program's header states; the histogram is the sum of the rows; CSV, JUnit and JSON parse; a resumed run
 * starts no check twice.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ClassReport } from '../../src/core/grade/classReport';
import { CSV_COLUMNS } from '../../src/core/grade/csv';
import { progressLine } from '../../src/cli/gradeCommand';
import { checkFile } from '../../src/node/check/checker';
import { gradeSubmissions } from '../../src/node/grade/grader';
import { ResultStore, runKey } from '../../src/node/grade/resultStore';
import { findSubmissions, starterNames } from '../../src/node/grade/submissions';
import { loadPack } from '../../src/node/packs/packs';
import { forgetDetectedSandbox } from '../../src/node/sandbox/sandbox';
import { runCli, type CliRun } from './inProcessCli';

const ROOT = path.join(__dirname, '..', '..');
const LESSON = path.join(ROOT, 'lessons', 'least-connections');
const ANSWERS = path.join(ROOT, 'authoring', 'least-connections.answers.json');

interface Expected {
  readonly student: string;
  readonly expect: { status?: string; mistakes?: string[]; stoppedAnswering?: boolean };
}

async function makeClass(dir: string, sizes: Record<string, number | boolean>): Promise<Expected[]> {
  const generator = (await import(path.join(ROOT, 'scripts', 'grade-class.mjs'))) as {
    makeClass: (dir: string, sizes: object) => Expected[];
  };
  return generator.makeClass(dir, sizes);
}

const cli = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliRun> => runCli(args, cwd, { env });

/** RFC 4180 rows: quoted cells with doubled quotes, CRLF between records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let cell = '';
  let row: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') {
      quoted = false;
    } else if (quoted) {
      cell += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else {
      cell += c;
    }
  }
  assert.equal(cell + row.join(''), '', 'the CSV ends with a full record');
  return rows;
}

/** The grader's private store (the cache folder) in a folder of the test's own, for the tests of this file. */
let savedCache: string | undefined;
const cacheRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-grade-cache-'));
before(() => {
  savedCache = process.env.LESSON_COMPANION_CACHE_DIR;
  process.env.LESSON_COMPANION_CACHE_DIR = cacheRoot;
});
after(() => {
  if (savedCache === undefined) delete process.env.LESSON_COMPANION_CACHE_DIR;
  else process.env.LESSON_COMPANION_CACHE_DIR = savedCache;
  fs.rmSync(cacheRoot, { recursive: true, force: true });
});

describe('grade: a class folder (real processes)', function () {
  this.timeout(240_000);
  let tmp: string;
  let students: Expected[];
  let report: ClassReport;
  let firstRun: { code: number; out: string; err: string };

  before(async function () {
    this.timeout(240_000);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-grade-'));
    students = await makeClass(path.join(tmp, 'class'), { correct: 3, mistaken: 5, hostile: 3, special: true });
    fs.writeFileSync(
      path.join(tmp, 'class', 'correct-001', 'answers.json'),
      JSON.stringify({ 'fq-three-picks': 'a, b, c', 'fq-done-at-zero': '-1' }),
    );
    firstRun = await cli(
      ['grade', 'class', '--lesson', LESSON, '--out', 'out', '--fuzz', '8', '--jobs', '2', '--answers', ANSWERS],
      tmp,
    );
    report = JSON.parse(fs.readFileSync(path.join(tmp, 'out', 'class-report.json'), 'utf8')) as ClassReport;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('gives every submission a row with the status and mistakes its program earns', () => {
    assert.equal(firstRun.code, 0, firstRun.err);
    assert.deepEqual(
      report.rows.map((r) => r.student),
      students.map((s) => s.student).sort(),
    );
    for (const { student, expect } of students) {
      const row = report.rows.find((r) => r.student === student)!;
      if (expect.status) assert.equal(row.status, expect.status, `${student}: ${row.reason}`);
      if (expect.mistakes) assert.deepEqual(row.mistakes.map((m) => m.id).sort(), [...expect.mistakes].sort(), student);
      if (expect.stoppedAnswering) assert.ok(row.stoppedAnswering, `${student} stopped answering`);
      if (row.status !== 'pass') assert.ok(row.reason, `${student} has a reason`);
    }
    assert.match(report.rows.find((r) => r.student.startsWith('links-out'))!.reason!, /outside the student's folder/);
    assert.match(report.rows.find((r) => r.student.startsWith('fifty-megabytes'))!.reason!, /50\.\d MB/);
  });

  it('has a histogram that is the sum of the per-student verdicts', () => {
    const counts = new Map<string, number>();
    for (const row of report.rows) for (const m of row.mistakes) counts.set(m.id, (counts.get(m.id) ?? 0) + 1);
    // A bar is a mistake in one of its forms (id and variant): a mistake's bars together count its students.
    const bars = new Map<string, number>();
    for (const m of report.mistakes) bars.set(m.id, (bars.get(m.id) ?? 0) + m.count);
    assert.deepEqual(bars, counts);
    assert.ok(report.mistakes.length >= 2);
    for (const m of report.mistakes) {
      assert.ok(m.step && m.step.title, `${m.id} links to its read-order step`);
      assert.ok(m.commonExample && m.commonExample.commands.length > 0, `${m.id} has a counterexample`);
    }
    assert.equal(report.passRate, report.rows.filter((r) => r.status === 'pass').length / report.rows.length);
    assert.ok(report.stoppedAnswering.count >= 2);
  });

  it('grades answers.json with the plain answers file', () => {
    const quiz = report.rows.find((r) => r.student === 'correct-001')!.quiz!;
    assert.equal(quiz.right, 1);
    assert.deepEqual(quiz.wrong, ['fq-done-at-zero']);
    assert.equal(report.rows.find((r) => r.student === 'correct-002')!.quiz, null);
  });

  it('writes CSV, JUnit and JSON that parse, one record per student', async () => {
    const csv = parseCsv(fs.readFileSync(path.join(tmp, 'out', 'class-report.csv'), 'utf8'));
    assert.deepEqual(csv[0], [...CSV_COLUMNS]);
    assert.deepEqual(
      csv.slice(1).map((r) => r[0]),
      report.rows.map((r) => r.student),
    );
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a dev dependency without types
    const { parseStringPromise } = require('xml2js') as {
      parseStringPromise: (xml: string) => Promise<{
        testsuites: {
          testsuite: {
            $: Record<string, string>;
            testcase: { $: { name: string }; failure?: unknown[]; error?: unknown[] }[];
          }[];
        };
      }>;
    };
    const junit = await parseStringPromise(fs.readFileSync(path.join(tmp, 'out', 'class-report.junit.xml'), 'utf8'));
    const suite = junit.testsuites.testsuite[0]!;
    assert.deepEqual(
      suite.testcase.map((t) => t.$.name),
      report.rows.map((r) => r.student),
    );
    assert.equal(
      Number(suite.$.failures),
      report.rows.filter((r) => r.status === 'fail' || r.status === 'missing').length,
    );
    assert.equal(suite.testcase.filter((t) => t.failure).length, Number(suite.$.failures));
    assert.ok(fs.readFileSync(path.join(tmp, 'out', 'class-report.html'), 'utf8').includes('<svg'));
  });

  it('resumes: a second run believes every verified kept result and checks nothing again', async () => {
    const again = await cli(
      ['grade', 'class', '--lesson', LESSON, '--out', 'out', '--fuzz', '8', '--format', 'json'],
      tmp,
    );
    assert.equal(again.code, 0, again.err);
    const kept = report.rows.filter((r) => r.status !== 'check-failed' && r.file !== null && r.status !== 'refused');
    assert.ok(kept.some((r) => r.status === 'pass') && kept.some((r) => r.status !== 'pass'));
    // Two students with the same file share one record, so count the distinct programs kept.
    assert.match(again.out, /\((\d+) results from an earlier run; 0 checked now\)/);
    assert.equal(Number(/\((\d+) results/.exec(again.out)![1]), kept.length);
    const resumed = JSON.parse(fs.readFileSync(path.join(tmp, 'out', 'class-report.json'), 'utf8')) as ClassReport;
    assert.deepEqual(
      resumed.rows.map((r) => [r.student, r.status]),
      report.rows.map((r) => [r.student, r.status]),
    );
  });

  it('stops and says how to go on where there is no sandbox', async () => {
    forgetDetectedSandbox();
    try {
      const result = await cli(['grade', 'class', '--lesson', LESSON, '--out', 'no-sandbox'], tmp, {
        LESSON_COMPANION_SANDBOX_TOOL: 'none',
      });
      assert.equal(result.code, 2);
      assert.match(result.err, /--sandbox=off/);
      assert.match(result.err, /can read and write your files/);
      assert.ok(!fs.existsSync(path.join(tmp, 'no-sandbox')), 'nothing was run or written');
    } finally {
      forgetDetectedSandbox();
    }
  });
});

describe('grade: a run stopped half-way resumes without checking anything twice', function () {
  this.timeout(180_000);

  it('checks each program once over the two runs', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-grade-resume-'));
    try {
      await makeClass(path.join(tmp, 'class'), { correct: 2, mistaken: 3, hostile: 0, special: false });
      // A copy of another student's work: the same program, checked once over both runs.
      fs.cpSync(path.join(tmp, 'class', 'mistaken-003'), path.join(tmp, 'class', 'mistaken-003-copy'), {
        recursive: true,
      });
      const pack = await loadPack(LESSON);
      const submissions = await findSubmissions([path.join(tmp, 'class')], starterNames(pack.manifest.starters));
      const store = new ResultStore(path.join(tmp, 'store'));
      const key = runKey(pack, undefined, { fuzzTranscripts: 8 });
      const started: string[][] = [[], []];
      const grade = (runIndex: number, stop?: AbortController) =>
        gradeSubmissions(submissions, {
          pack,
          jobs: 2,
          check: { fuzzTranscripts: 8 },
          store,
          runKey: key,
          baseDir: tmp,
          ...(stop ? { signal: stop.signal } : {}),
          checkOne: (p, file, language, options) => {
            started[runIndex]!.push(file);
            if (stop && started[runIndex]!.length === 2) stop.abort();
            return checkFile(p, file, language, options);
          },
        });
      const first = await grade(0, new AbortController());
      assert.ok(first.stopped, 'the first run was stopped');
      assert.equal(started[0]!.length, 2);
      const second = await grade(1);
      assert.equal(second.stopped, false);
      assert.equal(second.rows.length, submissions.length);
      // Checked twice: only what the stop cut short. Every result of the first run is kept, signed, believed.
      const graded = (file: string): boolean => first.rows.some((r) => r.file !== null && file.endsWith(r.file));
      const twice = started[1]!.filter((f) => started[0]!.includes(f));
      assert.deepEqual(twice.filter(graded), [], 'no program with a kept result is checked twice');
      assert.equal(second.resumed, first.rows.length, 'every row of the first run is resumed');
      assert.equal(
        started[0]!.length + started[1]!.length - twice.length,
        submissions.length - 1,
        'the copy is not checked again',
      );
      const [original, copy] = ['mistaken-003', 'mistaken-003-copy'].map((s) =>
        second.rows.find((r) => r.student === s)!,
      );
      assert.deepEqual(copy!.mistakes, original!.mistakes);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('shows done / total, the rate and the time left', () => {
    assert.equal(progressLine(0, 10, [0], 0), 'graded 0/10');
    assert.equal(progressLine(3, 10, [0, 1000, 2000, 3000], 3000), 'graded 3/10 · 1.0/s · ~7 s left · 3 s');
  });
});
