/**
 * The panel's course outline from the real built-in lessons and course: the current lesson, each lesson ticked
 * by its own passing check, "Next lesson" only once the current one is done, and the message it sends checked.
 * (The evidence a lesson passed is a function here; in the editor it is the lesson's stored last report.)
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { courseView } from '../../src/ext/panel/courseState';
import { discoverCourses } from '../../src/node/course/courses';
import { discoverPacks } from '../../src/node/packs/packs';
import { isCourseView } from '../../src/shared/courseView';
import { isPanelState, parseFromWebview } from '../../src/shared/messages';

const LESSONS = path.resolve(__dirname, '..', '..', 'lessons');

describe('the course outline in the panel', () => {
  it('shows where the learner is, ticks what passed, and offers the next lesson once this one is done', async () => {
    const roots = [{ dir: LESSONS, origin: 'built-in' as const }];
    const { courses } = await discoverCourses(roots);
    const { packs } = await discoverPacks(roots);
    const view = (passed: string[], current: string) =>
      courseView(courses, packs, (id) => passed.includes(id), current);

    const started = view([], 'least-connections')!;
    assert.equal(started.title, 'Load balancing, chapter by chapter');
    assert.deepEqual(
      started.lessons.map((l) => [l.lesson, l.status, l.done]),
      [
        ['least-connections', 'current', false],
        ['conn-counts', 'locked', false],
        ['health-checks', 'locked', false],
      ],
    );
    assert.equal(started.currentDone, false);
    assert.ok(isCourseView(started));

    const finished = view(['least-connections'], 'least-connections')!;
    assert.equal(finished.currentDone, true);
    assert.deepEqual(finished.next, { lesson: 'conn-counts', title: 'Least Connections Is a Counter' });
    assert.deepEqual(
      finished.lessons.map((l) => l.status),
      ['current', 'open', 'locked'],
    );
    const state = { lesson: null, trusted: true, checking: false, check: null, course: finished };
    assert.ok(isPanelState(state));
    assert.ok(!isPanelState({ ...state, course: { ...finished, lessons: [{ lesson: 'x' }] } }));

    assert.equal(view([], 'not-in-a-course'), undefined);
    assert.deepEqual(parseFromWebview({ type: 'nextLesson', lesson: 'conn-counts' }), {
      type: 'nextLesson',
      lesson: 'conn-counts',
    });
    assert.equal(parseFromWebview({ type: 'nextLesson', lesson: '../x' }), undefined);
  });
});
