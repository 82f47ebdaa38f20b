/**
 * GitHub Classroom's side of a check, pure (core `classroom`): the grader result the reporter adds up (points
 * per hidden transcript, why each one failed) and the step summary (the workflow's text: classroomWorkflow.test.ts). GitHub's own parser
 * and a real run of the check step are in test/node/classroom.test.ts.
 */
import * as assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { classroomResult, classroomSummary, codeSpan, markdownText } from '../../src/core/grade/classroom';
import type { CheckReport, NamedMistake } from '../../src/core/report/report';
import { checkReportOf as report } from './gradeClass';

const TRANSCRIPTS = [
  { name: 'ties', description: 'Ties go to pool order' },
  { name: 'done', description: 'DONE frees a connection' },
  { name: 'late', description: '' },
];

const mistake = (title: string, step?: number): NamedMistake =>
  ({
    id: title,
    title,
    function: 'pick',
    line: null,
    confidence: 'exact',
    explanation: 'why',
    hint: `fix ${title} | here`,
    mutants: [],
    evidence: { steps: 1, transcripts: 1, first: null },
    revealedBy: [],
    counterexample: null,
    ...(step ? { step } : {}),
  }) as NamedMistake;

const failing = report('fail', [
  { name: 'ties', description: 'Ties go to pool order', passed: false, divergesAt: 2, expected: ['b'], actual: ['a'] },
  { name: 'done', description: 'DONE frees a connection', passed: true },
  { name: 'late', description: '', passed: false, notRun: true },
]);

describe('classroom: grader result', () => {
  it('gives each passed hidden transcript its points, and the total it could have', () => {
    const result = classroomResult(failing, TRANSCRIPTS, 3);
    assert.equal(result.version, 1);
    assert.equal(result.max_score, 9);
    assert.deepEqual(
      result.tests.map((t) => [t.status, t.score]),
      [
        ['fail', 0],
        ['pass', 3],
        ['fail', 0],
      ],
    );
    assert.equal(result.status, 'fail');
  });

  it('names each test by its description (else its name) and the transcript it stands for', () => {
    const result = classroomResult(failing, TRANSCRIPTS, 1);
    assert.deepEqual(
      result.tests.map((t) => t.name),
      ['Ties go to pool order', 'DONE frees a connection', 'late'],
    );
    assert.deepEqual(
      result.tests.map((t) => t.test_code),
      ['hidden transcript ties', 'hidden transcript done', 'hidden transcript late'],
    );
  });

  it('says where a failing transcript first differs (1-based), what was expected and what came', () => {
    const [ties, done, late] = classroomResult(failing, TRANSCRIPTS, 1).tests;
    assert.equal(ties!.message, 'first differs at command 3: expected b, got a');
    assert.equal(done!.message, null, 'a pass needs no message');
    assert.equal(late!.message, 'not run: an earlier transcript stopped the program');
  });

  it('writes "(nothing)" for an empty answer, and joins many lines with slashes', () => {
    const verdicts = [
      { name: 'ties', description: 'x', passed: false, divergesAt: 0, expected: ['a:1', 'b:0'], actual: [] },
    ];
    assert.equal(
      classroomResult(report('fail', verdicts), [TRANSCRIPTS[0]!], 1).tests[0]!.message,
      'first differs at command 1: expected a:1 / b:0, got (nothing)',
    );
    const noExpected = [{ name: 'ties', description: 'x', passed: false, divergesAt: 0 }];
    assert.equal(
      classroomResult(report('fail', noExpected), [TRANSCRIPTS[0]!], 1).tests[0]!.message,
      'first differs at command 1: expected (nothing), got (nothing)',
    );
  });

  it("falls back to the report's first problem (its first line) for a failure with no difference to show", () => {
    const problems = [
      { kind: 'timeout', message: 'the program stopped answering\nat PICK' },
    ] as CheckReport['problems'];
    const result = classroomResult(
      report('fail', [{ name: 'ties', description: 'x', passed: false }], { problems }),
      [TRANSCRIPTS[0]!],
      1,
    );
    assert.equal(result.tests[0]!.message, 'the program stopped answering');
    assert.equal(
      classroomResult(report('fail', [{ name: 'ties', description: 'x', passed: false }]), [TRANSCRIPTS[0]!], 1)
        .tests[0]!.message,
      null,
    );
  });

  it('passes the whole result only when every transcript passes', () => {
    const all = report(
      'pass',
      TRANSCRIPTS.map((t) => ({ ...t, passed: true })),
    );
    const result = classroomResult(all, TRANSCRIPTS, 2);
    assert.equal(result.status, 'pass');
    assert.equal(
      result.tests.reduce((n, t) => n + t.score, 0),
      result.max_score,
    );
    assert.ok(result.tests.every((t) => t.message === null));
  });

  it('errors every test, with no points, when the program could not be checked', () => {
    const broken = report(
      'error',
      TRANSCRIPTS.map((t) => ({ ...t, passed: true })),
    );
    const result = classroomResult(broken, TRANSCRIPTS, 2);
    assert.equal(result.status, 'error');
    assert.deepEqual(
      result.tests.map((t) => [t.status, t.score]),
      TRANSCRIPTS.map(() => ['error', 0]),
    );
  });

  it('without a report: every test errors with the reason, or says the check did not run', () => {
    const result = classroomResult(null, TRANSCRIPTS, 2, 'no sandbox');
    assert.equal(result.status, 'error');
    assert.deepEqual(
      result.tests.map((t) => [t.status, t.score, t.message]),
      TRANSCRIPTS.map(() => ['error', 0, 'no sandbox']),
    );
    assert.equal(classroomResult(null, TRANSCRIPTS, 2).tests[0]!.message, 'the check did not run');
    assert.equal(result.max_score, 6);
  });
});

