/**
 * The engine worker's quiet limit is charged in its own CPU time (workerSession.ts): a worker that a loaded
 * machine gives a sliver of a core is not stopped as "its reference model may loop for ever" while it computes
 * a diagnosis that takes a fraction of the limit on a quiet machine; a model that does loop still is.
 * Real processes: the CLI and its worker share one core (taskset) at nice 5 with four busy loops at nice 0, each
 * loop in a session of its own. The worker's sandbox (bwrap --new-session) is a session of its own too, and where
 * the kernel groups the scheduler by session (autogroup) nice counts only inside a session: with the loops in the
 * test's session the worker got half the core whatever their nice. This way it gets about a sixth with autogroup,
 * a thirteenth without. The quiet limit is 3 s: the diagnosis's longest quiet span is about 0.5 s of CPU on a
 * quiet machine and up to 1 s time-sliced with the loops (seen), several seconds of wall time at this share.
 * Runs on its own (scripts/test.sh): it loads a core.
 */
import * as assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
// Its ties are two random draws (gRPC-Go's least_request): its diagnosis computes in quiet spans of up to a second
// of CPU, several times the limit in wall time on this share of a core.
const PROGRAM = path.join(
  ROOT,
  'test',
  'fixtures',
  'real-style',
  'least-connections',
  'javascript',
  'grpc_least_request.js',
);

const QUIET_LIMIT_MS = 3000;
const BUSY_LOOPS = 4;

function onCoreZero(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; ownSession?: boolean } = {},
): ChildProcess {
  return spawn('taskset', ['-c', '0', command, ...args], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // detached: setsid, a session (and a scheduler autogroup) of its own, as the worker's sandbox has.
    detached: options.ownSession ?? false,
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
    for (let i = 0; i < BUSY_LOOPS; i++) {
      loops.push(onCoreZero('sh', ['-c', 'while :; do :; done'], { ownSession: true }));
    }
  });
  after(() => {
    for (const loop of loops) loop.kill('SIGKILL');
  });

  it("a random program's check with a 3 s quiet limit ends in its verdict on a sliver of a core", async () => {
    const check = onCoreZero('nice', ['-n', '5', process.execPath, CLI, 'check', PROGRAM, '--json'], {
      env: { LESSON_COMPANION_ENGINE_QUIET_MS: String(QUIET_LIMIT_MS) },
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
