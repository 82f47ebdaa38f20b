/**
 * An exercise folder with a local node_modules/lesson-companion (an `npm install` there is enough), and the
 * same package installed globally (`npm install -g`, under /usr, which the sandbox shows whole): no
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
import { installedToolCopies } from '../../src/node/sandbox/privateFolders';

const ROOT = path.join(__dirname, '..', '..');
const LESSON = path.join(ROOT, 'lessons', 'least-connections');

/**
 * A learner program that walks `tops` (skipping `skipped`) and lists every transcript and lesson.json it can
 * read, after the paths in `tried`; it reads its input to the end first, as a learner's program would.
 */
const searcher = (tops: readonly string[], skipped: readonly string[], tried = ''): string => `
import json, os, sys
for line in sys.stdin:
    pass
found = []
${tried}
SKIPPED = ${JSON.stringify(skipped)}
def readable(p):
    try:
        with open(p, "rb") as f:
            f.read(1)
        return True
    except OSError:
        return False
for top in ${JSON.stringify(tops)}:
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = [d for d in dirnames if os.path.join(dirpath, d) not in SKIPPED]
        for name in filenames:
            p = os.path.join(dirpath, name)
            if ("transcripts" in p.split(os.sep) or name == "lesson.json") and readable(p):
                found.append(p)
print(json.dumps(found))
`;

/**
 * Walks the file system it sees (not the system's own folders, which the global test below walks) and lists
 * every transcript and lesson.json it can read; and tries the installed package's paths by name.
 */
const SEARCHER = searcher(
  ['/'],
  ['/proc', '/sys', '/dev', '/usr', '/etc', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'],
  `
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
`,
);

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
}

/** This repository packed by npm, its dependency list dropped (offline): the tarball's path. */
function packPackage(work: string): string {
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
  return path.join(repacked, fs.readdirSync(repacked)[0]!);
}

const OFFLINE = ['--offline', '--ignore-scripts', '--no-audit', '--no-fund'];

/** The packed tarball installed into `exercise`, as `npm install` there would. */
function installPackage(tarball: string, exercise: string): void {
  fs.writeFileSync(path.join(exercise, 'package.json'), '{"name":"exercise","private":true}');
  npm(['install', ...OFFLINE, tarball], exercise);
}

/** The learner file checked as a check would contain it, with the sandbox `tool`: its stdout. */
async function runContained(tool: SandboxTool, learner: string): Promise<string | undefined> {
  process.env.LESSON_COMPANION_SANDBOX_TOOL = tool;
  forgetDetectedSandbox();
  if ((await availableSandbox())?.tool !== tool) return undefined;
  const pack = await loadPack(LESSON);
  const layout = await starterLayout(pack, 'python');
  const program = await prepareProgram('python', learner, DEFAULT_INTERPRETERS, undefined, layout);
  const launch = await containProgram(program, { setting: 'require', hidden: [pack.dir] });
  const result = await launch.run('', { timeLimitMs: 60_000, outputLimitBytes: 1024 * 1024 });
  assert.equal(result.exitCode, 0, result.stderr);
  return result.stdout;
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
    installPackage(packPackage(tmp), exercise);
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
      const stdout = await runContained(tool, path.join(exercise, 'balancer.py'));
      if (stdout === undefined) this.skip();
      assert.deepEqual(JSON.parse(stdout), []);
    });
  }
});

/** Lists every transcript and lesson.json readable under the global node_modules folders of /usr. */
const GLOBAL_SEARCHER = searcher(['/usr/lib/node_modules', '/usr/local/lib/node_modules'], []);

