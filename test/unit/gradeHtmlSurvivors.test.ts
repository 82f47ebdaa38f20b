/**
 * The class report's HTML page (src/core/grade/html.ts) where the mutation run left mutants alive: that the
 * two charts hold only their bars and labels, that each label sits beside its own bar and inside the
 * picture, how long a title may be before it is cut, how a counterexample and a difference of several lines
 * read, and that the tables' rows follow each other with nothing stray between them. The geometry is
 * checked as relations a reader sees (a label left of its bar, a legend entry right of its square, nothing
 * outside the picture), not as pinned coordinates.
 */
import * as assert from 'node:assert/strict';
import { buildClassReport, type ClassReport } from '../../src/core/grade/classReport';
import { classReportHtml } from '../../src/core/grade/html';
import type { GradeRow, RowStatus } from '../../src/core/grade/row';
import { chart, CLASS_LESSON, named, num, studentRow, table, transcript, type Shape } from './gradeClass';

const classOf = (rows: GradeRow[]): ClassReport => buildClassReport(CLASS_LESSON, rows, '2026-12-01T10:00:00Z');
const share = (count: number, of: number): string => `${Math.round((count / of) * 100)}%`;

/** The picture's size: its width and height attributes, which must be its viewBox's (no stretching). */
function size(attrs: Record<string, string>): { width: number; height: number } {
  const [x, y, width, height] = attrs.viewBox!.split(' ').map(Number);
  assert.deepEqual([x, y], [0, 0]);
  assert.deepEqual(
    [Number(attrs.width), Number(attrs.height)],
    [width, height],
    'the width and height are the viewBox',
  );
  return { width: width!, height: height! };
}

/** Where a shape starts on one axis: a missing x or y is 0, as in SVG. */
const start = (shape: Shape, axis: 'x' | 'y'): number => (shape.attrs[axis] === undefined ? 0 : num(shape, axis));

const inside = (rect: Shape, picture: { width: number; height: number }): boolean =>
  start(rect, 'x') >= 0 &&
  start(rect, 'y') >= 0 &&
  start(rect, 'x') + num(rect, 'width') <= picture.width &&
  start(rect, 'y') + num(rect, 'height') <= picture.height;

describe('class report page: the status bar', () => {
  it('holds the track, then a segment and a legend entry per status present, and nothing else', () => {
    const rows = [studentRow('amy', 'pass'), studentRow('bob', 'fail'), studentRow('cat', 'fail')];
    const bar = chart(classReportHtml(classOf(rows)), 'Students by status');
    assert.equal(bar.stray, '');
    const count = (status: RowStatus): number => rows.filter((r) => r.status === status).length;
    assert.deepEqual(
      bar.shapes.filter((s) => s.text).map((s) => s.text),
      [`passed: ${count('pass')}`, `failed: ${count('fail')}`, `passed ${count('pass')}`, `failed ${count('fail')}`],
    );
    assert.equal(bar.shapes[0]!.attrs.class, 'track');
  });

  it('the legend: each label right of its own square, entries left to right, the last given the room of the others', () => {
    const statuses: RowStatus[] = ['pass', 'fail', 'error', 'missing', 'refused', 'check-failed'];
    const bar = chart(classReportHtml(classOf(statuses.map((s, i) => studentRow(`s${i}`, s)))), 'Students by status');
    const picture = size(bar.attrs);
    const squares = bar.shapes.filter((s) => s.tag === 'rect' && s.attrs.class!.startsWith('f-') && !s.text);
    const labels = bar.shapes.filter((s) => s.tag === 'text');
    assert.deepEqual(
      squares.map((s) => s.attrs.class),
      statuses.map((s) => `f-${s}`),
    );
    assert.equal(labels.length, statuses.length);
    squares.forEach((square, i) => {
      assert.ok(inside(square, picture), `square ${i} inside the picture`);
      assert.ok(num(labels[i], 'x') > num(square, 'x') + num(square, 'width'), `label ${i} right of its square`);
      if (i > 0) assert.ok(num(square, 'x') > num(labels[i - 1], 'x'), `square ${i} right of the label before it`);
    });
    const room = num(squares[1], 'x') - num(squares[0], 'x');
    assert.ok(picture.width - num(squares.at(-1), 'x') >= room, 'the last entry has as much room as each other one');
  });

  it('the picture is as wide as its track when the class has one status', () => {
    const bar = chart(classReportHtml(classOf([studentRow('amy', 'pass')])), 'Students by status');
    assert.ok(inside(bar.shapes[0]!, size(bar.attrs)), 'the whole track shows');
    assert.ok(inside(bar.shapes[1]!, size(bar.attrs)), "the one status's segment shows whole");
  });
});

