/**
 * The built CLI, as an autograder runs it: `node <bundle> check <file> [--json]`, exit codes 0 pass,
 * 1 fail, 2 usage. The bundle is built here (esbuild, like esbuild.mjs's CLI entry) into a temp folder
 * beside a link to lessons/, so the test neither needs nor overwrites the team's dist/.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CheckReport } from '../../src/core/report/report';
import { buildCliBundle } from './cliBundle';

const ROOT = path.join(__dirname, '..', '..');
const PY = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python');

interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

describe('lesson-companion CLI (built bundle, real processes)', function () {
  this.timeout(60000);
  let tmp: string;
  let cli: string;

  const run = (args: string[], cwd = ROOT): Promise<CliResult> =>
    new Promise((resolve) => {
      // An empty installed-packs folder: only the built-in lessons count, whatever this machine has installed.
      const env = { ...process.env, LESSON_COMPANION_PACKS: path.join(tmp, 'installed'), NO_COLOR: '1' };
      execFile(process.execPath, [cli, ...args], { cwd, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  const json = (result: CliResult): CheckReport => JSON.parse(result.stdout) as CheckReport;
  /** A report without its timing and timings, the fields that may differ between two runs of the same check. */
  const timeless = (report: CheckReport): Omit<CheckReport, 'durationMs' | 'timings'> => {
    const { durationMs: _ignored, timings: _byPhase, ...rest } = report;
    return rest;
  };

  before(async function () {
    this.timeout(120000);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-cli-'));
    fs.mkdirSync(path.join(tmp, 'installed'));
    fs.symlinkSync(path.join(ROOT, 'lessons'), path.join(tmp, 'lessons'));
    cli = path.join(tmp, 'dist', 'cli.js');
    await buildCliBundle(cli);
  });

  after(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('exit 0 and a passing JSON report for a correct program, lesson found from the file header', async () => {
    const result = await run(['check', path.join(PY, 'correct.py'), '--json']);
    assert.equal(result.code, 0, result.stderr);
    const report = json(result);
    assert.equal(report.status, 'pass');
    assert.equal(report.lesson, 'least-connections');
    assert.equal(report.language, 'python');
    assert.equal(report.file, path.join('test', 'fixtures', 'least-connections', 'python', 'correct.py'));
    assert.equal(report.checks.passed, report.checks.total);
  });

  it('exit 1 and the named mistake, with the line of pick, for a wrong tiebreak', async () => {
    const result = await run(['check', path.join(PY, 'tiebreak-name.py'), '--json', '--fuzz', '10']);
    assert.equal(result.code, 1, result.stderr);
    const report = json(result);
    assert.equal(report.status, 'fail');
    assert.deepEqual(
      report.mistakes.map((m) => [m.id, m.confidence, m.mutants]),
      [['tiebreak', 'exact', ['tiebreak-name']]],
    );
    const pickLine =
      fs
        .readFileSync(path.join(PY, 'tiebreak-name.py'), 'utf8')
        .split('\n')
        .findIndex((l) => /^\s*def pick\(/.test(l)) + 1;
    assert.equal(report.mistakes[0]!.line, pickLine);
    const example = report.mistakes[0]!.counterexample!;
    assert.ok(example.commands.length <= 3);
    assert.equal(example.trace[example.divergesAt]!.matches, false);
    assert.equal(report.fuzz.transcripts, 10);
  });

  it('prints the mistake and the marked trace for a person, without --json', async () => {
    const result = await run(['check', path.join(PY, 'tiebreak-name.py'), '--fuzz', '4']);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /Mistake: Wrong tiebreak\n {2}(In pick\(\)|Lines? [\d–, and]+ of \w+\(\):)/);
    assert.match(result.stdout, /^One mistake found: “Wrong tiebreak”/m);
    assert.match(result.stdout, /→ .*← first difference/);
    assert.match(result.stdout, /#\s+command\s+expected\s+your answer\s+(your counts\s+should be|reference counts)/);
    // No internal names: the mistake's id and the transcripts' names stay in --json.
    assert.doesNotMatch(result.stdout, /\[tiebreak\]|generated-\d|Revealed by/);
  });

  it('says the line of a crash once in the text report (not "at line 9 … (line 9)")', async () => {
    const result = await run(['check', path.join(PY, 'unknown-crash.py'), '--fuzz', '4']);
    assert.equal(result.code, 1);
    const crashLine = result.stdout.split('\n').find((l) => /crashed/.test(l) && /\bline \d+/.test(l));
    assert.ok(crashLine, result.stdout);
    assert.equal(crashLine.match(/\bline \d+/g)!.length, 1, crashLine);
  });

  it('exit 1 (not 2) and interpreter-missing for --python /nonexistent/python3', async () => {
    const result = await run(['check', path.join(PY, 'correct.py'), '--json', '--python', '/nonexistent/python3']);
    assert.equal(result.code, 1, result.stderr);
    const report = json(result);
    assert.equal(report.status, 'error');
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ['interpreter-missing'],
    );
  });

  it('exit 1 with the syntax error line for a file that does not parse', async () => {
    const result = await run(['check', path.join(PY, 'syntax-error.py'), '--json']);
    assert.equal(result.code, 1);
    const report = json(result);
    const marked =
      fs
        .readFileSync(path.join(PY, 'syntax-error.py'), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('<- syntax error')) + 1;
    assert.deepEqual(
      report.problems.map((p) => [p.kind, p.line]),
      [['syntax', marked]],
    );
  });

  it('the same --seed gives the same report, and the seed is in it', async () => {
    const args = ['check', path.join(PY, 'negative-count.py'), '--json', '--seed', '12345', '--fuzz', '12'];
    const [first, second] = await Promise.all([run(args), run(args)]);
    assert.equal(first.code, 1);
    assert.equal(json(first).fuzz.seed, 12345);
    assert.deepEqual(timeless(json(second)), timeless(json(first)));
  });

  it('without --seed, the default seed of the lesson version reproduces too', async () => {
    const args = ['check', path.join(PY, 'unknown-added.py'), '--json', '--fuzz', '12'];
    const first = json(await run(args));
    const second = json(await run(args));
    assert.deepEqual(timeless(second), timeless(first));
  });

  describe('usage errors exit 2, with a message on stderr', () => {
    it('a missing file', async () => {
      const result = await run(['check', path.join(PY, 'no-such-file.py'), '--json']);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /cannot read .*no-such-file\.py/);
      assert.equal(result.stdout, '');
    });

    it('an unknown --lesson', async () => {
      const result = await run(['check', path.join(PY, 'correct.py'), '--lesson', 'no-such-lesson']);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /no lesson "no-such-lesson"/);
    });

    it('a file of no known language (.txt)', async () => {
      const txt = path.join(tmp, 'notes.txt');
      fs.writeFileSync(txt, '# lesson-companion: least-connections\n');
      const result = await run(['check', txt]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /cannot tell the language/);
    });

    it('a seed that is not a number, and an unknown option', async () => {
      assert.equal((await run(['check', path.join(PY, 'correct.py'), '--seed', 'abc'])).code, 2);
      assert.equal((await run(['check', path.join(PY, 'correct.py'), '--frobnicate'])).code, 2);
    });
  });
});
