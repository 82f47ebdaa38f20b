/**
 * Real learner programs (test/fixtures/least-connections/<language>/) checked through `checkFile`, each
 * a real Python, Node or TypeScript process. Every language's fixtures are checked in a `before` hook,
 * two at a time (this machine may have two cores, shared), and the tests then read the reports.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CheckReport, NamedMistake } from '../../src/core/report/report';
import type { Language } from '../../src/core/pack/schema';
import { simulate } from '../../src/core/model/simulate';
import { checkFile, type CheckFileOptions } from '../../src/node/check/checker';
import { loadPack, type LoadedPack } from '../../src/node/packs/packs';
import { survivorsOf, watchWhile } from './processWatch';

const ROOT = path.join(__dirname, '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'least-connections');
const EXT: Record<Language, string> = { python: 'py', javascript: 'js', typescript: 'ts' };
/**
 * The interpreter `python3` runs, by its real path: `python3` on PATH may be a version manager's shell
 * shim (pyenv), which doubles the cost of each of the hundreds of process starts here.
 */
const PYTHON =
  execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim() || 'python3';

/**
 * Fewer generated transcripts than the lesson's 40 for most fixtures: the hidden ones already reveal every
 * mistake, and a program that crashes (or leaks state) costs a process per failing transcript.
 * The correct programs get the lesson's own number, as a learner's check would.
 */
const FEW = { fuzzTranscripts: 8 };
const OPTIONS: Record<string, CheckFileOptions> = {
  correct: {},
  'reads-all-stdin-first': {},
  'tiebreak-name': FEW,
  'tiebreak-last': FEW,
  'tiebreak-rotate': FEW,
  'negative-count': FEW,
  'late-increment': FEW,
  'unknown-added': FEW,
  'pair-tiebreak-negative': FEW,
  'pair-late-unknown': FEW,
  'unknown-crash': FEW,
  'empty-crash': FEW,
  'exits-early': FEW,
  'crash-other': FEW,
  stub: FEW,
  'syntax-error': FEW,
  'stray-prints': FEW,
  'stale-state': FEW,
  // A hang costs a whole time limit; keep it short (the others keep the default, for a loaded machine).
  hang: { ...FEW, timeLimitMs: 1500 },
  // Node's stdout to our pipe is asynchronous: in a loop that never yields, only about 12 KiB (some 270
  // writes) leave the process before the rest queue up in its memory. Above that, a Node flood is caught
  // as a timeout instead; 4 KiB keeps a margin on a loaded machine, where that is when it stalls.
  flood: { ...FEW, outputLimitBytes: 4 * 1024 },
};

async function mapLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

function fixturePath(language: Language, name: string): string {
  return path.join(FIXTURES, language, `${name}.${EXT[language]}`);
}

/** 1-based line of the first line matching `pattern` in a fixture: what a report must point at. */
function lineOf(language: Language, name: string, pattern: RegExp): number {
  const index = fs
    .readFileSync(fixturePath(language, name), 'utf8')
    .split('\n')
    .findIndex((l) => pattern.test(l));
  assert.ok(index >= 0, `${name}.${EXT[language]} has a line matching ${pattern}`);
  return index + 1;
}

/** The line where `pick` or `done` is defined, found independently of the engine's own patterns. */
const functionLine = (language: Language, name: string, fn: string): number =>
  lineOf(language, name, new RegExp(`^\\s*(def\\s+)?${fn}\\s*\\(`));

function assertCounterexample(mistake: NamedMistake, maxLength: number): void {
  const example = mistake.counterexample;
  assert.ok(example, `${mistake.id} has a counterexample`);
  assert.ok(example.commands.length <= maxLength, `${mistake.id}: ${example.commands.join(' | ')}`);
  assert.ok(example.commands.length < example.shrunkFrom || example.shrunkFrom <= maxLength, 'it was shrunk');
  assert.equal(example.trace[example.divergesAt]!.matches, false);
  assert.ok(example.trace.slice(0, example.divergesAt).every((row) => row.matches));
  // The reference with the named mutation on gives the program's answers: it shows this mistake.
  const mutant = simulate(pack.model!, example.commands, new Set(mistake.mutants)).outcome;
  assert.deepEqual(mutant.lines, example.actual);
}

