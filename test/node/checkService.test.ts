/**
 * The resident check service (dist/service.js) through the client the extension uses, with real processes:
 * it is reused between checks, it says so in words when it dies under a check and the next check starts a
 * new one, a pack changed on disk is seen, a cancelled check ends the learner's program, the learner's program
 * runs below the editor's priority, and nothing it keeps is written to disk.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckServiceClient, ServiceError } from '../../src/node/service/client';
import type { LessonTarget } from '../../src/node/service/protocol';

const ROOT = path.resolve(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'dist', 'service.js');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python');
const lesson: LessonTarget = {
  packDir: path.join(ROOT, 'lessons', 'least-connections'),
  origin: 'built-in',
  language: 'python',
};

/** Live processes whose command line holds `marker`, with their nice values. */
function processesWith(marker: string): { pid: number; nice: number }[] {
  const found: { pid: number; nice: number }[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      found.push({ pid: Number(pid), nice: Number(fields[16]) });
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
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return condition();
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('the check service (dist/service.js, real processes)', function () {
  this.timeout(60000);
  let cacheHome: string;
  let client: CheckServiceClient;
  const savedCache = process.env.LESSON_COMPANION_CACHE_DIR;

  before(() => assert.ok(fs.existsSync(SCRIPT), 'dist/service.js is built (npm run build)'));
  beforeEach(() => {
    cacheHome = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-service-cache-'));
    client = new CheckServiceClient({
      script: SCRIPT,
      node: process.execPath,
      env: { ...process.env, LESSON_COMPANION_CACHE_DIR: cacheHome },
    });
  });
  afterEach(async () => {
    await client.dispose();
    fs.rmSync(cacheHome, { recursive: true, force: true });
    if (savedCache === undefined) delete process.env.LESSON_COMPANION_CACHE_DIR;
    else process.env.LESSON_COMPANION_CACHE_DIR = savedCache;
  });

  it('serves two checks in a row from one service; the second of a correct program is one run', async () => {
    await client.warm(lesson);
    const pid = client.pid;
    assert.ok(pid, 'the service runs after the warm-up');
    // Its young generation is bounded, so that its memory does not grow with checks (client.ts).
    assert.match(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'), /--max-semi-space-size=1\0/);
    assert.match(fs.readFileSync(`/proc/${pid}/environ`, 'utf8'), /(?:^|\0)MALLOC_ARENA_MAX=1\0/);
    const file = path.join(FIXTURES, 'correct.py');
    const first = await client.check({ ...lesson, file });
    const second = await client.check({ ...lesson, file });
    assert.equal(first.status, 'pass');
    assert.equal(second.status, 'pass');
    assert.equal(second.checks.total, first.checks.total);
    assert.equal(second.processRuns, 1, 'the passing batch kept in memory: one run, no engine');
    assert.equal(client.pid, pid, 'the same service');
    assert.equal(client.starts, 1);
    const collectedBefore = (await client.status()).collections;
    const mistaken = await client.check({ ...lesson, file: path.join(FIXTURES, 'late-increment.py') });
    assert.equal(mistaken.status, 'fail');
    assert.deepEqual(
      mistaken.mistakes.map((m) => m.id),
      ['late-increment'],
    );
    const status = await client.status();
    assert.equal(status.checks, 3);
    assert.equal(status.passingBatches, 1);
    // A full collection once the last check had answered, on the service's next turn (idleCollection.ts); one after
    // an earlier check may have been cancelled by the next check's start, so at most one for each check.
    let collections = status.collections;
    for (let i = 0; i < 80 && collections <= collectedBefore; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      collections = (await client.status()).collections;
    }
    assert.ok(collections > collectedBefore && collections <= 3, `${collectedBefore} then ${collections} collections`);
  });

  it('prepares the first check at warm-up: a correct program passes on one run, and the waiting worker stays for the next', async () => {
    await client.warm(lesson);
    const warmed = await client.status();
    assert.equal(warmed.passingBatches, 1, 'the warm-up knows the passing batch');
    assert.equal(warmed.enginesStarted, 1);
    const first = await client.check({ ...lesson, file: path.join(FIXTURES, 'correct.py') });
    assert.equal(first.status, 'pass');
    assert.equal(first.processRuns, 1, 'the first check after the warm-up is one run, no engine');
    const after = await client.status();
    assert.equal(after.enginesStarted, 1, 'the pass left the waiting worker waiting: no worker started again');
    assert.equal(after.warmEngine, lesson.packDir);
    // The worker that loaded the pack meanwhile checks a mistaken program.
    const mistaken = await client.check({ ...lesson, file: path.join(FIXTURES, 'late-increment.py') });
    assert.deepEqual(
      mistaken.mistakes.map((m) => m.id),
      ['late-increment'],
    );
    // The next worker is started after the check has answered.
    const end = Date.now() + 10000;
    while ((await client.status()).enginesStarted < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    assert.equal((await client.status()).enginesStarted, 2, 'one more waits for the next check');
  });

  it('says in words when the service dies under a check, and the next check starts a new one', async () => {
    const file = path.join(FIXTURES, 'hang.py');
    const checking = client.check({ ...lesson, file });
    assert.ok(await until(() => processesWith(file).length > 0, 20000), 'the learner program started');
    const pid = client.pid!;
    process.kill(pid, 'SIGKILL');
    await assert.rejects(checking, (error: unknown) => {
      assert.ok(error instanceof ServiceError);
      assert.match(error.message, /check service stopped \(stopped by SIGKILL\) during the check/);
      assert.match(error.message, /next check starts a new service/);
      return true;
    });
    const again = await client.check({ ...lesson, file: path.join(FIXTURES, 'correct.py') });
    assert.equal(again.status, 'pass');
    assert.notEqual(client.pid, pid);
    assert.equal(client.starts, 2);
  });

  it('uses a pack changed on disk between two checks', async () => {
    const pack = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-service-pack-'));
    try {
      fs.cpSync(lesson.packDir, pack, { recursive: true });
      const target: LessonTarget = { ...lesson, packDir: pack, origin: 'folder' };
      const file = path.join(FIXTURES, 'correct.py');
      const before = await client.check({ ...target, file });
      const manifestFile = path.join(pack, 'lesson.json');
      const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { transcripts: string[] };
      const dropped = manifest.transcripts.pop()!;
      fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
      const after = await client.check({ ...target, file });
      assert.equal(after.status, 'pass');
      assert.ok(
        !after.transcripts.some((t) => before.transcripts.find((b) => b.name === t.name) === undefined),
        'no transcript appears from nowhere',
      );
      assert.ok(
        after.checks.total < before.checks.total,
        `the transcripts of ${dropped} are gone: ${before.checks.total} → ${after.checks.total}`,
      );
      assert.equal(client.starts, 1);
    } finally {
      fs.rmSync(pack, { recursive: true, force: true });
    }
  });

  it('starts a new engine when the pack folder is replaced behind the same path (no stale transcripts)', async () => {
    // A sandboxed worker binds the pack folder it was started for: after a rename it still sees the old one.
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-service-replaced-'));
    try {
      const pack = path.join(parent, 'lesson');
      fs.cpSync(lesson.packDir, pack, { recursive: true });
      const target: LessonTarget = { ...lesson, packDir: pack, origin: 'folder' };
      const file = path.join(FIXTURES, 'correct.py');
      assert.equal((await client.check({ ...target, file })).status, 'pass');
      const waiting = async (): Promise<boolean> => (await client.status()).warmEngine === pack;
      const end = Date.now() + 20000;
      while (!(await waiting()) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.ok(await waiting(), 'a worker waits for the old pack');
      fs.renameSync(pack, path.join(parent, 'old'));
      fs.cpSync(path.join(ROOT, 'lessons', 'health-checks'), pack, { recursive: true });
      const after = await client.check({ ...target, file });
      assert.notEqual(after.status, 'pass', 'checked against the pack now at that path, not the one the worker saw');
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it('ends the learner program when a check is cancelled, and runs it below the editor', async () => {
    const file = path.join(FIXTURES, 'hang.py');
    const abort = new AbortController();
    const checking = client.check({ ...lesson, file }, undefined, abort.signal);
    assert.ok(await until(() => processesWith(file).length > 0, 20000), 'the learner program started');
    const seen = processesWith(file);
    assert.ok(
      seen.every((p) => p.nice === 10),
      `nice values: ${seen.map((p) => p.nice).join(', ')}`,
    );
    abort.abort();
    await assert.rejects(checking, (error: unknown) => error instanceof ServiceError && error.cancelled);
    // 5 s, not less: the service runs below the editor (nice 10), so beside a busy neighbour it gets a tenth of a
    // core to hear the cancel. A leak would stay for ever (a bwrap child caught in its setup: ownerMark.ts).
    const ended = await until(() => processesWith(file).length === 0, 5000);
    assert.ok(ended, `nothing of the cancelled check is left after 5 s: ${JSON.stringify(processesWith(file))}`);
    const next = await client.check({ ...lesson, file: path.join(FIXTURES, 'correct.py') });
    assert.equal(next.status, 'pass', 'the service works on after a cancel');
  });

  it('refuses a pack that is not one, in words, and works on', async () => {
    const notAPack = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-service-nopack-'));
    try {
      await assert.rejects(
        client.check({ ...lesson, packDir: notAPack, origin: 'folder', file: path.join(FIXTURES, 'correct.py') }),
        (error: unknown) => {
          assert.ok(error instanceof ServiceError && error.refused);
          assert.match(error.message, /lesson\.json/);
          return true;
        },
      );
      assert.equal((await client.check({ ...lesson, file: path.join(FIXTURES, 'correct.py') })).status, 'pass');
    } finally {
      fs.rmSync(notAPack, { recursive: true, force: true });
    }
  });

  it("refuses a lesson that has no version in the learner's language, naming the ones it has, and works on", async () => {
    // The lesson as a folder pack with its TypeScript version taken out of lesson.json (the files may stay).
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-service-nots-'));
    try {
      fs.cpSync(path.join(ROOT, 'lessons', 'least-connections'), copy, { recursive: true });
      const manifest = JSON.parse(fs.readFileSync(path.join(copy, 'lesson.json'), 'utf8'));
      delete manifest.starters.typescript;
      fs.writeFileSync(path.join(copy, 'lesson.json'), JSON.stringify(manifest, null, 2));
      const file = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'typescript', 'correct.ts');
      const target = { ...lesson, packDir: copy, origin: 'folder' as const, language: 'typescript' as const };
      await assert.rejects(client.check({ ...target, file }), (error: unknown) => {
        assert.ok(error instanceof ServiceError && error.refused, String(error));
        assert.match(error.message, /has no typescript version \(it has python, javascript\)/);
        return true;
      });
      // Warming such a lesson is no failure (a head start only), and leaves no engine waiting for it.
      await client.warm(target);
      assert.equal((await client.check({ ...lesson, file: path.join(FIXTURES, 'correct.py') })).status, 'pass');
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  it('writes no answer and no command line to the cache folder', async () => {
    await client.check({ ...lesson, file: path.join(FIXTURES, 'correct.py') });
    await client.check({ ...lesson, file: path.join(FIXTURES, 'correct.py') });
    await client.check({ ...lesson, file: path.join(FIXTURES, 'tiebreak-name.py') });
    const files = filesUnder(cacheHome).map((f) => path.relative(cacheHome, f));
    // Only where an interpreter behind a version manager's shim lives may be kept (it still runs contained).
    assert.deepEqual(
      files.filter((f) => !f.startsWith(`interpreters${path.sep}`)),
      [],
    );
    for (const f of files) {
      const text = fs.readFileSync(path.join(cacheHome, f), 'utf8');
      assert.doesNotMatch(text, /PICK|STATUS|POOL|DONE/, `${f} holds no command of a transcript`);
    }
  });
});
