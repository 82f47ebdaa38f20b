/**
 * What the sandbox covers wherever a bound folder would show it (privateFolders.ts): Lesson Companion's own
 * folders and VS Code's, found from the environment a check runs with. Real folders in a made-up home.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { privateFolders } from '../../src/node/sandbox/privateFolders';

describe('the folders a learner program never sees', () => {
  let home: string;
  beforeEach(() => {
    home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-home-')));
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  const made = (relative: string): string => {
    const dir = path.join(home, relative);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };

  it("holds VS Code's and code-server's user data and extensions, and Lesson Companion's own folders", () => {
    const wanted = [
      made('.vscode/extensions'),
      made('.vscode-server'),
      made('.vscode-oss'),
      made('.config/Code'),
      made('.config/VSCodium'),
      made('.config/code-server'),
      made('.local/share/code-server'),
      made('.cache/lesson-companion'),
      made('.local/share/lesson-companion'),
      made('.config/lesson-companion'),
    ];
    const other = made('.config/other-editor');
    const found = privateFolders({ HOME: home });
    for (const dir of wanted) {
      const covered = found.some((f) => dir === f || dir.startsWith(f + path.sep));
      assert.ok(covered, `${path.relative(home, dir)} is covered: ${found.join(', ')}`);
    }
    assert.ok(!found.some((f) => other === f || other.startsWith(f + path.sep)), 'another program is not');
  });

  it('follows XDG folders and the variables that move the cache and the packs', () => {
    const xdg = made('elsewhere/config');
    const cache = made('moved/cache');
    const packs = made('moved/packs');
    fs.mkdirSync(path.join(xdg, 'Code'));
    const found = privateFolders({
      HOME: home,
      XDG_CONFIG_HOME: xdg,
      LESSON_COMPANION_CACHE_DIR: cache,
      LESSON_COMPANION_PACKS: packs,
    });
    for (const dir of [path.join(xdg, 'Code'), cache, packs]) assert.ok(found.includes(dir), `${dir} in ${found}`);
  });
});
