/**
 * "Run in terminal" and "Debug this transcript" for a trace: the learner's own program on exactly the
 * commands of a counterexample, in the integrated terminal (their prints show beside the answers) or
 * under the debugger, stopped where the finding points. Both run learner code, so both are behind
 * Workspace Trust like every check. The webview only names the trace; the commands come from the
 * extension's own stored report.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { currentLines, mistakeFunction } from '../../core/report/findings';
import type { Counterexample, NamedMistake } from '../../core/report/report';
import { firstBodyLine, locateFunction } from '../../core/text/source';
import { DebugPrepareError, prepareDebug, shellQuote, type DebugPlan } from '../../node/run/debugLaunch';
import { resolveInside } from '../../node/packs/packs';
import type { DebugSupport } from '../../shared/messages';
import { UNTRUSTED_MESSAGE } from '../check/checkRunner';
import type { Log } from '../workbench/log';
import type { PackService } from '../lesson/packs';
import type { Session, SessionStore } from '../lesson/session';
import { resolveInterpreters } from '../workbench/settings';

const TERMINAL_NAME = 'Lesson: replay';
const PYTHON_DEBUGGERS = [
  { id: 'ms-python.debugpy', type: 'debugpy' },
  { id: 'ms-python.python', type: 'python' },
] as const;
export const PYTHON_DEBUGGER_NAME = 'the Python Debugger extension (ms-python.debugpy)';

/** How long a new terminal's shell may take to announce shell integration before the line is simply typed. */
const SHELL_INTEGRATION_WAIT_MS = 3000;

function shellIntegrationOf(
  terminal: vscode.Terminal,
  timeoutMs: number,
): Promise<vscode.TerminalShellIntegration | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      listener.dispose();
      resolve(undefined);
    }, timeoutMs);
    const listener = vscode.window.onDidChangeTerminalShellIntegration((e) => {
      if (e.terminal !== terminal) return;
      clearTimeout(timer);
      listener.dispose();
      resolve(e.shellIntegration);
    });
  });
}

export interface TraceTarget {
  readonly session: Session;
  readonly uri: vscode.Uri;
  readonly example: Counterexample;
  readonly mistake?: NamedMistake;
}

export interface DebugStarted {
  readonly started: boolean;
  /** Where the breakpoint was set: 1-based line in the learner's file. */
  readonly line: number | null;
  readonly type?: string;
  /** Why it did not start, in words. */
  readonly reason?: string;
}

/** Whether the session's language can be debugged here, and if not, what to install. */
export function debugSupport(language: Session['language'] | undefined): DebugSupport {
  if (language !== 'python') return { available: true };
  return PYTHON_DEBUGGERS.some((d) => vscode.extensions.getExtension(d.id))
    ? { available: true }
    : { available: false, install: 'the Python Debugger' };
}

/** The debug adapter for the language: js-debug's `node`, or the Python debugger installed (none: undefined). */
function debuggerTypeFor(language: Session['language']): string | undefined {
  return language === 'python' ? PYTHON_DEBUGGERS.find((d) => vscode.extensions.getExtension(d.id))?.type : 'node';
}

function offerPythonDebugger(): void {
  const show = 'Show in Extensions';
  void vscode.window
    .showInformationMessage(`Debugging Python needs ${PYTHON_DEBUGGER_NAME}. Install it, then try again.`, show)
    .then((picked) => {
      if (picked) void vscode.commands.executeCommand('workbench.extensions.search', '@id:ms-python.debugpy');
    });
}

/** The launch configuration for the plan; `marker` finds the session again when it ends. */
function launchConfiguration(type: string, plan: DebugPlan, name: string, marker: string): vscode.DebugConfiguration {
  if (type === 'node')
    return {
      type: 'node',
      request: 'launch',
      name,
      program: plan.program,
      // One string: js-debug passes it to the terminal's shell as is, so "<" redirects stdin.
      args: plan.args,
      cwd: plan.cwd,
      runtimeExecutable: plan.runtime,
      console: 'integratedTerminal',
      skipFiles: ['<node_internals>/**'],
      // sucrase's maps carry no names to rename variables by (js-debug would fail looking for them).
      ...(plan.outFiles
        ? {
            outFiles: [...plan.outFiles],
            sourceMaps: true,
            resolveSourceMapLocations: [...plan.outFiles],
            sourceMapRenames: false,
          }
        : {}),
      lessonCompanion: marker,
    };
  return {
    type,
    request: 'launch',
    name,
    program: plan.program,
    args: plan.args,
    cwd: plan.cwd,
    python: plan.runtime,
    console: 'integratedTerminal',
    justMyCode: true,
    lessonCompanion: marker,
  };
}

