/**
 * Every process of a check ends with it in the check service (issue 29): twelve concurrent checks, a cancel
 * storm, and a service killed with SIGKILL leave no bwrap, unshare, engine or learner process after 2 s.
 * The learner file and the pack live in this test's own folder, so every process of these checks (the
 * sandbox tool binds both by path) has that folder in its command line. dist/service.js (`node esbuild.mjs`
 * first), the sandbox this machine picks, real processes.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckServiceClient } from '../../src/node/service/client';
import type { LessonTarget } from '../../src/node/service/protocol';

const ROOT = path.resolve(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'dist', 'service.js');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python');
const CHECKS = 12;

/** Live (not zombie) processes whose command line holds `marker`, with it. */
function processesWith(marker: string): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.includes(marker)) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      found.push(`${pid} ${cmdline.replace(/\0/g, ' ').slice(0, 120)}`);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

describe('no process of a service check outlives it (real processes)', function () {
  this.timeout(180_000);
  let tmp: string;
  let client: CheckServiceClient;
  let target: LessonTarget;

  before(() => assert.ok(fs.existsSync(SCRIPT), 'run `node esbuild.mjs` first'));
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-service-life-')));
    const pack = path.join(tmp, 'pack');
    fs.cpSync(path.join(ROOT, 'lessons', 'least-connections'), pack, { recursive: true });
    for (const name of ['correct.py', 'hang.py', 'spawns-grandchild.py'])
      fs.copyFileSync(path.join(FIXTURES, name), path.join(tmp, name));
    target = { packDir: pack, origin: 'folder', language: 'python' };
    client = new CheckServiceClient({ script: SCRIPT, node: process.execPath, env: { ...process.env } });
  });
  afterEach(async () => {
    await client.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const left = async (): Promise<string[]> => {
    await until(() => processesWith(tmp).length === 0, 2000);
    return processesWith(tmp);
  };

  // Seen failing (1 run of 2) before the outer bwrap was tied to the service by setpriv: one bubblewrap was
  // still alive 2 s after the service ended (src/node/sandbox/contain.ts says why).
  it('twelve concurrent checks, then the service ends: nothing left after 2 s', async () => {
    const names = ['correct.py', 'hang.py', 'spawns-grandchild.py'];
    const reports = await Promise.allSettled(
      Array.from({ length: CHECKS }, (_, i) =>
        client.check({ ...target, file: path.join(tmp, names[i % names.length]!), timeLimitMs: 3000 }),
      ),
    );
    assert.ok(
      reports.some((r) => r.status === 'fulfilled' && r.value.status === 'pass'),
      'the checks ran',
    );
    await client.dispose();
    assert.deepEqual(await left(), []);
  });

  it('a cancel storm: twelve checks cancelled as they run leave nothing after 2 s', async () => {
    const stops = Array.from({ length: CHECKS }, () => new AbortController());
    const checks = stops.map((stop) =>
      client.check({ ...target, file: path.join(tmp, 'hang.py') }, () => undefined, stop.signal),
    );
    await until(() => processesWith(path.join(tmp, 'hang.py')).length > 0, 30_000);
    for (const stop of stops) stop.abort();
    await Promise.allSettled(checks);
    assert.deepEqual(await left(), []);
  });

  // Seen failing (1 run of 20 under load) before the client swept the service's mark: a bwrap child killed
  // in its setup waits for ever for its parent (src/node/sandbox/ownerMark.ts; test/node/ownerMark.test.ts
  // makes that state on purpose).
  it('a service killed with SIGKILL under twelve checks leaves nothing after 2 s', async () => {
    const checks = Array.from({ length: CHECKS }, () => client.check({ ...target, file: path.join(tmp, 'hang.py') }));
    assert.ok(await until(() => processesWith(path.join(tmp, 'hang.py')).length >= 2, 30_000), 'programs started');
    process.kill(client.pid!, 'SIGKILL');
    await Promise.allSettled(checks);
    assert.deepEqual(await left(), []);
  });
});
