/**
 * Lesson conn-counts end to end, and the questions of both built-in lessons: real learner processes
 * through the pack drivers, the pack loader's link checks, the walkthroughs, and the CLI answer and
 * author-answers commands.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { main } from '../../src/cli/main';
import type { CliIO } from '../../src/cli/command';
import type { CheckReport } from '../../src/core/report/report';
import type { Language } from '../../src/core/pack/schema';
import { checkFile } from '../../src/node/check/checker';
import { loadPack, PackError, type LoadedPack } from '../../src/node/packs/packs';
import { answerQuestion, findQuestion, listQuestions, UnknownQuestionError } from '../../src/node/packs/quiz';

const root = path.resolve(__dirname, '..', '..');
const LESSONS = path.join(root, 'lessons');
const FIXTURES = path.join(root, 'test', 'fixtures', 'conn-counts');
const EXT: Record<Language, string> = { python: 'py', javascript: 'js', typescript: 'ts' };
const LANGS: Language[] = ['python', 'javascript', 'typescript'];
const run = promisify(execFile);

let tmp: string;
beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-conn-counts-'));
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

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

/** A learner workspace: the starter copied out of the pack, as the extension does. */
async function workspace(pack: LoadedPack, language: Language): Promise<{ dir: string; main: string }> {
  const starter = pack.manifest.starters[language]!;
  const dir = path.join(tmp, `${pack.manifest.id}-${language}`);
  await fs.cp(path.join(pack.dir, starter.dir), dir, { recursive: true });
  return { dir, main: path.join(dir, starter.main) };
}

const summary = (r: CheckReport): string =>
  `${r.status} mistakes=[${r.mistakes.map((m) => `${m.id}:${m.mutants.join('+')}`).join(', ')}] problems=[${r.problems.map((p) => `${p.kind}: ${p.message}`).join(' | ')}]`;

let connCounts: LoadedPack;
let leastConnections: LoadedPack;
let healthChecks: LoadedPack;
before(async () => {
  connCounts = await loadPack(path.join(LESSONS, 'conn-counts'));
  leastConnections = await loadPack(path.join(LESSONS, 'least-connections'));
  healthChecks = await loadPack(path.join(LESSONS, 'health-checks'));
});

