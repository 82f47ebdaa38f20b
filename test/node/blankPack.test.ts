/**
 * `new --blank` end to end, as an instructor outside this repository would use it: scaffold in a temp folder,
 * type-check the TypeScript model against the types the package ships (media/model.d.ts through the
 * package's `exports` and `typesVersions`), validate, bundle, install and check a program.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { main } from '../../src/cli/main';
import type { CliIO } from '../../src/cli/command';

const root = path.resolve(__dirname, '..', '..');
const run = promisify(execFile);

function fakeIo(cwd: string, env: NodeJS.ProcessEnv = {}): CliIO & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
    isTTY: false,
    env: { NO_COLOR: '1', LESSON_COMPANION_PACKS: path.join(cwd, 'packs'), ...env } as NodeJS.ProcessEnv,
    cwd,
    bundleDir: path.join(root, 'dist'),
  };
  return io;
}

/** `tsc -p <pack>/authoring`: the tsconfig.json and types `new --blank` (and `types`) write there. */
async function typeCheck(pack: string): Promise<{ ok: boolean; output: string }> {
  try {
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    const { stdout } = await run(process.execPath, [tsc, '-p', path.join(pack, 'authoring')], { cwd: pack });
    return { ok: true, output: stdout };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout ?? error) };
  }
}

describe('new --blank: a pack made outside this repository', function () {
  this.timeout(180000);
  let tmp: string;
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'lc-blank-')));
    assert.ok(!tmp.startsWith(root + path.sep), 'the temp folder is outside the repository');
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('type-checks against the shipped types, validates, bundles, installs and checks a program', async () => {
    const io = fakeIo(tmp);
    assert.equal(await main(['new', 'adder', '--blank'], io), 0, io.stderr);
    const pack = path.join(tmp, 'adder');
    assert.match(await fs.readFile(path.join(pack, 'model/model.ts'), 'utf8'), /from 'lesson-companion\/model'/);

    // The types: written into authoring/ (never bundled), nothing installed into the pack.
    for (const file of ['model.d.ts', 'worlds/queues.d.ts', 'tsconfig.json'])
      assert.ok((await fs.stat(path.join(pack, 'authoring', file))).isFile(), file);
    const checkedTypes = await typeCheck(pack);
    assert.ok(checkedTypes.ok, checkedTypes.output);
    // The check can fail: a model that breaks the interface is refused by the same types, by tsc and by validate.
    const modelFile = path.join(pack, 'model/model.ts');
    const model = await fs.readFile(modelFile, 'utf8');
    await fs.writeFile(modelFile, model.replace("resetAnswer: ['OK'],", "resetAnswer: 'OK',"));
    const broken = await typeCheck(pack);
    assert.ok(!broken.ok && /model\.ts\(\d+,\d+\): error TS2322/.test(broken.output), broken.output);
    // validate: a type error the model still runs with is an error at its line, with the TypeScript it found.
    const typo = 'const NUMBER = /^-?\\d+$/;';
    assert.ok(model.includes(typo));
    await fs.writeFile(modelFile, model.replace(typo, `const typed: number = 'one';\n${typo}`));
    const withTs = fakeIo(tmp, { NODE_PATH: path.join(root, 'node_modules') });
    assert.equal(await main(['validate', 'adder'], withTs), 1, withTs.stdout + withTs.stderr);
    assert.match(withTs.stdout, /type-checked with TypeScript [\d.]+: 1 type error/);
    const line = model.split('\n').findIndex((l) => l.includes(typo)) + 1;
    assert.match(withTs.stdout, new RegExp(`adder/model/model\\.ts:${line}:7: type error \\(TS2322\\)`));
    await fs.writeFile(modelFile, model);
    await fs.rm(path.join(pack, 'authoring/worlds'), { recursive: true });
    const rewritten = fakeIo(tmp);
    assert.equal(await main(['types', 'adder'], rewritten), 0, rewritten.stderr);
    assert.match(rewritten.stdout, /adder\/authoring\/worlds\/queues\.d\.ts/);
    assert.ok((await fs.stat(path.join(pack, 'authoring/worlds/queues.d.ts'))).isFile());

    const validated = fakeIo(tmp);
    assert.equal(await main(['validate', 'adder', '--json'], validated), 0, validated.stdout + validated.stderr);
    const report = JSON.parse(validated.stdout) as {
      problems: unknown[];
      starters: { result: string }[];
      typeCheck: unknown;
    };
    assert.deepEqual(report.problems, []);
    // No TypeScript in or above the temp folder, nor in the (empty) environment's global folders: said, not failed.
    assert.deepEqual(report.typeCheck, { status: 'not-installed' });
    const said = fakeIo(tmp);
    await main(['validate', 'adder'], said);
    assert.match(said.stdout, /model\/model\.ts was not type-checked: TypeScript is not installed/);
    assert.deepEqual(
      report.starters.map((s) => s.result),
      ['fails', 'fails', 'fails'],
    );

    const bundled = fakeIo(tmp);
    assert.equal(await main(['bundle', 'adder', '-o', 'adder.lessonpack'], bundled), 0, bundled.stderr);
    const installed = fakeIo(tmp);
    assert.equal(await main(['install', 'adder.lessonpack', '--yes'], installed), 0, installed.stderr);

    const work = path.join(tmp, 'work');
    await fs.cp(path.join(pack, 'starter/python'), work, { recursive: true });
    const learner = path.join(work, 'counter.py');
    const starter = await fs.readFile(learner, 'utf8');
    const checked = async (): Promise<{ code: number; out: string }> => {
      const c = fakeIo(tmp);
      const code = await main(['check', learner, '--lesson', 'adder', '--json'], c);
      return { code, out: c.stdout + c.stderr };
    };
    await fs.writeFile(
      learner,
      starter.replace(
        'raise NotImplementedError("add() is not written yet")',
        'old = self.total\n        self.total += n\n        return old',
      ),
    );
    const wrong = await checked();
    assert.equal(wrong.code, 1, wrong.out);
    assert.deepEqual(
      (JSON.parse(wrong.out) as { mistakes: { id: string }[] }).mistakes.map((m) => m.id),
      ['total-before-add'],
    );
    await fs.writeFile(
      learner,
      starter.replace(
        'raise NotImplementedError("add() is not written yet")',
        'self.total += n\n        return self.total',
      ),
    );
    const right = await checked();
    assert.equal(right.code, 0, right.out);
  });
});

