/**
 * Runtime guards for the views the extension sends the webview (panelViews.ts). The panel state is built by the
 * extension itself, so these check its outline (the fields the renderer branches on) and the numbers a chart is
 * drawn from, rather than every nested string; the renderer still treats every string as text.
 */
import { isCourseView } from './courseView';
import { isBool, isId, isInt, isObj, isStr, isStrings } from './guards';
import type { AnswerView, CheckView, PanelState, RevealTarget } from './panelViews';

export function isAnswerView(v: unknown): v is AnswerView {
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

export function isRevealTarget(v: unknown): v is RevealTarget {
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

export function isCheckView(v: unknown): v is CheckView {
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
