/**
 * The course on the command line: `lessons --course` lists the built-in course and one installed beside its
 * packs, in order, with what each lesson needs and which are not installed; `new --course` scaffolds one that loads.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { loadCourse } from '../../src/node/course/courses';

const root = path.resolve(__dirname, '..', '..');

function fakeIo(cwd: string, packs: string) {
  const io = {
    stdout: '',
    stderr: '',
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
    isTTY: false,
    env: { NO_COLOR: '1', LESSON_COMPANION_PACKS: packs } as NodeJS.ProcessEnv,
    cwd,
    bundleDir: path.join(root, 'dist'),
  };
  return io;
}

describe('courses on the command line', function () {
  this.timeout(60000);
  let tmp: string;
  beforeEach(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-course-'));
  });
  afterEach(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('new --course scaffolds a course of the packs beside it; lessons --course lists it and the built-in one', async () => {
    const packs = path.join(tmp, 'packs');
    await fs.mkdir(packs);
    for (const id of ['alpha', 'beta']) assert.equal(await main(['new', id, '--blank'], fakeIo(packs, packs)), 0);
    const made = fakeIo(packs, packs);
    assert.equal(await main(['new', 'my-course', '--course'], made), 0, made.stderr);
    assert.match(made.stdout, /Created my-course\/course\.json: alpha, beta, in that order/);
    const { course } = await loadCourse(path.join(packs, 'my-course'));
    assert.deepEqual(course.lessons, [{ lesson: 'alpha' }, { lesson: 'beta', needs: ['alpha'] }]);

    const text = path.join(packs, 'my-course', 'course.json');
    await fs.writeFile(
      text,
      (await fs.readFile(text, 'utf8')).replace('"lesson": "beta"', '"lesson": "beta"}, {"lesson": "gamma"'),
    );
    const listed = fakeIo(tmp, packs);
    assert.equal(await main(['lessons', '--course'], listed), 0, listed.stderr);
    assert.match(
      listed.stdout,
      /load-balancing {2}Load balancing, chapter by chapter\n.*\n {2}1\. least-connections .*\n {2}2\. conn-counts .*\(needs least-connections\)\n {2}3\. health-checks .*\(needs conn-counts\)\n/,
    );
    assert.match(
      listed.stdout,
      /my-course .*\n.*\n {2}1\. alpha .*\n {2}2\. beta .*\n {2}3\. gamma {2}gamma {2}\(needs alpha; not installed\)\n/,
    );

    const json = fakeIo(tmp, packs);
    assert.equal(await main(['lessons', '--course', '--json'], json), 0);
    const courses = (JSON.parse(json.stdout) as { courses: { id: string; lessons: { installed: boolean }[] }[] })
      .courses;
    assert.deepEqual(
      courses.map((c) => [c.id, c.lessons.map((l) => l.installed)]),
      [
        ['load-balancing', [true, true, true]],
        ['my-course', [true, true, false]],
      ],
    );
  });

  it('validate <course-folder>: each lesson found beside it, built in or installed; a missing one is an error', async () => {
    const authoring = path.join(tmp, 'work');
    await fs.mkdir(authoring);
    assert.equal(await main(['new', 'alpha', '--blank'], fakeIo(authoring, path.join(tmp, 'none'))), 0);
    const io = () => fakeIo(authoring, path.join(tmp, 'none'));
    assert.equal(await main(['new', 'c1', '--course', '--lessons', 'alpha,least-connections'], io()), 0);
    const good = io();
    assert.equal(await main(['validate', 'c1'], good), 0, good.stdout + good.stderr);
    assert.match(good.stdout, /✓ alpha .*\n {2}✓ least-connections .*\n\nValid: 2 lessons, each found\./);
    assert.equal(await main(['new', 'c2', '--course', '--lessons', 'alpha,nope'], io()), 0);
    const bad = io();
    assert.equal(await main(['validate', 'c2', '--json'], bad), 1);
    const report = JSON.parse(bad.stdout) as { valid: boolean; problems: string[] };
    assert.equal(report.valid, false);
    assert.deepEqual(
      report.problems.map((p) => p.replace(/\(.*\)$/, '')),
      [
        'lesson "nope" is not found: no lesson pack with that id is built in, installed, or in a folder beside the course ',
      ],
    );
  });

  it('a broken course.json is named, in words, and the others still list', async () => {
    const packs = path.join(tmp, 'packs');
    await fs.mkdir(path.join(packs, 'bad'), { recursive: true });
    await fs.writeFile(
      path.join(packs, 'bad', 'course.json'),
      JSON.stringify({ id: 'bad', title: 'B', lessons: [{ lesson: 'a', needs: ['a'] }] }),
    );
    const io = fakeIo(tmp, packs);
    assert.equal(await main(['lessons', '--course'], io), 0);
    assert.match(io.stdout, /^load-balancing /);
    assert.match(io.stderr, /not loaded: .*bad\ncourse\.json: lesson "a" needs "a", which is not another lesson/);
  });
});