describe('conn-counts: checking learner programs through the pack drivers', function () {
  this.timeout(120_000);

  for (const language of LANGS) {
    it(`${language}: the starter fails as "not written yet", pointing into the learner file`, async () => {
      const ws = await workspace(connCounts, language);
      // A stub crashes on every transcript, one process each: a few generated ones are enough here.
      const report = await checkFile(connCounts, ws.main, language, { fuzzTranscripts: 3 });
      assert.equal(report.status, 'fail', summary(report));
      const problem = report.problems.find((p) => p.kind === 'unimplemented');
      assert.ok(problem, summary(report));
      assert.match(problem.message, /pick\(\)/);
      assert.deepEqual(report.mistakes, []);
    });

    it(`${language}: a correct solution passes every hidden and generated transcript`, async () => {
      const report = await checkFile(
        connCounts,
        path.join(FIXTURES, language, 'reference', `least_conn.${EXT[language]}`),
        language,
      );
      assert.equal(report.status, 'pass', summary(report));
      assert.equal(report.checks.passed, connCounts.transcripts.length);
      assert.equal(report.fuzz.failed, 0);
    });
  }

  // fixture folder → the mistake and mutation the diagnosis must name, exactly.
  const expected: Record<string, string[]> = {
    'tiebreak-order': ['tiebreak:tiebreak-order'],
    'tiebreak-last': ['tiebreak:tiebreak-last'],
    'negative-count': ['negative-count:negative-count'],
    'pick-writes': ['pick-writes:pick-writes'],
    'unseen-backend': ['unseen-backend:unseen-crash'],
    'unseen-close': ['unseen-close:unseen-crash-close'],
    'empty-no-error': ['empty-backends:empty-no-error'],
    'empty-crash': ['empty-backends:empty-crash'],
    'pair-tiebreak-negative': ['tiebreak:tiebreak-order', 'negative-count:negative-count'],
  };
  for (const language of LANGS) {
    for (const [fixture, names] of Object.entries(expected)) {
      it(`${language}: ${fixture} is named ${names.join(' and ')}, with its question and step`, async () => {
        const report = await checkFile(
          connCounts,
          path.join(FIXTURES, language, fixture, `least_conn.${EXT[language]}`),
          language,
        );
        assert.equal(report.status, 'fail', summary(report));
        assert.deepEqual(
          report.mistakes.map((m) => `${m.id}:${m.mutants.join('+')}`).sort(),
          [...names].sort(),
          summary(report),
        );
        for (const mistake of report.mistakes) {
          assert.equal(mistake.confidence, 'exact', summary(report));
          const spec = connCounts.manifest.mistakes.find((m) => m.id === mistake.id)!;
          assert.equal(mistake.question, spec.question);
          assert.equal(mistake.step, spec.step);
          assert.ok(
            mistake.question && findQuestion(connCounts, mistake.question),
            `${mistake.id} leads to a question`,
          );
          assert.ok(mistake.line !== null, `${mistake.id}: the function ${mistake.function} is found in the file`);
          assert.ok(mistake.counterexample, `${mistake.id}: a counterexample`);
        }
      });
    }
  }

  it('typescript: a learner module that imports a sibling module is transpiled with it', async () => {
    // Laid out as the starter (src/lb/): its package folder is the learner's own, so the sibling is in view.
    const split = path.join(FIXTURES, 'typescript-split', 'src', 'lb', 'least_conn.ts');
    const report = await checkFile(connCounts, split, 'typescript');
    assert.equal(report.status, 'pass', summary(report));
  });

  it('javascript driver: a ConnCounts whose active is not a Map is said in the learner’s words, not the driver’s', async () => {
    const record = path.join(root, 'test', 'fixtures', 'real-style', 'conn-counts', 'typescript', 'record_counts');
    const report = await checkFile(connCounts, path.join(record, 'least_conn.ts'), 'typescript', {
      fuzzTranscripts: 3,
    });
    const crash = report.problems.find((p) => p.kind === 'crash');
    assert.ok(crash, summary(report));
    assert.match(crash.message, /active must be a Map .* yours is a plain object/);
    assert.doesNotMatch(crash.message, /is not a function/);
    // What the card quotes is the learner's error, not the driver's code that found it.
    assert.doesNotMatch(JSON.stringify(report.problems), /driver\.js|throw new/);
  });

  it('the CLI checks a learner workspace end to end and exits 1 for the starter', async () => {
    const ws = await workspace(connCounts, 'python');
    const io = fakeIo(ws.dir);
    assert.equal(await main(['check', ws.main, '--lesson', 'conn-counts', '--json', '--fuzz', '3'], io), 1, io.stderr);
    const report = JSON.parse(io.stdout) as CheckReport;
    assert.equal(report.lesson, 'conn-counts');
    assert.ok(report.problems.some((p) => p.kind === 'unimplemented'));
  });
});

describe('least-connections: starters fail, references pass', function () {
  this.timeout(60_000);
  // Each starter with only its two placeholder bodies replaced: the command loop it ships must be right.
  const bodies: Record<Language, [string, string][]> = {
    python: [
      [
        'raise NotImplementedError("pick() is not written yet")',
        'if not self.pool:\n            return None\n        best = min(self.pool, key=lambda name: self.in_flight[name])\n        self.in_flight[best] += 1\n        return best',
      ],
      [
        'raise NotImplementedError("done() is not written yet")',
        'if self.in_flight.get(backend, 0) > 0:\n            self.in_flight[backend] -= 1',
      ],
    ],
    javascript: [
      [
        "throw new Error('TODO: write pick()');",
        'if (this.pool.length === 0) return null;\n    let best = this.pool[0];\n    for (const name of this.pool) if (this.inFlight.get(name) < this.inFlight.get(best)) best = name;\n    this.inFlight.set(best, this.inFlight.get(best) + 1);\n    return best;',
      ],
      [
        "throw new Error('TODO: write done()');",
        'const count = this.inFlight.get(backend);\n    if (count !== undefined && count > 0) this.inFlight.set(backend, count - 1);',
      ],
    ],
    typescript: [
      [
        "throw new Error('TODO: write pick()');",
        'if (this.pool.length === 0) return null;\n    let best = this.pool[0]!;\n    for (const name of this.pool) if (this.inFlight.get(name)! < this.inFlight.get(best)!) best = name;\n    this.inFlight.set(best, this.inFlight.get(best)! + 1);\n    return best;',
      ],
      [
        "throw new Error('TODO: write done()');",
        'const count = this.inFlight.get(backend);\n    if (count !== undefined && count > 0) this.inFlight.set(backend, count - 1);',
      ],
    ],
  };
  for (const language of LANGS) {
    it(`${language}: the starter fails as "not written yet"`, async () => {
      const ws = await workspace(leastConnections, language);
      const report = await checkFile(leastConnections, ws.main, language, { fuzzTranscripts: 3 });
      assert.equal(report.status, 'fail', summary(report));
      assert.ok(
        report.problems.some((p) => p.kind === 'unimplemented'),
        summary(report),
      );
    });

    it(`${language}: the starter with the two bodies written passes`, async () => {
      const ws = await workspace(leastConnections, language);
      let source = await fs.readFile(ws.main, 'utf8');
      for (const [from, to] of bodies[language]) {
        assert.ok(source.includes(from), `the ${language} starter still has "${from}"`);
        source = source.replace(from, to);
      }
      await fs.writeFile(ws.main, source);
      const report = await checkFile(leastConnections, ws.main, language);
      assert.equal(report.status, 'pass', summary(report));
    });
  }
});

