/**
 * The load simulation with real learner processes, driven line by line (contained like a check): a correct
 * program in Python, JavaScript and TypeScript gives exactly the reference's series; the mistakes each
 * scenario shows pile requests up; a program that hangs, crashes or prints a stray line ends the run with a
 * clear message and the ticks it completed. The reference runs in this process here (no engine bundle), as in
 * check tests; test/node/simulateCli.test.ts runs it through the CLI and its engine worker.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { summarize } from '../../src/worlds/templates/simulationReport';
import type { BalancerRun } from '../../src/worlds/templates/simulation';
import type { Language } from '../../src/core/pack/schema';
import { loadPack, type LoadedPack } from '../../src/node/packs/packs';
import { simulateFile, type SimulateFileOptions } from '../../src/node/check/simulator';
import { survivorsOf, watchWhile } from './processWatch';

const ROOT = path.join(__dirname, '..', '..');
const LC = path.join(ROOT, 'test', 'fixtures', 'least-connections');
const CC = path.join(ROOT, 'test', 'fixtures', 'conn-counts');
const HC = path.join(ROOT, 'test', 'fixtures', 'real-style', 'health-checks');

const packs = new Map<string, LoadedPack>();
async function pack(id: string): Promise<LoadedPack> {
  if (!packs.has(id)) packs.set(id, await loadPack(path.join(ROOT, 'lessons', id), 'built-in', { model: true }));
  return packs.get(id)!;
}

function languageOf(file: string): Language {
  return file.endsWith('.py') ? 'python' : file.endsWith('.ts') ? 'typescript' : 'javascript';
}

async function simulate(
  lesson: string,
  file: string,
  options: SimulateFileOptions = {},
): ReturnType<typeof simulateFile> {
  return simulateFile(await pack(lesson), file, languageOf(file), options);
}

const sent = (outcome: Awaited<ReturnType<typeof simulateFile>>, run: BalancerRun, server: string): number =>
  summarize(outcome.result.scenario, run).servers.find((s) => s.name === server)!.sent;
const queue = (outcome: Awaited<ReturnType<typeof simulateFile>>, run: BalancerRun, server: string): number[] => {
  const i = outcome.result.scenario.servers.findIndex((s) => s.name === server);
  return run.ticks.map((t) => t.queues[i]!);
};

describe('load simulation with real learner processes', function () {
  this.timeout(60_000);

  for (const scenario of ['slow-server', 'duplicate-done', 'burst']) {
    it(`a correct Python program gives exactly the reference's series: ${scenario}`, async () => {
      const outcome = await simulate('least-connections', path.join(LC, 'python', 'correct.py'), { scenario });
      assert.equal(outcome.result.runs.yours.stopped, undefined, outcome.result.sentence);
      assert.deepEqual(outcome.result.runs.yours, outcome.result.runs.reference);
      assert.equal(outcome.result.scenario.id, scenario);
    });
  }

  it("a correct JavaScript program too, and the sentence gives the seed's figures", async () => {
    const outcome = await simulate('least-connections', path.join(LC, 'javascript', 'correct.js'));
    assert.deepEqual(outcome.result.runs.yours, outcome.result.runs.reference);
    assert.equal(
      outcome.result.sentence,
      "With your balancer the queue on a (2 per tick, the slowest) peaked at 3; round robin's reached 40 and was still growing; the reference's peaked at 3.",
    );
    // One round trip per request (and one for the last reports): the finished requests ride along with the next pick.
    assert.equal(outcome.stats.exchanges, 241);
    assert.equal(outcome.transcript.filter((c) => c === 'PICK').length, 240);
  });

  it('a correct TypeScript program (transpiled first) too', async () => {
    const outcome = await simulate('least-connections', path.join(LC, 'typescript', 'correct.ts'), {
      scenario: 'duplicate-done',
    });
    assert.deepEqual(outcome.result.runs.yours, outcome.result.runs.reference);
  });

  it('a pick that counts too late piles the whole burst onto the slow server, and the sentence names the mistake', async () => {
    const outcome = await simulate('least-connections', path.join(LC, 'python', 'late-increment.py'), {
      mistake: 'late-increment',
    });
    assert.equal(outcome.result.scenario.id, 'burst', 'the scenario that shows the mistake');
    assert.equal(sent(outcome, outcome.result.runs.yours, 'a'), 30);
    assert.equal(sent(outcome, outcome.result.runs.reference, 'a'), 10);
    assert.equal(
      outcome.result.sentence,
      'Your check found “The pick is counted too late”. Under load that means a got 30 of 30 requests and its queue peaked at 28; with the reference a got 10 and its queue peaked at 8.',
    );
  });

  for (const language of ['python', 'javascript'] as const) {
    it(`a count that goes below zero sends b pick after pick when its finished requests are reported twice (${language})`, async () => {
      const file = path.join(LC, language, `negative-count.${language === 'python' ? 'py' : 'js'}`);
      const outcome = await simulate('least-connections', file, { mistake: 'negative-count' });
      const { yours, reference } = outcome.result.runs;
      assert.equal(outcome.result.scenario.id, 'duplicate-done');
      assert.ok(Math.max(...queue(outcome, yours, 'b')) >= 30, `b's queue: ${queue(outcome, yours, 'b').join(' ')}`);
      assert.equal(Math.max(...queue(outcome, reference, 'b')), 0);
      assert.ok(sent(outcome, yours, 'b') > sent(outcome, reference, 'b') + 30);
      assert.match(
        outcome.result.sentence,
        /^Your check found “[^”]+”\. Under load that means b got \d+ of 240 requests and its queue reached \d+ and was still growing/,
      );
    });
  }

  it('a program that hangs mid-run ends it with a clear message and the ticks it completed', async () => {
    const outcome = await simulate('least-connections', path.join(LC, 'python', 'waits-for-room.py'), {
      answerTimeLimitMs: 1000,
    });
    const { yours, reference } = outcome.result.runs;
    assert.equal(yours.stopped?.tick, 2);
    assert.match(
      yours.stopped!.message,
      /^it stopped answering: no answer to "PICK" \(command \d+\) within \d+(\.\d)? s \(it may loop for ever/,
    );
    assert.deepEqual(yours.ticks, reference.ticks.slice(0, 1), 'until it hung it was right');
    assert.match(
      outcome.result.sentence,
      /^Your program stopped at tick 2 of 20, so its part of the chart ends there: it stopped answering/,
    );
    // Round robin and the reference still ran the whole scenario.
    assert.equal(reference.ticks.length, 20);
  });

  it('a program that starts a grandchild and stops answering: the run ends, and nothing it started survives', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-sim-grandchild-'));
    const marker = `lesson-companion-grandchild-${path.basename(dir)}`;
    try {
      const file = path.join(dir, 'balancer.py');
      fs.writeFileSync(
        file,
        fs
          .readFileSync(path.join(LC, 'python', 'spawns-grandchild.py'), 'utf8')
          .replace('lesson-companion-grandchild', marker),
      );
      const { result: outcome, mostSeen } = await watchWhile(marker, () =>
        simulate('least-connections', file, { answerTimeLimitMs: 1000 }),
      );
      assert.match(outcome.result.runs.yours.stopped!.message, /^it stopped answering/);
      assert.ok(mostSeen > 0, 'the grandchild did start');
      assert.deepEqual(await survivorsOf(marker), []);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a program that crashes ends the run at that command, with its traceback', async () => {
    const outcome = await simulate('least-connections', path.join(LC, 'python', 'crash-other.py'));
    const stopped = outcome.result.runs.yours.stopped!;
    // Tick 1's finished requests are written with tick 2's first pick: that is where it crashes.
    assert.equal(stopped.tick, 2);
    assert.equal(outcome.result.runs.yours.ticks.length, 1);
    assert.match(
      stopped.message,
      /^it crashed \(exit code 1\) at "DONE [abc]" \(command \d+\); its error output is below$/,
    );
    assert.match(stopped.details ?? '', /ZeroDivisionError/);
  });

  it('a debug print on stdout shifts the answers: the message says so', async () => {
    const outcome = await simulate('least-connections', path.join(LC, 'python', 'stray-prints.py'));
    const stopped = outcome.result.runs.yours.stopped!;
    assert.match(
      stopped.message,
      /which is not a server of the pool \(a, b, c\)\. If it prints anything else on stdout \(a debug print\), every later answer is shifted: print debugging to stderr$/,
    );
  });

  it('a program that reads all its input before answering is told it must answer each command at once', async () => {
    const outcome = await simulate('least-connections', path.join(LC, 'python', 'reads-all-stdin-first.py'), {
      answerTimeLimitMs: 500,
    });
    assert.match(
      outcome.result.runs.yours.stopped!.message,
      /wait to read all its input first: it must answer each command as soon as it reads it/,
    );
    assert.equal(outcome.result.runs.yours.ticks.length, 0);
  });

  describe('conn-counts, through its driver (a pick, then OPEN of the answer; a finished request is CLOSE)', () => {
    it("the correct Python module gives the reference's series, and counts as it should", async () => {
      const outcome = await simulate('conn-counts', path.join(CC, 'python', 'reference', 'least_conn.py'));
      assert.deepEqual(outcome.result.runs.yours, outcome.result.runs.reference);
      assert.deepEqual(outcome.transcript.slice(0, 4), ['RESET', 'BACKENDS a b c', 'PICK', 'OPEN a']);
      assert.ok(outcome.transcript.includes('CLOSE b'));
    });

    it('a JavaScript module whose count goes below zero piles up on b under duplicate reports', async () => {
      const outcome = await simulate('conn-counts', path.join(CC, 'javascript', 'negative-count', 'least_conn.js'), {
        scenario: 'duplicate-done',
      });
      assert.ok(Math.max(...queue(outcome, outcome.result.runs.yours, 'b')) >= 30);
      assert.equal(Math.max(...queue(outcome, outcome.result.runs.reference, 'b')), 0);
    });
  });

  describe('health-checks', () => {
    for (const scenario of ['server-down', 'all-down', 'comes-back']) {
      it(`a correct program gives the reference's series: ${scenario}`, async () => {
        const outcome = await simulate('health-checks', path.join(HC, 'python', 'min_over_candidates.py'), {
          scenario,
        });
        assert.deepEqual(outcome.result.runs.yours, outcome.result.runs.reference);
        assert.equal(
          outcome.result.runs.yours.ticks.reduce((n, t) => n + t.failed, 0),
          0,
        );
      });
    }
  });
});
