/**
 * "Lesson Companion: Grade a Folder…": runs `lesson-companion grade` (dist/cli.js in a child process, as
 * checks run) on a folder of submissions, with a progress notification whose Cancel stops it as Ctrl-C does
 * (the results so far are kept, signed, in the grader's own cache folder, never in the class folder, so grading the
 * folder again resumes: src/node/grade/resultStore.ts),
 * then shows the class report's HTML in a webview without scripts, under a CSP as strict as the lesson
 * panel's: nothing but the report's one <style> element, admitted by its nonce.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { reportHtmlForWebview } from '../../core/grade/html';
import { quietNodeEnv } from '../../node/run/nodeEnv';

const OUT_FOLDER = '.lesson-companion-grade';

interface Lesson {
  readonly id: string;
  readonly title: string;
  readonly dir: string;
}

function childEnv(): NodeJS.ProcessEnv {
  return { ...quietNodeEnv(process.env), ELECTRON_RUN_AS_NODE: '1', NO_COLOR: '1' };
}

function lessons(cli: string): Promise<Lesson[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, 'lessons', '--json'],
      { env: childEnv(), maxBuffer: 4 * 1024 * 1024 },
      (error, stdout) => {
        if (error) return reject(error);
        resolve((JSON.parse(stdout) as { lessons: Lesson[] }).lessons);
      },
    );
  });
}

interface GradeOutcome {
  readonly code: number | null;
  readonly stderr: string;
  readonly cancelled: boolean;
}

function grade(
  cli: string,
  folder: string,
  lesson: Lesson,
  sandbox: 'require' | 'off',
  progress: vscode.Progress<{ message?: string; increment?: number }>,
  token: vscode.CancellationToken,
): Promise<GradeOutcome> {
  const args = [
    cli,
    'grade',
    folder,
    '--lesson',
    lesson.dir,
    '--out',
    path.join(folder, OUT_FOLDER),
    '--format',
    'html,json,csv',
    '--events',
    '--sandbox',
    sandbox,
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let stderr = '';
    let buffered = '';
    let cancelled = false;
    const cancel = token.onCancellationRequested(() => {
      cancelled = true;
      child.kill('SIGINT'); // as Ctrl-C: the CLI ends the programs it runs and keeps what it graded
    });
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        try {
          const event = JSON.parse(line) as { type?: string; done?: number; total?: number; student?: string };
          if (event.type === 'progress' && event.total)
            progress.report({
              message: `${event.done}/${event.total}: ${event.student ?? ''}`,
              increment: 100 / event.total,
            });
        } catch {
          // the closing summary lines are not events
        }
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (code) => {
      cancel.dispose();
      resolve({ code, stderr, cancelled });
    });
    child.on('error', (error) => {
      cancel.dispose();
      resolve({ code: null, stderr: error.message, cancelled });
    });
  });
}

async function showReport(folder: string, lesson: Lesson): Promise<void> {
  const html = await fs.readFile(path.join(folder, OUT_FOLDER, 'class-report.html'), 'utf8');
  const panel = vscode.window.createWebviewPanel(
    'lessonCompanion.classReport',
    `Class report: ${lesson.title}`,
    vscode.ViewColumn.Active,
    { enableScripts: false, localResourceRoots: [] },
  );
  panel.webview.html = reportHtmlForWebview(html, randomBytes(16).toString('base64'));
}

async function gradeFolderCommand(cli: string): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage("Grading runs every submission's program: trust this workspace first.");
    return;
  }
  const picked = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    openLabel: 'Grade this folder',
    title: 'Folder of submissions (one file or folder per student)',
  });
  const folder = picked?.[0]?.fsPath;
  if (!folder) return;
  const choices = (await lessons(cli)).map((l) => ({ label: l.title, description: l.id, lesson: l }));
  const chosen = await vscode.window.showQuickPick(choices, { title: 'Grade against which lesson?' });
  if (!chosen) return;
  let sandbox: 'require' | 'off' = 'require';
  for (;;) {
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Grading ${path.basename(folder)}`, cancellable: true },
      (progress, token) => grade(cli, folder, chosen.lesson, sandbox, progress, token),
    );
    if (outcome.cancelled) {
      void vscode.window.showInformationMessage(
        'Grading stopped. What was graded is kept: grade the folder again to go on.',
      );
      return;
    }
    if (outcome.code === 0) return showReport(folder, chosen.lesson);
    const message = outcome.stderr.trim().split('\n')[0] ?? 'grade failed';
    if (sandbox === 'require' && /--sandbox=off/.test(message)) {
      const off = 'Grade without the sandbox';
      if (
        (await vscode.window.showErrorMessage(
          message.replace(/^lesson-companion grade: /, ''),
          { modal: true },
          off,
        )) !== off
      )
        return;
      sandbox = 'off';
      continue;
    }
    void vscode.window.showErrorMessage(message);
    return;
  }
}

export function registerGradeFolderCommand(context: vscode.ExtensionContext, cli: string): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('lessonCompanion.gradeFolder', () => gradeFolderCommand(cli)),
  );
}