describe('a global install of lesson-companion (npm install -g, under /usr) stays out of view (real processes)', function () {
  this.timeout(300_000);
  let tmp: string;
  let installed: string | undefined;
  const saved = process.env.LESSON_COMPANION_SANDBOX_TOOL;

  // The real install into the machine's global prefix, as a user of the CLI would: only where that prefix is
  // under /usr (shown whole in the sandbox), writable, and holds no lesson-companion already (never replaced).
  before(function () {
    this.timeout(300_000);
    const prefix = npm(['prefix', '-g'], os.tmpdir()).trim();
    const target = path.join(prefix, 'lib', 'node_modules', 'lesson-companion');
    const writable = (() => {
      try {
        fs.accessSync(path.dirname(target), fs.constants.W_OK);
        return true;
      } catch {
        return false;
      }
    })();
    if (!(prefix === '/usr' || prefix.startsWith('/usr/')) || !writable || fs.existsSync(target)) this.skip();
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-global-')));
    npm(['install', '-g', ...OFFLINE, packPackage(tmp)], tmp);
    installed = target;
    fs.writeFileSync(path.join(tmp, 'balancer.py'), GLOBAL_SEARCHER);
  });
  after(function () {
    this.timeout(120_000);
    if (installed) npm(['rm', '-g', 'lesson-companion'], os.tmpdir());
    if (saved === undefined) delete process.env.LESSON_COMPANION_SANDBOX_TOOL;
    else process.env.LESSON_COMPANION_SANDBOX_TOOL = saved;
    forgetDetectedSandbox();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('the global package holds transcripts, and is found as a copy to hide', () => {
    assert.ok(fs.readdirSync(path.join(installed!, 'lessons', 'least-connections', 'transcripts')).length > 0);
    assert.ok(installedToolCopies(['/usr', '/usr/local']).includes(installed!));
  });

  for (const tool of ['bwrap', 'unshare'] as SandboxTool[]) {
    it(`${tool}: the learner's program reads none of its transcripts`, async function () {
      const stdout = await runContained(tool, path.join(tmp, 'balancer.py'));
      if (stdout === undefined) this.skip();
      assert.deepEqual(JSON.parse(stdout), []);
    });
  }
});

describe('which global packages are Lesson Companion or a pack', () => {
  it('lesson-companion by name, and any package holding a lesson.json at its top, in a folder, or under lessons/', () => {
    const prefix = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-prefix-')));
    const modules = path.join(prefix, 'lib', 'node_modules');
    const folder = (relative: string, file?: string): string => {
      const dir = path.join(modules, relative);
      fs.mkdirSync(dir, { recursive: true });
      if (file) fs.writeFileSync(path.join(dir, file), '{}');
      return dir;
    };
    try {
      const tool = folder('lesson-companion', 'package.json');
      const scoped = folder('@school/lru-lesson', 'lesson.json');
      folder('course/lru');
      fs.writeFileSync(path.join(modules, 'course', 'lru', 'lesson.json'), '{}');
      folder('bundle/lessons/queues', 'lesson.json');
      folder('left-pad', 'package.json');
      folder('@types/node', 'index.d.ts');
      const found = installedToolCopies([prefix]).sort();
      assert.deepEqual(found, [path.join(modules, 'bundle'), path.join(modules, 'course'), scoped, tool].sort());
    } finally {
      fs.rmSync(prefix, { recursive: true, force: true });
    }
  });
});

describe('a global copy of a pack that comes or goes while a check runs (real processes)', function () {
  this.timeout(120_000);
  const saved = process.env.LESSON_COMPANION_SANDBOX_TOOL;
  let modules: string;
  let tmp: string;

  // Where `npm install -g` puts packages, under /usr (shown whole in the sandbox) and writable here; else skipped.
  before(function () {
    const prefix = npm(['prefix', '-g'], os.tmpdir()).trim();
    modules = path.join(prefix, 'lib', 'node_modules');
    try {
      fs.accessSync(modules, fs.constants.W_OK);
    } catch {
      this.skip();
    }
    if (!(prefix === '/usr' || prefix.startsWith('/usr/'))) this.skip();
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-comes-goes-')));
  });
  after(() => {
    if (saved === undefined) delete process.env.LESSON_COMPANION_SANDBOX_TOOL;
    else process.env.LESSON_COMPANION_SANDBOX_TOOL = saved;
    forgetDetectedSandbox();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  for (const tool of ['bwrap', 'unshare'] as SandboxTool[]) {
    // A test beside this one installed and removed lesson-companion globally while other checks ran: every run of
    // theirs after the removal failed to set up (bubblewrap could not make the gone folder's mount point in the
    // read-only /usr), and a correct program was said to have stopped answering.
    it(`${tool}: a run after the copy is removed sets up, and a copy that appears is hidden from the next run`, async function () {
      process.env.LESSON_COMPANION_SANDBOX_TOOL = tool;
      forgetDetectedSandbox();
      if ((await availableSandbox())?.tool !== tool) this.skip();
      const early = path.join(modules, `lc-early-${process.pid}-${tool}`);
      const late = path.join(modules, `lc-late-${process.pid}-${tool}`);
      const plant = (dir: string): void => {
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, 'lesson.json'), '{"answer": "SECRET"}');
      };
      const learner = path.join(tmp, `balancer-${tool}.py`);
      fs.writeFileSync(
        learner,
        `import sys\nsys.stdin.read()\nfor p in ${JSON.stringify([early, late].map((d) => path.join(d, 'lesson.json')))}:\n` +
          `    try:\n        print(open(p).read().strip())\n    except OSError:\n        print("unreadable")\n`,
      );
      plant(early);
      try {
        const program = await prepareProgram('python', learner, DEFAULT_INTERPRETERS);
        const launch = await containProgram(program, { setting: 'require', hidden: [] });
        const run = async (): Promise<string[]> => {
          const result = await launch.run('POOL\n', { timeLimitMs: 60_000, outputLimitBytes: 1024 * 1024 });
          assert.equal(result.exitCode, 0, `the sandbox set up: ${result.stderr}`);
          return result.stdout.trim().split('\n');
        };
        assert.deepEqual(await run(), ['unreadable', 'unreadable'], 'the copy there from the start is hidden');
        fs.rmSync(early, { recursive: true, force: true });
        assert.deepEqual(await run(), ['unreadable', 'unreadable'], 'a run after it went sets up');
        plant(late);
        assert.deepEqual(await run(), ['unreadable', 'unreadable'], 'a copy installed meanwhile is hidden');
      } finally {
        for (const dir of [early, late]) fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
