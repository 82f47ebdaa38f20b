/**
 * The message protocol between the extension host and the lesson panel webview, in the style of VS Code's
 * markdown preview (`previewMessaging.d.ts`): discriminated unions keyed on `type`, one version number,
 * and a runtime guard for every message either side receives (a webview is another process; a stale
 * panel restored after an update may speak an older protocol).
 *
 * Fields named `...Html` are HTML produced by the extension's markdown renderer (markdown-it with
 * `html: false`, so pack HTML arrives escaped). Every other string is plain text, and the webview puts
 * it into the DOM with `textContent` only.
 */

/** Bump when a message or view type changes shape. */
export const PROTOCOL_VERSION = 1;

export type LanguageId = 'python' | 'javascript' | 'typescript';

export interface StepView {
  /** 1-based, as packs and mistakes number steps. */
  readonly index: number;
  readonly title: string;
  readonly detailHtml?: string;
  /** What a click reveals: a symbol name, "#top", or a file; absent for run-only steps. */
  readonly target?: string;
  /** The terminal command for the session's language. */
  readonly run?: string;
  readonly read: boolean;
}

export interface AnswerView {
  /** As typed; multiple choice as the chosen numbers, "1, 3" (what the quiz checker reads). */
  readonly answer: string;
  readonly correct: boolean;
  readonly feedback: string;
  readonly explanation?: string;
  /** Read-order step that teaches the answer. */
  readonly step?: number;
}

export type QuestionKind = 'single' | 'multiple' | 'short' | 'number' | 'predict';

export interface QuestionView {
  readonly id: string;
  readonly promptHtml: string;
  readonly kind: QuestionKind;
  readonly choices?: readonly string[];
  /** Predict-the-output questions: the commands whose output the learner predicts. */
  readonly commands?: readonly string[];
  readonly step?: number;
  readonly last?: AnswerView;
}

export interface TraceRowView {
  readonly command: string;
  /** Answer lines joined for display, invisible characters made visible. */
  readonly expected: string;
  readonly actual: string;
  readonly counts: string;
  readonly matches: boolean;
  readonly diverges: boolean;
  /** Rows after the first difference: the reference's story, less relevant to the learner. */
  readonly after: boolean;
}

export interface TraceView {
  readonly transcript: string;
  readonly commands: number;
  readonly shrunkFrom: number;
  readonly divergesAt: number;
  readonly rows: readonly TraceRowView[];
}

export interface MistakeView {
  readonly id: string;
  readonly title: string;
  readonly explanationHtml: string;
  readonly hintHtml: string;
  readonly function: string;
  readonly line: number | null;
  readonly confidence: 'exact' | 'likely';
  readonly revealedBy: readonly string[];
  readonly step?: { readonly index: number; readonly title: string };
  readonly question?: { readonly id: string; readonly promptText: string };
  readonly trace?: TraceView;
}

export interface ProblemView {
  readonly kind: string;
  readonly title: string;
  readonly message: string;
  readonly advice?: string;
  readonly line?: number;
  readonly details?: string;
}

export interface CheckView {
  readonly status: 'pass' | 'fail' | 'error';
  /** e.g. "12 of 14 hidden transcripts pass". */
  readonly summary: string;
  readonly passed: number;
  readonly total: number;
  readonly fuzz: string;
  readonly mistakes: readonly MistakeView[];
  readonly problems: readonly ProblemView[];
  /** The shrunk counterexample when no named mistake carries one. */
  readonly trace?: TraceView;
  readonly durationMs: number;
  /** ISO time of the check, for "checked 2 minutes ago". */
  readonly at: string;
}

export interface DoneView {
  readonly html: string;
  readonly met: boolean;
}

export interface LessonView {
  readonly id: string;
  readonly title: string;
  readonly language: LanguageId;
  readonly mainFile: string;
  readonly summary?: string;
  readonly coreQuestionHtml: string;
  readonly outcomesHtml: readonly string[];
  readonly steps: readonly StepView[];
  readonly failureQuestions: readonly QuestionView[];
  readonly quiz: readonly QuestionView[];
  readonly protocolHtml: string;
  readonly doneWhen: readonly DoneView[];
}

export interface PanelState {
  /** null: no lesson started in this workspace (or its pack is gone); `notice` says which. */
  readonly lesson: LessonView | null;
  readonly notice?: string;
  readonly trusted: boolean;
  readonly checking: boolean;
  readonly check: CheckView | null;
}

export type RevealTarget =
  | { readonly kind: 'step'; readonly index: number }
  | { readonly kind: 'question'; readonly id: string }
  | { readonly kind: 'mistake'; readonly id: string }
  | { readonly kind: 'results' };

// ---- extension -> webview ----

