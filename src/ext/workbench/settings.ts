/** The extension's settings, and which interpreters a check runs the learner's program with. */
import * as vscode from 'vscode';
import { DEFAULT_INTERPRETERS, type Interpreters } from '../../node/languages/languages';
import { DEFAULT_TIME_LIMIT_MS } from '../../node/run/limits';
import type { Log } from './log';

export const SECTION = 'lessonCompanion';

export interface Settings {
  readonly pythonPath: string;
  readonly nodePath: string;
  readonly timeLimitMs: number;
  readonly checkOnSave: boolean;
}

export function readSettings(scope?: vscode.Uri): Settings {
  const c = vscode.workspace.getConfiguration(SECTION, scope);
  const limit = c.get<number>('timeLimitMs', DEFAULT_TIME_LIMIT_MS);
  return {
    pythonPath: c.get<string>('pythonPath', '').trim(),
    nodePath: c.get<string>('nodePath', '').trim(),
    // A typo in settings.json must not turn into a zero or negative time limit.
    timeLimitMs: Number.isFinite(limit) && limit >= 100 ? Math.min(limit, 120_000) : DEFAULT_TIME_LIMIT_MS,
    checkOnSave: c.get<boolean>('checkOnSave', false),
  };
}

/** The subset of the Python extension's API we use (ms-python.python, both the new and the legacy shape). */
interface PythonApi {
  environments?: {
    getActiveEnvironmentPath?(resource?: vscode.Uri): { path: string } | undefined;
    resolveEnvironment?(env: { path: string } | string): Promise<{ executable?: { uri?: vscode.Uri } } | undefined>;
  };
  settings?: {
    getExecutionDetails?(resource?: vscode.Uri): { execCommand?: string[] } | undefined;
  };
}

/**
 * The interpreter the learner already chose in the Python extension, if it is installed: checks should run
 * the same Python as the learner's own terminal and debugger.
 */
async function pythonFromExtension(scope: vscode.Uri | undefined, log: Log): Promise<string | undefined> {
  const ext = vscode.extensions.getExtension<PythonApi>('ms-python.python');
  if (!ext) return undefined;
  try {
    const api = ext.isActive ? ext.exports : await ext.activate();
    const envPath = api?.environments?.getActiveEnvironmentPath?.(scope);
    if (envPath && api.environments?.resolveEnvironment) {
      const resolved = await api.environments.resolveEnvironment(envPath);
      const exe = resolved?.executable?.uri?.fsPath;
      if (exe) return exe;
    }
    const legacy = api?.settings?.getExecutionDetails?.(scope)?.execCommand?.[0];
    if (legacy) return legacy;
    return envPath?.path || undefined;
  } catch (error) {
    log.warn(`could not ask the Python extension for its interpreter: ${String(error)}`);
    return undefined;
  }
}

export async function resolveInterpreters(scope: vscode.Uri | undefined, log: Log): Promise<Interpreters> {
  const s = readSettings(scope);
  const python = s.pythonPath || (await pythonFromExtension(scope, log)) || DEFAULT_INTERPRETERS.python;
  // DEFAULT_INTERPRETERS.node is this extension host's own node when it is one (code-server), else `node`.
  const node = s.nodePath || DEFAULT_INTERPRETERS.node;
  return { python, node };
}
