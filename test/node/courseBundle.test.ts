/**
 * A course as one `.lessonpack`: `bundle <course-folder>` (each lesson validated and bundled, real processes for
 * the starters), `install` of the archive (the course and each lesson), `lessons --course` listing it with every
 * lesson installed; and course archives made by hand to be hostile, each refused with a sentence, nothing written.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { ARCHIVE_FORMAT, ARCHIVE_MANIFEST, integrityInput } from '../../src/core/pack/archive';
import { main } from '../../src/cli/main';
import { sha256 } from '../../src/node/cache/hash';
import { readVerifiedArchive } from '../../src/node/packs/installPack';
import { craftZip } from './zipCraft';

const root = path.resolve(__dirname, '..', '..');

function fakeIo(cwd: string, packs: string) {
  const io = {
    stdout: '',
    stderr: '',
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
    isTTY: false,
    env: { ...process.env, NO_COLOR: '1', LESSON_COMPANION_PACKS: packs } as NodeJS.ProcessEnv,
    cwd,
    bundleDir: path.join(root, 'dist'),
  };
  return io;
}

/** A zip whose manifest lists `files` with their true hashes: only the course rules can refuse it. */
function courseZip(files: ReadonlyMap<string, Buffer>, id = 'my-course'): Buffer {
  const listed = [...files].map(([p, data]) => ({ path: p, sha256: sha256(data), size: data.length }));
  const manifest = {
    format: ARCHIVE_FORMAT,
    id,
    version: '1.0.0',
    files: listed,
    integrity: sha256(integrityInput(listed)),
  };
  return craftZip([
    { name: ARCHIVE_MANIFEST, data: Buffer.from(JSON.stringify(manifest)) },
    ...[...files].map(([name, data]) => ({ name, data })),
  ]);
}

describe('a course bundled as one .lessonpack (real processes)', function () {
  this.timeout(180_000);
  let tmp: string;
  let archive: string;
  let contents: Map<string, Buffer>;

  before(async function () {
    this.timeout(180_000);
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-course-bundle-'));
    const authoring = path.join(tmp, 'authoring');
    await fs.mkdir(authoring);
    const none = path.join(tmp, 'none');
    for (const id of ['alpha', 'beta']) assert.equal(await main(['new', id, '--blank'], fakeIo(authoring, none)), 0);
    assert.equal(await main(['new', 'my-course', '--course'], fakeIo(authoring, none)), 0);
    const bundled = fakeIo(tmp, none);
    const code = await main(['bundle', 'authoring/my-course', '-o', 'my-course.lessonpack'], bundled);
    assert.equal(code, 0, bundled.stdout + bundled.stderr);
    assert.match(bundled.stdout, /Bundled course my-course: alpha 0\.1\.0, beta 0\.1\.0/);
    archive = path.join(tmp, 'my-course.lessonpack');
    contents = (await readVerifiedArchive(archive)).contents;
  });
  after(() => fs.rm(tmp, { recursive: true, force: true }));

  it('holds course.json and each lesson bundle; install puts in all of them, and lessons --course lists them', async () => {
    assert.deepEqual(
      [...contents.keys()].sort(),
      [ARCHIVE_MANIFEST, 'course.json', 'lessons/alpha.lessonpack', 'lessons/beta.lessonpack'].sort(),
    );
    const packs = path.join(tmp, 'packs');
    const installed = fakeIo(tmp, packs);
    assert.equal(await main(['install', 'my-course.lessonpack', '--yes'], installed), 0, installed.stderr);
    assert.match(installed.stdout, /Installed alpha 0\.1\.0[^]*Installed beta 0\.1\.0[^]*Installed course my-course/);
    for (const file of ['alpha/lesson.json', 'beta/lesson.json', 'my-course/course.json'])
      await fs.access(path.join(packs, file));
    const listed = fakeIo(tmp, packs);
    assert.equal(await main(['lessons', '--course', '--json'], listed), 0, listed.stderr);
    const course = (
      JSON.parse(listed.stdout) as { courses: { id: string; origin: string; lessons: object[] }[] }
    ).courses.find((c) => c.id === 'my-course');
    assert.equal(course?.origin, 'installed');
    assert.deepEqual(
      course?.lessons.map((l) => ({ ...l, title: undefined })),
      [
        { lesson: 'alpha', title: undefined, installed: true, needs: [] },
        { lesson: 'beta', title: undefined, installed: true, needs: ['alpha'] },
      ],
    );
    // Again: the lessons are there at that version already, and the course is put in again.
    const again = fakeIo(tmp, packs);
    assert.equal(await main(['install', 'my-course.lessonpack', '--yes'], again), 0, again.stderr);
    assert.match(again.stdout, /Already installed, left as they were: alpha, beta/);
  });

  it('refuses hostile course archives, saying why, and installs nothing', async () => {
    const alpha = contents.get('lessons/alpha.lessonpack')!;
    const beta = contents.get('lessons/beta.lessonpack')!;
    const course = contents.get('course.json')!;
    const cases: [string, Buffer, RegExp][] = [
      [
        'escapes',
        craftZip([
          { name: 'course.json', data: course },
          { name: 'lessons/../../escape.lessonpack', data: alpha },
        ]),
        /outside the pack folder/,
      ],
      [
        'names a lesson it does not hold',
        courseZip(
          new Map([
            ['course.json', course],
            ['lessons/alpha.lessonpack', alpha],
          ]),
        ),
        /names lesson "beta", which the archive does not hold/,
      ],
      [
        'holds a lesson its course does not name',
        courseZip(
          new Map([...contents].filter(([n]) => n !== ARCHIVE_MANIFEST).concat([['lessons/gamma.lessonpack', alpha]])),
        ),
        /"lessons\/gamma\.lessonpack" is not a lesson of course my-course/,
      ],
      [
        'holds another lesson under a lesson name',
        courseZip(
          new Map([
            ['course.json', course],
            ['lessons/alpha.lessonpack', beta],
            ['lessons/beta.lessonpack', beta],
          ]),
        ),
        /lessons\/alpha\.lessonpack holds lesson beta, not alpha/,
      ],
    ];
    for (const [name, bytes, why] of cases) {
      const file = path.join(tmp, `${name.replace(/ /g, '-')}.lessonpack`);
      await fs.writeFile(file, bytes);
      const packs = path.join(tmp, `packs-${name.replace(/ /g, '-')}`);
      const io = fakeIo(tmp, packs);
      assert.equal(await main(['install', file, '--yes'], io), 1, `${name}: ${io.stdout}${io.stderr}`);
      assert.match(io.stderr, why, name);
      const written = await fs.readdir(packs).catch(() => []);
      assert.deepEqual(written, [], `${name}: nothing installed`);
    }
  });
});
