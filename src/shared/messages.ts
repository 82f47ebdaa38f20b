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

import { isCourseView, type CourseView } from './courseView';
import type { ChartCell, ChartRow, SimulationView } from '../worlds/templates/simulationView';

export type { ChartCell, ChartRow };

/**
 * Bump when a message or view type changes shape.
 * 2: traces with the learner's own counts beside the reference's, run/debug a trace, show an answer,
 *    the verdict as a sentence plus details, the progress line, where a finding points.
 * 3: "Under load": the lesson's scenarios, a simulation's chart, runSimulation / simulationStarted /
 *    simulationResult.
 */
export const PROTOCOL_VERSION = 3;

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
  /** Only with the right answer, or once the learner asked to see it: a wrong answer's feedback guides, it does not tell. */
  readonly explanation?: string;
  /** Read-order step that teaches the answer. */
  readonly step?: number;
  /** The learner asked for the answer ("Show answer"); the explanation carries it. */
  readonly revealed?: boolean;
  /** Predict questions, once revealed: what the program prints, one answer per line. */
  readonly expectedOutput?: readonly string[];
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

/** One `name:count` of a count column; `differs` when the other column does not have it. */
export interface CountCellView {
  readonly text: string;
  readonly differs: boolean;
}

export interface TraceRowView {
  readonly command: string;
  /** Answer lines joined for display, invisible characters made visible. */
  readonly expected: string;
  readonly actual: string;
  readonly matches: boolean;
  readonly diverges: boolean;
  /** Rows after the first difference: the reference's story, less relevant to the learner. */
  readonly after: boolean;
  /** `observed` traces: the program's own counts; null when it did not answer the observe command. */
  readonly yours?: readonly CountCellView[] | null;
  /** `observed` traces: what the counts should be; `reference` traces: the reference's counts. */
  readonly shouldBe: readonly CountCellView[];
  readonly countsDiffer: boolean;
  /** The program's whole answer when `actual` was cut for display. */
  readonly details?: string;
}

export interface TraceView {
  /** Which trace, for runTrace/debugTrace: the mistake's id, or null for the report's own counterexample. */
  readonly mistakeId: string | null;
  /** "Smallest transcript that shows it (3 of 12 commands, from a random test (#24))". */
  readonly caption: string;
  /** Two count columns (your counts, should be) or one (reference counts). */
  readonly columns: 'observed' | 'reference';
  /** What the count columns are, in one sentence. */
  readonly note: string;
  readonly divergesAt: number;
  readonly rows: readonly TraceRowView[];
  /** Row 0: what every run sends first (the reset command). */
  readonly preamble?: readonly TraceRowView[];
  /** The shell line that replays it from the learner file's folder; absent when the check could not say. */
  readonly replay?: string;
}

/** Whether "Debug this transcript" can start a debugger for the session's language. */
export interface DebugSupport {
  readonly available: boolean;
  /** When not: what to install, in words ("the Python Debugger extension (ms-python.debugpy)"). */
  readonly install?: string;
}

export interface WhereView {
  readonly function: string;
  readonly lines: readonly number[];
  /** "Lines 74–75 of select()" / "In pick()". */
  readonly text: string;
  readonly reason?: string;
}

