// The resident check service in a real VS Code (first of the trusted suites, on a fresh window): it starts when a lesson session opens (before any Check), two
// checks in a row are served by the same process, and when the service is killed under a check the learner
// is told so in words and the next check starts a new service. Restricted Mode (test/integration/untrusted)
// shows that no service starts without trust.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { CheckReport } from '../../../src/core/report/report';
import {
  activate,
  extensionPath,
  fixture,
  internalState,
  LESSON,
  setLearnerText,
  waitFor,
  workspaceDir,
} from '../lib/helpers';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The parent of a live process, or undefined once it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    // The command name (field 2) may hold spaces and parentheses: the fields after its last ")" are plain.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Whether `pid` runs under `ancestor` (its child, grandchild, …). */
function under(pid: number, ancestor: number): boolean {
  for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parentOf(p), hops++)
    if (p === ancestor) return true;
  return false;
}

/**
 * Whether a live process's command line holds `marker`, or runs `file` (the sandbox shows it by its name); with
 * `ancestor`, only one running under that process.
 */
function runningPrograms(marker: string, file: string, ancestor?: number): boolean {
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (
        (cmdline.includes(marker) || cmdline.includes(file)) &&
        /python/.test(cmdline) &&
        (ancestor === undefined || under(Number(pid), ancestor))
      )
        return true;
    } catch {
      // Gone meanwhile.
    }
  }
  return false;
}

suite('the check service (trusted workspace)', () => {
  let main: vscode.Uri;

  suiteSetup(async () => {
    await activate();
    main = vscode.Uri.file(path.join(workspaceDir(), 'balancer.py'));
    // Earlier suites leave their own balancer.py and editors: close them, and give the file this lesson's starter
    // text on disk, so starting neither asks nor rewrites the file under an open editor.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.writeFileSync(
      main.fsPath,
      fs.readFileSync(path.join(extensionPath(), 'lessons', LESSON, 'starter', 'python', 'balancer.py'), 'utf8'),
    );
    await vscode.commands.executeCommand('lessonCompanion.startLesson', { lessonId: LESSON, language: 'python' });
    await waitFor('the starter in the workspace', () => (fs.existsSync(main.fsPath) ? true : undefined));
  });

  test('is running once a lesson session is open, before any check', async () => {
    const pid = await waitFor(
      'the service to start',
      async () => (await internalState()).service.pid ?? undefined,
      20000,
    );
    assert.ok(alive(pid), `service ${pid} is alive`);
  });

  test('two checks in a row are served by the same service process', async function () {
    this.timeout(60000);
    await setLearnerText(main, fixture(LESSON, 'python', 'correct.py'));
    const before = await internalState();
    const first = (await vscode.commands.executeCommand('lessonCompanion.check')) as CheckReport | undefined;
    const second = (await vscode.commands.executeCommand('lessonCompanion.check')) as CheckReport | undefined;
    assert.strictEqual(first?.status, 'pass');
    assert.strictEqual(second?.status, 'pass');
    assert.strictEqual(second.processRuns, 1, 'the repeated check of a correct program is one run of it');
    const after = await internalState();
    assert.ok(after.service.pid, 'the service still runs');
    assert.strictEqual(after.service.pid, before.service.pid, 'the same process served both checks');
    assert.strictEqual(after.service.starts, before.service.starts, 'no service was started for them');
  });

  test('killed under a check, the service is named in the message, and the next check starts a new one', async function () {
    this.timeout(90000);
    await setLearnerText(main, fixture(LESSON, 'python', 'slow-to-answer.py'));
    const { service } = await internalState();
    assert.ok(service.pid);
    const checking = vscode.commands.executeCommand('lessonCompanion.check') as Thenable<CheckReport | undefined>;
    // The service is busy with the check once the learner's program runs under it (it answers slowly, for
    // seconds). Under it: in a full `npm test` a program of the same name left by an earlier suite was taken for
    // it, the service was killed before the check reached it, and the check was served by the next one.
    await waitFor(
      'the learner program to run under the service',
      () => (runningPrograms('slow-to-answer', 'balancer.py', service.pid!) ? true : undefined),
      20000,
    );
    process.kill(service.pid, 'SIGKILL');
    const report = await checking;
    assert.strictEqual(report, undefined, 'no report from a service that died');
    const state = await internalState();
    assert.strictEqual(state.lastRefusal, 'failed');
    assert.match(state.lastRefusalMessage ?? '', /check service stopped \(stopped by SIGKILL\) during the check/);
    assert.match(state.lastRefusalMessage ?? '', /the next check starts a new service/);
    await setLearnerText(main, fixture(LESSON, 'python', 'tiebreak-by-name.py'));
    const next = (await vscode.commands.executeCommand('lessonCompanion.check')) as CheckReport | undefined;
    assert.deepStrictEqual(
      next?.mistakes.map((m) => m.id),
      ['tiebreak'],
    );
    const restarted = await internalState();
    assert.ok(restarted.service.pid && restarted.service.pid !== service.pid, 'a new service');
    assert.strictEqual(restarted.service.starts, service.starts + 1);
    assert.ok(fs.existsSync(main.fsPath), "the learner's file is untouched");
  });
});
