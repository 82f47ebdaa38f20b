/**
 * The command line against what a learner's program, a changed pack or a broken environment does to it:
 * no control character from the learner reaches the terminal, a changed installed pack is refused, and
 * every expected failure is said in words (no stack trace) while an unexpected one takes one line.
 *
 * Permission failures need a user the permissions apply to: as root (CI), those cases run the built CLI
 * as the unprivileged user 65534 ("nobody"); otherwise as the current user.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { COMMANDS, main } from '../../src/cli/main';
import { bundlePack } from '../../src/node/authoring/bundlePack';
import { installPack } from '../../src/node/packs/installPack';
import { assertWords, fakeIo, HOSTILE, makeCase, printTimings, ROOT, timed } from './hostileKit';
import { buildCliBundle } from './cliBundle';

const LEARNERS = path.join(HOSTILE, 'learners');
const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;

describe('hostile learners and environments (CLI)', function () {
  this.timeout(60_000);
  let tmp: string;
  let packsRoot: string;

  beforeEach(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-hostile-cli-'));
    await fs.chmod(tmp, 0o755);
    packsRoot = path.join(tmp, 'packs');
  });
  afterEach(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });
  after(() => printTimings('time to refuse or handle each hostile case'));

  describe('learner text on the terminal', () => {
    it('colour-debug.py: ANSI colours in stray prints and in the crash message are shown, not sent', async () => {
      const io = fakeIo(tmp, { LESSON_COMPANION_PACKS: packsRoot });
      const code = await timed('colour-debug.py', 'check (human report)', () =>
        main(['check', path.join(LEARNERS, 'colour-debug.py'), '--fuzz', '4'], io),
      );
      assert.equal(code, 1, io.stderr);
      assertWords(io.stdout, /\\u001b\[33mdebug\\u001b\[0m counts=/);
      assert.match(io.stdout, /RuntimeError: \\u001b\[1;31mempty pool\\u001b\[0m: nothing to pick/);
    });

    it('spoof-report.py: clear screen, C1 CSI, window title, OSC 8 link and bidi override reach no terminal', async () => {
      const io = fakeIo(tmp, { LESSON_COMPANION_PACKS: packsRoot });
      const code = await timed('spoof-report.py', 'check (human report)', () =>
        main(['check', path.join(LEARNERS, 'spoof-report.py'), '--fuzz', '4'], io),
      );
      assert.equal(code, 1, io.stderr);
      // What the report quotes of the program's output depends on the diagnosis; that none of it is raw does not.
      assertWords(io.stdout, /✗ \d+ of \d+ hidden transcripts pass/);
      assert.doesNotMatch(io.stdout, /^✓/m, "no line of the report is the program's fake verdict");
    });
  });

  describe('an installed pack changed after install', () => {
    let starter: string;
    const check = async (): Promise<{ code: number; io: ReturnType<typeof fakeIo> }> => {
      const io = fakeIo(tmp, { LESSON_COMPANION_PACKS: packsRoot });
      return { code: await main(['check', starter, '--lesson', 'demo', '--fuzz', '0'], io), io };
    };

    beforeEach(async () => {
      const dir = await makeCase(tmp, 'installed');
      const { file } = await bundlePack(dir, path.join(tmp, 'demo.lessonpack'), { validation: { runStarters: false } });
      await installPack(file, { packsRoot });
      starter = path.join(tmp, 'work', 'balancer.py');
      await fs.mkdir(path.dirname(starter));
      await fs.copyFile(path.join(dir, 'starter/python/balancer.py'), starter);
    });

    it('is refused before the check, naming the changed file and how to reinstall; a reinstall repairs it', async () => {
      assert.equal((await check()).code, 1, 'the untouched pack checks the unsolved starter: it fails');
      await fs.writeFile(path.join(packsRoot, 'demo/transcripts/hidden.txt'), '=== easy: nothing to see\n> POOL\nOK\n');
      const changed = await timed('changed-transcript', 'check refused', check);
      assert.equal(changed.code, 2);
      assertWords(
        changed.io.stderr,
        /The installed lesson pack "demo" was changed after it was installed: transcripts\/hidden\.txt is not the file that was installed\. .*none was run\. Reinstall the pack from its \.lessonpack file with `lesson-companion install <file>\.lessonpack --force`/,
      );
      assert.equal(changed.io.stdout, '', 'no report');
      const io = fakeIo(tmp);
      assert.equal(
        await main(['install', path.join(tmp, 'demo.lessonpack'), '--force', '--yes', '--packs-dir', packsRoot], io),
        0,
        io.stderr,
      );
      assert.equal((await check()).code, 1, 'reinstalled: checks run again');
    });

    it('an added file (a module a driver would import first) and a missing manifest are refused too', async () => {
      await fs.writeFile(path.join(packsRoot, 'demo/model/importlib.py'), 'raise SystemExit(0)\n');
      const added = await timed('added-file', 'check refused', check);
      assert.equal(added.code, 2);
      assertWords(added.io.stderr, /was changed after it was installed: model\/importlib\.py was added/);
      await fs.rm(path.join(packsRoot, 'demo/model/importlib.py'));
      await fs.rm(path.join(packsRoot, 'demo/manifest.lessonpack.json'));
      const unlisted = await check();
      assert.equal(unlisted.code, 2);
      assertWords(unlisted.io.stderr, /its manifest\.lessonpack\.json, the list of what was installed, is missing/);
    });
  });

  describe('expected failures in words, unexpected ones in one line', () => {
    let cli: string;
    before(async function () {
      this.timeout(120_000);
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-hostile-bundle-'));
      await fs.chmod(dir, 0o755);
      await fs.symlink(path.join(ROOT, 'lessons'), path.join(dir, 'lessons'));
      cli = path.join(dir, 'dist', 'cli.js');
      await buildCliBundle(cli);
      await fs.chmod(path.dirname(cli), 0o755);
    });
    after(async () => {
      await fs.rm(path.dirname(path.dirname(cli)), { recursive: true, force: true });
    });

    /** The built CLI as an unprivileged user, so that file permissions apply. */
    const runUnprivileged = (
      args: string[],
      env: NodeJS.ProcessEnv,
    ): Promise<{ code: number; stdout: string; stderr: string }> =>
      new Promise((resolve) => {
        const options = {
          cwd: tmp,
          env: { PATH: process.env.PATH, NO_COLOR: '1', LESSON_COMPANION_PACKS: packsRoot, ...env },
          ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
        };
        execFile(process.execPath, [cli, ...args], options, (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
        );
      });

    it('`new` in a read-only folder', async () => {
      const readOnly = path.join(tmp, 'read-only');
      await fs.mkdir(readOnly, { mode: 0o555 });
      await fs.chmod(readOnly, 0o555);
      const result = await timed('new-read-only', 'new refused', () =>
        runUnprivileged(['new', 'demo', '--dir', readOnly], {}),
      );
      assert.equal(result.code, 2, result.stderr);
      assertWords(
        result.stderr,
        /cannot write .*read-only\/demo\/lesson\.json: permission denied\. Make the pack somewhere you can write to/,
      );
      assert.deepEqual(await fs.readdir(readOnly), []);
    });

    it('install with an unwritable HOME', async () => {
      const home = path.join(tmp, 'home');
      await fs.mkdir(home, { mode: 0o555 });
      await fs.chmod(home, 0o555);
      const { file } = await bundlePack(await makeCase(tmp, 'pack'), path.join(tmp, 'demo.lessonpack'), {
        validation: { runStarters: false },
      });
      await fs.chmod(file, 0o644);
      const result = await timed('unwritable-home', 'install refused', () =>
        runUnprivileged(['install', file], { HOME: home, LESSON_COMPANION_PACKS: '' }),
      );
      assert.equal(result.code, 1, result.stderr);
      assertWords(
        result.stderr,
        /cannot install into .*home\/\.local\/share\/lesson-companion\/packs: permission denied; nothing was installed\. Choose a folder you can write to with --packs-dir or LESSON_COMPANION_PACKS\./,
      );
      assert.deepEqual(await fs.readdir(home), []);
    });

    it('TypeScript the checker cannot read: a learner module, and a pack model', async () => {
      const work = path.join(tmp, 'work');
      await fs.mkdir(work);
      const pack = await makeCase(tmp, 'pack');
      await fs.copyFile(path.join(pack, 'starter/typescript/balancer.ts'), path.join(work, 'balancer.ts'));
      await fs.appendFile(path.join(work, 'balancer.ts'), "\nimport './helper';\n");
      await fs.writeFile(path.join(work, 'helper.ts'), 'export const x = 1;\n', { mode: 0o000 });
      await fs.chmod(path.join(work, 'helper.ts'), 0o000);
      const learner = await timed('unreadable-ts', 'check', () =>
        runUnprivileged(['check', path.join(work, 'balancer.ts'), '--lesson', pack, '--fuzz', '0'], {}),
      );
      assert.equal(learner.code, 1, learner.stderr);
      // A module beside the file that the starter's layout does not declare is not in the check's view (issue
      // 28: a flat folder shows the learner file alone), so the import fails in the program, said as its crash.
      assertWords(learner.stdout, /Cannot find module '\.\/helper'/);
      // ...and the card says why it is not found, and what to do, rather than leaving a file that is there unfound.
      assertWords(
        learner.stdout,
        /If `\.\/helper` is a file of yours beside balancer\.ts: a check shows your program only balancer\.ts/,
      );
      await fs.chmod(path.join(pack, 'model/model.js'), 0o000);
      const model = await timed('unreadable-model', 'validate', () => runUnprivileged(['validate', pack], {}));
      assert.equal(model.code, 1, model.stderr);
      assertWords(model.stdout, /cannot read model\/model\.js: permission denied/);
    });

    it('a TMPDIR that does not exist', async () => {
      const pack = await makeCase(tmp, 'pack');
      const env = { TMPDIR: path.join(tmp, 'no-such-tmp') };
      const check = await timed('missing-tmpdir', 'check refused', () =>
        runUnprivileged(['check', path.join(pack, 'starter/typescript/balancer.ts'), '--lesson', pack], env),
      );
      assert.equal(check.code, 2, check.stderr);
      assertWords(
        check.stderr,
        /cannot create a temporary folder in .*no-such-tmp: it does not exist\. Set TMPDIR to a folder that exists and that you can write to, or unset it\./,
      );
      const validate = await timed('missing-tmpdir', 'validate refused', () =>
        runUnprivileged(['validate', pack], env),
      );
      assert.equal(validate.code, 2, validate.stderr);
      assertWords(validate.stderr, /cannot create a temporary folder in .*no-such-tmp/);
    });

    it('an unexpected error: one line, and the stack with --debug', async () => {
      COMMANDS.push({
        name: 'crash-for-test',
        usage: 'crash-for-test',
        summary: 'throws',
        run: async () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'x')\n  more")),
      });
      try {
        const io = fakeIo(tmp);
        assert.equal(await main(['crash-for-test'], io), 2);
        assert.equal(
          io.stderr,
          "lesson-companion crash-for-test: unexpected error: Cannot read properties of undefined (reading 'x') (run again with --debug to see where)\n",
        );
        const debug = fakeIo(tmp);
        assert.equal(await main(['crash-for-test', '--debug'], debug), 2);
        assert.match(debug.stderr, /^lesson-companion crash-for-test: TypeError: Cannot read properties[^]*\n\s+at /);
      } finally {
        COMMANDS.pop();
      }
    });
  });
});
