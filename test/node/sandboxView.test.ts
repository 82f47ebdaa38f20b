/**
 * The sandbox's view is an allowlist (issue 19, item 1; issue 29): the learner's own files, each alone, so a
 * learner file kept in the home folder does not bring the home folder into view, nor a sibling no starter declares, and whatever folder is bound, Lesson Companion's cache (the passing
 * batches), its installed packs and VS Code's folders are covered. Real Python processes look, with each
 * sandbox tool this machine has.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { containProgram } from '../../src/node/sandbox/contain';
import { prepareProgram, DEFAULT_INTERPRETERS } from '../../src/node/languages/languages';
import { availableSandbox, forgetDetectedSandbox, type SandboxTool } from '../../src/node/sandbox/sandbox';

/** The learner's program: what it can read of the secrets the test planted, and what it sees of its folder. */
const LOOKS = `
import json, os, sys
def read(p):
    try:
        with open(p) as f:
            return f.read()
    except OSError:
        return None
home = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
print(json.dumps({
    "cache": read(os.path.join(home, ".cache", "lesson-companion", "batches", "passing.json")),
    "packs": read(os.path.join(home, ".local", "share", "lesson-companion", "packs", "demo", "lesson.json")),
    "vscode": read(os.path.join(home, ".config", "Code", "User", "settings.json")),
    "extensions": read(os.path.join(home, ".vscode", "extensions", "list.json")),
    "other_file": read(os.path.join(home, "notes.txt")),
    "sibling": read(os.path.join(here, "helper.py")),
    "override": read(os.path.join(here, "lc-cache", "batch.json")),
}))
`;

describe('the sandbox view is an allowlist (real processes)', function () {
  this.timeout(30_000);
  let tmp: string;
  const saved = { ...process.env };

  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-view-')));
  });
  afterEach(() => {
    for (const key of [
      'HOME',
      'LESSON_COMPANION_CACHE_DIR',
      'LESSON_COMPANION_SANDBOX_TOOL',
      'XDG_CACHE_HOME',
      'XDG_DATA_HOME',
      'XDG_CONFIG_HOME',
    ]) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    forgetDetectedSandbox();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const plant = (file: string, text: string): void => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };

  async function look(
    tool: SandboxTool,
    context: Mocha.Context,
    folder: (home: string) => string,
  ): Promise<Record<string, string | null>> {
    process.env.LESSON_COMPANION_SANDBOX_TOOL = tool;
    forgetDetectedSandbox();
    if ((await availableSandbox())?.tool !== tool) context.skip();
    const home = path.join(tmp, 'home');
    process.env.HOME = home;
    for (const key of ['XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_CONFIG_HOME']) delete process.env[key];
    plant(path.join(home, '.cache', 'lesson-companion', 'batches', 'passing.json'), 'ANSWER KEY');
    plant(path.join(home, '.local', 'share', 'lesson-companion', 'packs', 'demo', 'lesson.json'), 'HIDDEN TRANSCRIPTS');
    plant(path.join(home, '.config', 'Code', 'User', 'settings.json'), 'VS CODE SETTINGS');
    plant(path.join(home, '.vscode', 'extensions', 'list.json'), 'EXTENSIONS');
    plant(path.join(home, 'notes.txt'), 'NOTES');
    const dir = folder(home);
    plant(path.join(dir, 'helper.py'), 'HELPER');
    const learner = path.join(dir, 'balancer.py');
    plant(learner, LOOKS);
    const program = await prepareProgram('python', learner, DEFAULT_INTERPRETERS);
    const launch = await containProgram(
      { ...program, args: [...program.args, home] },
      { setting: 'require', hidden: [] },
    );
    const result = await launch.run('', { timeLimitMs: 20_000, outputLimitBytes: 64 * 1024 });
    assert.equal(result.exitCode, 0, result.stderr);
    return JSON.parse(result.stdout) as Record<string, string | null>;
  }

  for (const tool of ['bwrap', 'unshare'] as SandboxTool[]) {
    it(`${tool}: a learner file in the home folder sees its own file alone (no starter declares the sibling), not the cache, the packs, VS Code's folders or other files`, async function () {
      const seen = await look(tool, this, (home) => home);
      assert.deepEqual(seen, {
        cache: null,
        packs: null,
        vscode: null,
        extensions: null,
        other_file: null,
        sibling: null,
        override: null,
      });
    });

    it(`${tool}: a project folder that holds the cache named by LESSON_COMPANION_CACHE_DIR shows it empty`, async function () {
      process.env.LESSON_COMPANION_CACHE_DIR = path.join(tmp, 'home', 'project', 'lc-cache');
      plant(path.join(process.env.LESSON_COMPANION_CACHE_DIR, 'batch.json'), 'OVERRIDDEN CACHE');
      const seen = await look(tool, this, (home) => path.join(home, 'project'));
      assert.deepEqual(seen, {
        cache: null,
        packs: null,
        vscode: null,
        extensions: null,
        other_file: null,
        sibling: null,
        override: null,
      });
    });
  }
});
