// Run it yourself, in a real VS Code: after a real check of a JavaScript (then TypeScript) learner
// program, "Run in terminal" runs the counterexample's commands through the program in the integrated
// terminal, and "Debug this transcript" starts VS Code's own JavaScript debugger on the program with the
// transcript as stdin, stopped at a breakpoint in the function the finding points at.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { CheckReport } from '../../../src/core/report/report';
import { activate, fixture, LESSON, setLearnerText, waitFor, workspaceDir } from '../lib/helpers';

const check = async (): Promise<CheckReport> => {
  const report = (await vscode.commands.executeCommand('lessonCompanion.check')) as CheckReport | undefined;
  assert.ok(report, 'the check should run in a trusted workspace and return its report');
  return report;
};

interface Stop {
  readonly session: vscode.DebugSession;
  readonly path: string | undefined;
  readonly line: number;
  readonly reason: string;
}

/** The first `stopped` event of any debug session, with the top frame's place (asked of the adapter). */
function nextStop(timeoutMs: number): Promise<Stop> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      tracker.dispose();
      reject(new Error(`no debug session stopped within ${timeoutMs} ms`));
    }, timeoutMs);
    const tracker = vscode.debug.registerDebugAdapterTrackerFactory('*', {
      createDebugAdapterTracker: (session) => ({
        onDidSendMessage: (m: { type?: string; event?: string; body?: { reason?: string; threadId?: number } }) => {
          if (m.type !== 'event' || m.event !== 'stopped') return;
          clearTimeout(timer);
          tracker.dispose();
          const reason = m.body?.reason ?? '';
          void Promise.resolve(
            session.customRequest('stackTrace', { threadId: m.body?.threadId ?? 0, startFrame: 0, levels: 1 }),
          ).then((trace: { stackFrames: { line: number; source?: { path?: string } }[] }) => {
            const top = trace.stackFrames[0]!;
            // In a remote window (code-server) the adapter's path is a vscode-remote:// URI.
            const where = top.source?.path;
            resolve({
              session,
              path: where && where.includes('://') ? vscode.Uri.parse(where).fsPath : where,
              line: top.line,
              reason,
            });
          }, reject);
        },
      }),
    });
  });
}

/** Starts the lesson in a language and waits until its starter, just written to disk, shows in the editor. */
async function startLesson(language: string, file: string): Promise<vscode.Uri> {
  await vscode.commands.executeCommand('lessonCompanion.startLesson', { lessonId: LESSON, language });
  const main = vscode.Uri.file(path.join(workspaceDir(), file));
  await waitFor(`the ${language} starter in the editor`, async () => {
    const doc = vscode.window.activeTextEditor?.document;
    return (
      doc?.uri.fsPath === main.fsPath &&
      !doc.isDirty &&
      doc.getText() === new TextDecoder().decode(await vscode.workspace.fs.readFile(main))
    );
  });
  return main;
}

/** Every debug session alive now, as VS Code's events tell: started and not yet terminated. */
const liveSessions = new Map<string, vscode.DebugSession>();

/** A session and what it descends from, in words, for a message. */
function described(session: vscode.DebugSession): string {
  const marker = (session.configuration as { lessonCompanion?: string }).lessonCompanion;
  const parent = session.parentSession ? ` under ${session.parentSession.type} ${session.parentSession.id}` : '';
  return `${session.type} ${session.id} "${session.name}"${marker ? ` (${marker})` : ''}${parent}`;
}

/** Whether `session` is the one `stop` stopped in, or one of its parents or children. */
function sameTree(session: vscode.DebugSession, stopped: vscode.DebugSession): boolean {
  const ancestors = (s: vscode.DebugSession | undefined): string[] => (s ? [s.id, ...ancestors(s.parentSession)] : []);
  const mine = ancestors(stopped);
  return mine.includes(session.id) || ancestors(session).some((id) => mine.includes(id));
}

/**
 * Stop, as the learner presses Stop, and wait for the session the breakpoint stopped in, its parent and its
 * children to end; once more after 10 s if one is still there, as the learner would press it again. Sessions of
 * another test are not waited for, but said if they are still alive (js-debug once left one, under load).
 */
async function endDebugging(stopped: vscode.DebugSession): Promise<void> {
  const ours = (): vscode.DebugSession[] => [...liveSessions.values()].filter((s) => sameTree(s, stopped));
  await vscode.debug.stopDebugging();
  try {
    await waitFor('the debug session to end', () => ours().length === 0, 10000);
  } catch {
    console.log(`    still there 10 s after Stop: ${ours().map(described).join('; ')}: Stop again`);
    for (const session of ours()) await vscode.debug.stopDebugging(session);
    await waitFor(
      `the debug session to end after a second Stop (alive: ${[...liveSessions.values()].map(described).join('; ')})`,
      () => ours().length === 0,
      20000,
    );
  }
  const others = [...liveSessions.values()];
  if (others.length > 0) console.log(`    debug sessions of no test alive: ${others.map(described).join('; ')}`);
}