describe('conn-counts: the walkthroughs', function () {
  this.timeout(60_000);
  /** The read-order step that tells the learner how to run the walkthrough: the test runs what it says. */
  const walkthroughStep = () => {
    const step = connCounts.manifest.readOrder.find((s) => s.run !== undefined);
    assert.ok(step, 'conn-counts has a read-order step with a run command');
    return step.run as Record<Language, string>;
  };
  /** A `run` line as this test can start it: its VAR=value words, then the program (node and npx lesson-companion from here). */
  const commandOf = (line: string): [string, string[], NodeJS.ProcessEnv] => {
    const words = line.split(' ');
    const env: NodeJS.ProcessEnv = {};
    while (/^[A-Z_]+=/.test(words[0]!)) {
      const [name, value] = words.shift()!.split('=') as [string, string];
      env[name] = value;
    }
    const [program, ...args] = words as [string, ...string[]];
    if (program === 'node') return [process.execPath, args, env];
    // `npx lesson-companion run x.ts`, from the sources.
    if (program === 'npx' && args[0] === 'lesson-companion')
      return [process.execPath, ['-r', 'tsx/cjs', path.join(root, 'src', 'cli', 'main.ts'), ...args.slice(1)], env];
    return [program, args, env];
  };
  const runWalkthrough = async (language: Language, dir: string): Promise<{ code: number; out: string }> => {
    const [command, args, env] = commandOf(walkthroughStep()[language]);
    try {
      const { stdout, stderr } = await run(command, args, {
        cwd: dir,
        env: { ...process.env, ...env, NODE_PATH: path.join(root, 'node_modules') },
      });
      return { code: 0, out: stdout + stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, out: e.stdout + e.stderr };
    }
  };
  for (const language of LANGS) {
    it(`${language}: stops with the placeholder until the functions are written, then runs to the end`, async () => {
      const ws = await workspace(connCounts, language);
      const before = await runWalkthrough(language, ws.dir);
      assert.notEqual(before.code, 0);
      assert.match(
        before.out,
        language === 'python' ? /NotImplementedError: pick\(\) is not written yet/ : /TODO: write pick\(\)/,
      );
      await fs.copyFile(path.join(FIXTURES, language, 'reference', `least_conn.${EXT[language]}`), ws.main);
      const after = await runWalkthrough(language, ws.dir);
      assert.equal(after.code, 0, after.out);
      assert.match(after.out, /start, all zero .* pick -> s1/);
      assert.match(after.out, /identical state gave identical picks: done/);
    });
  }

  it('the read order runs each walkthrough from the workspace root', async () => {
    const lines = walkthroughStep();
    for (const language of LANGS) {
      // The file it names is the starter's walkthrough in that language, relative to the workspace root (the starter's folder).
      const file = lines[language].split(' ').at(-1)!;
      assert.equal(path.extname(file), `.${EXT[language]}`);
      await fs.access(path.join(connCounts.dir, connCounts.manifest.starters[language]!.dir, file));
    }
  });
});

