/**
 * learnerView (issues 28, 29): which files of a learner's folder a sandbox shows, on real folders. A file in a
 * flat folder alone; a workspace laid out as the starter: the starter's files and its package folder's
 * sources, never a classmate's file at the root, a node_modules, a pack or a link out.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { learnerView } from '../../src/node/sandbox/learnerView';

describe('learnerView: the learner’s own files, each alone', () => {
  let tmp: string;
  const plant = (file: string, text = 'x'): string => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
  };
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lc-learnerview-')));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('a file in a flat class folder is shown alone, with or without a starter', () => {
    const starter = path.join(tmp, 'pack', 'starter', 'python');
    plant(path.join(starter, 'balancer.py'));
    const bob = plant(path.join(tmp, 'class', 'bob.py'));
    plant(path.join(tmp, 'class', 'alice.py'));
    plant(path.join(tmp, 'class', 'balancer.py'));
    assert.deepEqual(learnerView(bob, 'python'), [bob]);
    assert.deepEqual(learnerView(bob, 'python', { dir: starter, main: 'balancer.py' }), [bob]);
  });

  it('a file where the starter puts its main file: the starter files and package sources, nothing else', () => {
    const starter = path.join(tmp, 'pack', 'starter', 'python');
    plant(path.join(starter, 'src', 'lb', 'least_conn.py'));
    plant(path.join(starter, 'src', 'lb', '__init__.py'));
    plant(path.join(starter, 'examples', 'lb', 'walk.py'));
    const ws = path.join(tmp, 'ws');
    const main = plant(path.join(ws, 'src', 'lb', 'least_conn.py'));
    const init = plant(path.join(ws, 'src', 'lb', '__init__.py'));
    const helper = plant(path.join(ws, 'src', 'lb', 'helper.py'));
    const walk = plant(path.join(ws, 'examples', 'lb', 'walk.py'));
    plant(path.join(ws, 'src', 'lb', 'notes.txt'));
    plant(path.join(ws, 'classmate.py'));
    plant(path.join(ws, 'node_modules', 'lesson-companion', 'src', 'lb', 'x.py'));
    fs.symlinkSync(
      path.join(tmp, 'pack', 'starter', 'python', 'src', 'lb', '__init__.py'),
      path.join(ws, 'src', 'lb', 'link.py'),
    );
    const view = learnerView(main, 'python', { dir: starter, main: 'src/lb/least_conn.py' });
    assert.deepEqual([...view].sort(), [main, init, helper, walk].sort());
  });

  it('a main file at the workspace root: the root is not a package folder (a classmate there stays out)', () => {
    const starter = path.join(tmp, 'pack', 'starter', 'python');
    plant(path.join(starter, 'balancer.py'));
    plant(path.join(starter, 'lib', 'helpers.py'));
    const ws = path.join(tmp, 'class');
    const main = plant(path.join(ws, 'balancer.py'));
    const helpers = plant(path.join(ws, 'lib', 'helpers.py'));
    plant(path.join(ws, 'alice.py'));
    const view = learnerView(main, 'python', { dir: starter, main: 'balancer.py' });
    assert.deepEqual([...view].sort(), [main, helpers].sort());
  });

  it('a package folder that holds a lesson pack shows none of its files', () => {
    const starter = path.join(tmp, 'pack', 'starter', 'python');
    plant(path.join(starter, 'lb', 'least_conn.py'));
    plant(path.join(starter, 'lb', 'other.py'));
    const ws = path.join(tmp, 'ws');
    const main = plant(path.join(ws, 'lb', 'least_conn.py'));
    plant(path.join(ws, 'lb', 'other.py'));
    plant(path.join(ws, 'lb', 'lesson.json'), '{}');
    assert.deepEqual(learnerView(main, 'python', { dir: starter, main: 'lb/least_conn.py' }), [main]);
  });
});