export interface MistakeView {
  readonly id: string;
  readonly title: string;
  readonly explanationHtml: string;
  readonly hintHtml: string;
  readonly where: WhereView;
  readonly confidence: 'exact' | 'likely';
  /** "Seen at 7 commands in 3 transcripts, …"; empty when the report has no evidence. */
  readonly evidence: string;
  /** How the program's ties behave, when the check saw it. */
  readonly behaviour?: string;
  /** The hidden transcripts that show it, by description. */
  readonly revealedBy: readonly string[];
  readonly step?: { readonly index: number; readonly title: string };
  readonly question?: { readonly id: string; readonly promptText: string };
  readonly trace?: TraceView;
  /** Rung 4 is offered: the smallest transcript was shown in an earlier check (src/core/repair/ladder.ts). */
  readonly fix?: boolean;
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
  /** The count, the same as the Test Explorer's and the badge's: "12 of 14 hidden transcripts pass". */
  readonly summary: string;
  /** What failed and what to do next, in one sentence. */
  readonly sentence: string;
  readonly passed: number;
  readonly total: number;
  /** The quiet line: random tests and their seed (empty when there is nothing to say), with a tooltip. */
  readonly details: string;
  readonly detailsTooltip: string;
  readonly mistakes: readonly MistakeView[];
  readonly problems: readonly ProblemView[];
  /** The shrunk counterexample when no named mistake carries one. */
  readonly trace?: TraceView;
  readonly durationMs: number;
  /** Which count is which: the Testing badge's failing transcripts, Problems' mistakes (empty when not failing). */
  readonly countsLegend: string;
  /** ISO time of the check, for "checked 2 minutes ago". */
  readonly at: string;
}

export interface DoneView {
  readonly html: string;
  /** Ticked only by the evidence the item names. */
  readonly met: boolean;
  /** That evidence in numbers: "12 of 15 pass", "1 of 18 questions answered". */
  readonly evidence: string;
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
  /** "2 of 6 read · 1 of 5 answered". */
  readonly progress: string;
  readonly debug: DebugSupport;
}

export interface ScenarioChoice {
  readonly id: string;
  readonly title: string;
  readonly description: string;
}

/** A simulation's chart as the panel shows it: the pack's explanation rendered, and when it ran. */
export type SimulationChartView = SimulationView & { readonly explanationHtml?: string; readonly at: string };

export interface UnderLoadView {
  readonly scenarios: readonly ScenarioChoice[];
  /** The scenario the Run button runs: the last one run, or the one that shows the last check's mistake. */
  readonly selected: string;
  readonly running: boolean;
  readonly result: SimulationChartView | null;
  /** Why the last simulation could not run at all, in words. */
  readonly error?: string;
}

export interface PanelState {
  /** null: no lesson started in this workspace (or its pack is gone); `notice` says which. */
  readonly lesson: LessonView | null;
  readonly notice?: string;
  readonly trusted: boolean;
  readonly checking: boolean;
  readonly check: CheckView | null;
  /** Absent when the lesson declares no load scenarios. */
  readonly underLoad?: UnderLoadView;
  /** The course the current lesson belongs to (courseView.ts); absent outside a course. */
  readonly course?: CourseView;
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
  | {
      readonly type: 'answerResult';
      readonly questionId: string;
      readonly result: AnswerView;
      readonly state: PanelState;
    }
  | { readonly type: 'reveal'; readonly target: RevealTarget }
  | { readonly type: 'simulationStarted' }
  | { readonly type: 'simulationResult'; readonly state: PanelState };

// ---- webview -> extension ----

export type FromWebview =
  | { readonly type: 'ready'; readonly protocol: number }
  | { readonly type: 'openStep'; readonly index: number }
  | { readonly type: 'runStep'; readonly index: number }
  | { readonly type: 'runCheck' }
  | { readonly type: 'answer'; readonly questionId: string; readonly answer: string }
  | { readonly type: 'openMistake'; readonly id: string }
  /** Run / debug a trace: the extension looks the transcript up in its own report, the webview only names it. */
  | { readonly type: 'runTrace'; readonly mistakeId: string | null }
  | { readonly type: 'debugTrace'; readonly mistakeId: string | null }
  | { readonly type: 'showFix'; readonly mistakeId: string }
  | { readonly type: 'showAnswer'; readonly questionId: string }
  | { readonly type: 'startLesson' }
  | { readonly type: 'manageTrust' }
  /** Run the learner's program through one of the lesson's load scenarios. */
  | { readonly type: 'runSimulation'; readonly scenario: string }
  /** Start the course's next lesson (the extension checks it is the one its outline offers). */
  | { readonly type: 'nextLesson'; readonly lesson: string };

// ---- runtime guards: everything that crosses the boundary is checked before use ----

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown, max = 10_000): v is string => typeof v === 'string' && v.length <= max;
const isInt = (v: unknown, min = 0, max = 10_000): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
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
    case 'nextLesson':
      return isId(raw.lesson) ? { type: 'nextLesson', lesson: raw.lesson } : undefined;
    case 'runCheck':
    case 'startLesson':
    case 'manageTrust':
      return { type: raw.type };
    case 'answer':
      return isId(raw.questionId) && isStr(raw.answer, 4000)
        ? { type: 'answer', questionId: raw.questionId, answer: raw.answer }
        : undefined;
    case 'openMistake':
      return isId(raw.id) ? { type: 'openMistake', id: raw.id } : undefined;
    case 'runTrace':
    case 'debugTrace':
      return raw.mistakeId === null || isId(raw.mistakeId) ? { type: raw.type, mistakeId: raw.mistakeId } : undefined;
    case 'showAnswer':
      return isId(raw.questionId) ? { type: 'showAnswer', questionId: raw.questionId } : undefined;
    case 'showFix':
      return isId(raw.mistakeId) ? { type: 'showFix', mistakeId: raw.mistakeId } : undefined;
    case 'runSimulation':
      return isId(raw.scenario) ? { type: 'runSimulation', scenario: raw.scenario } : undefined;
    default:
      return undefined;
  }
}

