/** course.json: one schema for the type, the validator and the editor; the outline a learner sees. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { courseJsonSchemaText, courseOutline, parseCourse, type Course } from '../../src/core/course/course';

const root = path.resolve(__dirname, '..', '..');

const course = (lessons: Course['lessons']): string => JSON.stringify({ id: 'c', title: 'C', lessons });

describe('course.json', () => {
  it('media/course.schema.json is the TypeBox schema (node scripts/write-course-schema.mjs rewrites it)', () => {
    assert.equal(fs.readFileSync(path.join(root, 'media/course.schema.json'), 'utf8'), courseJsonSchemaText());
  });

  it('the built-in course lists the built-in lessons in the order of their source chapters', () => {
    const parsed = parseCourse(fs.readFileSync(path.join(root, 'lessons/load-balancing/course.json'), 'utf8'));
    assert.ok(parsed.ok, JSON.stringify(parsed));
    assert.deepEqual(
      parsed.course.lessons.map((l) => l.lesson),
      ['least-connections', 'conn-counts', 'health-checks'],
    );
    for (const { lesson } of parsed.course.lessons)
      assert.ok(fs.existsSync(path.join(root, 'lessons', lesson, 'lesson.json')), lesson);
  });

  it('refuses, in words, what is not a course: bad JSON, a schema error, a lesson twice, a need not earlier', () => {
    const problems = (text: string): string[] => {
      const parsed = parseCourse(text);
      assert.ok(!parsed.ok);
      return parsed.problems;
    };
    assert.match(problems('{')[0]!, /^course\.json is not JSON/);
    assert.match(problems(JSON.stringify({ id: 'c', title: 'C', lessons: [] }))[0]!, /at \/lessons/);
    assert.match(problems(course([{ lesson: 'a' }, { lesson: 'a' }]))[0]!, /lesson "a" is listed twice/);
    assert.match(
      problems(course([{ lesson: 'a', needs: ['b'] }, { lesson: 'b' }]))[0]!,
      /lesson "a" needs "b", which is not earlier in the course/,
    );
    assert.match(problems(course([{ lesson: 'a', needs: ['a'] }]))[0]!, /which is not another lesson/);
  });

  it('the outline: done by evidence, the current lesson, locked until its needs are done, the next one', () => {
    const parsed = parseCourse(
      course([{ lesson: 'a' }, { lesson: 'b', needs: ['a'] }, { lesson: 'c', needs: ['b'] }, { lesson: 'd' }]),
    );
    assert.ok(parsed.ok);
    const titles = new Map([
      ['a', 'A'],
      ['b', 'B'],
      ['c', 'C'],
    ]);
    const started = courseOutline(parsed.course, new Set(), titles, 'a');
    assert.deepEqual(
      started.lessons.map((l) => [l.lesson, l.status, l.done]),
      [
        ['a', 'current', false],
        ['b', 'locked', false],
        ['c', 'locked', false],
        ['d', 'missing', false],
      ],
    );
    assert.equal(started.next, undefined, 'nothing is open: b waits for a, d is not installed');
    const passedA = courseOutline(parsed.course, new Set(['a']), titles, 'a');
    assert.deepEqual(
      passedA.lessons.map((l) => [l.lesson, l.status, l.done]),
      [
        ['a', 'current', true],
        ['b', 'open', false],
        ['c', 'locked', false],
        ['d', 'missing', false],
      ],
    );
    assert.equal(passedA.next, 'b');
    assert.deepEqual(passedA.lessons[2]!.waitingFor, ['b']);
    // From b, with a and b done: c is next; from c with all done there is nothing left.
    assert.equal(courseOutline(parsed.course, new Set(['a', 'b']), titles, 'b').next, 'c');
    assert.equal(courseOutline(parsed.course, new Set(['a', 'b', 'c']), titles, 'c').next, undefined);
    // A lesson skipped before the current one is offered after the later ones.
    assert.equal(courseOutline(parsed.course, new Set(['b']), titles, 'c').next, 'a');
  });
});
