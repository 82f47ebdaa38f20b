// The lesson panel's view model from a real pack: pack markdown becomes HTML with raw HTML escaped, and a
// report becomes mistake cards linked to their step and question.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { lessonView, panelState } from '../../src/ext/panel/panelState';
import { renderInline, renderMarkdown } from '../../src/ext/markdown';
import { loadPack, type LoadedPack } from '../../src/node/packs';
import type { CheckReport } from '../../src/core/report';

const LESSONS = path.resolve(__dirname, '..', '..', 'lessons');
const session = { lessonId: 'conn-counts', language: 'python' as const, mainFile: 'src/lb/least_conn.py', folder: 'file:///w' };
const empty = { stepsRead: [], answers: {}, lastReport: null, lastCheckAt: null };

describe('lesson panel view model', () => {
  let pack: LoadedPack;
  before(async () => {
    pack = await loadPack(path.join(LESSONS, 'conn-counts'), 'built-in');
  });

  it('escapes raw HTML in pack markdown and drops script links', () => {
    const html = renderMarkdown('Hi <img src=x onerror=alert(1)> [x](javascript:alert(1)) `<b>`');
    assert.ok(!html.includes('<img'), html);
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'), html);
    assert.ok(!html.includes('href="javascript:'), html);
    assert.ok(html.includes('<code>&lt;b&gt;</code>'), html);
    assert.ok(!renderInline('<script>x</script>').includes('<script'));
  });

  it('lays out a lesson with ticked steps and per-language run commands', () => {
    const view = lessonView(session, pack, { ...empty, stepsRead: [3] });
    assert.equal(view.steps.length, pack.manifest.readOrder.length);
    assert.equal(view.steps[2]!.read, true);
    assert.equal(view.steps[0]!.read, false);
    assert.equal(view.steps[0]!.target, '#top');
    assert.match(view.steps[5]!.run ?? '', /python3/);
    assert.equal(view.failureQuestions.length, pack.manifest.failureQuestions.length);
    assert.ok(view.doneWhen.every((d) => !d.met));
  });

  it('turns a report into mistake cards linked to their step and question', () => {
    const spec = pack.manifest.mistakes.find((m) => m.id === 'tiebreak')!;
    const report: CheckReport = {
      lesson: 'conn-counts', language: 'python', file: 'f', status: 'fail', checks: { total: 17, passed: 9, failed: 8, notRun: 0 }, transcripts: [],
      mistakes: [{ id: spec.id, title: spec.title, function: spec.function, line: 39, confidence: 'exact', explanation: spec.explanation, hint: spec.hint, mutants: [], revealedBy: ['ties'], evidence: { steps: 1, transcripts: 1, first: null }, question: spec.question!, step: spec.step!, counterexample: null }],
      problems: [{ kind: 'stray-output', message: 'printed "<img src=x>"', advice: 'use `stderr`' }],
      counterexample: null, fuzz: { seed: 1, transcripts: 40, failed: 2, notRun: 0 }, durationMs: 5, processRuns: 3,
    };
    const state = panelState({ session, pack, progress: { ...empty, lastReport: report, lastCheckAt: '2025-01-01T00:00:00Z' }, trusted: true, checking: false });
    const card = state.check!.mistakes[0]!;
    assert.equal(card.step?.index, spec.step);
    assert.equal(card.question?.id, spec.question);
    assert.equal(state.check!.summary, '9 of 17 hidden transcripts pass');
    // Problems stay plain text: the webview puts them in with textContent.
    assert.equal(state.check!.problems[0]!.message, 'printed "<img src=x>"');
  });

  it('does not show another lesson\'s report as this one\'s', () => {
    const other = { ...empty, lastReport: { lesson: 'least-connections', language: 'python' } as CheckReport, lastCheckAt: null };
    assert.equal(panelState({ session, pack, progress: other, trusted: false, checking: false }).check, null);
  });
});
