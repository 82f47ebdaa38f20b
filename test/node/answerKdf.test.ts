/**
 * Quiz hashes, honestly (issue 19): `short` answers are stored as scrypt at a recorded cost, so a guess
 * costs real time; packs hashed before that (sha256 for every kind) keep working and `validate` says to
 * rerun `author-answers`. The cost is measured and printed here, not asserted (the machine's load decides
 * the milliseconds).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import type { CliIO } from '../../src/cli/command';
import { answerHash, normaliseAnswer, SHORT_ANSWER_SCRYPT } from '../../src/core/quiz/quiz';
import type { Question } from '../../src/core/pack/schema';
import { scryptHex, sha256Hex } from '../../src/node/cache/hash';
import { loadPack, PackError } from '../../src/node/packs/packs';
import { answerQuestion } from '../../src/node/packs/quiz';

const root = path.resolve(__dirname, '..', '..');
type AnswersFile = { questions: Record<string, { accept?: string[]; wrong?: Record<string, string> }> };
type Manifest = { failureQuestions: Question[]; quiz?: Question[] };

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

const questionsOf = (m: Manifest): Question[] => [...m.failureQuestions, ...(m.quiz ?? [])];

/**
 * conn-counts as author-answers wrote it before scrypt: every answer (short ones too) as
 * sha256(salt + ":" + normalised), feedback the same way. Built from the authoring file, so it follows the lesson.
 */
async function sha256Pack(dir: string): Promise<void> {
  await fs.cp(path.join(root, 'lessons', 'conn-counts'), dir, { recursive: true });
  const answers = JSON.parse(
    await fs.readFile(path.join(root, 'authoring', 'conn-counts.answers.json'), 'utf8'),
  ) as AnswersFile;
  const file = path.join(dir, 'lesson.json');
  const manifest = JSON.parse(await fs.readFile(file, 'utf8')) as Manifest;
  for (const q of questionsOf(manifest).filter((q) => q.kind === 'short')) {
    const entry = answers.questions[q.id]!;
    const normal = (text: string): string => {
      const n = normaliseAnswer(q, text);
      if (!n.ok) throw new Error(`test setup: ${text}`);
      return n.text;
    };
    const salt = q.answer!.salt;
    const hash = (text: string): string => answerHash(sha256Hex, salt, normal(text));
    q.answer = { salt, sha256: entry.accept!.map(hash) };
    q.feedback = Object.entries(entry.wrong ?? {}).map(([wrong, text]) => ({ sha256: hash(wrong), text }));
  }
  await fs.writeFile(file, JSON.stringify(manifest, null, 2) + '\n');
}

