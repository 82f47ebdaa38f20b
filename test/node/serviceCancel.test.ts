/**
 * A cancelled check ends in the service (dist/service.js, a real process, with a real learner program that
 * never answers): once the cancel is sent, the learner program is gone and stays gone for 2 s, and the
 * service reports no phase of that check again. One moment with no learner process proves nothing: a check
 * that goes on running shows such a moment between two of its runs. The test speaks the service's protocol
 * itself (vscode-jsonrpc, as the client does) because the client stops listening to a check's phases once it
 * is cancelled, and this test must hear them if they come.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  CancellationTokenSource,
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import {
  checkRequest,
  initializeRequest,
  phaseNotification,
  SERVICE_PROTOCOL,
  shutdownRequest,
  statusRequest,
} from '../../src/node/service/protocol';

const ROOT = path.resolve(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'dist', 'service.js');
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python', 'hang.py');

/** Live processes whose command line holds `marker`. */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      found.push(Number(pid));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('a cancelled check in the service (dist/service.js, real processes)', function () {
  this.timeout(60_000);
  let child: ChildProcess;
  let connection: MessageConnection;
  let work: string;
  let cacheHome: string;
  /** The learner program, copied into this test's own folder: its path is a marker no other test's process holds. */
  let HANG: string;

  before(() => assert.ok(fs.existsSync(SCRIPT), 'dist/service.js is built (node esbuild.mjs)'));
  beforeEach(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-cancel-'));
    cacheHome = path.join(work, 'cache');
    HANG = path.join(work, 'hang.py');
    fs.copyFileSync(FIXTURE, HANG);
    child = spawn(process.execPath, [SCRIPT], {
      env: { ...process.env, LESSON_COMPANION_CACHE_DIR: cacheHome },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    connection.listen();
    await connection.sendRequest(initializeRequest, { protocol: SERVICE_PROTOCOL, clientPid: process.pid });
  });
  afterEach(async () => {
    await Promise.race([connection.sendRequest(shutdownRequest).catch(() => undefined), pause(2000)]);
    connection.dispose();
    child.kill('SIGKILL');
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('ends the learner program for good: none for 2 s after the cancel, and no phase after it', async () => {
    const phases: { phase: string; at: number }[] = [];
    connection.onNotification(phaseNotification, (params) => {
      if (params.progressToken === 'cancel-me') phases.push({ phase: params.phase, at: Date.now() });
    });
    const source = new CancellationTokenSource();
    const checking = connection.sendRequest(
      checkRequest,
      {
        packDir: path.join(ROOT, 'lessons', 'least-connections'),
        origin: 'built-in',
        language: 'python',
        file: HANG,
        progressToken: 'cancel-me',
      },
      source.token,
    );
    checking.catch(() => undefined);
    const started = Date.now();
    while (processesWith(HANG).length === 0) {
      assert.ok(Date.now() - started < 20_000, 'the learner program started within 20 s');
      await pause(20);
    }
    source.cancel();
    const cancelledAt = Date.now();
    await assert.rejects(checking, /cancel/i);
    // Gone within 1.5 s of the cancel (the sandbox may take a moment to end it)...
    while (processesWith(HANG).length > 0) {
      assert.ok(
        Date.now() - cancelledAt < 1500,
        `the learner program ended within 1.5 s: ${processesWith(HANG).join(', ')}`,
      );
      await pause(20);
    }
    // ...and then gone for good: looked for every 20 ms for 2 s, so that a next run would be seen starting.
    const goneAt = Date.now();
    while (Date.now() - goneAt < 2000) {
      assert.deepEqual(
        processesWith(HANG),
        [],
        `a learner process of the cancelled check ${Date.now() - goneAt} ms after it was gone`,
      );
      await pause(20);
    }
    // A phase sent before the cancel may arrive just after it; none may be started after the program was gone.
    assert.deepEqual(
      phases.filter((p) => p.at > goneAt).map((p) => p.phase),
      [],
      'no phase of the cancelled check after it ended',
    );
    // Nor does it leave an engine worker started for a next check: a cancel is not a finished check.
    assert.equal(
      (await connection.sendRequest(statusRequest)).warmEngine,
      null,
      'no engine worker waits after a cancel',
    );
  });
});