describe('classroom: step summary', () => {
  it('heads with the points won of the points possible, then the file and how many transcripts pass', () => {
    const result = classroomResult(failing, TRANSCRIPTS, 3);
    const lines = classroomSummary(failing, result, 'Least | Connections', undefined).split('\n');
    assert.equal(lines[0], '## Least \\| Connections: 3/9 points', 'a pipe would break the table');
    assert.equal(lines[2], '`balancer.py` · 1 of 3 hidden transcripts pass (33%)');
  });

  it('a file name holding backticks stays one code span: its fence is longer than any run of them', () => {
    const named = { ...failing, file: 'my`odd``name.py' } as CheckReport;
    const line = classroomSummary(named, classroomResult(named, TRANSCRIPTS, 3), 'LC').split('\n')[2]!;
    assert.ok(line.startsWith('```my`odd``name.py``` · '), line);
    const edge = { ...failing, file: '`x.py' } as CheckReport;
    assert.ok(
      classroomSummary(edge, classroomResult(edge, TRANSCRIPTS, 3), 'LC')
        .split('\n')[2]!
        .startsWith('`` `x.py `` · '),
    );
  });

  it('lists mistakes with their read-order step, problems by their first line, and one table row per test', () => {
    const withMore = {
      ...failing,
      mistakes: [mistake('Wrong tie', 3), mistake('Late count')],
      problems: [{ kind: 'timeout', message: 'stopped\nat PICK' }],
    } as CheckReport;
    const text = classroomSummary(withMore, classroomResult(withMore, TRANSCRIPTS, 1), 'LC');
    assert.ok(text.endsWith('\n'));
    const lines = text.split('\n');
    const at = lines.indexOf('### Mistakes');
    assert.deepEqual(lines.slice(at, at + 5), [
      '### Mistakes',
      '',
      '- **Wrong tie** (read-order step 3): fix Wrong tie \\| here',
      '- **Late count**: fix Late count \\| here',
      '',
    ]);
    const problems = lines.indexOf('### Problems');
    assert.deepEqual(lines.slice(problems, problems + 4), ['### Problems', '', '- timeout: `stopped`', '']);
    const table = lines.indexOf('| Transcript | Result | Points |');
    assert.deepEqual(lines.slice(table + 1, table + 5), [
      '|---|---|---|',
      '| Ties go to pool order | ❌ fail | 0 |',
      '| DONE frees a connection | ✅ pass | 1 |',
      '| late | ❌ fail | 0 |',
    ]);
  });

  it('leaves out the mistakes and problems sections when there are none, and counts 0% of no transcripts', () => {
    const empty = report('pass', []);
    const text = classroomSummary(empty, classroomResult(empty, [], 1), 'LC');
    assert.doesNotMatch(text, /### Mistakes|### Problems/);
    assert.match(text, /0 of 0 hidden transcripts pass \(0%\)/);
  });

  it('marks errored tests, and says why the check did not run when there is no report', () => {
    const broken = report('error', [{ ...TRANSCRIPTS[0]!, passed: false }]);
    assert.match(
      classroomSummary(broken, classroomResult(broken, [TRANSCRIPTS[0]!], 1), 'LC'),
      /\| Ties go to pool order \| ⚠️ error \| 0 \|/,
    );
    const none = classroomResult(null, TRANSCRIPTS, 1);
    assert.equal(
      classroomSummary(null, none, 'LC', 'no sandbox\nhere'),
      '## LC: 0/3 points\n\nThe check did not run: `no sandbox here`.\n\n',
    );
    assert.equal(classroomSummary(null, none, 'LC'), '## LC: 0/3 points\n\nThe check did not run: unknown reason.\n\n');
  });
});

/**
 * The summary as GitHub shows it, read by markdown-it (CommonMark with GitHub's tables, raw HTML allowed as
 * GitHub allows it before sanitising, links found in bare URLs): what a student wrote must come out as text.
 */
describe('classroom: step summary, with what a student wrote in it', () => {
  const markdown = new MarkdownIt({ html: true, linkify: true });
  const FORGED =
    '<img src="https://evil.example/beacon.png"> ![seen](https://evil.example/b.png)\n## Least Connections: 16/16 points | ✅ pass | 16 | `x` **bold** [link](https://evil.example) https://evil.example &amp;';
  const attacked = (over: Partial<CheckReport>): string => {
    const r = { ...failing, ...over } as CheckReport;
    return markdown.render(classroomSummary(r, classroomResult(r, TRANSCRIPTS, 3), 'LC'));
  };
  const tags = (html: string, tag: string): number => (html.match(new RegExp(`<${tag}[ >]`, 'g')) ?? []).length;
  const text = (html: string): string =>
    html
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');

  /** Nothing of the forged text became markup: no image, link, heading, emphasis or extra table cell. */
  function assertInert(html: string): void {
    assert.equal(tags(html, 'img'), 0, html);
    assert.equal(tags(html, 'a'), 0, html);
    assert.equal(tags(html, 'h2'), 1, 'only the real points heading');
    assert.match(html, /<h2>LC: 3\/9 points<\/h2>/);
    assert.equal(tags(html, 'strong'), 0, html);
    assert.equal(tags(html, 'tr'), 1 + TRANSCRIPTS.length, 'one row per transcript and the header');
    for (const row of html.match(/<tr>[\s\S]*?<\/tr>/g)!) assert.equal(tags(row, 't[dh]'), 3, row);
    assert.ok(text(html).includes(FORGED.replace('\n', ' ')), 'the forged text is shown as it was written');
  }

  it("a problem's message (the program's own words) shows as text", () => {
    assertInert(
      attacked({ problems: [{ kind: 'crash', message: FORGED.replace('\n', ' ') }] as CheckReport['problems'] }),
    );
  });

  it('a file name shows as text, whatever backticks it holds', () => {
    assertInert(attacked({ file: FORGED.replace('\n', ' ') }));
    assertInert(attacked({ file: '``' + FORGED.replace('\n', ' ') + '`' }));
  });

  it('the reason a check did not run shows as text', () => {
    const none = classroomResult(null, TRANSCRIPTS, 3);
    const html = markdown.render(classroomSummary(null, none, 'LC', FORGED));
    assert.equal(tags(html, 'img') + tags(html, 'a') + tags(html, 'strong'), 0, html);
    assert.equal(tags(html, 'h2'), 1);
    assert.ok(text(html).includes(FORGED.replace('\n', ' ')), html);
  });

  it("the pack's own text (title, mistakes, transcript names) is escaped the same way", () => {
    const forgedName = { name: 'ties', description: FORGED.replace('\n', ' ') };
    const r = { ...failing, mistakes: [mistake(FORGED)] } as CheckReport;
    const html = markdown.render(
      classroomSummary(r, classroomResult(r, [forgedName, ...TRANSCRIPTS.slice(1)], 3), `LC ${FORGED}`),
    );
    assert.equal(tags(html, 'img') + tags(html, 'a'), 0, html);
    assert.equal(tags(html, 'h2'), 1);
    assert.equal(tags(html, 'strong'), 1, 'only the mistake title is bold');
    for (const row of html.match(/<tr>[\s\S]*?<\/tr>/g)!) assert.equal(tags(row, 't[dh]'), 3, row);
    assert.ok(text(html).includes(`LC ${FORGED.replace('\n', ' ')}: 3/9 points`), html);
  });

  it('markdownText escapes every ASCII punctuation mark and keeps one line; codeSpan keeps one line too', () => {
    assert.equal(markdownText('a|b\n#c <d>'), 'a\\|b \\#c \\<d\\>');
    assert.equal(codeSpan('a\r\nb'), '`a b`');
    assert.equal(codeSpan(' x '), '`  x  `', 'CommonMark strips one space each side when both are there');
  });
});
