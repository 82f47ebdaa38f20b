/**
 * Finding each student's program per lesson of a course (src/node/grade/courseSubmissions.ts), on folders made
 * here: nothing is checked. The rules docs/grading.md states: a lesson's own folder first, then the header,
 * then a starter name no other lesson shares; a link is never read for its header; a file declaring another
 * lesson is not taken by its name; a loose file is one student's work for the lesson it declares.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findCourseSubmissions } from '../../src/node/grade/courseSubmissions';

const LESSONS = [
  { id: 'one', names: ['balancer.py'] },
  { id: 'two', names: ['least_conn.py'] },
  { id: 'three', names: ['balancer.py'] },
];

describe('course submissions: a program per student and lesson', () => {
  let tmp: string;
  const put = (rel: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
    fs.writeFileSync(path.join(tmp, rel), text);
  };
  const files = async (given = 'class'): Promise<Record<string, Record<string, string | null>>> => {
    const byLesson = await findCourseSubmissions([path.join(tmp, given)], LESSONS);
    const out: Record<string, Record<string, string | null>> = {};
    for (const [lesson, list] of byLesson)
      for (const s of list) (out[s.student] ??= {})[lesson] = s.file ? path.relative(tmp, s.file) : null;
    return out;
  };
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-course-subs-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('takes a lesson folder before a header, a header before a name, and a name only when no other lesson shares it', async () => {
    put('class/ann/one/balancer.py', 'x = 1\n');
    put('class/ann/elsewhere.py', '# lesson-companion: one\n');
    put('class/ann/deep/a/b/three.py', '# lesson-companion: three\n');
    put('class/ann/least_conn.py', 'x = 2\n');
    put('class/ben/balancer.py', 'no header\n');
    put('class/ben/least_conn.py', '# lesson-companion: three\n');
    assert.deepEqual(await files(), {
      ann: { one: 'class/ann/one/balancer.py', two: 'class/ann/least_conn.py', three: 'class/ann/deep/a/b/three.py' },
      // balancer.py is two lessons' starter; least_conn.py declares three, so it is not two's by its name.
      ben: { one: null, two: null, three: 'class/ben/least_conn.py' },
    });
  });

  it('never reads a link for its header, and a loose file is one student for the lesson it declares', async () => {
    put('outside/secret.py', '# lesson-companion: one\n');
    put('class/cat/placeholder.txt', '');
    fs.symlinkSync(path.join(tmp, 'outside', 'secret.py'), path.join(tmp, 'class', 'cat', 'link.py'));
    put('class/dan.py', '// lesson-companion: two\n');
    assert.deepEqual(await files(), {
      cat: { one: null, two: null, three: null },
      dan: { one: null, two: 'class/dan.py', three: null },
    });
  });

  it('takes a folder holding a lesson folder as one student, and says what it looked for', async () => {
    put('class/eve/two/least_conn.py', 'x = 3\n');
    const byLesson = await findCourseSubmissions([path.join(tmp, 'class', 'eve')], LESSONS);
    assert.deepEqual(
      byLesson.get('two')!.map((s) => [s.student, s.file && path.relative(tmp, s.file)]),
      [['eve', 'class/eve/two/least_conn.py']],
    );
    assert.match(
      byLesson.get('one')![0]!.missing!,
      /no one\/ folder and no file with the header "lesson-companion: one"$/,
    );
  });
});
