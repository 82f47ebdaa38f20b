import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import type { CliIO } from '../../src/cli/command';
import { parseTranscripts } from '../../src/core/model/transcript';
import { createPack } from '../../src/node/authoring/scaffold';
import { validatePack, type PackValidation } from '../../src/node/authoring/validatePack';

const root = path.resolve(__dirname, '..', '..');
const SOLUTION = path.join(root, 'test/fixtures/packs/solutions/balancer.py');

let tmp: string;
beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-validate-'));
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

/** A fresh scaffold pack, changed by `edit` (which gets the folder). */
async function pack(edit?: (dir: string) => Promise<void>): Promise<string> {
  const { dir } = await createPack(tmp, 'demo');
  if (edit) await edit(dir);
  return dir;
}

async function editJson(dir: string, change: (m: Record<string, any>) => void): Promise<void> {
  const file = path.join(dir, 'lesson.json');
  const data = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, any>;
  change(data);
  await fs.writeFile(file, JSON.stringify(data, null, 2) + '\n');
}

async function replaceIn(file: string, from: string, to: string): Promise<void> {
  const text = await fs.readFile(file, 'utf8');
  assert.ok(text.includes(from), `${file} has no "${from}"`);
  await fs.writeFile(file, text.replace(from, to));
}

const errors = (v: PackValidation): string[] =>
  v.problems
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.file}:${p.line ?? ''}:${p.column ?? ''} ${p.message}`);

function fakeIo(cwd: string): CliIO & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
    isTTY: false,
    env: { NO_COLOR: '1' } as NodeJS.ProcessEnv,
    cwd,
    bundleDir: path.join(root, 'dist'),
  };
  return io;
}

describe('validate: built-in lessons and the scaffold', function () {
  this.timeout(120_000);

  for (const id of ['least-connections', 'conn-counts', 'health-checks']) {
    it(`lessons/${id} is valid, starters run for real`, async function () {
      const dir = path.join(root, 'lessons', id);
      const result = await validatePack(dir);
      assert.deepEqual(errors(result), []);
      assert.ok(result.valid);
      assert.deepEqual(new Set(result.starters.map((s) => s.result)), new Set(['fails']));
    });
  }

  it('`new` scaffolds a pack that validates with no problem at all', async () => {
    const dir = await pack();
    const result = await validatePack(dir);
    assert.deepEqual(result.problems, []);
    assert.equal(result.starters.length, 3);
    assert.ok(result.starters.every((s) => s.result === 'fails'));
  });
});

describe('validate: what an invalid pack is told', function () {
  this.timeout(60_000);

  it('bad JSON: the line of the syntax error', async () => {
    const dir = await pack((d) =>
      replaceIn(path.join(d, 'lesson.json'), '"version": "0.1.0",', '"version": "0.1.0",,'),
    );
    const [problem] = (await validatePack(dir, { runStarters: false })).problems;
    assert.equal(problem!.file, 'lesson.json');
    assert.equal(problem!.line, 3);
    assert.match(problem!.message, /^JSON syntax: /);
  });

  it('schema error: line and column of the offending value, in words', async () => {
    const dir = await pack((d) => editJson(d, (m) => (m.version = 'one')));
    const result = await validatePack(dir, { runStarters: false });
    assert.deepEqual(errors(result), [
      'lesson.json:3:14 version: "one" must be a version like 1.0.0 (major.minor.patch)',
    ]);
  });

  it('a path escaping the pack is refused before anything reads it', async () => {
    const dir = await pack((d) => editJson(d, (m) => (m.transcripts = ['../../etc/passwd'])));
    const [message] = errors(await validatePack(dir, { runStarters: false }));
    assert.match(
      message!,
      /^lesson\.json:\d+:\d+ transcripts\.0: "\.\.\/\.\.\/etc\/passwd" must be a path inside the pack folder/,
    );
  });

  it('a transcript that disagrees with the reference: file:line of the first wrong answer', async () => {
    const dir = await pack((d) =>
      replaceIn(path.join(d, 'transcripts/hidden.txt'), '> PICK\na\n> DONE b', '> PICK\nc\n> DONE b'),
    );
    const result = await validatePack(dir, { runStarters: false });
    const [problem] = result.problems.filter((p) => p.area === 'transcripts');
    assert.equal(`${problem!.file}:${problem!.line}`, 'transcripts/hidden.txt:9');
    assert.match(problem!.message, /the reference answers `PICK` with "a" but the transcript expects "c"/);
    assert.ok(!result.valid);
  });

  it('a mistake never caught, with a transcript to paste', async () => {
    const dir = await pack((d) =>
      replaceIn(path.join(d, 'transcripts/hidden.txt'), '=== empty-pool', '=== pool-of-one'),
    );
    await replaceIn(
      path.join(dir, 'transcripts/hidden.txt'),
      '> POOL\nOK\n> PICK\nEMPTY\n> STATUS\n',
      '> POOL a\nOK\n> PICK\na\n',
    );
    const result = await validatePack(dir, { runStarters: false });
    const problem = result.problems.find((p) => p.area === 'mistakes')!;
    assert.match(problem.message, /mistake "empty-pool" is never caught/);
    assert.equal(problem.file, 'lesson.json');
    assert.ok(problem.line! > 1);
    const proposed = parseTranscripts(problem.proposal!, 'p.txt')[0]!;
    assert.ok(
      proposed.steps.some((s) => s.expected.includes('EMPTY')),
      problem.proposal,
    );
  });

  it('two mistakes that cannot be told apart, with a separating transcript', async () => {
    const dir = await pack(async (d) => {
      await editJson(d, (m) => {
        m.mistakes = [
          { ...m.mistakes[0], id: 'by-name', mutants: ['tiebreak-name'] },
          { ...m.mistakes[0], id: 'by-last', mutants: ['tiebreak-last'] },
        ];
      });
      await fs.writeFile(
        path.join(d, 'transcripts/hidden.txt'),
        '=== tie: both mutants pick a here\n> POOL b a\nOK\n> PICK\nb\n',
      );
    });
    const result = await validatePack(dir, { runStarters: false });
    const problem = result.problems.find((p) => /cannot be told apart/.test(p.message))!;
    assert.match(problem.message, /mistakes "by-name" and "by-last" cannot be told apart/);
    assert.match(
      problem.proposal!,
      /^=== tells-by-name-from-by-last: tells by-name \(tiebreak-name\) from by-last \(tiebreak-last\)\n> POOL /,
    );
  });

  it('an unresolvable read-order anchor', async () => {
    const dir = await pack((d) => editJson(d, (m) => (m.readOrder[2].symbol = 'choose')));
    const messages = errors(await validatePack(dir, { runStarters: false }));
    assert.equal(messages.length, 3);
    assert.match(
      messages[0]!,
      /^lesson\.json:\d+:\d+ readOrder\.2\.symbol: step 3 \("pick\(\): .*"\): symbol "choose" is not found in starter\/python\/balancer\.py/,
    );
  });

  it('a solved starter and a starter that does not compile', async () => {
    const dir = await pack(async (d) => {
      await fs.copyFile(SOLUTION, path.join(d, 'starter/python/balancer.py'));
      await replaceIn(
        path.join(d, 'starter/typescript/balancer.ts'),
        'function main(): void {',
        'function main(: void {',
      );
    });
    const result = await validatePack(dir);
    const byLanguage = Object.fromEntries(result.starters.map((s) => [s.language, s.result]));
    assert.deepEqual(byLanguage, { python: 'passes', javascript: 'fails', typescript: 'broken' });
    assert.ok(errors(result).some((m) => /the python starter already passes every hidden transcript/.test(m)));
    assert.ok(
      errors(result).some((m) =>
        /^starter\/typescript\/balancer\.ts:\d*:? ?the typescript starter does not compile/.test(m),
      ),
    );
  });

  it('a starter that cannot be run is a warning, not a pass', async () => {
    const dir = await pack();
    const result = await validatePack(dir, { interpreters: { python: path.join(tmp, 'no-such-python') } });
    const python = result.starters.find((s) => s.language === 'python')!;
    assert.equal(python.result, 'not-run');
    assert.ok(result.problems.some((p) => p.severity === 'warning' && /python starter was not run/.test(p.message)));
  });
});

describe('validate: the command', function () {
  this.timeout(60_000);

  it('prints the adequacy table and exits 0 for a valid pack, 1 for an invalid one, 2 for a non-pack', async () => {
    const good = await pack();
    const io = fakeIo(tmp);
    assert.equal(await main(['validate', good], io), 0);
    assert.match(io.stdout, /Mutation adequacy/);
    // The empty-pool row: its mutant, caught by 1 of the hidden transcripts (only the one named for it has an empty pool).
    const lesson = JSON.parse(await fs.readFile(path.join(good, 'lesson.json'), 'utf8')) as {
      transcripts: string[];
      mistakes: { id: string; mutants: string[] }[];
    };
    const hidden = (
      await Promise.all(
        lesson.transcripts.map(async (f) => parseTranscripts(await fs.readFile(path.join(good, f), 'utf8'), f)),
      )
    ).flat();
    const emptyPool = lesson.mistakes.find((m) => m.id === 'empty-pool')!;
    assert.ok(
      hidden.some((t) => t.name === emptyPool.id),
      'a hidden transcript is named for the mistake',
    );
    assert.match(
      io.stdout,
      new RegExp(`${emptyPool.id}\\s+${emptyPool.mutants[0]}\\s+1/${hidden.length}\\s+${emptyPool.id}\n`),
    );
    assert.match(io.stdout, /^Valid\./m);

    await editJson(good, (m) => (m.readOrder[1].symbol = 'Balancr'));
    await editJson(good, (m) => delete m.readOrder[1].pattern);
    const bad = fakeIo(tmp);
    assert.equal(await main(['validate', 'demo', '--json'], bad), 1);
    const json = JSON.parse(bad.stdout) as {
      valid: boolean;
      problems: { area: string }[];
      adequacy: { pairs: { matrix: unknown[][] } };
    };
    assert.equal(json.valid, false);
    assert.equal(json.adequacy.pairs.matrix.length, lesson.mistakes.length, 'one row per mistake');
    assert.ok(
      json.adequacy.pairs.matrix.every((row) => row.length === lesson.mistakes.length),
      'and one column',
    );
    assert.ok(json.problems.every((p) => p.area === 'read-order'));

    const usage = fakeIo(tmp);
    assert.equal(await main(['validate', 'nowhere'], usage), 2);
    assert.match(usage.stderr, /nowhere is not a folder/);
  });
});

describe('validate: questions not hashed yet', function () {
  this.timeout(60000);

  it('are one warning listing them; the transcripts are still checked; bundle refuses', async () => {
    const dir = await pack(async (d) => {
      await editJson(d, (m) => {
        m.failureQuestions = [{ id: 'fq-first', kind: 'short', prompt: 'After `POOL a b`, what does `PICK` answer?' }];
        m.quiz = [
          { id: 'quiz-which', kind: 'multiple', prompt: 'Which are commands?', choices: ['POOL', 'PICK', 'JUMP'] },
          { id: 'quiz-predict', kind: 'predict', prompt: 'Predict the output.', commands: ['POOL a', 'PICK'] },
        ];
      });
      await replaceIn(path.join(d, 'transcripts/hidden.txt'), '> PICK\na\n> DONE b', '> PICK\nc\n> DONE b');
    });
    const result = await validatePack(dir, { runStarters: false });
    const unhashed = result.problems.filter((p) => /answer hashes/.test(p.message));
    assert.equal(unhashed.length, 1, JSON.stringify(result.problems, null, 1));
    assert.equal(unhashed[0]!.severity, 'warning');
    assert.match(unhashed[0]!.message, /^3 questions without answer hashes: fq-first, quiz-which, quiz-predict/);
    assert.match(unhashed[0]!.advice!, /author-answers/);
    assert.ok(
      result.problems.some((p) => p.area === 'transcripts' && /the transcript expects "c"/.test(p.message)),
      'the transcripts were checked too',
    );
    assert.ok(result.adequacy, 'the mistakes were measured');

    await replaceIn(path.join(dir, 'transcripts/hidden.txt'), '> PICK\nc\n> DONE b', '> PICK\na\n> DONE b');
    const io = fakeIo(tmp);
    assert.equal(await main(['validate', dir], io), 0, io.stdout + io.stderr);
    assert.match(io.stdout, /3 questions without answer hashes/);
    const bundled = fakeIo(tmp);
    assert.equal(await main(['bundle', dir, '-o', path.join(tmp, 'demo.lessonpack')], bundled), 1);
    assert.match(
      bundled.stderr,
      /was not bundled: 3 questions without answer hashes: fq-first, quiz-which, quiz-predict/,
    );
    await assert.rejects(fs.stat(path.join(tmp, 'demo.lessonpack')));
  });
});

describe('validate: the command grammar', function () {
  this.timeout(120000);

  it("a hidden transcript outside the model's grammar is an error at its line (the built-in packs are checked against theirs above)", async () => {
    const { dir } = await createPack(tmp, 'adder', { blank: true });
    await replaceIn(
      path.join(dir, 'transcripts/hidden.txt'),
      '> ADD 3\n5\n',
      '> ADD 3\n5\n> ADD\nERROR\n> ADD 1 2\nERROR\n',
    );
    const result = await validatePack(dir, { runStarters: false });
    assert.deepEqual(errors(result), [
      'transcripts/hidden.txt:9: transcript "adds-up": `ADD` does not fit `ADD <number>`',
      'transcripts/hidden.txt:11: transcript "adds-up": `ADD 1 2` does not fit `ADD <number>`',
    ]);
  });
});
