/**
 * Builds what the lesson panel shows from the session, its pack, the learner's progress and the last
 * report. Markdown becomes HTML here (the webview never renders markdown itself); everything else stays
 * plain text for the webview to put in with textContent.
 */
import { checkSummary, doneWhenMet, fuzzSummary, problemTitle, stepCommand, traceCells } from '../../core/progress';
import type { CheckReport } from '../../core/report';
import { safeText } from '../../core/text';
import type { LessonManifest, Question } from '../../core/schema';
import type { LoadedPack } from '../../node/packs';
import type { AnswerView, CheckView, LessonView, MistakeView, PanelState, QuestionView } from '../../shared/messages';
import { renderInline, renderMarkdown } from '../markdown';
import type { Progress, Session } from '../session';

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

export function checkView(report: CheckReport, manifest: LessonManifest, at: string | null): CheckView {
  const questions = [...manifest.failureQuestions, ...(manifest.quiz ?? [])];
  const mistakes: MistakeView[] = report.mistakes.map((m) => {
    const step = m.step !== undefined ? manifest.readOrder[m.step - 1] : undefined;
    const question = m.question !== undefined ? questions.find((q) => q.id === m.question) : undefined;
    return {
      id: m.id,
      title: m.title,
      explanationHtml: renderMarkdown(m.explanation),
      hintHtml: renderInline(m.hint),
      function: m.function,
      line: m.line,
      confidence: m.confidence,
      revealedBy: m.revealedBy,
      ...(step && m.step !== undefined ? { step: { index: m.step, title: step.title } } : {}),
      ...(question ? { question: { id: question.id, promptText: plain(question.prompt) } } : {}),
      ...(m.counterexample ? { trace: traceCells(m.counterexample) } : {}),
    };
  });
  const carried = report.mistakes.some((m) => m.counterexample);
  return {
    status: report.status,
    summary: checkSummary(report),
    passed: report.checks.passed,
    total: report.checks.total,
    fuzz: fuzzSummary(report),
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
    ...(report.counterexample && !carried ? { trace: traceCells(report.counterexample) } : {}),
    durationMs: report.durationMs,
    at: at ?? new Date().toISOString(),
  };
}

export function lessonView(session: Session, pack: LoadedPack, progress: Progress): LessonView {
  const m = pack.manifest;
  const met = doneWhenMet(progress.lastReport);
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
    doneWhen: m.doneWhen.map((text) => ({ html: renderInline(text), met })),
  };
}

export function panelState(input: {
  session: Session | undefined;
  pack: LoadedPack | undefined;
  progress: Progress;
  trusted: boolean;
  checking: boolean;
}): PanelState {
  const { session, pack, progress } = input;
  if (!session || !pack) {
    return {
      lesson: null,
      notice: session ? `The lesson "${session.lessonId}" is not installed any more.` : 'No lesson started in this workspace yet.',
      trusted: input.trusted,
      checking: false,
      check: null,
    };
  }
  // A report from another lesson or language (an old session) must not be shown as this one's.
  const report = progress.lastReport && progress.lastReport.lesson === session.lessonId && progress.lastReport.language === session.language ? progress.lastReport : null;
  return {
    lesson: lessonView(session, pack, { ...progress, lastReport: report }),
    trusted: input.trusted,
    checking: input.checking,
    check: report ? checkView(report, pack.manifest, progress.lastCheckAt) : null,
  };
}
