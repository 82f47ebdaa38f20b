/**
 * Builds what the lesson panel shows from the session, its pack, the learner's progress and the last
 * report. Markdown becomes HTML here (the webview never renders markdown itself); everything else stays
 * plain text for the webview to put in with textContent.
 */
import { cardTable, FAILING_TABLE, mistakeCard, type CardTable } from '../../core/report/card';
import {
  checkDetails,
  checkDetailsTooltip,
  checkSummary,
  countsLegend,
  doneWhenItems,
  problemTitle,
  progressLine,
  stepCommand,
  verdictSentence,
} from '../../core/report/progress';
import type { CheckReport } from '../../core/report/report';
import { scenarioAfterCheck } from '../../core/world/scenarioChoice';
import { simulationView } from '../../worlds/templates/simulationView';
import { isWorldResult } from '../../core/world/worldReport';
import { worldChartView } from '../../shared/worldChart';
import type { LessonManifest, Question } from '../../core/pack/schema';
import { safeStrings, safeText } from '../../core/text/text';
import type { LoadedPack } from '../../node/packs/packs';
import type {
  AnswerView,
  CheckView,
  DebugSupport,
  LessonView,
  MistakeView,
  PanelState,
  QuestionView,
  TraceView,
  UnderLoadView,
} from '../../shared/messages';
import type { SimulationSnapshot } from '../check/simulationRunner';
import { renderInline, renderMarkdown } from './markdown';
import type { Progress, Session } from '../lesson/session';

function questionView(q: Question, answers: Progress['answers']): QuestionView {
  const last: AnswerView | undefined = answers[q.id];
  return {
    id: q.id,
    promptHtml: renderMarkdown(q.prompt),
    kind: q.kind,
    ...(q.choices ? { choices: q.choices } : {}),
    ...(q.commands ? { commands: q.commands } : {}),
    ...(q.step !== undefined ? { step: q.step } : {}),
    ...(last ? { last } : {}),
  };
}