describe('class report page: the mistake chart', () => {
  // amy, bob and cat all made `whole`; amy alone made `some`.
  let rows: GradeRow[] = [];
  let mistakes: { title: string; count: number }[] = [];
  let picture: ReturnType<typeof chart> | undefined;
  beforeEach(() => {
    rows = [
      studentRow('amy', 'fail', { mistakes: [named('whole'), named('some')] }),
      studentRow('bob', 'fail', { mistakes: [named('whole')] }),
      studentRow('cat', 'fail', { mistakes: [named('whole')] }),
    ];
    mistakes = ['whole', 'some'].map((id) => ({
      title: `Mistake ${id}`,
      count: rows.filter((r) => r.mistakes.some((m) => m.id === id)).length,
    }));
    picture = chart(classReportHtml(classOf(rows)), 'Mistakes by share of the class');
  });
  const rowsOf = (shapes: Shape[]): Shape[][] =>
    Array.from({ length: shapes.length / 4 }, (_, i) => shapes.slice(i * 4, i * 4 + 4));

  it('holds, per mistake and most students first, its title, a track, a bar and its count with share, and nothing else', () => {
    assert.equal(picture!.stray, '');
    assert.equal(picture!.shapes.length, 4 * mistakes.length);
    const read = rowsOf(picture!.shapes).map(([label, track, bar, count]) => [
      label!.text,
      track!.attrs.class,
      bar!.attrs.class,
      count!.text,
    ]);
    assert.deepEqual(
      read,
      mistakes.map((m) => [m.title, 'track', 'bar', `${m.count} · ${share(m.count, rows.length)}`]),
    );
  });

  it('each title ends where its bar starts, on the line of its bar; the count follows the track', () => {
    for (const [label, track, bar, count] of rowsOf(picture!.shapes)) {
      const top = num(bar, 'y');
      const bottom = top + num(bar, 'height');
      assert.equal(label!.attrs['text-anchor'], 'end');
      assert.ok(num(label, 'x') <= num(bar, 'x'), `${label!.text} ends before its bar`);
      assert.ok(num(label, 'y') > top && num(label, 'y') <= bottom, `${label!.text} is on its bar's line`);
      assert.deepEqual(
        ['x', 'y', 'height'].map((a) => num(track, a)),
        ['x', 'y', 'height'].map((a) => num(bar, a)),
        'the track lies behind its bar',
      );
      assert.ok(num(count, 'x') > num(track, 'x') + num(track, 'width'), `${count!.text} comes after the track`);
      assert.ok(num(count, 'y') > top && num(count, 'y') <= bottom, `${count!.text} is on its bar's line`);
    }
    const [, track, bar] = rowsOf(picture!.shapes)[0]!;
    assert.equal(num(bar, 'width'), num(track, 'width'), 'a mistake the whole class made fills its track');
  });

  it('every bar, track and count lies inside the picture', () => {
    const box = size(picture!.attrs);
    for (const [, track, bar, count] of rowsOf(picture!.shapes)) {
      assert.ok(inside(track!, box) && inside(bar!, box), 'the track and bar show whole');
      assert.ok(num(count, 'x') < box.width && num(count, 'y') <= box.height, 'the count shows');
    }
  });

  it('a title of up to 44 characters is shown whole; a longer one is cut to 43 and an ellipsis', () => {
    const titles = ['Late count', 'x'.repeat(44), 'y'.repeat(45)];
    const report = classOf(
      titles.map((title, i) => studentRow(`s${i}`, 'fail', { mistakes: [named(`m${i}`, null, title)] })),
    );
    const labels = chart(classReportHtml(report), 'Mistakes by share of the class').shapes.filter(
      (s) => s.attrs['text-anchor'] === 'end',
    );
    assert.deepEqual(
      labels.map((s) => s.text),
      ['Late count', 'x'.repeat(44), `${'y'.repeat(43)}…`],
    );
  });

  it('a long title is cut between characters a reader sees: an emoji at the cut is kept whole or left out, never split', () => {
    const title = `${'z'.repeat(42)}🧮 and more`;
    const report = classOf([studentRow('s0', 'fail', { mistakes: [named('m0', null, title)] })]);
    const [label] = chart(classReportHtml(report), 'Mistakes by share of the class').shapes.filter(
      (s) => s.attrs['text-anchor'] === 'end',
    );
    assert.equal(label!.text, `${'z'.repeat(42)}🧮…`, 'cut after the emoji (the 43rd character), not through it');
  });
});

