// The course in a real VS Code, in a trusted workspace of its own: start the built-in course's first lesson,
// finish it (a passing check of a correct program), and "Next lesson" (the panel's message, handled as the
// webview's is) opens the next lesson of the course, in the same language, at its first step. Then a course
// bundled as one .lessonpack installs through "Install Lesson Pack…" and its outline shows.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { CheckReport } from '../../../src/core/report/report';
import type { CourseView } from '../../../src/shared/courseView';
import {
  activate,
  fixture,
  internalState,
  lessonCompanionCli,
  setLearnerText,
  waitFor,
  workspaceDir,
} from '../lib/helpers';

const panel = async (message?: object): Promise<CourseView | null> =>
  (await vscode.commands.executeCommand('lessonCompanion.internal.panel', message)) as CourseView | null;

suite('a course: finish a lesson, then Next lesson (trusted workspace)', () => {
  suiteSetup(activate);

  test('the first lesson of the course: current, the next one locked until it is done', async () => {
    const session = await vscode.commands.executeCommand<{ lessonId: string } | undefined>(
      'lessonCompanion.startLesson',
      { lessonId: 'least-connections', language: 'python' },
    );
    assert.strictEqual(session?.lessonId, 'least-connections');
    const course = await waitFor('the panel, with its course outline', async () => (await panel()) ?? undefined);
    assert.strictEqual(course.id, 'load-balancing');
    assert.deepStrictEqual(
      course.lessons.map((l) => [l.lesson, l.status, l.done]),
      [
        ['least-connections', 'current', false],
        ['conn-counts', 'locked', false],
        ['health-checks', 'locked', false],
      ],
    );
    assert.strictEqual(course.currentDone, false);
    assert.strictEqual(course.next, undefined);
    // Not offered yet: the panel does not start it, whatever the webview asks.
    await panel({ type: 'nextLesson', lesson: 'conn-counts' });
    assert.strictEqual((await internalState()).session?.lessonId, 'least-connections');
  });

  test('a passing check finishes it, and Next lesson opens conn-counts at its first step', async function () {
    this.timeout(120000);
    const main = vscode.Uri.file(path.join(workspaceDir(), 'balancer.py'));
    await setLearnerText(main, fixture('least-connections', 'python', 'correct.py'));
    const report = (await vscode.commands.executeCommand('lessonCompanion.check')) as CheckReport | undefined;
    assert.strictEqual(report?.status, 'pass', JSON.stringify(report?.problems));
    const done = await panel();
    assert.strictEqual(done?.currentDone, true);
    assert.deepStrictEqual(done.lessons[0] && [done.lessons[0].status, done.lessons[0].done], ['current', true]);
    assert.strictEqual(done.next?.lesson, 'conn-counts');

    const after = await panel({ type: 'nextLesson', lesson: 'conn-counts' });
    const state = await internalState();
    assert.deepStrictEqual(state.session && [state.session.lessonId, state.session.language, state.session.mainFile], [
      'conn-counts',
      'python',
      'src/lb/least_conn.py',
    ]);
    const editor = vscode.window.activeTextEditor;
    assert.strictEqual(editor?.document.uri.fsPath, path.join(workspaceDir(), 'src', 'lb', 'least_conn.py'));
    // Step 1 of conn-counts is the module's top: the editor is there, and the step is read.
    assert.strictEqual(editor.selection.start.line, 0);
    assert.deepStrictEqual(state.stepsRead, [1]);
    assert.deepStrictEqual(
      after?.lessons.map((l) => [l.lesson, l.status, l.done]),
      [
        ['least-connections', 'done', true],
        ['conn-counts', 'current', false],
        ['health-checks', 'locked', false],
      ],
    );
    const title = `Lesson: ${after?.lessons[1]?.title ?? ''}`;
    await waitFor(`the panel titled "${title}"`, () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputWebview && t.label === title),
    );
  });

  test('a course bundled as one .lessonpack installs with its lessons, and its outline shows in the panel', async function () {
    this.timeout(120000);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-course-install-'));
    try {
      const authoring = path.join(tmp, 'authoring');
      for (const id of ['alpha', 'beta']) await lessonCompanionCli('new', id, '--blank', '--dir', authoring);
      await lessonCompanionCli('new', 'my-course', '--course', '--dir', authoring);
      const file = path.join(tmp, 'my-course.lessonpack');
      await lessonCompanionCli('bundle', path.join(authoring, 'my-course'), '-o', file);
      const result = (await vscode.commands.executeCommand('lessonCompanion.installPack', vscode.Uri.file(file), {
        trustCode: true,
      })) as { kind?: string; id: string; lessons?: { id: string }[] } | undefined;
      assert.deepStrictEqual(result && [result.kind, result.id, result.lessons?.map((l) => l.id)], [
        'course',
        'my-course',
        ['alpha', 'beta'],
      ]);
      const session = await vscode.commands.executeCommand<{ lessonId: string } | undefined>(
        'lessonCompanion.startLesson',
        { lessonId: 'alpha', language: 'python' },
      );
      assert.strictEqual(session?.lessonId, 'alpha');
      const course = await waitFor('the installed course in the panel', async () => {
        const c = await panel();
        return c?.id === 'my-course' ? c : undefined;
      });
      assert.deepStrictEqual(
        course.lessons.map((l) => [l.lesson, l.status]),
        [
          ['alpha', 'current'],
          ['beta', 'locked'],
        ],
      );
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