export type ToWebview =
  | { readonly type: 'init'; readonly protocol: number; readonly state: PanelState }
  | { readonly type: 'state'; readonly state: PanelState }
  | { readonly type: 'checkStarted' }
  | { readonly type: 'checkResult'; readonly check: CheckView | null; readonly state: PanelState }
  | { readonly type: 'answerResult'; readonly questionId: string; readonly result: AnswerView; readonly state: PanelState }
  | { readonly type: 'reveal'; readonly target: RevealTarget };

// ---- webview -> extension ----

export type FromWebview =
  | { readonly type: 'ready'; readonly protocol: number }
  | { readonly type: 'openStep'; readonly index: number }
  | { readonly type: 'runStep'; readonly index: number }
  | { readonly type: 'runCheck' }
  | { readonly type: 'answer'; readonly questionId: string; readonly answer: string }
  | { readonly type: 'openMistake'; readonly id: string }
  | { readonly type: 'startLesson' }
  | { readonly type: 'manageTrust' };

// ---- runtime guards: everything that crosses the boundary is checked before use ----

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown, max = 10_000): v is string => typeof v === 'string' && v.length <= max;
const isInt = (v: unknown, min = 0, max = 10_000): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const isId = (v: unknown): v is string => typeof v === 'string' && ID.test(v);

/** Validates a message from the webview. Returns it typed, or undefined for anything else. */
export function parseFromWebview(raw: unknown): FromWebview | undefined {
  if (!isObj(raw) || typeof raw.type !== 'string') return undefined;
  switch (raw.type) {
    case 'ready':
      return isInt(raw.protocol, 0, 1_000_000) ? { type: 'ready', protocol: raw.protocol } : undefined;
    case 'openStep':
    case 'runStep':
      return isInt(raw.index, 1, 1000) ? { type: raw.type, index: raw.index } : undefined;
    case 'runCheck':
    case 'startLesson':
    case 'manageTrust':
      return { type: raw.type };
    case 'answer':
      return isId(raw.questionId) && isStr(raw.answer, 4000) ? { type: 'answer', questionId: raw.questionId, answer: raw.answer } : undefined;
    case 'openMistake':
      return isId(raw.id) ? { type: 'openMistake', id: raw.id } : undefined;
    default:
      return undefined;
  }
}

function isAnswerView(v: unknown): v is AnswerView {
  return isObj(v) && isStr(v.answer) && isBool(v.correct) && isStr(v.feedback) &&
    (v.explanation === undefined || isStr(v.explanation)) && (v.step === undefined || isInt(v.step, 1));
}

function isRevealTarget(v: unknown): v is RevealTarget {
  if (!isObj(v)) return false;
  switch (v.kind) {
    case 'step':
      return isInt(v.index, 1);
    case 'question':
    case 'mistake':
      return isId(v.id);
    case 'results':
      return true;
    default:
      return false;
  }
}

/**
 * The panel state is built by the extension itself, so the webview checks its outline (the fields the
 * renderer branches on) rather than every nested string; the renderer still treats every string as text.
 */
export function isPanelState(v: unknown): v is PanelState {
  if (!isObj(v) || !isBool(v.trusted) || !isBool(v.checking)) return false;
  if (v.notice !== undefined && !isStr(v.notice)) return false;
  if (v.lesson !== null && !(isObj(v.lesson) && isStr(v.lesson.title) && Array.isArray(v.lesson.steps) && Array.isArray(v.lesson.failureQuestions) && Array.isArray(v.lesson.quiz) && Array.isArray(v.lesson.doneWhen))) return false;
  return v.check === null || isCheckView(v.check);
}

function isCheckView(v: unknown): v is CheckView {
  return isObj(v) && (v.status === 'pass' || v.status === 'fail' || v.status === 'error') && isStr(v.summary) &&
    Array.isArray(v.mistakes) && Array.isArray(v.problems);
}

/** Validates a message from the extension (the webview's side of the boundary). */
export function parseToWebview(raw: unknown): ToWebview | undefined {
  if (!isObj(raw) || typeof raw.type !== 'string') return undefined;
  switch (raw.type) {
    case 'init':
      return isInt(raw.protocol, 0, 1_000_000) && isPanelState(raw.state) ? { type: 'init', protocol: raw.protocol, state: raw.state } : undefined;
    case 'state':
      return isPanelState(raw.state) ? { type: 'state', state: raw.state } : undefined;
    case 'checkStarted':
      return { type: 'checkStarted' };
    case 'checkResult':
      return (raw.check === null || isCheckView(raw.check)) && isPanelState(raw.state)
        ? { type: 'checkResult', check: raw.check, state: raw.state }
        : undefined;
    case 'answerResult':
      return isId(raw.questionId) && isAnswerView(raw.result) && isPanelState(raw.state)
        ? { type: 'answerResult', questionId: raw.questionId, result: raw.result, state: raw.state }
        : undefined;
    case 'reveal':
      return isRevealTarget(raw.target) ? { type: 'reveal', target: raw.target } : undefined;
    default:
      return undefined;
  }
}
