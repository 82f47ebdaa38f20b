/**
 * The engine worker's quiet limit is charged in its own CPU time (workerSession.ts): a worker that a loaded
 * machine gives a sliver of a core is not stopped as "its reference model may loop for ever" while it computes
 * a diagnosis that takes a fraction of the limit on a quiet machine; a model that does loop still is.
 * Real processes: the CLI and its worker share one core (taskset) at nice 5 with two busy loops at nice 0, so
 * they get about a seventh of it; the quiet limit is 1 s. Runs on its own (scripts/test.sh): it loads a core.
 */
import * as assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
// Its ties are two random draws (gRPC-Go's least_request): a diagnosis of about a second of CPU, in quiet spells of
// several times the limit on this share of a core.
const PROGRAM = path.join(
  ROOT,
  'test',
  'fixtures',
  'real-style',
  'least-connections',
  'javascript',
  'grpc_least_request.js',
);

function onCoreZero(command: string, args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn('taskset', ['-c', '0', command, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const hasTaskset = ((): boolean => {
  try {
    execFileSync('taskset', ['-c', '0', 'true']);
    return true;
  } catch {
    return false;
  }
})();

describe('the engine worker starved of CPU is not taken for a model that loops (real processes)', function () {
  this.timeout(240_000);
  const loops: ChildProcess[] = [];
  before(function () {
    if (!hasTaskset) this.skip();
    for (let i = 0; i < 2; i++) loops.push(onCoreZero('sh', ['-c', 'while :; do :; done']));
  });
  after(() => {
    for (const loop of loops) loop.kill('SIGKILL');
  });

  it("a random program's check with a 1 s quiet limit ends in its verdict on a seventh of a core", async () => {
    const check = onCoreZero('nice', ['-n', '5', process.execPath, CLI, 'check', PROGRAM, '--json'], {
      LESSON_COMPANION_ENGINE_QUIET_MS: '1000',
    });
    let stdout = '';
    let stderr = '';
    check.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    check.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const started = performance.now();
    await new Promise((resolve) => check.on('close', resolve));
    const report = JSON.parse(stdout) as {
      status: string;
      mistakes: { id: string }[];
      problems: { kind: string; message: string }[];
    };
    const said = `${Math.round(performance.now() - started)} ms: ${stdout.slice(0, 1500)} ${stderr.slice(0, 500)}`;
    assert.deepEqual(
      report.problems.filter((p) => p.kind === 'model-error' || /computed for more than/.test(p.message)),
      [],
      said,
    );
    assert.equal(report.status, 'fail', said);
    assert.ok(
      report.problems.some((p) => p.kind === 'nondeterministic'),
      said,
    );
  });
});