describe('questions: the pack loader and the node API', function () {
  this.timeout(30_000);

  it('numbers failure questions first, then the quiz, with stable ids and their steps', async () => {
    const list = listQuestions(connCounts);
    const failures = connCounts.manifest.failureQuestions.length;
    assert.equal(list.length, failures + (connCounts.manifest.quiz ?? []).length);
    assert.deepEqual(
      list.map((q) => q.n),
      list.map((_, i) => i + 1),
    );
    assert.ok(list.slice(0, failures).every((q) => q.section === 'failure'));
    assert.ok(list.slice(failures).every((q) => q.section === 'quiz'));
    assert.equal(findQuestion(connCounts, '1')!.id, 'fq1-pick-empty-counts');
    assert.equal(findQuestion(connCounts, String(failures + 1))!.section, 'quiz');
    assert.equal(list[0]!.stepTitle, connCounts.manifest.readOrder[2]!.title);
    await assert.rejects(answerQuestion(connCounts, '999', 'x'), UnknownQuestionError);
  });

  for (const id of ['conn-counts', 'least-connections', 'health-checks']) {
    it(`${id}: every authored answer is accepted, every authored wrong answer gets its feedback`, async () => {
      const pack = id === 'conn-counts' ? connCounts : id === 'least-connections' ? leastConnections : healthChecks;
      const authoring = JSON.parse(await fs.readFile(path.join(root, 'authoring', `${id}.answers.json`), 'utf8')) as {
        questions: Record<string, { accept?: string[]; wrong?: Record<string, string> }>;
      };
      for (const q of listQuestions(pack)) {
        assert.ok(q.step !== undefined, `${q.id} points at a read-order step`);
        const entry = authoring.questions[q.id];
        assert.ok(entry?.wrong && Object.keys(entry.wrong).length > 0, `${q.id} has feedback for likely wrong answers`);
        for (const answer of entry.accept ?? [])
          assert.equal((await answerQuestion(pack, q.id, answer)).correct, true, `${q.id}: ${answer}`);
        for (const [answer, feedback] of Object.entries(entry.wrong)) {
          const result = await answerQuestion(pack, q.id, answer);
          assert.deepEqual(
            [result.correct, result.feedback, result.step],
            [false, feedback, q.step],
            `${q.id}: ${answer}`,
          );
        }
      }
      for (const mistake of pack.manifest.mistakes)
        assert.ok(mistake.question && findQuestion(pack, mistake.question), `${mistake.id} links a question`);
    });
  }

  it('the seed-001 question: production balancers rotate because always-first sends the initial burst to backend 1', async () => {
    const result = await answerQuestion(leastConnections, 'quiz-rotate-ties', '1');
    assert.equal(result.correct, true);
    assert.match(result.explanation ?? '', /burst/);
    assert.equal((await answerQuestion(leastConnections, 'quiz-worked-trace', 'OK a b c OK b a')).correct, true);
    assert.equal((await answerQuestion(leastConnections, 'quiz-trace-count-a', '2')).correct, true);
  });

  it('refuses a pack whose mistake links a question it does not have, or a step past the read order', async () => {
    const copy = path.join(tmp, 'conn-counts');
    await fs.cp(connCounts.dir, copy, { recursive: true });
    const file = path.join(copy, 'lesson.json');
    const manifest = JSON.parse(await fs.readFile(file, 'utf8')) as {
      mistakes: { question?: string; step?: number }[];
      quiz: { step?: number }[];
    };
    manifest.mistakes[0]!.question = 'no-such-question';
    manifest.quiz[0]!.step = 7;
    await fs.writeFile(file, JSON.stringify(manifest, null, 2));
    const error = await loadPack(copy).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof PackError, String(error));
    const messages = error.problems.map((p) => `${p.path} ${p.message}`).join('\n');
    assert.match(messages, /\/mistakes\/0\/question .*no question "no-such-question"/);
    assert.match(messages, /\/quiz\/0\/step .*only 6 read-order steps/);
    assert.ok(
      error.problems.every((p) => p.line > 1),
      'each problem has its line in lesson.json',
    );
  });
});

