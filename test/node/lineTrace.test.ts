/**
 * Line tracing with real processes (python3 under sys.settrace, node under the inspector's coverage) on
 * the learner programs in test/fixtures/trace/, then the spectrum ranking on what was traced.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { rankSuspiciousLines } from '../../src/core/diagnosis/spectrum';
import type { Language } from '../../src/core/pack/schema';
import { DEFAULT_INTERPRETERS, prepareProgram } from '../../src/node/languages/languages';
import { linesIn, traceCommandLines, tracedFiles, type LineTrace } from '../../src/node/run/lineTrace';
import { runProcess, type ProcessSpec } from '../../src/node/run/runner';
import type { ProcessResult } from '../../src/core/check/process';

const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'trace');
const LIMITS = { timeLimitMs: 10000, outputLimitBytes: 1024 * 1024 };

// The pool is out of name order, so a tie broken by name instead of pool order shows at the last PICK
// (d expected, c given); the PICKs before it are right, and only the wrong one runs the tie branch.
const commands = ['POOL a b d c', 'PICK', 'PICK', 'DONE b', 'PICK', 'PICK'];
const answers = [['OK'], ['a'], ['b'], ['OK'], ['b'], ['c']];
const FAILING = 5;

/** 1-based lines from the one matching `start` up to (not including) the next one matching `end`. */
function linesBetween(file: string, start: RegExp, end: RegExp): { first: number; last: number } {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const first = lines.findIndex((line) => start.test(line));
  const next = lines.findIndex((line, i) => i > first && end.test(line));
  assert.ok(first >= 0 && next > first, `no ${start} … ${end} in ${file}`);
  return { first: first + 1, last: next };
}

function lineOf(file: string, marker: string): number {
  const index = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((line) => line.includes(marker));
  assert.ok(index >= 0, `no "${marker}" in ${file}`);
  return index + 1;
}

async function trace(
  language: Language,
  file: string,
  options: { driver?: string; commands?: string[]; answers?: string[][] } = {},
): Promise<LineTrace | undefined> {
  const program = await prepareProgram(language, file, DEFAULT_INTERPRETERS, options.driver);
  try {
    return await traceCommandLines({
      language,
      spec: { command: program.command, args: program.args, cwd: program.cwd, ...LIMITS },
      files: tracedFiles(program, file),
      commands: options.commands ?? commands,
      answers: options.answers ?? answers,
    });
  } finally {
    await program.dispose();
  }
}

function rank(
  result: LineTrace,
  file: string,
  failingIndex = FAILING,
  cmds = commands,
  failingAnswer: string[] | null = answers[FAILING]!,
): ReturnType<typeof rankSuspiciousLines> {
  return rankSuspiciousLines({ commands: cmds, lines: linesIn(result, file), failingIndex, failingAnswer });
}

function assertInside(lines: readonly number[] | undefined, range: { first: number; last: number }): void {
  assert.ok(lines && lines.length > 0, 'no lines ranked');
  for (const line of lines)
    assert.ok(line >= range.first && line <= range.last, `line ${line} is outside lines ${range.first}-${range.last}`);
}