let pack: LoadedPack;

describe('least-connections fixtures', () => {
  before(async () => {
    pack = await loadPack(path.join(ROOT, 'lessons', 'least-connections'), 'folder', { model: true });
  });

  for (const language of ['python', 'javascript', 'typescript'] as const) {
    describe(`least-connections, real ${language} programs`, function () {
      this.timeout(30000);
      const reports = new Map<string, CheckReport>();
      const report = (name: string): CheckReport => {
        const r = reports.get(name);
        assert.ok(r, `${name} was checked`);
        return r;
      };
      const kinds = (name: string): string[] => report(name).problems.map((p) => p.kind);
      const mistakes = (name: string): [string, string[], string][] =>
        report(name).mistakes.map((m) => [m.id, [...m.mutants], m.confidence]);

      before(async function () {
        this.timeout(240000);
        await mapLimit(Object.keys(OPTIONS), 2, async (name) => {
          reports.set(
            name,
            await checkFile(pack, fixturePath(language, name), language, {
              interpreters: { python: PYTHON },
              ...OPTIONS[name],
            }),
          );
        });
      });

      it('every fixture keeps the lesson header of the starter', () => {
        for (const name of Object.keys(OPTIONS)) {
          assert.match(
            fs.readFileSync(fixturePath(language, name), 'utf8').split('\n')[0]!,
            /lesson-companion: least-connections$/,
            name,
          );
        }
      });

      it('passes a correct program, all transcripts in one process', () => {
        const r = report('correct');
        assert.equal(r.status, 'pass');
        assert.deepEqual(r.checks, {
          total: pack.transcripts.length,
          passed: pack.transcripts.length,
          failed: 0,
          notRun: 0,
        });
        assert.deepEqual([r.mistakes, r.problems, r.counterexample], [[], [], null]);
        assert.equal(r.processRuns, 1);
        assert.deepEqual([r.fuzz.transcripts, r.fuzz.failed], [pack.manifest.fuzz!.transcripts, 0]);
      });

      it('passes a program that reads all input before answering', () => {
        assert.equal(report('reads-all-stdin-first').status, 'pass');
      });

      const singles: [string, string, string, string][] = [
        ['tiebreak-name', 'tiebreak', 'tiebreak-name', 'pick'],
        ['tiebreak-last', 'tiebreak', 'tiebreak-last', 'pick'],
        ['tiebreak-rotate', 'tiebreak', 'tiebreak-rotate', 'pick'],
        ['negative-count', 'negative-count', 'negative-count', 'done'],
        ['late-increment', 'late-increment', 'no-increment', 'pick'],
        ['unknown-crash', 'unknown-backend', 'unknown-crash', 'done'],
        ['unknown-added', 'unknown-backend', 'unknown-added', 'done'],
        ['empty-crash', 'empty-pool', 'empty-crash', 'pick'],
        ['exits-early', 'unknown-backend', 'unknown-crash', 'done'],
      ];
      for (const [fixture, id, mutation, fn] of singles) {
        it(`${fixture}: names ${id} (${mutation}) exactly, at ${fn}(), with a short counterexample`, () => {
          const r = report(fixture);
          assert.equal(r.status, 'fail');
          assert.deepEqual(mistakes(fixture), [[id, [mutation], 'exact']]);
          assert.equal(r.mistakes[0]!.function, fn);
          assert.equal(r.mistakes[0]!.line, functionLine(language, fixture, fn));
          assert.ok(r.mistakes[0]!.revealedBy.length > 0);
          // Rotation needs a pick, a done that makes a tie again, and a pick: four commands at least.
          assertCounterexample(r.mistakes[0]!, fixture === 'tiebreak-rotate' ? 4 : 3);
          assert.deepEqual(r.counterexample, r.mistakes[0]!.counterexample);
        });
      }

      it('tiebreak-name: the counterexample is a pool out of name order, then a tied PICK', () => {
        const example = report('tiebreak-name').mistakes[0]!.counterexample!;
        const [verb, ...names] = example.commands[0]!.split(' ');
        assert.equal(verb, 'POOL');
        assert.equal(names.length, 2);
        assert.ok(names[0]! > names[1]!, `${names.join(' ')} is out of name order`);
        assert.equal(example.trace[example.divergesAt]!.command, 'PICK');
        assert.deepEqual(example.trace[example.divergesAt]!.expected, [names[0]]);
        assert.deepEqual(example.trace[example.divergesAt]!.actual, [names[1]]);
      });

      it('crashes are reported at the line that crashed', () => {
        for (const name of ['unknown-crash', 'empty-crash']) {
          const crash = report(name).problems.find((p) => p.kind === 'crash');
          assert.equal(crash?.line, lineOf(language, name, /<- crash/), name);
        }
        // Exiting with code 0 is not a crash of the process, though the transcript is cut short.
        assert.deepEqual(kinds('exits-early'), []);
      });

      it('names both mistakes of a program that has two', () => {
        assert.deepEqual(mistakes('pair-tiebreak-negative').sort(), [
          ['negative-count', ['negative-count'], 'exact'],
          ['tiebreak', ['tiebreak-name'], 'exact'],
        ]);
        assert.deepEqual(mistakes('pair-late-unknown').sort(), [
          ['late-increment', ['no-increment'], 'exact'],
          ['unknown-backend', ['unknown-added'], 'exact'],
        ]);
        for (const name of ['pair-tiebreak-negative', 'pair-late-unknown']) {
          for (const m of report(name).mistakes) {
            assert.equal(m.line, functionLine(language, name, m.function));
            assertCounterexample(m, 3);
          }
        }
      });

      it('hang: a timeout, in one process run, with the rest not run', () => {
        const r = report('hang');
        assert.equal(r.status, 'fail');
        assert.ok(kinds('hang').includes('timeout'));
        // The hang spins: a second of its own CPU time without a word is a hang on any machine, believed without
        // running it again (a stall charged by the clock while it slept would be: checkSession.ts).
        assert.equal(r.processRuns, 1);
        assert.equal(r.checks.notRun, pack.transcripts.length - 1);
        assert.equal(r.fuzz.notRun, r.fuzz.transcripts);
        // The counterexample is cut after the last answer: the command it hung on is the first difference.
        const example = r.counterexample!;
        assert.equal(example.commands[example.divergesAt], 'PICK');
        assert.equal(example.trace[example.divergesAt]!.actual, null);
        assert.equal(example.divergesAt, example.commands.length - 1);
      });

      it('crash-other: a crash at the line that divides by zero, and no mistake named as certain', () => {
        const r = report('crash-other');
        assert.equal(r.status, 'fail');
        assert.equal(r.problems.find((p) => p.kind === 'crash')?.line, lineOf(language, 'crash-other', /<- crash/));
        assert.ok(
          r.mistakes.every((m) => m.confidence !== 'exact'),
          JSON.stringify(mistakes('crash-other')),
        );
      });

      it('syntax-error: cannot check, and says which line', () => {
        const r = report('syntax-error');
        assert.equal(r.status, 'error');
        assert.deepEqual(kinds('syntax-error'), ['syntax']);
        assert.equal(r.problems[0]!.line, lineOf(language, 'syntax-error', /<- syntax error/));
        assert.equal(r.processRuns, 1);
      });

      it('stray-prints: the answers still pass, and the debug lines are reported', () => {
        const r = report('stray-prints');
        assert.equal(r.checks.passed, r.checks.total);
        assert.deepEqual(kinds('stray-prints'), ['stray-output']);
        assert.match(r.problems[0]!.message, /debug: pool=/);
        // Lines that are not answers make the check fail: an autograder comparing stdout would.
        assert.equal(r.status, 'fail');
      });

      it('flood: stopped at the output limit, once, and the PICK it flooded on is the first difference', () => {
        const r = report('flood');
        assert.equal(r.status, 'fail');
        // The flood is named first: it is the whole story of the run it stopped (issue 31).
        assert.deepEqual(kinds('flood'), ['output-limit', 'stray-output']);
        // The shared run and one run of the failing transcript alone; before, one flood per transcript.
        assert.ok(r.processRuns <= 2, `${r.processRuns} runs`);
        assert.equal(r.checks.notRun, pack.transcripts.length - 1);
        // Before: the flood's lines were taken as answers to later transcripts, and a bare STATUS was "shown".
        const example = r.counterexample!;
        assert.deepEqual(example.commands, ['POOL a b c', 'PICK']);
        assert.deepEqual(
          example.trace.map((row) => row.actual),
          [['OK'], null],
        );
        assert.equal(example.divergesAt, 1);
      });

      it('stub: not written yet, pointing at the placeholder in pick, and no mistake named', () => {
        const r = report('stub');
        assert.equal(r.status, 'fail');
        const unimplemented = r.problems.find((p) => p.kind === 'unimplemented');
        assert.equal(unimplemented?.line, lineOf(language, 'stub', /NotImplementedError\("pick|TODO: write pick/));
        assert.deepEqual(r.mistakes, []);
        assert.equal(r.checks.passed, 0);
      });

      it('stale-state: counts that survive POOL are named, and no mistake of pick or done is blamed', () => {
        const r = report('stale-state');
        assert.equal(r.status, 'fail');
        assert.deepEqual(mistakes('stale-state'), [['stale-counts', ['reset-keeps-all'], 'exact']]);
        assert.ok(r.transcripts.some((t) => t.name === 'pool-replaces' && !t.passed));
        const example = r.counterexample!;
        assert.ok(example.commands.filter((c) => c.startsWith('POOL')).length >= 2, example.commands.join(' | '));
        assert.equal(example.trace[example.divergesAt]!.matches, false);
        assert.ok(r.processRuns <= 10, `${r.processRuns} runs`);
      });

      it('a missing interpreter is reported as such', async () => {
        const interpreters = language === 'python' ? { python: '/nonexistent/python3' } : { node: '/nonexistent/node' };
        const r = await checkFile(pack, fixturePath(language, 'correct'), language, { interpreters });
        assert.equal(r.status, 'error');
        assert.deepEqual(
          r.problems.map((p) => p.kind),
          ['interpreter-missing'],
        );
        assert.match(r.problems[0]!.message, /\/nonexistent\//);
      });

      it('spawns-grandchild: a timeout, and nothing the program started survives', async function () {
        this.timeout(60000);
        // A copy with a marker of its own: `ps` then finds only this test's grandchild, not another run's.
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-grandchild-'));
        const marker = `lesson-companion-grandchild-${path.basename(dir)}`;
        try {
          const file = path.join(dir, `balancer.${EXT[language]}`);
          fs.writeFileSync(
            file,
            fs
              .readFileSync(fixturePath(language, 'spawns-grandchild'), 'utf8')
              .replace('lesson-companion-grandchild', marker),
          );
          const { result: r, mostSeen } = await watchWhile(marker, () =>
            checkFile(pack, file, language, {
              interpreters: { python: PYTHON },
              timeLimitMs: 1500,
              fuzzTranscripts: 4,
            }),
          );
          assert.ok(r.problems.some((p) => p.kind === 'timeout'));
          assert.ok(mostSeen > 0, 'the grandchild did start');
          assert.deepEqual(await survivorsOf(marker), []);
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      });

      if (language === 'python') {
        it('silent (a typo in the main guard): no answer at all, found in a few runs, not one per transcript', async () => {
          const r = await checkFile(pack, fixturePath('python', 'silent'), 'python', {
            interpreters: { python: PYTHON },
          });
          assert.equal(r.status, 'fail');
          assert.equal(r.checks.notRun, pack.transcripts.length - 1);
          assert.ok(r.processRuns <= 10, `${r.processRuns} runs`);
          assert.match(r.problems.find((p) => p.kind === 'no-answers')!.message, /without one line on stdout/);
        });
      }
    });
  }
});
