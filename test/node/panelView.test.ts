// The lesson panel's view model from a real pack: pack markdown becomes HTML with raw HTML escaped, and a
// report becomes mistake cards linked to their step and question.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { lessonView, panelState } from '../../src/ext/panel/panelState';
import { renderInline, renderMarkdown } from '../../src/ext/panel/markdown';
import { loadPack, type LoadedPack } from '../../src/node/packs/packs';
import type { CheckReport } from '../../src/core/report/report';

const LESSONS = path.resolve(__dirname, '..', '..', 'lessons');
const session = {
  lessonId: 'conn-counts',
  language: 'python' as const,
  mainFile: 'src/lb/least_conn.py',
  folder: 'file:///w',
};
const empty = { stepsRead: [], answers: {}, answersShown: [], lastReport: null, lastAnchors: {}, lastCheckAt: null };

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
    const questions = pack.manifest.failureQuestions.length + (pack.manifest.quiz ?? []).length;
    assert.equal(view.progress, `1 of ${view.steps.length} read · 0 of ${questions} answered`);
    assert.deepEqual(view.debug, { available: true });
  });

  it('turns a report into mistake cards linked to their step and question', () => {
    const spec = pack.manifest.mistakes.find((m) => m.id === 'tiebreak')!;
    const report: CheckReport = {
      lesson: 'conn-counts',
      language: 'python',
      file: 'f',
      status: 'fail',
      checks: { total: 17, passed: 9, failed: 8, notRun: 0 },
      transcripts: [{ name: 'ties', description: 'ties go to the smallest name', passed: false }],
      mistakes: [
        {
          id: spec.id,
          title: spec.title,
          function: spec.function,
          line: 39,
          confidence: 'likely',
          explanation: spec.explanation,
          hint: spec.hint,
          mutants: [],
          revealedBy: ['ties'],
          evidence: { steps: 4, transcripts: 2, first: null },
          question: spec.question!,
          step: spec.step!,
          counterexample: {
            transcript: 'generated-7',
            label: 'a random test (#7)',
            reproduced: true,
            commands: ['BACKENDS s2 s1', 'PICK'],
            expected: ['OK', 's1'],
            actual: ['OK', 's2'],
            divergesAt: 1,
            shrunkFrom: 6,
            observeCommand: 'ACTIVE',
            trace: [
              {
                command: 'BACKENDS s2 s1',
                expected: ['OK'],
                actual: ['OK'],
                counts: {},
                matches: true,
                observed: [''],
                shouldBe: [''],
              },
              {
                command: 'PICK',
                expected: ['s1'],
                actual: ['s2'],
                counts: {},
                matches: false,
                observed: ['s2:1'],
                shouldBe: [''],
              },
            ],
            preamble: [{ command: 'RESET', expected: ['OK'], counts: {} }],
            replay: {
              stdin: 'RESET\nBACKENDS s2 s1\nPICK\n',
              shell: "printf 'RESET\\nBACKENDS s2 s1\\nPICK\\n' | python3 driver.py least_conn.py",
            },
          },
          location: { lines: [41, 42], function: 'pick', reason: 'these lines ran when PICK chose s2' },
        },
      ],
      problems: [{ kind: 'stray-output', message: 'printed "<img src=x>"', advice: 'use `stderr`' }],
      counterexample: null,
      fuzz: { seed: 1, transcripts: 40, failed: 2, notRun: 0 },
      durationMs: 5,
      processRuns: 3,
    };
    const state = panelState({
      session,
      pack,
      progress: { ...empty, lastReport: report, lastCheckAt: '2025-01-01T00:00:00Z' },
      trusted: true,
      checking: false,
    });
    const card = state.check!.mistakes[0]!;
    assert.equal(card.step?.index, spec.step);
    assert.equal(card.question?.id, spec.question);
    assert.equal(state.check!.summary, '9 of 17 hidden transcripts pass');
    assert.match(state.check!.sentence, /^One mistake found: “.+” \(likely\)\. Read its card below/);
    assert.equal(state.check!.details, 'Also 40 random tests: 2 of 40 failed · seed 1');
    assert.equal(card.confidence, 'likely');
    assert.equal(card.evidence, 'Seen at 4 commands in 1 of 1 hidden transcript and 1 of 40 random tests.');
    assert.deepEqual(card.revealedBy, ['ties go to the smallest name'], 'descriptions, not transcript names');
    assert.deepEqual(card.where, {
      function: 'pick',
      lines: [41, 42],
      text: 'Lines 41–42 of pick()',
      reason: 'these lines ran when PICK chose s2',
    });
    const trace = card.trace!;
    assert.equal(trace.mistakeId, spec.id);
    assert.equal(trace.columns, 'observed');
    assert.equal(trace.caption, 'Smallest transcript that shows it (2 of 6 commands, from a random test (#7))');
    assert.match(trace.replay!, /\| python3 driver\.py least_conn\.py$/);
    assert.deepEqual(trace.rows[1]!.yours, [{ text: 's2:1', differs: true }]);
    assert.deepEqual(
      [trace.preamble?.[0]?.command, trace.preamble?.[0]?.expected],
      ['RESET', 'OK'],
      'row 0: the reset command',
    );
    assert.match(trace.note, /Row 0, `RESET`, is sent before every transcript/);
    // No internal name of a transcript anywhere in what the panel shows.
    assert.doesNotMatch(JSON.stringify(state.check), /generated-7|"ties"/);
    // Problems stay plain text: the webview puts them in with textContent.
    assert.equal(state.check!.problems[0]!.message, 'printed "<img src=x>"');
  });

  it("does not show another lesson's report as this one's", () => {
    const other = { ...empty, lastReport: { lesson: 'least-connections', language: 'python' } as CheckReport };
    assert.equal(panelState({ session, pack, progress: other, trusted: false, checking: false }).check, null);
  });
});