describe('class report page: the tables', () => {
  it('the mistakes: a row each, most students first, with count and share, nothing between the rows', () => {
    const rows = [
      studentRow('amy', 'fail', { mistakes: [named('some'), named('most')] }),
      studentRow('bob', 'fail', { mistakes: [named('most')] }),
      studentRow('cat', 'pass'),
    ];
    const mistakes = table(classReportHtml(classOf(rows)), 'Mistake');
    assert.equal(mistakes.stray, '');
    assert.deepEqual(
      mistakes.rows.map((cells) => cells.slice(0, 3)),
      [
        ['Mistake most most', '2', share(2, rows.length)],
        ['Mistake some some', '1', share(1, rows.length)],
      ],
    );
  });

  it('a common counterexample: each side of several lines joined by slashes, "(nothing)" for a side with none', () => {
    const rows = [
      studentRow('amy', 'fail', {
        mistakes: [
          named('two', transcript(['POOL a b', 'STATUS'], ['a:0', 'b:0'], ['a:1', 'b:1'])),
          named('none', transcript(['PICK'], [], [])),
        ],
      }),
    ];
    const sides = [
      ...classReportHtml(classOf(rows)).matchAll(/expected <code>([^<]*)<\/code>, got <code>([^<]*)<\/code>/g),
    ].map((m) => [m[1], m[2]]);
    // Mistakes as many students made go by id: `none` before `two`.
    assert.deepEqual(sides, [
      ['(nothing)', '(nothing)'],
      ['a:0 / b:0', 'a:1 / b:1'],
    ]);
  });

  it('differences no mistake explains: the command, the expected lines joined by slashes, how many and who', () => {
    const rows = [
      studentRow('amy', 'fail', { unrecognised: transcript(['POOL a', 'DONE a'], ['OK', 'a:0']) }),
      studentRow('bob', 'fail', { unrecognised: transcript(['POOL b', 'DONE b'], ['OK', 'a:0']) }),
      studentRow('cat', 'fail', { unrecognised: transcript(['STATUS'], [], ['x']) }),
    ];
    const groups = table(classReportHtml(classOf(rows)), 'First differs at');
    assert.equal(groups.stray, '');
    assert.deepEqual(groups.rows, [
      ['DONE a', 'OK / a:0', '2: amy, bob'],
      ['STATUS', '(nothing)', '1: cat'],
    ]);
  });

  it('the students: a row each in name order, nothing between, and an empty reason cell for a pass', () => {
    const students = table(classReportHtml(classOf([studentRow('bob', 'fail'), studentRow('amy', 'pass')])), 'Student');
    assert.equal(students.stray, '');
    assert.deepEqual(
      students.rows.map((cells) => [cells[0], cells.at(-1)]),
      [
        ['amy', ''],
        ['bob', 'why bob'],
      ],
    );
  });

  it('a class with no mistake: the heading is followed straight by the sentence that says so', () => {
    const html = classReportHtml(classOf([studentRow('amy', 'pass'), studentRow('bob', 'fail')]));
    const after = html.split('<h2>What the class gets wrong</h2>')[1]!;
    assert.ok(
      after.trimStart().startsWith(`<p class="muted">No student's check named a mistake.</p>`),
      after.slice(0, 80),
    );
  });
});
