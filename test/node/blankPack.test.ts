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

/** tsc on the pack's model, the package installed as node_modules/lesson-companion (a link to this checkout). */
async function typeCheck(
  pack: string,
  moduleResolution: 'node16' | 'node10',
): Promise<{ ok: boolean; output: string }> {
  const config = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'ES2022',
      module: moduleResolution === 'node16' ? 'node16' : 'commonjs',
      moduleResolution,
      types: [],
    },
    include: ['model/**/*.ts'],
  };
  await fs.writeFile(path.join(pack, 'tsconfig.json'), JSON.stringify(config));
  try {
    const { stdout } = await run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', pack], {
      cwd: pack,
    });
    return { ok: true, output: stdout };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout ?? error) };
  } finally {
    await fs.rm(path.join(pack, 'tsconfig.json'));
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

    // The types: with the package installed, under both module resolutions authors use.
    await fs.mkdir(path.join(tmp, 'node_modules'));
    await fs.symlink(root, path.join(tmp, 'node_modules', 'lesson-companion'), 'dir');
    for (const resolution of ['node16', 'node10'] as const) {
      const checked = await typeCheck(pack, resolution);
      assert.ok(checked.ok, `${resolution}: ${checked.output}`);
    }
    // The check can fail: a model that breaks the interface is refused by the same types.
    const modelFile = path.join(pack, 'model/model.ts');
    const model = await fs.readFile(modelFile, 'utf8');
    await fs.writeFile(modelFile, model.replace("resetAnswer: ['OK'],", "resetAnswer: 'OK',"));
    const broken = await typeCheck(pack, 'node16');
    assert.ok(!broken.ok && /model\.ts\(\d+,\d+\): error TS2322/.test(broken.output), broken.output);
    await fs.writeFile(modelFile, model);
    await fs.rm(path.join(tmp, 'node_modules'), { recursive: true });

    const validated = fakeIo(tmp);
    assert.equal(await main(['validate', 'adder', '--json'], validated), 0, validated.stdout + validated.stderr);
    const report = JSON.parse(validated.stdout) as { problems: unknown[]; starters: { result: string }[] };
    assert.deepEqual(report.problems, []);
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