function isAnswerView(v: unknown): v is AnswerView {
  return (
    isObj(v) &&
    isStr(v.answer) &&
    isBool(v.correct) &&
    isStr(v.feedback) &&
    (v.explanation === undefined || isStr(v.explanation)) &&
    (v.step === undefined || isInt(v.step, 1)) &&
    (v.revealed === undefined || isBool(v.revealed)) &&
    (v.expectedOutput === undefined || (Array.isArray(v.expectedOutput) && v.expectedOutput.every((l) => isStr(l))))
  );
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
  if (v.lesson !== null && !isLessonView(v.lesson)) return false;
  if (v.underLoad !== undefined && !isUnderLoadView(v.underLoad)) return false;
  if (v.course !== undefined && !isCourseView(v.course)) return false;
  return v.check === null || isCheckView(v.check);
}

const isStrings = (v: unknown, max = 1000): v is string[] =>
  Array.isArray(v) && v.length <= max && v.every((x) => isStr(x));
const isTable = (v: unknown): boolean =>
  isObj(v) &&
  isStr(v.caption) &&
  isStrings(v.head) &&
  Array.isArray(v.rows) &&
  v.rows.length <= 1000 &&
  v.rows.every((r) => isStrings(r));

function isChartRow(v: unknown): boolean {
  return (
    isObj(v) &&
    isStr(v.key, 100) &&
    isStr(v.title, 200) &&
    isStr(v.subtitle, 200) &&
    (v.kind === 'server' || v.kind === 'failed' || v.kind === 'waiting' || v.kind === 'lane' || v.kind === 'total') &&
    (v.scale === undefined || isInt(v.scale, 1, 1e9)) &&
    Array.isArray(v.down) &&
    v.down.every((d) => Array.isArray(d) && d.length === 2 && isInt(d[0], 1, 1000) && isInt(d[1], 1, 1000)) &&
    Array.isArray(v.cells) &&
    v.cells.length <= 6 &&
    v.cells.every(
      (c) =>
        isObj(c) &&
        isStr(c.label, 200) &&
        Array.isArray(c.values) &&
        c.values.length <= 1000 &&
        c.values.every((x) => isInt(x, 0, 1e9)),
    )
  );
}