suite('run it yourself: a trace in the terminal and under the debugger', () => {
  let report: CheckReport;

  const sessionEvents: vscode.Disposable[] = [];

  suiteSetup(async function () {
    this.timeout(120000);
    sessionEvents.push(
      vscode.debug.onDidStartDebugSession((s) => liveSessions.set(s.id, s)),
      vscode.debug.onDidTerminateDebugSession((s) => liveSessions.delete(s.id)),
    );
    await activate();
    await setLearnerText(
      await startLesson('javascript', 'balancer.js'),
      fixture(LESSON, 'javascript', 'tiebreak-by-name.js'),
    );
    report = await check();
  });

  suiteTeardown(async () => {
    if (vscode.debug.activeDebugSession) await vscode.debug.stopDebugging();
    for (const d of sessionEvents) d.dispose();
  });

  test("Run in terminal runs the transcript's commands through the learner's program in a terminal", async function () {
    this.timeout(60000);
    const mistake = report.mistakes.find((m) => m.id === 'tiebreak');
    assert.ok(
      mistake?.counterexample?.replay,
      `a tiebreak mistake with a replay line: ${JSON.stringify(report.mistakes.map((m) => m.id))}`,
    );
    const example = mistake.counterexample;

    // What the terminal's shell ran, and what it printed, as shell integration reports it.
    const ran = new Promise<{ commandLine: string; output: string; exitCode: number | undefined }>((resolve) => {
      const started = vscode.window.onDidStartTerminalShellExecution(async (e) => {
        if (e.terminal.name !== 'Lesson: replay') return;
        started.dispose();
        let output = '';
        const ended = new Promise<number | undefined>((done) => {
          const l = vscode.window.onDidEndTerminalShellExecution((end) => {
            if (end.execution !== e.execution) return;
            l.dispose();
            done(end.exitCode);
          });
        });
        for await (const data of e.execution.read()) output += data;
        resolve({ commandLine: e.execution.commandLine.value, output, exitCode: await ended });
      });
    });
    const result = await vscode.commands.executeCommand<{ command: string; cwd: string; tracked: boolean } | undefined>(
      'lessonCompanion.runTrace',
      { mistakeId: 'tiebreak' },
    );
    assert.ok(result, 'the replay was sent to a terminal');
    assert.strictEqual(result.cwd, workspaceDir(), "from the learner file's folder");
    assert.strictEqual(result.command, example.replay!.shell);
    // Typed or run through shell integration, the shell reports the execution once its integration is up.
    const run = await Promise.race([
      ran,
      new Promise<never>((_, reject) =>
        setTimeout(
          () =>
            reject(
              new Error(
                `no shell execution reported in 45 s (shell ${vscode.env.shell}, sent ${result.tracked ? 'through shell integration' : 'as typed text'})`,
              ),
            ),
          45000,
        ),
      ),
    ]);
    assert.ok(run.commandLine.includes(example.replay!.shell), run.commandLine);
    // The program answered the transcript's commands: its own wrong answer is in the terminal.
    const printed = run.output
      .replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g, '')
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    const answers = example.actual.filter((l) => l.trim() !== '');
    let at = 0;
    for (const line of printed) if (line === answers[at]) at += 1;
    assert.strictEqual(
      at,
      answers.length,
      `the program's answers ${JSON.stringify(answers)} in order in the terminal output ${JSON.stringify(printed)}`,
    );
    assert.strictEqual(run.exitCode, 0);
  });

  test('Debug this transcript stops at a breakpoint in pick() of a JavaScript program', async function () {
    this.timeout(120000);
    const main = vscode.Uri.file(path.join(workspaceDir(), 'balancer.js'));
    const text = fixture(LESSON, 'javascript', 'tiebreak-by-name.js');
    const pickLine = text.split('\n').findIndex((l) => /^\s*pick\(\)\s*\{/.test(l)) + 1;
    const doneLine = text.split('\n').findIndex((l) => /^\s*done\(backend\)\s*\{/.test(l)) + 1;
    assert.ok(pickLine > 0 && doneLine > pickLine);
    const stopped = nextStop(60000);
    const result = await vscode.commands.executeCommand<{
      started: boolean;
      line: number | null;
      type?: string;
      reason?: string;
    }>('lessonCompanion.debugTrace', { mistakeId: 'tiebreak' });
    assert.ok(result.started, `the debugger started: ${result.reason ?? ''}`);
    assert.strictEqual(result.type, 'node');
    assert.ok(
      result.line !== null && result.line > pickLine && result.line < doneLine,
      `the breakpoint (line ${result.line}) is inside pick() (lines ${pickLine}–${doneLine})`,
    );
    const stop = await stopped;
    assert.strictEqual(stop.reason, 'breakpoint');
    assert.strictEqual(stop.path && path.resolve(stop.path), main.fsPath, "stopped in the learner's own file");
    assert.strictEqual(stop.line, result.line, 'stopped on the breakpoint the finding points at');
    await endDebugging(stop.session);
    await waitFor(
      'the breakpoint it added to be removed',
      () =>
        !vscode.debug.breakpoints.some(
          (b) =>
            b instanceof vscode.SourceBreakpoint &&
            b.location.uri.fsPath === main.fsPath &&
            b.location.range.start.line === result.line! - 1,
        ),
    );
  });

  test('Debug this transcript binds its breakpoint in a TypeScript file, which runs transpiled', async function () {
    this.timeout(120000);
    const main = await startLesson('typescript', 'balancer.ts');
    const text = fixture(LESSON, 'typescript', 'tiebreak-by-name.ts');
    await setLearnerText(main, text);
    const report = await check();
    assert.ok(
      report.mistakes.some((m) => m.id === 'tiebreak'),
      `mistakes: ${report.mistakes.map((m) => m.id).join(', ')}`,
    );
    const stopped = nextStop(60000);
    const result = await vscode.commands.executeCommand<{ started: boolean; line: number | null; reason?: string }>(
      'lessonCompanion.debugTrace',
      { mistakeId: 'tiebreak' },
    );
    assert.ok(result.started, `the debugger started: ${result.reason ?? ''}`);
    const stop = await stopped;
    assert.strictEqual(stop.reason, 'breakpoint');
    assert.strictEqual(
      stop.path && path.resolve(stop.path),
      main.fsPath,
      "the source map leads back to the learner's .ts file",
    );
    assert.strictEqual(stop.line, result.line);
    await endDebugging(stop.session);
  });
});
