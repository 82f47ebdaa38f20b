/**
 * The active lesson session of this workspace and the learner's progress in it, kept in workspaceState
 * so that both survive a window reload: which lesson and language, which file the learner edits, which
 * steps they have read, what they answered, and the last check report.
 */
import * as vscode from 'vscode';
import type { FunctionAnchors } from '../../core/report/findings';
import type { CheckReport } from '../../core/report/report';
import { LANGUAGES, type Language } from '../../core/pack/schema';
import type { AnswerView } from '../../shared/messages';

export interface Session {
  readonly lessonId: string;
  readonly language: Language;
  /** Workspace-relative, forward slashes. */
  readonly mainFile: string;
  /** The workspace folder the lesson was started in. */
  readonly folder: string;
}

export interface Progress {
  readonly stepsRead: readonly number[];
  readonly answers: Readonly<Record<string, AnswerView>>;
  /** Questions whose answer the learner asked to see ("Show answer"), in the order they asked. */
  readonly answersShown: readonly string[];
  readonly lastReport: CheckReport | null;
  /** Where the traced mistakes' functions were in the checked file, so their lines follow later edits. */
  readonly lastAnchors: FunctionAnchors;
  /** ISO time of the last check. */
  readonly lastCheckAt: string | null;
}

const SESSION_KEY = 'lessonCompanion.session';
const progressKey = (s: Pick<Session, 'lessonId' | 'language'>): string =>
  `lessonCompanion.progress/${s.lessonId}/${s.language}`;
const EMPTY: Progress = {
  stepsRead: [],
  answers: {},
  answersShown: [],
  lastReport: null,
  lastAnchors: {},
  lastCheckAt: null,
};

function isSession(v: unknown): v is Session {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  return (
    typeof s.lessonId === 'string' &&
    typeof s.mainFile === 'string' &&
    typeof s.folder === 'string' &&
    typeof s.language === 'string' &&
    (LANGUAGES as readonly string[]).includes(s.language)
  );
}

/** Older or hand-edited state must not break the panel: keep what has the right shape. */
function asProgress(v: unknown): Progress {
  if (typeof v !== 'object' || v === null) return EMPTY;
  const p = v as Record<string, unknown>;
  const stepsRead = Array.isArray(p.stepsRead) ? p.stepsRead.filter((n): n is number => Number.isInteger(n)) : [];
  const answers = typeof p.answers === 'object' && p.answers !== null ? (p.answers as Record<string, AnswerView>) : {};
  const lastReport =
    typeof p.lastReport === 'object' && p.lastReport !== null && 'status' in p.lastReport
      ? (p.lastReport as CheckReport)
      : null;
  const lastCheckAt = typeof p.lastCheckAt === 'string' ? p.lastCheckAt : null;
  const answersShown = Array.isArray(p.answersShown)
    ? p.answersShown.filter((id): id is string => typeof id === 'string')
    : [];
  const lastAnchors =
    typeof p.lastAnchors === 'object' && p.lastAnchors !== null ? (p.lastAnchors as FunctionAnchors) : {};
  return { stepsRead, answers, answersShown, lastReport, lastAnchors, lastCheckAt };
}

export class SessionStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after the session or its progress changed. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: vscode.Memento) {}

  get session(): Session | undefined {
    const s = this.memento.get<unknown>(SESSION_KEY);
    return isSession(s) ? s : undefined;
  }

  mainUri(session = this.session): vscode.Uri | undefined {
    if (!session) return undefined;
    return vscode.Uri.joinPath(vscode.Uri.parse(session.folder), ...session.mainFile.split('/'));
  }

  folderUri(session = this.session): vscode.Uri | undefined {
    return session ? vscode.Uri.parse(session.folder) : undefined;
  }

  /** True when `uri` is the file the learner edits in the active session. */
  isMainFile(uri: vscode.Uri): boolean {
    const main = this.mainUri();
    return main !== undefined && main.toString() === uri.toString();
  }

  async start(session: Session): Promise<void> {
    await this.memento.update(SESSION_KEY, session);
    this.changed.fire();
  }

  async end(): Promise<void> {
    await this.memento.update(SESSION_KEY, undefined);
    this.changed.fire();
  }

  progress(session = this.session): Progress {
    return session ? asProgress(this.memento.get<unknown>(progressKey(session))) : EMPTY;
  }

  /** A lesson is done by its own evidence: its last check, in any language, passed. */
  passed(lessonId: string): boolean {
    return LANGUAGES.some((language) => {
      const report = asProgress(this.memento.get<unknown>(progressKey({ lessonId, language }))).lastReport;
      return report?.status === 'pass' && report.lesson === lessonId;
    });
  }

  private async updateProgress(change: (p: Progress) => Progress): Promise<void> {
    const session = this.session;
    if (!session) return;
    await this.memento.update(progressKey(session), change(this.progress(session)));
    this.changed.fire();
  }

  markStepRead(index: number): Promise<void> {
    return this.updateProgress((p) =>
      p.stepsRead.includes(index) ? p : { ...p, stepsRead: [...p.stepsRead, index].sort((a, b) => a - b) },
    );
  }

  recordAnswer(questionId: string, answer: AnswerView): Promise<void> {
    return this.updateProgress((p) => ({ ...p, answers: { ...p.answers, [questionId]: answer } }));
  }

  /** The learner asked to see a question's answer: shown now, and remembered as shown. */
  recordAnswerShown(questionId: string, shown: AnswerView): Promise<void> {
    return this.updateProgress((p) => ({
      ...p,
      answers: { ...p.answers, [questionId]: shown },
      answersShown: p.answersShown.includes(questionId) ? p.answersShown : [...p.answersShown, questionId],
    }));
  }

  setReport(report: CheckReport, anchors: FunctionAnchors = {}): Promise<void> {
    return this.updateProgress((p) => ({
      ...p,
      lastReport: report,
      lastAnchors: anchors,
      lastCheckAt: new Date().toISOString(),
    }));
  }

  dispose(): void {
    this.changed.dispose();
  }
}