/** The chart is drawn from these numbers, so they are checked, not only the outline. */
function isChartView(v: unknown): boolean {
  return (
    isObj(v) &&
    isStr(v.sentence) &&
    isStr(v.title, 200) &&
    isStr(v.at, 100) &&
    isInt(v.ticks, 1, 1000) &&
    isInt(v.scaleMax, 1, 1e9) &&
    Array.isArray(v.columns) &&
    v.columns.length <= 6 &&
    v.columns.every((c) => isObj(c) && isStr(c.label, 100)) &&
    (v.intro === undefined || isStr(v.intro, 1000)) &&
    (v.scaleNote === undefined || isStr(v.scaleNote, 400)) &&
    Array.isArray(v.rows) &&
    v.rows.length <= 40 &&
    v.rows.every(isChartRow) &&
    isTable(v.summary) &&
    isTable(v.perTick) &&
    (v.explanationHtml === undefined || isStr(v.explanationHtml, 20_000))
  );
}

function isUnderLoadView(v: unknown): boolean {
  return (
    isObj(v) &&
    isBool(v.running) &&
    isId(v.selected) &&
    Array.isArray(v.scenarios) &&
    v.scenarios.length <= 20 &&
    v.scenarios.every((s) => isObj(s) && isId(s.id) && isStr(s.title, 200) && isStr(s.description, 1000)) &&
    (v.result === null || isChartView(v.result)) &&
    (v.error === undefined || isStr(v.error))
  );
}

function isLessonView(v: unknown): boolean {
  return (
    isObj(v) &&
    isStr(v.title) &&
    isStr(v.progress) &&
    Array.isArray(v.steps) &&
    Array.isArray(v.failureQuestions) &&
    Array.isArray(v.quiz) &&
    Array.isArray(v.doneWhen) &&
    isObj(v.debug) &&
    isBool(v.debug.available)
  );
}

function isTraceView(v: unknown): boolean {
  return (
    isObj(v) &&
    (v.mistakeId === null || isId(v.mistakeId)) &&
    (v.columns === 'observed' || v.columns === 'reference') &&
    isStr(v.caption) &&
    Array.isArray(v.rows) &&
    (v.preamble === undefined || (Array.isArray(v.preamble) && v.preamble.length <= 10)) &&
    (v.replay === undefined || isStr(v.replay))
  );
}

function isMistakeView(v: unknown): boolean {
  return (
    isObj(v) &&
    isId(v.id) &&
    isStr(v.title) &&
    (v.confidence === 'exact' || v.confidence === 'likely') &&
    isObj(v.where) &&
    isStr(v.where.text) &&
    Array.isArray(v.revealedBy) &&
    (v.trace === undefined || isTraceView(v.trace)) &&
    (v.fix === undefined || typeof v.fix === 'boolean')
  );
}

function isCheckView(v: unknown): v is CheckView {
  return (
    isObj(v) &&
    (v.status === 'pass' || v.status === 'fail' || v.status === 'error') &&
    isStr(v.summary) &&
    isStr(v.sentence) &&
    isStr(v.details) &&
    isStr(v.countsLegend) &&
    Array.isArray(v.mistakes) &&
    v.mistakes.every(isMistakeView) &&
    Array.isArray(v.problems) &&
    (v.trace === undefined || isTraceView(v.trace)) &&
    (v.fix === undefined || typeof v.fix === 'boolean')
  );
}

/** Validates a message from the extension (the webview's side of the boundary). */
export function parseToWebview(raw: unknown): ToWebview | undefined {
  if (!isObj(raw) || typeof raw.type !== 'string') return undefined;
  switch (raw.type) {
    case 'init':
      return isInt(raw.protocol, 0, 1_000_000) && isPanelState(raw.state)
        ? { type: 'init', protocol: raw.protocol, state: raw.state }
        : undefined;
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
    case 'simulationStarted':
      return { type: 'simulationStarted' };
    case 'simulationResult':
      return isPanelState(raw.state) ? { type: 'simulationResult', state: raw.state } : undefined;
    default:
      return undefined;
  }
}
