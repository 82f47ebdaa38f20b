/**
 * Tests that notice mutations a hand audit found surviving (issue 29, docs/mutation.md): the sandbox
 * binding all of /etc instead of the files interpreters read, resolveInside taking a sibling folder
 * whose name starts with the pack's (`demo-evil` for `demo`), the sandbox's root left writable, and a
 * sandbox without a network namespace of its own. Real processes and real folders, each sandbox tool in turn.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { containProgram } from '../../src/node/sandbox/contain';
import { DEFAULT_INTERPRETERS, prepareProgram } from '../../src/node/languages/languages';
import { resolveInside } from '../../src/node/packs/packs';
import { availableSandbox, forgetDetectedSandbox, type SandboxTool } from '../../src/node/sandbox/sandbox';
import { ETC_FILES } from '../../src/node/sandbox/sandboxView';
import * as net from 'node:net';

/** Runs `source` as a Python learner program in `tool`'s sandbox; undefined where that tool is not here. */
async function runIn(
  tool: SandboxTool,
  dir: string,
  source: string,
): Promise<{ stdout: string; stderr: string; exitCode: number | null } | undefined> {
  process.env.LESSON_COMPANION_SANDBOX_TOOL = tool;
  forgetDetectedSandbox();
  if ((await availableSandbox())?.tool !== tool) return undefined;
  const learner = path.join(dir, 'probe.py');
  fs.writeFileSync(learner, source);
  const program = await prepareProgram('python', learner, DEFAULT_INTERPRETERS);
  const launch = await containProgram(program, { setting: 'require', hidden: [] });
  return launch.run('', { timeLimitMs: 20_000, outputLimitBytes: 64 * 1024 });
}

/** Tries to write where only the private /tmp may be written, and prints each place that took a file. */
const WRITES = `
import json, os
written = []
for place in ["/", "/usr", "/etc", "/proc/sys", "/dev"]:
    try:
        with open(os.path.join(place, "lc-probe-written"), "w") as f:
            f.write("x")
        written.append(place)
    except OSError:
        pass
with open("/tmp/lc-probe-written", "w") as f:
    f.write("x")
print(json.dumps(written))
`;

/** Connects to the host's loopback port given in the source; prints what happened. */
const CONNECTS = (port: number): string => `
import socket
try:
    s = socket.create_connection(("127.0.0.1", ${port}), timeout=3)
    s.sendall(b"hello from the sandbox\\n")
    s.close()
    print("CONNECTED")
except OSError as e:
    print("REFUSED", type(e).__name__)
`;

const LISTS_ETC = `
import json, os
print(json.dumps(sorted(os.listdir("/etc"))))
`;

describe('resolveInside keeps to the pack folder, not a sibling that shares its name as a prefix', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-inside-')));
    fs.mkdirSync(path.join(tmp, 'demo'));
    fs.mkdirSync(path.join(tmp, 'demo-evil'));
    fs.writeFileSync(path.join(tmp, 'demo-evil', 'driver.py'), 'print("outside")');
    fs.writeFileSync(path.join(tmp, 'demo', 'driver.py'), 'print("inside")');
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('refuses a link into demo-evil, and takes a file of demo', async () => {
    fs.symlinkSync(path.join(tmp, 'demo-evil', 'driver.py'), path.join(tmp, 'demo', 'link.py'));
    assert.equal(await resolveInside(path.join(tmp, 'demo'), 'link.py'), undefined);
    assert.equal(await resolveInside(path.join(tmp, 'demo'), 'driver.py'), path.join(tmp, 'demo', 'driver.py'));
  });

  it('refuses a linked folder that leads into demo-evil', async () => {
    fs.symlinkSync(path.join(tmp, 'demo-evil'), path.join(tmp, 'demo', 'sub'));
    assert.equal(await resolveInside(path.join(tmp, 'demo'), 'sub/driver.py'), undefined);
  });
});

describe('the sandbox shows only the listed files of /etc, is read-only but for its /tmp, and has no network (real processes)', function () {
  this.timeout(30_000);
  let tmp: string;
  const saved = process.env.LESSON_COMPANION_SANDBOX_TOOL;
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-rw-')));
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.LESSON_COMPANION_SANDBOX_TOOL;
    else process.env.LESSON_COMPANION_SANDBOX_TOOL = saved;
    forgetDetectedSandbox();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  for (const tool of ['bwrap', 'unshare'] as SandboxTool[]) {
    it(`${tool}: /etc inside holds the listed files that exist, and nothing else of the host's /etc`, async function () {
      const result = await runIn(tool, tmp, LISTS_ETC);
      if (!result) this.skip();
      assert.equal(result.exitCode, 0, result.stderr);
      const listed = ETC_FILES.filter((file) => fs.existsSync(file)).map((file) => path.basename(file));
      assert.deepEqual(JSON.parse(result.stdout), [...listed].sort());
      assert.ok(fs.readdirSync('/etc').length > listed.length, 'the host /etc holds more (so the test can fail)');
    });

    it(`${tool}: no file can be made at /, in /usr, /etc, /proc/sys or /dev; /tmp takes one`, async function () {
      const result = await runIn(tool, tmp, WRITES);
      if (!result) this.skip();
      assert.equal(result.exitCode, 0, result.stderr);
      assert.deepEqual(JSON.parse(result.stdout), []);
    });

    it(`${tool}: a connection to a listener on the host's loopback is refused, and nothing arrives`, async function () {
      const received: string[] = [];
      const server = net.createServer((socket) => socket.on('data', (d) => received.push(String(d))));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const port = (server.address() as net.AddressInfo).port;
        const result = await runIn(tool, tmp, CONNECTS(port));
        if (!result) this.skip();
        assert.equal(result.exitCode, 0, result.stderr);
        assert.match(result.stdout, /^REFUSED/, result.stdout);
        assert.deepEqual(received, []);
      } finally {
        server.close();
      }
    });
  }
});