describe('line tracing of learner programs (real processes)', function () {
  this.timeout(30000);

  const delegating: { language: Language; file: string; helper: [RegExp, RegExp] }[] = [
    { language: 'python', file: 'python/delegates-tiebreak.py', helper: [/def _least_loaded/, /def _take/] },
    { language: 'javascript', file: 'javascript/delegates-tiebreak.js', helper: [/^\s*leastLoaded\(\)/, /^\s*take\(/] },
    {
      language: 'typescript',
      file: 'typescript/delegates-tiebreak.ts',
      helper: [/private leastLoaded\(\)/, /private take\(/],
    },
  ];
  for (const { language, file, helper } of delegating) {
    it(`${language}: points into the helper pick() delegates the tiebreak to, not at pick()`, async () => {
      const absolute = path.join(FIXTURES, 'least-connections', file);
      const result = await trace(language, absolute);
      assert.ok(result, 'the run could not be traced');
      assert.equal(result.by, 'reads');
      const ranked = rank(result, absolute);
      assert.equal(ranked?.discriminating, true);
      assertInside(ranked?.lines, linesBetween(absolute, ...helper));
      assert.equal(
        ranked?.reason,
        'this line ran when PICK answered c, and not at the other 3 PICK commands, which were right',
      );
      // Each command got its own lines: DONE ran done(), not the helper.
      const done = linesIn(result, absolute)[3]!;
      assert.ok(
        [...done].every(
          (line) => line < linesBetween(absolute, ...helper).first || line > linesBetween(absolute, ...helper).last,
        ),
      );
    });
  }

  for (const language of ['python', 'javascript'] as const) {
    it(`${language}: traces a conn-counts module through the lesson's driver, counting only the learner's lines`, async () => {
      const ext = language === 'python' ? 'py' : 'js';
      const file = path.join(FIXTURES, 'conn-counts', language, `least_conn.${ext}`);
      const driver = path.join(ROOT, 'lessons', 'conn-counts', 'driver', language, `driver.${ext}`);
      // Ties go to the name that sorts first; this helper takes the later one, at the last PICK only.
      const cc = ['BACKENDS a b', 'OPEN a', 'PICK', 'OPEN b', 'OPEN b', 'PICK', 'CLOSE b', 'PICK'];
      const ccAnswers = [['OK'], ['OK'], ['b'], ['OK'], ['OK'], ['a'], ['OK'], ['b']];
      const result = await trace(language, file, { driver, commands: cc, answers: ccAnswers });
      assert.ok(result, 'the run could not be traced');
      // BACKENDS runs only driver code: none of the learner's lines.
      assert.deepEqual([...(result.perCommand[0]!.get(file) ?? [])], []);
      const ranked = rank(result, file, 7, cc, ['b']);
      assertInside(
        ranked?.lines,
        linesBetween(
          file,
          language === 'python' ? /def _least_busy/ : /function leastBusy/,
          language === 'python' ? /def connection_opened/ : /function connection_opened/,
        ),
      );
    });
  }

  it('python: a program that reads all its input first is cut by its answers instead', async () => {
    const file = path.join(FIXTURES, 'least-connections', 'python', 'reads-all-then-answers.py');
    const result = await trace('python', file);
    assert.equal(result?.by, 'answers');
    assertInside(rank(result!, file)?.lines, linesBetween(file, /def _least_loaded/, /def _take/));
  });

  it("javascript: readline's async iterator (lines handed out before they are handled) is cut by answers", async () => {
    const file = path.join(FIXTURES, 'least-connections', 'javascript', 'for-await.js');
    const result = await trace('javascript', file);
    assert.equal(result?.by, 'answers');
    assertInside(rank(result!, file)?.lines, linesBetween(file, /^\s*leastLoaded\(\)/, /^\s*take\(/));
  });

  for (const [language, name] of [
    ['python', 'answers-at-end.py'],
    ['javascript', 'answers-at-end.js'],
  ] as const) {
    it(`${language}: a program that reads everything and answers in one write at the end gets no lines, not wrong ones`, async () => {
      const file = path.join(FIXTURES, 'least-connections', language, name);
      const result = await trace(language, file);
      assert.ok(result, 'the run could not be traced');
      assert.deepEqual(
        result.perCommand,
        commands.map(() => undefined),
      );
      assert.equal(rank(result, file), undefined);
    });
  }

  it('python: at a crash, the crashed command ran up to the crashing line, and the ranking says so honestly', async () => {
    const file = path.join(FIXTURES, 'least-connections', 'python', 'empty-crash.py');
    const crashCommands = ['POOL a b', 'PICK', 'PICK', 'POOL', 'PICK'];
    const result = await trace('python', file, { commands: crashCommands, answers: [['OK'], ['a'], ['b'], ['OK']] });
    assert.ok(result, 'the run could not be traced');
    const crashLine = lineOf(file, '<- crash');
    const atCrash = linesIn(result, file)[4]!;
    assert.ok(atCrash.has(crashLine));
    // Nothing after the crashing line in the helper ran.
    assert.ok(!atCrash.has(crashLine + 1) && !atCrash.has(crashLine + 2));
    // Its traceback is the one a plain run prints, without the tracer's frames.
    assert.match(
      result.run.stderr,
      /^Traceback \(most recent call last\):\n {2}File "[^"]*empty-crash\.py", line \d+, in <module>/,
    );
    assert.match(result.run.stderr, /IndexError: list index out of range\n$/);
    const ranked = rank(result, file, 4, crashCommands, null);
    // Every line the crashed PICK ran also ran at the right ones: no line is singled out as the cause.
    assert.equal(ranked?.discriminating, false);
    assert.ok(ranked?.lines.includes(crashLine));
    assert.match(
      ranked!.reason,
      /^the lines that ran at the PICK where the program stopped also ran at the other 2 PICK commands/,
    );
  });

  it('python: reading with input() and printing its own debugging to stderr (no newline) breaks nothing', async () => {
    const file = path.join(FIXTURES, 'least-connections', 'python', 'prints-debug-to-stderr.py');
    const result = await trace('python', file);
    assert.equal(result?.by, 'reads');
    // The program's stderr comes back as it wrote it, without the tracer's records.
    assert.equal(
      result?.run.stderr,
      [0, 1, 1, 2]
        .map((i) => `pick: loads {'a': ${Math.min(i, 1)}, 'b': ${i === 2 ? 1 : 0}, 'd': 0, 'c': 0} `)
        .join(''),
    );
    assertInside(rank(result!, file)?.lines, linesBetween(file, /def _least_loaded/, /def _take/));
  });

  it('gives up when the traced run answers differently from the run it should explain', async () => {
    const file = path.join(FIXTURES, 'least-connections', 'python', 'delegates-tiebreak.py');
    const other = answers.map((answer, i) => (i === FAILING ? ['d'] : answer));
    assert.equal(await trace('python', file, { answers: other }), undefined);
  });

  it('runs again, as many times as it is allowed, while the traced run answers otherwise (a random program)', async () => {
    const file = path.join(FIXTURES, 'least-connections', 'python', 'delegates-tiebreak.py');
    const program = await prepareProgram('python', file, DEFAULT_INTERPRETERS);
    // The first run answers the last PICK otherwise, as a program that draws at random may; the next as it did.
    let runs = 0;
    const drawing = async (spec: ProcessSpec, input: string): Promise<ProcessResult> => {
      const run = await runProcess(spec, input);
      runs += 1;
      return runs === 1 ? { ...run, stdout: run.stdout.replace(/c\n$/, 'd\n') } : run;
    };
    const request = {
      language: 'python' as const,
      spec: { command: program.command, args: program.args, cwd: program.cwd, ...LIMITS },
      files: tracedFiles(program, file),
      commands,
      answers,
    };
    try {
      assert.equal(await traceCommandLines(request, drawing), undefined, 'one try: given up');
      runs = 0;
      const traced = await traceCommandLines(request, drawing, 3);
      assert.equal(runs, 2);
      assertInside(rank(traced!, file)?.lines, linesBetween(file, /def _least_loaded/, /def _take/));
    } finally {
      await program.dispose();
    }
  });
});