/** Markdown to plain text, for a question's prompt quoted on a mistake card's link. */
function plain(markdown: string): string {
  return markdown.replace(/[`*_]/g, '').replace(/\s+/g, ' ').trim();
}

function traceView(table: CardTable, mistakeId: string | null): TraceView {
  return {
    mistakeId,
    caption: table.caption,
    columns: table.cells.columns,
    note: table.note,
    divergesAt: table.cells.divergesAt,
    rows: table.cells.rows,
    preamble: table.cells.preamble,
    ...(table.replay ? { replay: table.replay } : {}),
  };
}

export function checkView(
  report: CheckReport,
  manifest: LessonManifest,
  at: string | null,
  fixOffered?: (mistakeId: string) => boolean,
): CheckView {
  const questions = [...manifest.failureQuestions, ...(manifest.quiz ?? [])];
  const mistakes: MistakeView[] = report.mistakes.map((m) => {
    const step = m.step !== undefined ? manifest.readOrder[m.step - 1] : undefined;
    const question = m.question !== undefined ? questions.find((q) => q.id === m.question) : undefined;
    // One view model for the card's sentences and its table (src/core/report/card.ts), shared with the CLI.
    const card = mistakeCard(m, report, manifest.hints?.maxRung);
    return {
      id: card.id,
      title: card.title,
      explanationHtml: renderMarkdown(card.explanation),
      hintHtml: renderInline(card.hint),
      where: card.where,
      confidence: m.confidence,
      evidence: card.evidence,
      ...(card.behaviour ? { behaviour: card.behaviour } : {}),
      revealedBy: card.revealedBy,
      ...(step && m.step !== undefined ? { step: { index: m.step, title: step.title } } : {}),
      ...(question ? { question: { id: question.id, promptText: plain(question.prompt) } } : {}),
      ...(card.table ? { trace: traceView(card.table, m.id) } : {}),
      ...(fixOffered?.(m.id) ? { fix: true } : {}),
    };
  });
  const carried = report.mistakes.some((m) => m.counterexample);
  return {
    status: report.status,
    summary: checkSummary(report),
    sentence: verdictSentence(report),
    passed: report.checks.passed,
    total: report.checks.total,
    details: checkDetails(report),
    detailsTooltip: checkDetailsTooltip(report),
    mistakes,
    problems: report.problems.map((p) => ({
      kind: p.kind,
      title: problemTitle(p.kind),
      // textContent keeps HTML inert, but bidi and control characters from the learner's output must show.
      message: safeText(p.message, { multiline: true }),
      ...(p.advice ? { advice: safeText(p.advice, { multiline: true }) } : {}),
      ...(typeof p.line === 'number' ? { line: p.line } : {}),
      ...(p.details ? { details: safeText(p.details, { multiline: true }) } : {}),
    })),
    ...(report.counterexample && !carried
      ? { trace: traceView(cardTable(report.counterexample, report, FAILING_TABLE), null) }
      : {}),
    durationMs: report.durationMs,
    countsLegend: countsLegend(report),
    at: at ?? new Date().toISOString(),
  };
}

/** When a language has no debugger at hand, the panel says what to install. */
const DEBUG_ALWAYS: DebugSupport = { available: true };

export function lessonView(
  session: Session,
  pack: LoadedPack,
  progress: Progress,
  debug: DebugSupport = DEBUG_ALWAYS,
): LessonView {
  const m = pack.manifest;
  const questions = [...m.failureQuestions, ...(m.quiz ?? [])];
  const stepsRead = m.readOrder.filter((_, i) => progress.stepsRead.includes(i + 1)).length;
  const answered = questions.filter((q) => progress.answers[q.id]?.correct).length;
  return {
    id: m.id,
    title: m.title,
    language: session.language,
    mainFile: session.mainFile,
    ...(m.summary ? { summary: m.summary } : {}),
    coreQuestionHtml: renderMarkdown(m.coreQuestion),
    outcomesHtml: m.outcomes.map(renderInline),
    steps: m.readOrder.map((step, i) => {
      const run = stepCommand(step, session.language);
      const target = step.symbol ?? step.file ?? (step.pattern ? undefined : run ? undefined : '#top');
      return {
        index: i + 1,
        title: step.title,
        ...(step.detail ? { detailHtml: renderMarkdown(step.detail) } : {}),
        ...(target ? { target } : {}),
        ...(run ? { run } : {}),
        read: progress.stepsRead.includes(i + 1),
      };
    }),
    failureQuestions: m.failureQuestions.map((q) => questionView(q, progress.answers)),
    quiz: (m.quiz ?? []).map((q) => questionView(q, progress.answers)),
    protocolHtml: renderMarkdown(m.protocol),
    doneWhen: doneWhenItems(m.doneWhen, {
      report: progress.lastReport,
      hiddenTranscripts: pack.transcripts.length,
      stepsRead,
      steps: m.readOrder.length,
      answered,
      questions: questions.length,
    }).map((item) => ({ html: renderInline(item.text), met: item.met, evidence: item.evidence })),
    progress: progressLine({ stepsRead, steps: m.readOrder.length, answered, questions: questions.length }),
    debug,
  };
}

/** The "Under load" section: the lesson's scenarios, which one the Run button runs, the last chart. */
export function underLoadView(
  pack: LoadedPack,
  simulation: SimulationSnapshot,
  report: CheckReport | null,
): UnderLoadView | undefined {
  // Every scenario is listed and runs, template and world scenarios alike.
  const scenarios = pack.manifest.scenarios ?? [];
  if (scenarios.length === 0) return undefined;
  const last = simulation.result;
  const suggested = report
    ? scenarioAfterCheck(
        scenarios,
        report.status,
        report.mistakes.map((m) => m.id),
      )?.scenario.id
    : undefined;
  const selected = last?.result.scenario.id ?? simulation.chosen ?? suggested ?? scenarios[0]!.id;
  const view = last
    ? isWorldResult(last.result)
      ? worldChartView(last.result)
      : simulationView(last.result)
    : undefined;
  return {
    scenarios: scenarios.map((s) => ({ id: s.id, title: s.title, description: s.description })),
    selected,
    running: simulation.running,
    result: view
      ? { ...view, ...(view.explanation ? { explanationHtml: renderMarkdown(view.explanation) } : {}), at: last!.at }
      : null,
    ...(simulation.error ? { error: simulation.error } : {}),
  };
}

export function panelState(input: {
  session: Session | undefined;
  pack: LoadedPack | undefined;
  progress: Progress;
  trusted: boolean;
  checking: boolean;
  debug?: DebugSupport;
  simulation?: SimulationSnapshot;
  /** Rung 4: whether the card offers "Show a fix" for a mistake (src/ext/editor/fixActions.ts). */
  fixOffered?: (mistakeId: string) => boolean;
}): PanelState {
  // Every string the panel gets, pack text above all, with its control and bidi characters written out.
  return safeStrings(buildPanelState(input));
}

function buildPanelState(input: Parameters<typeof panelState>[0]): PanelState {
  const { session, pack, progress } = input;
  if (!session || !pack) {
    return {
      lesson: null,
      notice: session
        ? `The lesson "${session.lessonId}" is not installed any more.`
        : 'No lesson started in this workspace yet.',
      trusted: input.trusted,
      checking: false,
      check: null,
    };
  }
  // A report from another lesson or language (an old session) must not be shown as this one's.
  const report =
    progress.lastReport &&
    progress.lastReport.lesson === session.lessonId &&
    progress.lastReport.language === session.language
      ? progress.lastReport
      : null;
  const underLoad = underLoadView(pack, input.simulation ?? { running: false, result: null }, report);
  return {
    lesson: lessonView(session, pack, { ...progress, lastReport: report }, input.debug),
    trusted: input.trusted,
    checking: input.checking,
    check: report ? checkView(report, pack.manifest, progress.lastCheckAt, input.fixOffered) : null,
    ...(underLoad ? { underLoad } : {}),
  };
}