export class TraceActions implements vscode.Disposable {
  private terminal: vscode.Terminal | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly store: SessionStore,
    private readonly packs: PackService,
    private readonly log: Log,
    /** This extension's folder: its bundled CLI runs TypeScript in the terminal where `npx` would not find it. */
    private readonly extensionPath: string,
  ) {}

  /**
   * The report's replay line as this editor can run it: a learner's workspace has no `lesson-companion`
   * package for `npx` to find, but the extension carries the same CLI.
   */
  private async terminalLine(shell: string, uri: vscode.Uri): Promise<string> {
    if (!shell.includes('npx lesson-companion ')) return shell;
    const { node } = await resolveInterpreters(uri, this.log);
    return shell.replace(
      'npx lesson-companion ',
      `${shellQuote(node)} ${shellQuote(path.join(this.extensionPath, 'dist', 'cli.js'))} `,
    );
  }

  /** The counterexample of a mistake (or the report's own when `mistakeId` is null) in the last report. */
  target(mistakeId: string | null): TraceTarget | undefined {
    const session = this.store.session;
    const uri = this.store.mainUri(session);
    const report = this.store.progress(session).lastReport;
    if (!session || !uri || !report) return undefined;
    const mistake = mistakeId === null ? undefined : report.mistakes.find((m) => m.id === mistakeId);
    const example = mistakeId === null ? report.counterexample : mistake?.counterexample;
    return example ? { session, uri, example, ...(mistake ? { mistake } : {}) } : undefined;
  }

  private refuseUntrusted(): boolean {
    if (vscode.workspace.isTrusted) return false;
    void vscode.window.showWarningMessage(UNTRUSTED_MESSAGE, 'Manage Workspace Trust').then((picked) => {
      if (picked) void vscode.commands.executeCommand('workbench.trust.manage');
    });
    return true;
  }

  /**
   * Runs the trace's replay line in a terminal in the learner file's folder. With shell integration (the
   * usual case in bash, zsh, fish, PowerShell) the command runs as a tracked execution; otherwise it is typed.
   */
  async runInTerminal(
    mistakeId: string | null,
  ): Promise<{ command: string; cwd: string; tracked: boolean } | undefined> {
    if (this.refuseUntrusted()) return undefined;
    const target = this.target(mistakeId);
    const shell = target?.example.replay?.shell;
    if (!target || !shell) {
      void vscode.window.showInformationMessage('This transcript cannot be replayed: check again, then try once more.');
      return undefined;
    }
    const cwd = path.dirname(target.uri.fsPath);
    const command = await this.terminalLine(shell, target.uri);
    const fresh = !this.terminal || this.terminal.exitStatus !== undefined;
    if (fresh) this.terminal = vscode.window.createTerminal({ name: TERMINAL_NAME, cwd });
    const terminal = this.terminal!;
    terminal.show();
    // A terminal of ours used before may have moved elsewhere: the replay line is relative to the file's folder.
    const line = fresh ? command : `cd ${shellQuote(cwd)} && ${command}`;
    const integration = terminal.shellIntegration ?? (await shellIntegrationOf(terminal, SHELL_INTEGRATION_WAIT_MS));
    if (integration) integration.executeCommand(line);
    else terminal.sendText(line, true);
    this.log.info(`replay in terminal (${cwd}${integration ? '' : ', typed'}): ${line}`);
    return { command: line, cwd, tracked: integration !== undefined };
  }

  /** Starts a debug session of the learner's program on the trace, with a breakpoint where the finding points. */
  async debug(mistakeId: string | null): Promise<DebugStarted> {
    if (this.refuseUntrusted()) return { started: false, line: null, reason: 'untrusted' };
    const target = this.target(mistakeId);
    if (!target) return { started: false, line: null, reason: 'no such trace in the last check' };
    const type = debuggerTypeFor(target.session.language);
    if (!type) {
      offerPythonDebugger();
      return { started: false, line: null, reason: 'no Python debugger installed' };
    }
    const plan = await this.prepareDebugPlan(target);
    if ('failed' in plan) return { started: false, line: null, reason: plan.failed };
    const line = await this.breakpointLine(target);
    const added = line !== null ? this.addBreakpoint(target.uri, line) : undefined;
    const marker = `lc-${Date.now().toString(36)}`;
    const config = launchConfiguration(type, plan, `Lesson: ${target.example.label || 'transcript'}`, marker);
    const started = await this.startDebugging(target.uri, config, marker, () => {
      void plan.dispose();
      if (added) vscode.debug.removeBreakpoints([added]);
    });
    const shownLine = line === null ? null : line + 1; // 1-based, as the editor numbers lines
    if (!started) return { started: false, line: shownLine, type, reason: 'the debugger did not start' };
    this.log.info(`debugging ${target.example.transcript} (${type}), breakpoint at line ${shownLine ?? '-'}`);
    return { started: true, line: shownLine, type };
  }

  /**
   * The learner's program ready to run under a debugger on exactly the trace's commands (through the pack's
   * driver when it has one); else why not, already said to the learner.
   */
  private async prepareDebugPlan(target: TraceTarget): Promise<DebugPlan | { readonly failed: string }> {
    const { session, uri, example } = target;
    const pack = await this.packs.find(session.lessonId);
    const driverPath = pack?.manifest.starters[session.language]?.driver;
    const driver = pack && driverPath ? await resolveInside(pack.dir, driverPath) : undefined;
    const interpreters = await resolveInterpreters(uri, this.log);
    // The commands exactly as a check sends them (reset first), one per line.
    const stdin = example.replay?.stdin ?? `${example.commands.join('\n')}\n`;
    try {
      return await prepareDebug(session.language, uri.fsPath, interpreters, stdin, driver);
    } catch (error) {
      const message = error instanceof DebugPrepareError ? error.message : String(error);
      void vscode.window.showErrorMessage(`Cannot start the debugger: ${message}`);
      return { failed: message };
    }
  }

  /**
   * Starts the session; `cleanup` runs once it ends (found by its `marker`), or at once if it does not start:
   * the plan's temporary files and the breakpoint added for it are ours to remove.
   */
  private async startDebugging(
    uri: vscode.Uri,
    config: vscode.DebugConfiguration,
    marker: string,
    cleanup: () => void,
  ): Promise<boolean> {
    const ended = vscode.debug.onDidTerminateDebugSession((s) => {
      if (s.configuration.lessonCompanion !== marker) return;
      ended.dispose();
      cleanup();
    });
    this.subscriptions.push(ended);
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    let started = false;
    try {
      started = await vscode.debug.startDebugging(folder, config);
    } catch (error) {
      this.log.error('could not start the debugger', error);
    }
    if (!started) {
      ended.dispose();
      cleanup();
    }
    return started;
  }

  /** 0-based: the most suspicious traced line, else the first line of the function's body. */
  private async breakpointLine(target: TraceTarget): Promise<number | null> {
    const { session, uri, mistake } = target;
    let text: string;
    try {
      text = (await vscode.workspace.openTextDocument(uri)).getText();
    } catch {
      return null;
    }
    if (mistake) {
      const lines = currentLines(mistake, text, session.language, this.store.progress(session).lastAnchors);
      if (lines.length > 0) return lines[0]! - 1;
    }
    const fn = mistake ? mistakeFunction(mistake) : undefined;
    const def = fn ? locateFunction(text, session.language, fn) : null;
    return def ? firstBodyLine(text, session.language, def - 1) : null;
  }

  /** Adds a breakpoint unless the learner has one there already; returns the one it added. */
  private addBreakpoint(uri: vscode.Uri, line: number): vscode.SourceBreakpoint | undefined {
    const exists = vscode.debug.breakpoints.some(
      (b) =>
        b instanceof vscode.SourceBreakpoint &&
        b.location.uri.toString() === uri.toString() &&
        b.location.range.start.line === line,
    );
    if (exists) return undefined;
    const breakpoint = new vscode.SourceBreakpoint(new vscode.Location(uri, new vscode.Position(line, 0)));
    vscode.debug.addBreakpoints([breakpoint]);
    return breakpoint;
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.terminal?.dispose();
  }
}