describe("validate --programs: an instructor's regression suite", function () {
  this.timeout(300000);
  let tmp: string;
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-programs-'));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('checks each sample program against the pack and says whether its verdict is the one its header expects', async () => {
    assert.equal(await main(['new', 'adder', '--blank'], fakeIo(tmp)), 0);
    const starter = await fs.readFile(path.join(tmp, 'adder/starter/python/counter.py'), 'utf8');
    const stub = 'raise NotImplementedError("add() is not written yet")';
    const programs = path.join(tmp, 'programs');
    await fs.mkdir(path.join(programs, 'python'), { recursive: true });
    const write = (name: string, expect: string, body: string): Promise<void> =>
      fs.writeFile(path.join(programs, 'python', name), `# expect-mistakes: ${expect}\n${starter.replace(stub, body)}`);
    await write('correct.py', 'none', 'self.total += n\n        return self.total');
    await write('old_total.py', 'total-before-add', 'old = self.total\n        self.total += n\n        return old');
    await write('mislabelled.py', 'none', 'return n');
    await fs.writeFile(path.join(programs, 'python', 'no_header.py'), starter);

    const io = fakeIo(tmp);
    assert.equal(await main(['validate', 'adder', '--programs', 'programs'], io), 1, io.stdout + io.stderr);
    assert.match(io.stdout, /Programs: 2 of 4 matched their expected verdict/);
    assert.match(io.stdout, /✓ python\/correct\.py: expected none\n/);
    assert.match(io.stdout, /✓ python\/old_total\.py: expected total-before-add\n/);
    assert.match(io.stdout, /✗ python\/mislabelled\.py: expected none, got \(unnamed\)/);
    assert.match(io.stdout, /✗ python\/no_header\.py: no "expect-mistakes:" line/);

    await fs.rm(path.join(programs, 'python', 'mislabelled.py'));
    await fs.rm(path.join(programs, 'python', 'no_header.py'));
    const json = fakeIo(tmp);
    assert.equal(
      await main(['validate', 'adder', '--programs', 'programs', '--json'], json),
      0,
      json.stdout + json.stderr,
    );
    const report = JSON.parse(json.stdout) as { programs: { file: string; matched: boolean }[] };
    assert.deepEqual(
      report.programs.map((p) => [p.file, p.matched]),
      [
        ['python/correct.py', true],
        ['python/old_total.py', true],
      ],
    );
  });
});
