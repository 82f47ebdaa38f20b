/**
 * A flat class folder (class/alice.py beside class/bob.py, as an LMS download lays it out): each submission
 * sees only its own file (issue 28). bob.py implements nothing and exec()s its classmate's alice.py; under
 * `check` and under `grade`, with bubblewrap and with unshare, bob fails and alice passes. Real processes.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ClassReport } from '../../src/core/grade/classReport';
import { checkFile } from '../../src/node/check/checker';
import { loadPack } from '../../src/node/packs/packs';
import { availableSandbox, forgetDetectedSandbox, type SandboxTool } from '../../src/node/sandbox/sandbox';

const ROOT = path.join(__dirname, '..', '..');
const LESSON = path.join(ROOT, 'lessons', 'least-connections');
const CORRECT = path.join(ROOT, 'test', 'fixtures', 'least-connections', 'python', 'correct.py');

/** Implements nothing: runs the classmate's file beside it as its own. */
const COPYCAT = `# lesson-companion: least-connections
import os
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "alice.py")) as f:
    exec(compile(f.read(), "alice.py", "exec"))
`;
import { runCli, type CliRun } from './inProcessCli';

const cli = (args: string[], cwd: string): Promise<CliRun> => runCli(args, cwd);

describe('a copycat in a flat class folder fails (real processes)', function () {
  this.timeout(180_000);
  let tmp: string;
  const saved = process.env.LESSON_COMPANION_SANDBOX_TOOL;

  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-copycat-')));
    const flat = path.join(tmp, 'class');
    fs.mkdirSync(flat);
    fs.copyFileSync(CORRECT, path.join(flat, 'alice.py'));
    fs.writeFileSync(path.join(flat, 'bob.py'), COPYCAT);
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.LESSON_COMPANION_SANDBOX_TOOL;
    else process.env.LESSON_COMPANION_SANDBOX_TOOL = saved;
    forgetDetectedSandbox();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function use(tool: SandboxTool, context: Mocha.Context): Promise<void> {
    process.env.LESSON_COMPANION_SANDBOX_TOOL = tool;
    forgetDetectedSandbox();
    if ((await availableSandbox())?.tool !== tool) context.skip();
  }

  for (const tool of ['bwrap', 'unshare'] as SandboxTool[]) {
    it(`${tool}: check fails bob, whose program runs alice.py, and passes alice`, async function () {
      await use(tool, this);
      const pack = await loadPack(LESSON, 'folder', { model: true });
      const check = (name: string): ReturnType<typeof checkFile> =>
        checkFile(pack, path.join(tmp, 'class', name), 'python', { sandbox: 'require', fuzzTranscripts: 4 });
      const [alice, bob] = [await check('alice.py'), await check('bob.py')];
      assert.equal(alice.status, 'pass', 'the classmate copied passes by itself');
      assert.notEqual(bob.status, 'pass', 'the copycat cannot read alice.py');
    });

    it(`${tool}: grade gives bob a failing row and alice a passing one`, async function () {
      await use(tool, this);
      const run = await cli(
        ['grade', 'class', '--lesson', LESSON, '--out', 'out', '--fuzz', '4', '--sandbox', 'require'],
        tmp,
      );
      const report = JSON.parse(fs.readFileSync(path.join(tmp, 'out', 'class-report.json'), 'utf8')) as ClassReport;
      const status = Object.fromEntries(report.rows.map((row) => [row.student, row.status]));
      assert.equal(status.alice, 'pass', run.err);
      assert.ok(status.bob && status.bob !== 'pass', `bob's row: ${status.bob}`);
    });
  }
});
