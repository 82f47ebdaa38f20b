/**
 * Issue 19, "No answer on disk … a kept result cannot make a failing program pass": every file the CLI
 * keeps is poisoned, then a wrong program is checked. Kept files: the cache folder's `interpreters/` (the
 * interpreter a command resolves to, and what the sandbox must show for it) and `grade`'s resumable
 * results (the cache folder's `grade/results/*.json`, signed records). The poison that matters is the one that would pass: a record naming a
 * fake interpreter that ignores the learner's file and runs a correct balancer. And a `--sandbox=off` run of
 * a wrong program that does that poisoning itself, followed by a `--sandbox=require` run of it.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HostileHarness } from './hostileHarness';
import { ROOT } from './hostileKit';
import { availableSandbox, forgetDetectedSandbox } from '../../src/node/sandbox/sandbox';

const WRONG = path.join(
  ROOT,
  'test',
  'fixtures',
  'real-style',
  'least-connections',
  'python',
  'least_loaded_by_name.py',
);
/** A correct balancer (the lesson's own test fixture): what the fake interpreter runs, whatever file it is given. */
const CORRECT = fs.readFileSync(
  path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python', 'correct.py'),
  'utf8',
);

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}

describe('poisoned kept files make no wrong program pass', function () {
  this.timeout(240_000);
  const harness = new HostileHarness('require');
  const cache = (): string => path.join(harness.tmp, 'checker-cache');
  let fake: { dir: string; interpreter: string };
  let bwrap = false;
  before(async () => {
    await harness.build();
    process.env.LESSON_COMPANION_SANDBOX_TOOL = 'bwrap';
    forgetDetectedSandbox();
    bwrap = (await availableSandbox())?.tool === 'bwrap';
    delete process.env.LESSON_COMPANION_SANDBOX_TOOL;
    forgetDetectedSandbox();
    const dir = path.join(harness.tmp, 'fake-python');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'correct.py'), CORRECT);
    const interpreter = path.join(dir, 'python3');
    fs.writeFileSync(interpreter, `#!/bin/sh\nexec ${harness.python} ${dir}/correct.py\n`, { mode: 0o755 });
    fake = { dir, interpreter };
  });
  after(() => harness.dispose());

  const settings = (): { name: string; env: NodeJS.ProcessEnv }[] => [
    ...(bwrap
      ? [{ name: 'bubblewrap', env: { LESSON_COMPANION_SANDBOX: 'require', LESSON_COMPANION_SANDBOX_TOOL: 'bwrap' } }]
      : []),
    { name: 'no sandbox', env: { LESSON_COMPANION_SANDBOX: 'off' } },
  ];
  const record = (): string =>
    JSON.stringify({
      executable: fake.interpreter,
      needs: [
        fake.dir,
        path.dirname(fs.realpathSync(harness.python)),
        path.dirname(path.dirname(fs.realpathSync(harness.python))),
      ],
    });

  it('the fake interpreter is potent: checked as a program of its own, the correct balancer passes', async () => {
    const copy = harness.copy('slow-correct.py');
    fs.writeFileSync(copy.file, CORRECT);
    const run = await harness.check(copy, [], { LESSON_COMPANION_SANDBOX: 'off' });
    assert.equal(run.report?.status, 'pass', run.stdout + run.stderr);
  });

  it('every file of the cache folder poisoned (a fake interpreter, then garbage): the wrong program still fails, naming its mistake', async () => {
    const copy = harness.copy('slow-correct.py');
    fs.copyFileSync(WRONG, copy.file);
    for (const setting of settings()) {
      const baseline = await harness.check(copy, [], setting.env);
      assert.equal(baseline.code, 1, `${setting.name}: ${baseline.stdout}${baseline.stderr}`);
      const mistakes = baseline.report!.mistakes.map((m) => m.id);
      assert.deepEqual(mistakes, ['tiebreak'], setting.name);
      const kept = filesUnder(cache());
      assert.ok(
        kept.some((f) => f.includes(`${path.sep}interpreters${path.sep}`)),
        `${setting.name}: the check kept its interpreter (${kept.join(', ')})`,
      );
      for (const [poison, content] of [
        ['a fake interpreter', record()],
        ['garbage', '\u0000{not json'],
      ] as const) {
        for (const file of filesUnder(cache())) fs.writeFileSync(file, content);
        const run = await harness.check(copy, [], setting.env);
        assert.equal(run.code, 1, `${setting.name}, ${poison}: ${run.stdout}${run.stderr}`);
        assert.equal(run.report?.status, 'fail', `${setting.name}, ${poison}`);
        assert.deepEqual(
          run.report?.mistakes.map((m) => m.id),
          mistakes,
          `${setting.name}, ${poison}: the same mistake is named`,
        );
        assert.ok(!(run.stdout + run.stderr).includes(fake.dir), `${setting.name}, ${poison}: nothing names the fake`);
      }
    }
  });

  it('a --sandbox=off run of a wrong program that poisons the cache, then a --sandbox=require run of it: the second still fails', async function () {
    if (!bwrap) this.skip();
    const copy = harness.copy('poisons-cache.py', { CACHE_DIR: cache() });
    const off = await harness.check(copy, [], { LESSON_COMPANION_SANDBOX: 'off' });
    assert.equal(off.code, 1, off.stdout + off.stderr);
    assert.deepEqual(
      off.report?.mistakes.map((m) => m.id),
      ['tiebreak'],
    );
    const poisoned = filesUnder(cache()).filter((f) => fs.readFileSync(f, 'utf8').includes(`${copy.token}-fake`));
    assert.ok(poisoned.length > 0, 'the unsandboxed run did poison the cache (the attack happened)');
    const required = await harness.check(copy, [], {
      LESSON_COMPANION_SANDBOX: 'require',
      LESSON_COMPANION_SANDBOX_TOOL: 'bwrap',
    });
    assert.equal(required.code, 1, required.stdout + required.stderr);
    assert.equal(required.report?.status, 'fail');
    assert.deepEqual(
      required.report?.mistakes.map((m) => m.id),
      ['tiebreak'],
    );
    fs.rmSync(`/tmp/${copy.token}-fake`, { recursive: true, force: true });
  });

  it("grade's kept results poisoned to say pass: the resumed run checks the program again and it fails", async function () {
    if (!bwrap) this.skip(); // results are kept only by a contained grade
    const submissions = path.join(harness.tmp, 'class');
    fs.mkdirSync(submissions, { recursive: true });
    fs.copyFileSync(WRONG, path.join(submissions, 'ann.py'));
    const out = path.join(harness.tmp, 'grade-out');
    const grade = (sandbox: string): Promise<{ code: number | null; text: string }> =>
      new Promise((resolve) =>
        execFile(
          process.execPath,
          [
            harness.cli,
            'grade',
            submissions,
            '--lesson',
            harness.pack,
            '--sandbox',
            sandbox,
            '--out',
            out,
            '--format',
            'json',
            '--python',
            harness.python,
          ],
          { cwd: harness.tmp, env: harness.env({ LESSON_COMPANION_SANDBOX_TOOL: 'bwrap' }), timeout: 120_000 },
          (error, stdout, stderr) =>
            resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, text: stdout + stderr }),
        ),
      );
    const statusOf = (): string =>
      (
        JSON.parse(fs.readFileSync(path.join(out, 'class-report.json'), 'utf8')) as {
          rows: { student: string; status: string }[];
        }
      ).rows.find((r) => r.student === 'ann')!.status;
    const results = path.join(cache(), 'grade', 'results');
    const off = await grade('off');
    assert.equal(statusOf(), 'fail', off.text);
    assert.deepEqual(filesUnder(results), [], 'a --sandbox=off grade keeps nothing');
    const first = await grade('require');
    assert.equal(statusOf(), 'fail', first.text);
    const kept = filesUnder(results);
    assert.ok(kept.length > 0, 'grade kept its result');
    for (const file of kept) {
      const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { result: string };
      const result = JSON.parse(data.result) as Record<string, unknown> & { checks: { total: number } };
      const total = result.checks.total;
      data.result = JSON.stringify({
        ...result,
        status: 'pass',
        checks: { passed: total, total },
        mistakes: [],
        reason: null,
      });
      fs.writeFileSync(file, JSON.stringify(data));
    }
    const second = await grade('require');
    assert.equal(statusOf(), 'fail', `a kept "pass" made a wrong program pass: ${second.text}`);
    assert.match(second.text, /1 kept results did not verify and were checked again/);
  });
});
