/**
 * The sandbox itself, with each tool this machine has (bubblewrap, and util-linux unshare, which is used
 * where bubblewrap is missing): what a program run in it can see, write and leave behind. A real Python
 * process plays a pack driver that probes its surroundings and prints what it found.
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { containProgram } from '../../src/node/sandbox/contain';
import type { PreparedProgram } from '../../src/node/languages/languages';
import { availableSandbox, forgetDetectedSandbox, type SandboxTool } from '../../src/node/sandbox/sandbox';
import { survivorsOf } from './processWatch';

const PROBE = `
import json, os, subprocess, sys
def can_write(path):
    try:
        with open(path, "w") as f:
            f.write("x")
        return True
    except OSError:
        return False
subprocess.Popen(["sh", "-c", "sleep 300; : " + sys.argv[3]], start_new_session=True)
work = os.path.dirname(sys.argv[1])
print(json.dumps({
    "driver": sys.argv[0],
    "cwd": os.getcwd(),
    "env": sorted(set(os.environ) - {"LC_CTYPE"}),
    "uid": os.getuid(),
    "pack": os.path.exists(sys.argv[2]),
    "pack_inside_learner_folder": os.listdir(os.path.join(work, "lessons", "inside")),
    "learner_file": open(sys.argv[1]).read(),
    "write_learner_folder": can_write(os.path.join(work, "planted")),
    "write_tmp": can_write("/tmp/planted"),
    "write_root": can_write("/planted"),
    "processes": len([p for p in os.listdir("/proc") if p.isdigit()]),
}))
`;

describe('the sandbox (real processes)', function () {
  this.timeout(30_000);
  let tmp: string;
  const savedTool = process.env.LESSON_COMPANION_SANDBOX_TOOL;

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-sandbox-'));
  });
  afterEach(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  after(() => {
    if (savedTool === undefined) delete process.env.LESSON_COMPANION_SANDBOX_TOOL;
    else process.env.LESSON_COMPANION_SANDBOX_TOOL = savedTool;
    forgetDetectedSandbox();
  });

  for (const tool of ['bwrap', 'unshare'] as SandboxTool[]) {
    it(`${tool}: the driver file alone, the learner's folder read-only without the pack in it, a private /tmp, nobody, an allowlisted environment, and nothing left`, async function () {
      process.env.LESSON_COMPANION_SANDBOX_TOOL = tool;
      forgetDetectedSandbox();
      const found = await availableSandbox();
      if (found?.tool !== tool) {
        // Not a failure: this machine lacks the tool, or forbids the user namespaces it needs.
        this.skip();
      }
      const pack = path.join(tmp, 'pack');
      const work = path.join(tmp, 'work');
      fs.mkdirSync(path.join(pack, 'transcripts'), { recursive: true });
      fs.mkdirSync(path.join(work, 'lessons', 'inside', 'transcripts'), { recursive: true });
      fs.writeFileSync(path.join(pack, 'transcripts', 'hidden.txt'), 'PICK\n> a\n');
      fs.writeFileSync(path.join(work, 'lessons', 'inside', 'transcripts', 'hidden.txt'), 'PICK\n> a\n');
      fs.writeFileSync(path.join(pack, 'driver.py'), PROBE);
      fs.writeFileSync(path.join(work, 'learner.py'), 'print("the learner")\n');
      const marker = `lc-sandbox-probe-${randomBytes(6).toString('hex')}`;
      const program: PreparedProgram = {
        runtime: 'python',
        command: 'python3',
        args: [
          path.join(pack, 'driver.py'),
          path.join(work, 'learner.py'),
          path.join(pack, 'transcripts', 'hidden.txt'),
          marker,
        ],
        cwd: work,
        readable: [work],
        packFiles: [path.join(pack, 'driver.py')],
        fileName: 'learner.py',
        dispose: async () => undefined,
      };
      const launch = await containProgram(program, {
        setting: 'require',
        hidden: [pack, path.join(work, 'lessons', 'inside')],
      });
      assert.equal(launch.containment, 'sandbox');
      const result = await launch.run('', { timeLimitMs: 20_000, outputLimitBytes: 64 * 1024 });
      assert.equal(result.exitCode, 0, result.stderr);
      const seen = JSON.parse(result.stdout) as Record<string, unknown>;
      assert.deepEqual(seen, {
        driver: '/lesson/driver.py',
        cwd: '/tmp',
        // PWD is set by the sandbox tool to the private /tmp.
        env: [
          'HOME',
          'LANG',
          'PATH',
          'PWD',
          'PYTHONDONTWRITEBYTECODE',
          'PYTHONIOENCODING',
          'PYTHONUNBUFFERED',
          'TERM',
          'TMPDIR',
        ]
          .concat(process.env.LC_ALL ? ['LC_ALL'] : [])
          .sort(),
        uid: 65534,
        pack: false,
        pack_inside_learner_folder: [],
        learner_file: 'print("the learner")\n',
        write_learner_folder: false,
        write_tmp: true,
        write_root: false,
        // The program, the grandchild it started, and the sandbox's own init: not the machine's processes.
        processes: seen.processes,
      });
      assert.ok((seen.processes as number) <= 5, `${String(seen.processes)} processes visible`);
      assert.deepEqual(fs.readdirSync(work).sort(), ['learner.py', 'lessons']);
      assert.deepEqual(await survivorsOf(marker), []);
    });
  }
});