describe('quiz hashes: scrypt for short answers', function () {
  this.timeout(120_000);
  let tmp: string;
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-answer-kdf-'));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('the built-in lessons store every short answer as scrypt, with its cost, and no short answer as sha256', async () => {
    for (const id of ['conn-counts', 'least-connections', 'health-checks']) {
      const manifest = JSON.parse(await fs.readFile(path.join(root, 'lessons', id, 'lesson.json'), 'utf8')) as Manifest;
      const shorts = questionsOf(manifest).filter((q) => q.kind === 'short');
      assert.ok(shorts.length > 0, `${id} has short questions`);
      for (const q of shorts) {
        assert.equal(q.answer?.sha256, undefined, `${id}/${q.id}: no sha256`);
        assert.deepEqual(
          { ...q.answer?.scrypt, hashes: undefined },
          { ...SHORT_ANSWER_SCRYPT, hashes: undefined },
          `${id}/${q.id}: the cost is recorded`,
        );
        assert.ok(
          (q.feedback ?? []).every((f) => f.scrypt && !f.sha256),
          `${id}/${q.id}: feedback hashed as the answer is`,
        );
      }
    }
  });

  it("author-answers turns an old sha256 pack's short answers into scrypt (cost written), leaves the other kinds sha256, and the answers still check", async () => {
    const dir = path.join(tmp, 'rewrite', 'conn-counts');
    await sha256Pack(dir);
    const before = JSON.parse(await fs.readFile(path.join(dir, 'lesson.json'), 'utf8')) as Manifest;
    const io = fakeIo(root);
    assert.equal(
      await main(['author-answers', dir, '--answers', path.join(root, 'authoring', 'conn-counts.answers.json')], io),
      0,
      io.stdout + io.stderr,
    );
    assert.match(
      io.stdout,
      /wrote hashes for fq1-pick-empty-counts, fq2-sort-key, fq3-after-two-opens, fq3-pick-after-opens\n/,
    );
    const after = JSON.parse(await fs.readFile(path.join(dir, 'lesson.json'), 'utf8')) as Manifest;
    questionsOf(after).forEach((q, i) => {
      const old = questionsOf(before)[i]!;
      assert.equal(q.answer!.salt, old.answer!.salt, `${q.id} keeps its salt`);
      if (q.kind === 'short') {
        const { N, r, p, keyLength, hashes } = q.answer!.scrypt!;
        assert.deepEqual({ N, r, p, keyLength }, SHORT_ANSWER_SCRYPT, q.id);
        assert.ok(
          hashes.every((h) => /^[0-9a-f]{64}$/.test(h)),
          q.id,
        );
        assert.equal(q.answer!.sha256, undefined, q.id);
      } else {
        assert.deepEqual(q.answer, old.answer, `${q.id} (${q.kind}) is unchanged`);
      }
    });
    const pack = await loadPack(dir);
    assert.equal(
      (await answerQuestion(pack, 'fq1-pick-empty-counts', 'S1.')).correct,
      true,
      'the right answer is accepted',
    );
    const wrong = await answerQuestion(pack, 'fq1-pick-empty-counts', 's3');
    assert.equal(wrong.correct, false, 'a wrong answer is refused');
    assert.match(wrong.feedback, /tuple's order is not what breaks this tie/, "with the author's feedback for it");
    assert.equal(
      (await answerQuestion(pack, 'fq1-pick-empty-counts', 'qqq unforeseen')).feedback,
      pack.manifest.failureQuestions[0]!.hint,
    );
  });

  it('an old sha256 pack loads, checks its answers as before, and validate warns once, naming the short questions and author-answers', async () => {
    const dir = path.join(tmp, 'old', 'conn-counts');
    await sha256Pack(dir);
    const pack = await loadPack(dir);
    const answers = JSON.parse(
      await fs.readFile(path.join(root, 'authoring', 'conn-counts.answers.json'), 'utf8'),
    ) as AnswersFile;
    for (const q of questionsOf(pack.manifest)) {
      const entry = answers.questions[q.id]!;
      for (const accept of entry.accept ?? [])
        assert.equal((await answerQuestion(pack, q.id, accept)).correct, true, `${q.id}: ${accept}`);
      for (const [wrong, feedback] of Object.entries(entry.wrong ?? {}))
        assert.equal((await answerQuestion(pack, q.id, wrong)).feedback, feedback, `${q.id}: ${wrong}`);
    }
    const io = fakeIo(root);
    const code = await main(['validate', dir, '--json'], io);
    const report = JSON.parse(io.stdout) as {
      problems: { severity: string; code?: string; message: string; advice: string; line: number }[];
    };
    const cheap = report.problems.filter((p) => p.code === 'cheap-answer-hash');
    assert.equal(cheap.length, 1, JSON.stringify(report.problems, null, 1));
    assert.equal(cheap[0]!.severity, 'warning');
    assert.match(
      cheap[0]!.message,
      /fq1-pick-empty-counts, fq2-sort-key, fq3-after-two-opens, fq3-pick-after-opens are stored as sha256/,
    );
    assert.match(cheap[0]!.advice, /author-answers/);
    assert.ok(cheap[0]!.line > 1, 'the warning points into lesson.json');
    assert.equal(report.problems.filter((p) => p.severity === 'error').length, 0, 'an old pack is not an error');
    assert.equal(code, 0, 'validate still passes');
    const builtIn = fakeIo(root);
    await main(['validate', path.join(root, 'lessons', 'conn-counts'), '--json'], builtIn);
    assert.deepEqual(
      (JSON.parse(builtIn.stdout) as typeof report).problems.filter((p) => p.code === 'cheap-answer-hash'),
      [],
      'the re-authored lesson has no such warning',
    );
  });

  it('a pack whose scrypt cost is above the bounds, or whose feedback is hashed in the other form, is refused with words', async () => {
    const dir = path.join(tmp, 'costly', 'conn-counts');
    await fs.cp(path.join(root, 'lessons', 'conn-counts'), dir, { recursive: true });
    const file = path.join(dir, 'lesson.json');
    const pristine = await fs.readFile(file, 'utf8');
    const edit = async (change: (q: Question) => void): Promise<string> => {
      const manifest = JSON.parse(pristine) as Manifest;
      change(manifest.failureQuestions[0]!);
      await fs.writeFile(file, JSON.stringify(manifest, null, 2));
      const error = await loadPack(dir).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof PackError, `refused: ${String(error)}`);
      return error.problems.map((p) => p.message).join('\n');
    };
    // 2^16 · 16 · 128 bytes = 128 MiB per guess: a pack must not be able to ask that of a learner's machine.
    assert.match(
      await edit((q) => void Object.assign(q.answer!.scrypt!, { N: 2 ** 16, r: 16 })),
      /needs 128 MiB \(128·N·r\); at most 64 MiB/,
    );
    assert.match(await edit((q) => void (q.answer!.scrypt!.N = 2 ** 20)), /N/);
    assert.match(await edit((q) => void (q.answer!.scrypt!.N = 3000)), /not a power of two/);
    assert.match(
      await edit((q) => void (q.feedback![0] = { sha256: '0'.repeat(64), text: 'x' })),
      /"feedback" entry is not hashed as the answer is \("scrypt" only\)/,
    );
    assert.match(await edit((q) => void (q.answer!.sha256 = ['0'.repeat(64)])), /both "sha256" and "scrypt"/);
    await assert.rejects(
      scryptHex('x', 'salt-salt', { N: 2 ** 16, r: 16, p: 1, keyLength: 32 }),
      /above what a check allows/,
    );
  });

  it('measures one guess: sha256 against scrypt at the stored cost (printed, not asserted)', async () => {
    const salt = '5cd7386fc54a0388';
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < 300) sha256Hex(`${salt}:guess-${n++}`);
    const shaPerSecond = n / ((performance.now() - t0) / 1000);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await scryptHex(`guess-${i}`, salt, SHORT_ANSWER_SCRYPT);
      times.push(performance.now() - t);
    }
    const median = times.sort((a, b) => a - b)[2]!;
    const scryptPerSecond = 1000 / median;
    console.log(
      `      sha256: ${Math.round(shaPerSecond).toLocaleString('en')} guesses/s; scrypt N=${SHORT_ANSWER_SCRYPT.N} r=${SHORT_ANSWER_SCRYPT.r} p=${SHORT_ANSWER_SCRYPT.p}: ` +
        `${median.toFixed(0)} ms per guess (${scryptPerSecond.toFixed(1)}/s): each guess costs ~${Math.round(shaPerSecond / scryptPerSecond).toLocaleString('en')}× more`,
    );
    assert.notEqual(
      await scryptHex('s1', salt, SHORT_ANSWER_SCRYPT),
      await scryptHex('s1', 'another-salt', SHORT_ANSWER_SCRYPT),
      'the salt is used',
    );
  });
});