describe('questions: the CLI', function () {
  this.timeout(30_000);
  const answer = async (...args: string[]): Promise<{ code: number; out: string; err: string }> => {
    const io = fakeIo(tmp);
    const code = await main(['answer', ...args], io);
    return { code, out: io.stdout, err: io.stderr };
  };

  it('exits 0 for a right answer, 1 for a wrong one, 2 for a usage error', async () => {
    const right = await answer('--lesson', 'conn-counts', '--question', '1', 's1');
    assert.equal(right.code, 0, right.err);
    assert.match(right.out, /^✓ Right\./);
    const wrong = await answer('--lesson', 'conn-counts', '--question', 'fq1-pick-empty-counts', 's3');
    assert.equal(wrong.code, 1);
    assert.match(wrong.out, /the tuple's order is not what breaks this tie[\s\S]*Re-read step 3/);
    assert.doesNotMatch(wrong.out, /\bs1\b/, 'the feedback on a wrong answer does not give the right one');
    const shown = await answer('--lesson', 'conn-counts', '--question', 'fq1-pick-empty-counts', '--show');
    assert.equal(shown.code, 0, shown.err);
    assert.match(shown.out, /^The answer: All three are at 0, and the tie goes to the smallest name: `s1`/);
    assert.equal(
      (
        await answer(
          '--lesson',
          'least-connections',
          '--question',
          'quiz-worked-trace',
          'OK',
          'a',
          'b',
          'c',
          'OK',
          'b',
          'a',
        )
      ).code,
      0,
    );
    for (const args of [
      ['--question', '1', 's1'],
      ['--lesson', 'conn-counts', 's1'],
      ['--lesson', 'conn-counts', '--question', '1'],
      ['--lesson', 'conn-counts', '--question', '99', 'x'],
      ['--lesson', 'nope', '--question', '1', 'x'],
      ['--lesson', 'conn-counts', '--bogus'],
    ]) {
      const result = await answer(...args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.out}`);
      assert.match(result.err, /Usage: lesson-companion answer/);
    }
  });

  it('--json gives the result, --list the numbered questions', async () => {
    const json = await answer('--lesson', 'conn-counts', '--question', 'fq4-close-unseen', '-1', '--json');
    assert.equal(json.code, 1);
    const result = JSON.parse(json.out) as Record<string, unknown>;
    assert.deepEqual([result.questionId, result.correct, result.step], ['fq4-close-unseen', false, 5]);
    assert.match(String(result.feedback), /without the floor/);
    const list = await answer('--lesson', 'conn-counts', '--list');
    assert.equal(list.code, 0);
    assert.match(list.out, /^1\. \[fq1-pick-empty-counts\] \(failure question, short\)/);
    assert.match(list.out, /11\. \[quiz-predict-trace\] \(quiz, predict\)[\s\S]*> BACKENDS s2 s1/);
  });

  it('author-answers --check: the committed hashes match the authoring files', async () => {
    for (const id of ['conn-counts', 'least-connections', 'health-checks']) {
      const io = fakeIo(root);
      assert.equal(await main(['author-answers', path.join('lessons', id), '--check'], io), 0, io.stdout + io.stderr);
    }
  });

  it('author-answers writes new hashes that the answer command then accepts, keeping the salts', async () => {
    const copy = path.join(tmp, 'pack');
    await fs.cp(connCounts.dir, copy, { recursive: true });
    const answers = JSON.parse(await fs.readFile(path.join(root, 'authoring', 'conn-counts.answers.json'), 'utf8')) as {
      questions: Record<string, { accept?: string[]; wrong?: Record<string, string> }>;
    };
    answers.questions['fq4-close-unseen'] = { accept: ['0', '7'], wrong: { '-1': 'floor!', '8': 'eight is not it' } };
    const answersFile = path.join(tmp, 'answers.json');
    await fs.writeFile(answersFile, JSON.stringify(answers));
    const io = fakeIo(tmp);
    assert.equal(await main(['author-answers', copy, '--answers', answersFile, '--check'], io), 1);
    assert.match(io.stdout, /out of date: fq4-close-unseen/);
    assert.equal(await main(['author-answers', copy, '--answers', answersFile], io), 0, io.stderr);
    const reloaded = await loadPack(copy);
    assert.equal((await answerQuestion(reloaded, 'fq4-close-unseen', '7')).correct, true);
    assert.equal((await answerQuestion(reloaded, 'fq4-close-unseen', '8')).feedback, 'eight is not it');
    const salt = (p: LoadedPack): string | undefined =>
      p.manifest.failureQuestions.find((q) => q.id === 'fq4-close-unseen')!.answer?.salt;
    assert.equal(salt(reloaded), salt(connCounts));

    answers.questions['fq4-close-unseen'] = { accept: ['0'], wrong: { '0': 'contradiction' } };
    await fs.writeFile(answersFile, JSON.stringify(answers));
    const bad = fakeIo(tmp);
    assert.equal(await main(['author-answers', copy, '--answers', answersFile], bad), 2);
    assert.match(bad.stderr, /"0" is listed as wrong but is an accepted answer/);
  });
});
