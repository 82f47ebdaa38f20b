/**
 * `author-answers` finds the answers file where `new` puts it (<pack>/authoring/<id>.answers.json), says
 * which file it read, and, when there is none, says where it looked and that --answers names another.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import type { CliIO } from '../../src/cli/command';

const root = path.resolve(__dirname, '..', '..');

function fakeIo(cwd: string): CliIO & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
    isTTY: false,
    env: { NO_COLOR: '1', LESSON_COMPANION_PACKS: path.join(cwd, 'no-installed-packs') } as NodeJS.ProcessEnv,
    cwd,
    bundleDir: path.join(root, 'dist'),
  };
  return io;
}

describe('author-answers: where the answers file is', () => {
  let tmp: string;
  beforeEach(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-author-answers-'));
  });
  afterEach(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('reads <pack>/authoring/<id>.answers.json from any folder, and says so', async () => {
    const pack = path.join(tmp, 'work', 'conn-counts');
    await fs.cp(path.join(root, 'lessons', 'conn-counts'), pack, { recursive: true });
    await fs.mkdir(path.join(pack, 'authoring'));
    await fs.copyFile(
      path.join(root, 'authoring', 'conn-counts.answers.json'),
      path.join(pack, 'authoring', 'conn-counts.answers.json'),
    );
    const elsewhere = path.join(tmp, 'elsewhere');
    await fs.mkdir(elsewhere);
    const io = fakeIo(elsewhere);
    assert.equal(await main(['author-answers', pack, '--check'], io), 0, io.stdout + io.stderr);
    assert.match(io.stdout, /reading answers from \.\.\/work\/conn-counts\/authoring\/conn-counts\.answers\.json/);
  });

  it('without one, names both places it looked and suggests --answers', async () => {
    const pack = path.join(tmp, 'conn-counts');
    await fs.cp(path.join(root, 'lessons', 'conn-counts'), pack, { recursive: true });
    const io = fakeIo(tmp);
    assert.equal(await main(['author-answers', pack], io), 2);
    assert.match(
      io.stderr,
      /no answers file for "conn-counts": looked for conn-counts\/authoring\/conn-counts\.answers\.json and authoring\/conn-counts\.answers\.json/,
    );
    assert.match(io.stderr, /--answers <file>/);
    const given = fakeIo(tmp);
    assert.equal(await main(['author-answers', pack, '--answers', 'nope.json'], given), 2);
    assert.match(given.stderr, /no answers file at nope\.json: check the path given with --answers/);
  });
});

describe('author-answers: never hashes an answer the model cannot produce', () => {
  let tmp: string;
  beforeEach(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-author-predict-'));
  });
  afterEach(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it("refuses a predict question whose command is outside the grammar, once, with the grammar's words", async () => {
    assert.equal(await main(['new', 'adder', '--blank'], fakeIo(tmp)), 0);
    const manifestFile = path.join(tmp, 'adder', 'lesson.json');
    const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8')) as Record<string, unknown>;
    manifest.quiz = [{ id: 'quiz-p', kind: 'predict', prompt: 'Predict.', commands: ['ADD 2', 'MUL 3'] }];
    await fs.writeFile(manifestFile, JSON.stringify(manifest, null, 2));
    const before = await fs.readFile(manifestFile, 'utf8');
    await fs.writeFile(
      path.join(tmp, 'adder', 'authoring', 'adder.answers.json'),
      JSON.stringify({ lesson: 'adder', questions: { 'quiz-p': {} } }),
    );
    const io = fakeIo(tmp);
    assert.equal(await main(['author-answers', 'adder'], io), 2, io.stdout + io.stderr);
    assert.match(io.stderr, /question "quiz-p": not hashed: `MUL 3` is not a command of the protocol/);
    assert.equal(io.stderr.match(/MUL 3/g)?.length, 1, io.stderr);
    assert.equal(await fs.readFile(manifestFile, 'utf8'), before, 'nothing was hashed');

    // validate says the same once, at the command's line in lesson.json.
    const validated = fakeIo(tmp);
    assert.equal(await main(['validate', 'adder', '--json'], validated), 1);
    const problems = (JSON.parse(validated.stdout) as { problems: { message: string; line?: number }[] }).problems;
    const about = problems.filter((p) => p.message.includes('MUL 3'));
    assert.equal(about.length, 1, JSON.stringify(problems));
    assert.ok(about[0]!.line! > 0);
  });
});
