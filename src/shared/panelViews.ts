/**
 * What the lesson panel shows, as the extension host builds it and the webview draws it: the lesson, the last
 * check, the "Under load" simulation, the course. Plain data only (it crosses to the webview as JSON); fields
 * named `...Html` are HTML from the extension's markdown renderer, every other string is text
 * (see messages.ts).
 */
import type { CourseView } from './courseView';
import type { CountCell, TraceRowCells } from '../core/report/traceView';
import type { ChartCell, ChartRow, SimulationView } from '../worlds/templates/simulationView';

export type { ChartCell, ChartRow };

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
/** A cell of the program's counts; the rows are built by src/core/report/traceView.ts, whose shapes these are. */
export type CountCellView = CountCell;

/** One command of a trace as the panel shows it (answer lines joined, invisible characters made visible). */
export type TraceRowView = TraceRowCells;

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
