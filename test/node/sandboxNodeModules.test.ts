/**
 * An exercise folder with a local node_modules/lesson-companion (an `npm install` there is enough): no
 * transcript of any pack is readable from inside the sandbox (issue 29). The package is this repository as
 * `npm pack` packs it, installed with `npm install` of the tarball. Offline, npm cannot fetch the package's
 * dependencies, so its package.json loses its dependency list before the install (repacked with `npm pack`):
 * the files are the ones npm packed, which is what matters here. Real processes, bubblewrap and unshare.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { containProgram } from '../../src/node/sandbox/contain';
import { prepareProgram, DEFAULT_INTERPRETERS } from '../../src/node/languages/languages';
import { availableSandbox, forgetDetectedSandbox, type SandboxTool } from '../../src/node/sandbox/sandbox';
import { starterLayout } from '../../src/node/check/starterLayout';
import { loadPack } from '../../src/node/packs/packs';

const ROOT = path.join(__dirname, '..', '..');
const LESSON = path.join(ROOT, 'lessons', 'least-connections');

/**
 * Walks the file system it sees (not the system's own folders, which are the host's, read-only) and lists
 * every transcript and lesson.json it can read; and tries the installed package's paths by name.
 */
const SEARCHER = `
import json, os, sys
found = []
SYSTEM = ("/proc", "/sys", "/dev", "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
here = os.path.dirname(os.path.abspath(__file__))
package = os.path.join(here, "node_modules", "lesson-companion", "lessons")
for name in ("least-connections", "conn-counts", "health-checks"):
    for p in (os.path.join(package, name, "lesson.json"), os.path.join(package, name, "transcripts", "basics.txt")):
        try:
            with open(p, "rb") as f:
                f.read(1)
            found.append(p)
        except OSError:
            pass
for top in ["/"]:
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = [d for d in dirnames if os.path.join(dirpath, d) not in SYSTEM]
        for name in filenames:
            p = os.path.join(dirpath, name)
            if "transcripts" in p.split(os.sep) or name == "lesson.json":
                try:
                    with open(p, "rb") as f:
                        f.read(1)
                    found.append(p)
                except OSError:
                    pass
print(json.dumps(found))
`;

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
}

/** This repository packed by npm, its dependency list dropped (offline), installed into `exercise`. */
function installPackage(work: string, exercise: string): void {
  npm(['pack', '--ignore-scripts', '--pack-destination', work, ROOT], work);
  const tarball = fs.readdirSync(work).find((name) => name.endsWith('.tgz'))!;
  const unpacked = path.join(work, 'unpacked');
  fs.mkdirSync(unpacked);
  execFileSync('tar', ['-xzf', path.join(work, tarball), '-C', unpacked]);
  const manifest = path.join(unpacked, 'package', 'package.json');
  const json = JSON.parse(fs.readFileSync(manifest, 'utf8')) as Record<string, unknown>;
  delete json.dependencies;
  fs.writeFileSync(manifest, JSON.stringify(json));
  const repacked = path.join(work, 'repacked');
  fs.mkdirSync(repacked);
  npm(['pack', '--ignore-scripts', '--pack-destination', repacked, path.join(unpacked, 'package')], work);
  const offline = ['--offline', '--ignore-scripts', '--no-audit', '--no-fund'];
  fs.writeFileSync(path.join(exercise, 'package.json'), '{"name":"exercise","private":true}');
  npm(['install', ...offline, path.join(repacked, fs.readdirSync(repacked)[0]!)], exercise);
}

describe('a local node_modules/lesson-companion stays out of view (real processes)', function () {
  this.timeout(300_000);
  let tmp: string;
  let exercise: string;
  const saved = process.env.LESSON_COMPANION_SANDBOX_TOOL;

  before(function () {
    this.timeout(300_000);
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-nodemodules-')));
    exercise = path.join(tmp, 'exercise');
    fs.mkdirSync(exercise);
    installPackage(tmp, exercise);
    fs.writeFileSync(path.join(exercise, 'balancer.py'), SEARCHER);
  });
  after(() => {
    if (saved === undefined) delete process.env.LESSON_COMPANION_SANDBOX_TOOL;
    else process.env.LESSON_COMPANION_SANDBOX_TOOL = saved;
    forgetDetectedSandbox();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('the installed package holds transcripts (so the search below can find some)', () => {
    const transcripts = path.join(exercise, 'node_modules', 'lesson-companion', 'lessons', LESSON.split('/').pop()!);
    assert.ok(fs.readdirSync(path.join(transcripts, 'transcripts')).length > 0);
  });

  for (const tool of ['bwrap', 'unshare'] as SandboxTool[]) {
    it(`${tool}: the learner's program reads no transcript and no lesson.json anywhere`, async function () {
      process.env.LESSON_COMPANION_SANDBOX_TOOL = tool;
      forgetDetectedSandbox();
      if ((await availableSandbox())?.tool !== tool) this.skip();
      const pack = await loadPack(LESSON);
      const learner = path.join(exercise, 'balancer.py');
      const layout = await starterLayout(pack, 'python');
      const program = await prepareProgram('python', learner, DEFAULT_INTERPRETERS, undefined, layout);
      const launch = await containProgram(program, { setting: 'require', hidden: [pack.dir] });
      const result = await launch.run('', { timeLimitMs: 60_000, outputLimitBytes: 1024 * 1024 });
      assert.equal(result.exitCode, 0, result.stderr);
      assert.deepEqual(JSON.parse(result.stdout), []);
    });
  }
});
